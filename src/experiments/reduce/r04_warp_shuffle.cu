// r04: warp-level reduction with shuffles instead of the shared-memory tree.
// What changed from r03: the block sum is five __shfl_down_sync steps per warp, one shared
//   slot per warp and one barrier, instead of log2(block) shared-memory levels with a barrier
//   each. Same grid and coarsening as r03 (it takes r03's configuration).
// Prediction: the block sum is paid once per block after thousands of loads, so the gain
//   is small at large n; visible where blocks are many and short. Bottleneck: unchanged
//   (4-byte loads, memory latency).
// Preconditions: block a multiple of 32, up to 1024. Result zeroed by a memset (timed).
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour), cold: 2^20 / 2^24 / 2^28 = 6.91 / 31.52 /
//   415.39 us; x r03 1.03 / 1.01 / 1.00; x CUB 1.08 / 0.69 / 0.59. As predicted: visible only at
//   2^20.
#include "experiments/reduce/common.cuh"

namespace joseki::reduce {

namespace {
__global__ void JOSEKI_FULL_WAVE r04_warp_shuffle_kernel(const std::uint32_t* __restrict__ in, std::size_t n, std::uint32_t* out) {
  std::uint32_t sum = 0;
  for (std::size_t i = dev::global_thread(); i < n; i += dev::grid_threads()) sum += in[i];
  sum = dev::block_sum_warps<false>(sum);
  if (threadIdx.x == 0) atomicAdd(out, sum);
}

void launch_r04_warp_shuffle(const GpuArgs& a, CUstream_st* s) {
  dev::launch_adding(r04_warp_shuffle_kernel, a, s);
}

}  // namespace

GpuOps r04_ops() { return {&launch_r04_warp_shuffle}; }

}  // namespace joseki::reduce
