// The atomics and fences probes' kernels.
#include "backend/cuda/check.hpp"
#include "experiments/probes/atomics_kernels.hpp"
#include "experiments/probes/probe_device.cuh"

namespace joseki::probes {

namespace {

template <int MODE>
__global__ void atomics_kernel(const std::uint32_t* __restrict__ in, const std::uint32_t* __restrict__ slot,
                               std::size_t n, std::uint32_t* out) {
  dev::atomic_body<MODE>(in, slot, n, out);
}

template <int KIND>
__global__ void fence_kernel(std::uint32_t* buf, int iters, long long* cycles) {
  volatile std::uint32_t* p = buf + dev::global_thread();
  __syncthreads();
  const long long t0 = clock64();
  for (int k = 1; k <= iters; ++k) {
    *p = static_cast<std::uint32_t>(k);  // a store for the fence to order
    if constexpr (KIND == 1) __threadfence_block();
    if constexpr (KIND == 2) __threadfence();
    if constexpr (KIND == 3) __threadfence_system();
  }
  __syncthreads();
  if (threadIdx.x == 0) cycles[blockIdx.x] = clock64() - t0;
}

}  // namespace

const char* atomic_mode_name(int mode) {
  static const char* names[] = {"same_address_uniform", "same_address_opaque", "distinct_addresses",
                                "warp_sum_then_atomic", "block_sum_then_atomic"};
  return mode >= 0 && mode < ATOM_MODES ? names[mode] : "?";
}

void launch_atomics(int mode, const std::uint32_t* d_in, const std::uint32_t* d_slot, std::size_t n,
                    std::uint32_t* d_out, cudaStream_t s) {
  const unsigned grid = static_cast<unsigned>((n + ATOM_BLOCK - 1) / ATOM_BLOCK);
  switch (mode) {
    case 0: atomics_kernel<dev::ATOM_UNIFORM><<<grid, ATOM_BLOCK, 0, s>>>(d_in, d_slot, n, d_out); break;
    case 1: atomics_kernel<dev::ATOM_OPAQUE><<<grid, ATOM_BLOCK, 0, s>>>(d_in, d_slot, n, d_out); break;
    case 2: atomics_kernel<dev::ATOM_DISTINCT><<<grid, ATOM_BLOCK, 0, s>>>(d_in, d_slot, n, d_out); break;
    case 3: atomics_kernel<dev::ATOM_WARP><<<grid, ATOM_BLOCK, 0, s>>>(d_in, d_slot, n, d_out); break;
    default: atomics_kernel<dev::ATOM_BLOCK><<<grid, ATOM_BLOCK, 0, s>>>(d_in, d_slot, n, d_out); break;
  }
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_fences(int kind, std::uint32_t* d_buf, int iters, long long* d_cycles, int blocks, int threads,
                   cudaStream_t s) {
  switch (kind) {
    case 0: fence_kernel<0><<<blocks, threads, 0, s>>>(d_buf, iters, d_cycles); break;
    case 1: fence_kernel<1><<<blocks, threads, 0, s>>>(d_buf, iters, d_cycles); break;
    case 2: fence_kernel<2><<<blocks, threads, 0, s>>>(d_buf, iters, d_cycles); break;
    default: fence_kernel<3><<<blocks, threads, 0, s>>>(d_buf, iters, d_cycles); break;
  }
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::probes
