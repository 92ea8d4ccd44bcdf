// r04b: the warp sum in one instruction, redux.sync (__reduce_add_sync, sm_80+).
// What changed from r04: REDUX.SUM replaces the five shuffle-and-add steps.
// Prediction: the same time as r04 within noise at large n (the block sum is not the
//   bottleneck); kept because later rungs build on it. Bottleneck: 4-byte loads.
// Preconditions: block a multiple of 32, up to 1024; sm_80 or newer. Memset (timed).
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour), cold: 2^20 / 2^24 / 2^28 = 6.75 / 31.42 /
//   415.55 us; x r04 1.02 / 1.00 / 1.00; x CUB 1.10 / 0.69 / 0.58. As predicted: r04 within noise.
#include "experiments/reduce/common.cuh"

namespace joseki::reduce {

namespace {
__global__ void JOSEKI_FULL_WAVE r04b_warp_redux_kernel(const std::uint32_t* __restrict__ in, std::size_t n, std::uint32_t* out) {
#if JOSEKI_ARCH_AT_LEAST(800)  // redux.sync: the rung's point (Needs: Feature::ReduxSync)
  std::uint32_t sum = 0;
  for (std::size_t i = dev::global_thread(); i < n; i += dev::grid_threads()) sum += in[i];
  sum = dev::block_sum_warps<true>(sum);
  if (threadIdx.x == 0) atomicAdd(out, sum);
#else
  JOSEKI_ARCH_UNSUPPORTED();
#endif
}

void launch_r04b_warp_redux(const GpuArgs& a, CUstream_st* s) {
  dev::launch_adding(r04b_warp_redux_kernel, a, s);
}

}  // namespace

GpuOps r04b_ops() { return {&launch_r04b_warp_redux}; }

}  // namespace joseki::reduce
