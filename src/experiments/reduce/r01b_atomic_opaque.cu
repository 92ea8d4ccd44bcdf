// r01b: one global atomic per element, with an address the compiler cannot prove uniform.
// What changed from r01: the result word is out[slot[lane]], where slot[] is 32 zeros read
//   from memory at run time. Every thread still hits the same word, but nvcc no longer
//   knows it, so the SASS keeps one REDG per thread (no REDUX): the textbook's cost.
// Prediction: ~32x more same-address atomics than r01; slower by up to that factor unless
//   the memory system merges same-address requests of one warp instruction itself.
//   Bottleneck: the same-address atomic rate at the L2.
// Preconditions: none. Workspace: 32 zero words. Result zeroed by a memset (timed).
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour), cold: 2^20 / 2^24 / 2^28 = 774.08 us /
//   12.287 ms / 196.87 ms; x r01 0.037 / 0.033 / 0.034; x CUB 0.010 / 0.002 / 0.001. As predicted,
//   nearly the full 32x: 0.733 ns per element = the L2's serial rate for one address (probe atomics
//   same_address_opaque 0.733 ns, 1.36 G/s); a warp's 32 same-address REDs are not merged. 3-6x the
//   seed's M4 v1 (2-4 ms).
#include "experiments/reduce/common.cuh"

namespace joseki::reduce {

namespace {
__global__ void r01b_atomic_opaque_kernel(const std::uint32_t* __restrict__ in, std::size_t n, std::uint32_t* out,
                                          const std::uint32_t* slot) {
  const std::size_t i = dev::global_thread();
  if (i < n) atomicAdd(out + slot[threadIdx.x & 31u], in[i]);
}

std::size_t r01b_workspace(std::size_t) { return 32 * sizeof(std::uint32_t); }

void launch_r01b_atomic_opaque(const GpuArgs& a, CUstream_st* s) {
  JOSEKI_CUDA_CHECK(cudaMemsetAsync(a.d_out, 0, sizeof(std::uint32_t), s));
  r01b_atomic_opaque_kernel<<<dev::grid_of(a), dev::block_of(a), 0, s>>>(
      a.d_in, a.n, a.d_out, static_cast<const std::uint32_t*>(a.d_work));
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace

GpuOps r01b_ops() { return {&launch_r01b_atomic_opaque, &r01b_workspace}; }

}  // namespace joseki::reduce
