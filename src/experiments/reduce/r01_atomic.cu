// r01: one global atomicAdd per element (the seed's v1).
// What changed: first GPU rung. Every thread adds its element to the one result word.
// Prediction: the textbook's worst case (n same-address atomics, serialized at one L2
//   slice) -- but nvcc proves the address warp-uniform and rewrites the atomic into
//   VOTEU.ANY + UFLO (elect a leader) + REDUX.SUM (warp sum) + one REDG per warp (SASS in
//   docs/REDUCE.md), so the real cost is n/32 same-address atomics. r01b measures the
//   un-aggregated cost. Bottleneck: the same-address atomic rate at the L2.
// Preconditions: none. The result word is zeroed by a memset inside the rung (timed).
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour), cold: 2^20 / 2^24 / 2^28 = 28.93 us /
//   401.95 us / 6.742 ms; x cpu_one_core 11.2 / 14.3 / 13.1; x CUB 0.26 / 0.05 / 0.04 (4.8 % of the
//   ceiling at 2^24). As predicted with nvcc's aggregation: n/32 atomics at 0.760 ns (probe atomics
//   same_address_uniform 398.50 us at 2^24); 30.6x faster than r01b at 2^24: the compiler, not the
//   hardware, rescues v1.
#include "experiments/reduce/common.cuh"

namespace joseki::reduce {

namespace {
__global__ void r01_atomic_kernel(const std::uint32_t* __restrict__ in, std::size_t n, std::uint32_t* out) {
  const std::size_t i = dev::global_thread();
  if (i < n) atomicAdd(out, in[i]);
}

void launch_r01_atomic(const GpuArgs& a, CUstream_st* s) {
  dev::launch_adding(r01_atomic_kernel, a, s);
}

}  // namespace

GpuOps r01_ops() { return {&launch_r01_atomic}; }

}  // namespace joseki::reduce
