// r02: shared-memory tree, one element per thread (the seed's v2).
// What changed from r01: each block sums its elements in shared memory, halving the active
//   threads each level with a barrier per level (log2(block) = 8 barriers at 256 threads),
//   then thread 0 does one atomicAdd: n/block atomics instead of n (or n/32 after nvcc).
// Prediction: on the seed's M4 this came last (barrier-bound: 9 barriers per loaded
//   element). On the H200 the atomics r01 issues are already warp-aggregated, so r02 only
//   wins if a barrier costs less than the atomics it saves. Bottleneck: barriers and the
//   tail of one tiny block per 256 elements.
// Preconditions: block a power of two, 64..1024. Result zeroed by a memset (timed).
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour), cold: 2^20 / 2^24 / 2^28 = 9.70 us / 80.93
//   us / 1.205 ms; x r01 2.98 / 4.97 / 5.60; x CUB 0.77 / 0.27 / 0.20. The M4's ranking reverses:
//   the 9 barriers (13.52 ns each at 256 threads, probe barriers) overlap across resident blocks;
//   the 65,536 same-address atomics (probe block_sum_then_atomic 65.98 us at 2^24) are most of the
//   81 us.
#include "experiments/reduce/common.cuh"

namespace joseki::reduce {

namespace {
__global__ void r02_shared_tree_kernel(const std::uint32_t* __restrict__ in, std::size_t n, std::uint32_t* out) {
  extern __shared__ std::uint32_t s_tree[];
  const std::size_t i = dev::global_thread();
  const std::uint32_t sum = dev::block_sum_tree(i < n ? in[i] : 0u, s_tree);
  if (threadIdx.x == 0) atomicAdd(out, sum);
}

void launch_r02_shared_tree(const GpuArgs& a, CUstream_st* s) {
  dev::launch_adding(r02_shared_tree_kernel, a, s, a.plan.block * sizeof(std::uint32_t));
}

}  // namespace

GpuOps r02_ops() { return {&launch_r02_shared_tree}; }

}  // namespace joseki::reduce
