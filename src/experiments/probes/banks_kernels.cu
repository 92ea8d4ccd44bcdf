// The banks probe's kernels: strided shared loads and the [32][32] / [32][33] tile.
#include "backend/cuda/check.hpp"
#include "experiments/probes/banks_kernels.hpp"
#include "experiments/probes/probe_device.cuh"

namespace joseki::probes {

namespace {

__global__ void bank_stride_kernel(const std::uint32_t* __restrict__ in, std::uint32_t* out, long long* cycles,
                                   int stride, int reps) {
  extern __shared__ std::uint32_t s_dyn[];  // BANK_WORDS used; the rest only limits residency
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * BANK_WORDS;
  for (int j = threadIdx.x; j < BANK_WORDS; j += blockDim.x) s_dyn[j] = in[base + j];
  __syncthreads();
  volatile std::uint32_t* s = s_dyn;  // every read is a shared load
  const int first = (threadIdx.x & 31) * stride;  // <= 31 * 32; + 32 * 31 stays below BANK_WORDS
  std::uint32_t acc = 0;
  const long long t0 = clock64();
  for (int r = 0; r < reps; ++r) {
#pragma unroll
    for (int k = 0; k < 32; ++k) acc += s[first + 32 * k];  // + 32 k keeps the bank: bank = (lane * stride) % 32
  }
  __syncthreads();
  if (threadIdx.x == 0) cycles[blockIdx.x] = clock64() - t0;
  out[dev::global_thread()] = acc;
}

template <int PITCH, bool COLUMN>
__global__ void tile_kernel(const std::uint32_t* __restrict__ in, std::uint32_t* out, long long* cycles, int reps) {
  const std::uint32_t acc = dev::tile_reads<PITCH, COLUMN>(in, reps, cycles + blockIdx.x);
  out[dev::global_thread()] = acc;
}

template <class K>
void set_smem(K kernel, std::size_t bytes) {
  JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}

}  // namespace

void launch_bank_stride(const std::uint32_t* d_in, std::uint32_t* d_out, long long* d_cycles, int stride, int reps,
                        int blocks, int threads, std::size_t smem_bytes, cudaStream_t s) {
  set_smem(bank_stride_kernel, smem_bytes);
  bank_stride_kernel<<<blocks, threads, smem_bytes, s>>>(d_in, d_out, d_cycles, stride, reps);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_tile_reads(int pitch, bool column, const std::uint32_t* d_in, std::uint32_t* d_out, long long* d_cycles,
                       int reps, int blocks, int threads, std::size_t smem_bytes, cudaStream_t s) {
  if (pitch == 33) {
    set_smem(tile_kernel<33, true>, smem_bytes);
    tile_kernel<33, true><<<blocks, threads, smem_bytes, s>>>(d_in, d_out, d_cycles, reps);
  } else if (column) {
    set_smem(tile_kernel<32, true>, smem_bytes);
    tile_kernel<32, true><<<blocks, threads, smem_bytes, s>>>(d_in, d_out, d_cycles, reps);
  } else {
    set_smem(tile_kernel<32, false>, smem_bytes);
    tile_kernel<32, false><<<blocks, threads, smem_bytes, s>>>(d_in, d_out, d_cycles, reps);
  }
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::probes
