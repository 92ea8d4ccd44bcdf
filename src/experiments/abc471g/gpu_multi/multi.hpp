// Several GPUs of one host (issue 6, item 5): the N - 1 pairs are split into contiguous ranges,
// one per rank; each rank's GPU jumps the generator to its range and counts into its own table
// (the pair straddling two ranges belongs to the range where it starts: counted once); the
// tables are summed with an NCCL all-reduce (or, without NCCL, peer copies and adds on GPU 0);
// GPU 0 combines (tensor cores). Same answers on 1 GPU and on several.
// Solver `gpu-multi`: every GPU of the host. docs/MULTI_NODE.md: across nodes.
// Prediction: ~1.9x on 2 GPUs at N = 10^10 (the count halves; the 42 MB all-reduce is small).
// H200 (2026-11-29 dev run 5, results/h200/2026-11-29-dev/run5-pairs-multi; the tour has one GPU):
// held. 2 GPUs (NV18): N = 10^10 49.053 ms vs 95.562 ms = 1.95x; 10^9 5.228 vs 9.937 ms = 1.90x;
// NCCL and peer reductions equal (49.053 / 49.059 ms); answers identical to one GPU.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "experiments/abc471g/gpu_pairs/bench.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
#include "experiments/abc471g/problem.hpp"
#include "measure/record.hpp"

namespace joseki::abc471g::multi {

struct MultiConfig {
  std::vector<int> devices;  // empty: every GPU of the host
  int ranks = 0;             // pieces of the pair range; 0: one per device (more: round-robin, for tests)
  bool nccl = true;          // NCCL all-reduce when each rank has its own GPU; else peer copies + adds
  pairs::PairsConfig pairs;  // count and combine settings (combine on the first device)
};

// Contiguous ranges [begin, end) covering [0, pairs), one per rank, sizes differing by at most 1.
std::vector<std::pair<std::uint64_t, std::uint64_t>> split_pairs(std::uint64_t pairs, int ranks);

struct MultiResult {
  Answer answer;
  std::vector<int> devices;   // device of each rank
  std::string reduction;      // "none" | "nccl all-reduce (libnccl x.y.z)" | "peer copies + adds on GPU d"
  double gpu_compute_s = 0;   // events on the first device, first count to last combine kernel
};
// Throws GpuUnavailable / InputError (bad device list) / RunError.
MultiResult solve_multi(const Problem& p, const MultiConfig& c);

struct MultiBenchOptions {
  std::uint64_t n = 10'000'000'000ULL;
  std::uint32_t k = 2300;
  std::uint64_t validate_max_n = 1'000'000'000ULL;  // CPU reference up to this N; beyond: one GPU + the NTT cross-check
};
// 1 GPU vs all GPUs (NCCL, and peer copies), identical answers, speedup; on a 1-GPU host the
// split logic runs as 2 ranks on one GPU.
std::vector<measure::Record> bench_multi(const MultiBenchOptions& m, const pairs::BenchOptions& o);

}  // namespace joseki::abc471g::multi
