// The gpu-pairs ladder, in one place: the CLI's lists, the records' variants and techniques, the
// tables and docs/ABC471G_SCALE.md all come from this registry.
//   r00_cpu_pairs       baseline: the CPU pair-count solver (cpu-pairs: counts + FFTW), all cores
//   r01_atomic_ntt      count on the GPU (jump-ahead + L2 atomics), Goldilocks NTT combine
//   r02_atomic_tc_int8  same count, combine as int8 tensor-core products (exact, byte planes)
//   r03_partition_tc    count without global atomics: partition by table slice, shared-memory
//                       histograms; r02's combine
//   r04_partition_gemm  r03's count; the product's low 7-bit plane on cuBLASLt's int8 GEMM; a
//                       one-chunk count writes the planes from its histograms (no table)
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
#include "experiments/abc471g/problem.hpp"

namespace joseki::abc471g::pairs {

struct PairsRung {
  int id = 0;
  std::string slug;         // file stem and record variant ("pairs." + slug)
  std::string name;         // display name
  std::string technique;    // one line, the record's technique
  std::string predecessor;  // slug of the previous rung ("" for the baseline)
  std::optional<Combiner> combiner;  // GPU rungs
  Counter counter = Counter::Atomic;  // GPU rungs: how pairs are counted
  std::string cpu_solver;   // the baseline's registry solver
  std::function<std::string(const Problem&)> precondition;  // "" when the rung can run
  measure::Needs needs;     // what it needs of the GPU (unmet: skipped with the reason)
};

const std::vector<PairsRung>& pairs_ladder();
const PairsRung& find_rung(const std::string& slug);  // throws InputError listing the slugs

}  // namespace joseki::abc471g::pairs
