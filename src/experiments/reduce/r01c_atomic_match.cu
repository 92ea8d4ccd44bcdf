// r01c: r01b's opaque address, merged at run time: the move NVIDIA's Vulkan driver makes by itself.
// What changed from r01b: each warp finds its lanes with equal addresses (__match_any_sync), sums their
//   elements (__reduce_add_sync over that group) and one lane of each group adds the sum. The address is
//   still read from memory (slot[lane], 32 zeros), so nvcc still cannot prove it uniform: the merging is
//   the kernel's, not the compiler's.
// Why: on the H200 through NVIDIA's Vulkan driver an atomic per element at an address read from memory
//   costs 1.03x the constant address (probe atomic_opaque at 2^24: median of six runs in four device calls
//   of 2026-12-01, 1.029-1.032), where CUDA's r01b costs 30.6x r01 (2^24, three runs of device call 3,
//   30.6-30.7): the driver merges a subgroup's equal addresses at run time, nvcc only those it can prove
//   uniform (docs/VULKAN.md, "What flips").
// Prediction: r01's time within ~10 % (one RED per warp, as nvcc's own merge of r01), i.e. ~30x faster
//   than r01b; the match and the warp sum are a few instructions an element behind the L2's
//   same-address rate. Bottleneck: the same-address atomic rate, once per warp.
// Preconditions: block a multiple of 32 (every rung's: the full-warp ballot); sm_80 or newer (redux.sync).
//   Workspace: 32 zero words (r01b's). Result zeroed by a memset (timed).
// H200: not yet measured on the H200 (written in a session without a device).
#include "experiments/reduce/common.cuh"

namespace joseki::reduce {

namespace {
__global__ void r01c_atomic_match_kernel(const std::uint32_t* __restrict__ in, std::size_t n, std::uint32_t* out,
                                         const std::uint32_t* slot) {
#if JOSEKI_ARCH_AT_LEAST(800)  // redux.sync over the matched group (Needs: Feature::ReduxSync)
  const std::size_t i = dev::global_thread();
  const unsigned lane = threadIdx.x & 31u;
  // Full warps (the block is a multiple of 32): every lane takes part in the ballot, then the lanes past n
  // leave and the others name exactly each other in the match and the sum.
  const unsigned live = __ballot_sync(0xFFFFFFFFu, i < n);
  if (i >= n) return;
  std::uint32_t* const addr = out + slot[lane];
  const unsigned peers = __match_any_sync(live, reinterpret_cast<unsigned long long>(addr));
  const std::uint32_t sum = __reduce_add_sync(peers, in[i]);
  if (lane == static_cast<unsigned>(__ffs(peers) - 1)) atomicAdd(addr, sum);
#else
  JOSEKI_ARCH_UNSUPPORTED();
#endif
}

std::size_t r01c_workspace(std::size_t) { return 32 * sizeof(std::uint32_t); }

void launch_r01c_atomic_match(const GpuArgs& a, CUstream_st* s) {
  JOSEKI_CUDA_CHECK(cudaMemsetAsync(a.d_out, 0, sizeof(std::uint32_t), s));
  r01c_atomic_match_kernel<<<dev::grid_of(a), dev::block_of(a), 0, s>>>(
      a.d_in, a.n, a.d_out, static_cast<const std::uint32_t*>(a.d_work));
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace

GpuOps r01c_ops() { return {&launch_r01c_atomic_match, &r01c_workspace}; }

}  // namespace joseki::reduce
