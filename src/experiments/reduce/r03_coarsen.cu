// r03: thread coarsening (the seed's v3): register partial sums over a grid-stride loop,
//   then the shared-memory tree of r02, then one atomicAdd per block.
// What changed from r02: the grid no longer covers one element per thread; it is sized from
//   the device (default: one full wave, SMs x 2048 threads) and each thread first adds
//   n / (grid x block) elements in a register -- no barrier, no atomic -- so the 9 barriers
//   and the atomic are paid once per thread-block, not once per 256 elements.
// Prediction: memory-bound at last; the seed's M4 reached 50-65 GB/s here. On the H200,
//   4-byte loads with one load in flight per thread per iteration limit the bytes in flight,
//   so expect well below the stream-read ceiling. The grid is swept (--sweep) and chosen
//   with the tie rule: within 2 % of the fastest, prefer fewer threads (more work each).
// Preconditions: block a power of two, 64..1024. Result zeroed by a memset (timed).
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour), cold, swept: 2^20 / 2^24 / 2^28 = 7.14 /
//   31.68 / 415.68 us; x r02 1.36 / 2.55 / 2.90; x CUB 1.04 / 0.69 / 0.58; 70.0 / 61.4 / 57.7 % of
//   the ceiling. As predicted (latency-bound 4-byte loads). Threads per SM decide: at 2^28 every
//   2048-thread point 415.4-415.6 us, every 1024-thread point 755.0-755.9 us. Chosen (block x
//   blocks/SM): 256x8, 128x16, 512x4.
#include "experiments/reduce/common.cuh"

namespace joseki::reduce {

namespace {
__global__ void JOSEKI_FULL_WAVE r03_coarsen_kernel(const std::uint32_t* __restrict__ in, std::size_t n, std::uint32_t* out) {
  extern __shared__ std::uint32_t s_tree[];
  std::uint32_t sum = 0;
  for (std::size_t i = dev::global_thread(); i < n; i += dev::grid_threads()) sum += in[i];
  sum = dev::block_sum_tree(sum, s_tree);
  if (threadIdx.x == 0) atomicAdd(out, sum);
}

void launch_r03_coarsen(const GpuArgs& a, CUstream_st* s) {
  dev::launch_adding(r03_coarsen_kernel, a, s, a.plan.block * sizeof(std::uint32_t));
}

}  // namespace

GpuOps r03_ops() { return {&launch_r03_coarsen}; }

}  // namespace joseki::reduce
