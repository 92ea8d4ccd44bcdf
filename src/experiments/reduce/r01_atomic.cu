// r01: one global atomicAdd per element (the seed's v1).
// What changed: first GPU rung. Every thread adds its element to the one result word.
// Prediction: the textbook's worst case (n same-address atomics, serialized at one L2
//   slice) -- but nvcc proves the address warp-uniform and rewrites the atomic into
//   VOTEU.ANY + UFLO (elect a leader) + REDUX.SUM (warp sum) + one REDG per warp (SASS in
//   docs/REDUCE.md), so the real cost is n/32 same-address atomics. r01b measures the
//   un-aggregated cost. Bottleneck: the same-address atomic rate at the L2.
// Preconditions: none. The result word is zeroed by a memset inside the rung (timed).
// H200, 2026-11-29 (first run; the final run may differ by a few percent), cold:
//   2^20 28.77 us, 2^24 400.38 us (168 GB/s; 12.9x one CPU core), 2^28 6.761 ms -- exactly
//   n/32 warp-aggregated atomics at 0.76 ns each (probe atomics, same_address_uniform: 398.30 us
//   for 524,288 atomics at 2^24). The SASS (VOTEU.ANY, UFLO, REDUX.SUM, one REDG per warp) is in
//   docs/REDUCE.md. 31x faster than r01b: the compiler, not the hardware, rescues the seed's v1.
#include "experiments/reduce/common.cuh"
#include "experiments/reduce/launchers.hpp"

namespace joseki::reduce {

namespace {
__global__ void r01_atomic_kernel(const std::uint32_t* __restrict__ in, std::size_t n, std::uint32_t* out) {
  const std::size_t i = dev::global_thread();
  if (i < n) atomicAdd(out, in[i]);
}
}  // namespace

void launch_r01_atomic(const GpuArgs& a, CUstream_st* s) {
  JOSEKI_CUDA_CHECK(cudaMemsetAsync(a.d_out, 0, sizeof(std::uint32_t), s));
  r01_atomic_kernel<<<dev::grid_of(a), dev::block_of(a), 0, s>>>(a.d_in, a.n, a.d_out);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::reduce
