// r02: shared-memory tree, one element per thread (the seed's v2).
// What changed from r01: each block sums its elements in shared memory, halving the active
//   threads each level with a barrier per level (log2(block) = 8 barriers at 256 threads),
//   then thread 0 does one atomicAdd: n/block atomics instead of n (or n/32 after nvcc).
// Prediction: on the seed's M4 this came last (barrier-bound: 9 barriers per loaded
//   element). On the H200 the atomics r01 issues are already warp-aggregated, so r02 only
//   wins if a barrier costs less than the atomics it saves. Bottleneck: barriers and the
//   tail of one tiny block per 256 elements.
// Preconditions: block a power of two, 64..1024. Result zeroed by a memset (timed).
// H200, 2026-11-29 (first run; the final run may differ by a few percent), cold:
//   2^20 9.60 us, 2^24 80.74 us (831 GB/s; 4.96x r01), 2^28 1.204 ms (892 GB/s). The seed's
//   M4 ranking (v2 last) is reversed, and not because barriers are cheap in themselves: at
//   13.5 ns (probe barriers, 256 threads) x 9 per block and 8 resident blocks per SM they
//   overlap; the 65,536 same-address atomics at ~1 ns each (probe atomics,
//   block_sum_then_atomic: 65.9 us at 2^24) set most of the 81 us.
#include "experiments/reduce/common.cuh"
#include "experiments/reduce/launchers.hpp"

namespace joseki::reduce {

namespace {
__global__ void r02_shared_tree_kernel(const std::uint32_t* __restrict__ in, std::size_t n, std::uint32_t* out) {
  extern __shared__ std::uint32_t s_tree[];
  const std::size_t i = dev::global_thread();
  const std::uint32_t sum = dev::block_sum_tree(i < n ? in[i] : 0u, s_tree);
  if (threadIdx.x == 0) atomicAdd(out, sum);
}
}  // namespace

void launch_r02_shared_tree(const GpuArgs& a, CUstream_st* s) {
  JOSEKI_CUDA_CHECK(cudaMemsetAsync(a.d_out, 0, sizeof(std::uint32_t), s));
  r02_shared_tree_kernel<<<dev::grid_of(a), dev::block_of(a), a.plan.block * sizeof(std::uint32_t), s>>>(
      a.d_in, a.n, a.d_out);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::reduce
