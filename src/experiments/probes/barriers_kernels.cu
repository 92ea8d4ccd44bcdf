// The barriers probe's kernel.
#include "backend/cuda/check.hpp"
#include "experiments/probes/barriers_kernels.hpp"
#include "experiments/probes/probe_device.cuh"

namespace joseki::probes {

namespace {
template <bool BARRIER>
__global__ void barrier_loop_kernel(std::uint32_t* out, int iters, long long* cycles) {
  std::uint32_t x = threadIdx.x;
  __syncthreads();
  const long long t0 = clock64();
  for (int k = 0; k < iters; ++k) {
    x = lcg_step(x);
    if constexpr (BARRIER) __syncthreads();
  }
  __syncthreads();
  if (threadIdx.x == 0) cycles[blockIdx.x] = clock64() - t0;
  out[dev::global_thread()] = x;
}

template <class K>
void set_smem(K kernel, std::size_t bytes) {
  JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}
}  // namespace

void launch_barrier_loop(bool barrier, std::uint32_t* d_out, int iters, long long* d_cycles, int blocks, int threads,
                         std::size_t smem_bytes, cudaStream_t s) {
  if (barrier) {
    set_smem(barrier_loop_kernel<true>, smem_bytes);
    barrier_loop_kernel<true><<<blocks, threads, smem_bytes, s>>>(d_out, iters, d_cycles);
  } else {
    set_smem(barrier_loop_kernel<false>, smem_bytes);
    barrier_loop_kernel<false><<<blocks, threads, smem_bytes, s>>>(d_out, iters, d_cycles);
  }
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::probes
