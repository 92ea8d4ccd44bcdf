// The gpu-pairs ladder, in one place: the CLI's lists, the records' variants and techniques, the
// tables and docs/ABC471G_SCALE.md all come from this registry.
// (ids p00..p04; variants "pairs." + slug)
//   r00_cpu_pairs       baseline: the CPU pair-count solver (cpu-pairs: counts + FFTW), all cores
//   r01_atomic_ntt      count on the GPU (jump-ahead + L2 atomics), Goldilocks NTT combine
//   r02_atomic_tc_int8  same count, combine as int8 tensor-core products (exact, byte planes)
//   r03_partition_tc    count without global atomics: partition by table slice, shared-memory
//                       histograms; r02's combine
//   r04_partition_gemm  r03's count; the product's low 7-bit plane on cuBLASLt's int8 GEMM; a
//                       one-chunk count writes the planes from its histograms (no table)
//   r05_whole_graph     r04's solve replayed as one CUDA graph (both streams, cuBLASLt included)
//   r06_gemm_panels     r05 + the GEMM in panels of rows, each panel's column sum beside the next GEMM
//   r07_wide_tiles      r05 + the partition kernel in tiles of 24 pairs per thread (10^9)
//   r09_wgmma_combine   r05 + every plane on joseki's wgmma kernel (sm_90a), the column sum in its epilogue
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
#include "experiments/abc471g/problem.hpp"
#include "measure/ladder.hpp"

namespace joseki::abc471g::pairs {

struct PairsRung {
  std::string id;           // "p00".."p04": unique across joseki's ladders (reduce has r00..r11)
  int position = 0;         // the records' `rung`
  std::string slug;         // file stem and record variant ("pairs." + slug); unchanged since 2026-11
  std::string sizes_technique;  // the technique of its in-process record in `scale sizes` ("" not there)
  std::string name;         // display name
  std::string technique;    // one line, the record's technique
  std::string predecessor;  // slug of the previous rung ("" for the baseline)
  std::optional<Combiner> combiner;  // GPU rungs
  Counter counter = Counter::Atomic;  // GPU rungs: how pairs are counted (Kind: count_kind)
  // A pluggable kind (kinds.hpp) the rung brings, by its registered name (PairsConfig::count_kind,
  // combine_kind): r08 "dsmem", r09 "wgmma"; empty: the built-in counter / combiner.
  std::string count_kind;
  std::string combine_kind;
  std::string cpu_solver;   // the baseline's registry solver
  std::function<std::string(const Problem&)> precondition;  // "" when the rung can run
  measure::Needs needs;     // what it needs of the GPU (unmet: skipped with the reason)
  // GPU rungs: the knobs beyond combiner and counter (r05: PairsConfig::graph); empty: none.
  std::function<void(PairsConfig&)> configure;
  std::string variant() const { return "pairs." + slug; }
  // The records' "counter": the count kind's name, else counter_name(counter).
  std::string counter_label() const { return count_kind.empty() ? counter_name(counter) : count_kind; }
  // The solve's configuration: combiner, counter, kinds, then `configure`.
  PairsConfig config() const;
};

// The one list, in ladder order. Adding a rung: its kernels in one rNN_*.cu file and one entry here;
// a rung that brings a new kind of count or combine kernel defines the kind in that file too (kinds.hpp)
// and its entry names it (docs/ABC471G_SCALE.md, "Adding a rung").
const std::vector<PairsRung>& pairs_ladder();

// A GPU rung as the list's entries make it: precondition and needs from its combiner (and the
// partition's K limit for a partition or kind counter); count_kind / combine_kind: a pluggable kind
// the rung brings (kinds.hpp), by its registered name (counter becomes Counter::Kind with a count kind).
// `features`: what the rung needs of the GPU beyond its combiner (r08: clusters; r09: wgmma), stated
// in the entry so that a build without the kind (CPU only) still lists the rung with its skip reason;
// core_ladder adds the registered kinds' own needs as well. `configure`: the knobs beyond these
// (r05: PairsConfig::graph). So every rung is one entry. The test-only rungs
// (tests/rungs/pairs_rungs.def) are made by it too.
PairsRung gpu_rung(std::string id, int position, std::string slug, std::string name, std::string technique,
                   std::string predecessor, Combiner combiner, Counter counter, std::string count_kind = "",
                   std::string combine_kind = "", std::vector<measure::Feature> features = {},
                   std::function<void(PairsConfig&)> configure = {});

// A list of rungs (pairs_ladder(), or it plus a test's rung) as the measurement core's ladder at
// problem p (measure/ladder.hpp): variant "pairs." + slug, predecessor by variant, p00 the
// baseline, a GPU rung's needs those of its combiner at this K, its own features and those of the
// kinds it names where they are registered in this build; impl = the PairsRung (the list
// must outlive the ladder). measure::run_ladder runs it: `bench_ladder` (bench.hpp).
measure::Ladder core_ladder(const Problem& p, const std::vector<PairsRung>& rungs);
// The Runner of the CPU rungs (backend "cpu"): the rung's registry solver (cpu_solver), compared
// exactly with `want`, timed in process around the solve call (at most 5 samples, one warm-up).
std::unique_ptr<measure::Runner> make_cpu_runner(const Problem& p, const Answer& want);
// The Runner of the GPU rungs (backend "cuda"; bench_ladder.cpp): one PairsDevice per rung, configured by
// PairsRung::config(), poisoned, compared exactly with `want`, timed with GPU events (cold: the L2
// flushed), checked again after the timed runs. nullptr in a CPU-only build.
std::unique_ptr<measure::Runner> make_gpu_runner(const Problem& p, const Answer& want, int device);
// By slug ("r03_partition_tc"), id ("p03") or variant ("pairs.r03_partition_tc"); throws InputError
// "OPTION NAME: unknown rung (rungs: ...)" listing the slugs, OPTION the option that named it.
const PairsRung& find_rung(const std::string& name, const std::string& option = "--rung");

}  // namespace joseki::abc471g::pairs
