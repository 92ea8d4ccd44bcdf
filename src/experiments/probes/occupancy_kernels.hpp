// Launchers of the occupancy probe (occupancy_kernels.cu): a memory-bound read and a
// compute-bound FMA kernel in variants, plus the occupancy API for each.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace joseki::probes {

enum OccKernel : int {
  OCC_MEM_ILP1 = 0,    // grid-stride 16-byte reads, 1 load in flight per thread (<= 32 registers)
  OCC_MEM_ILP4 = 1,    // 4 independent loads in flight per thread (<= 32 registers)
  OCC_MEM_PAD64 = 2,   // OCC_MEM_ILP1 holding 64 extra live registers (blocks of <= 128 threads)
  OCC_MEM_PAD160 = 3,  // ... 160 extra live registers
  OCC_FMA_ILP1 = 4,    // fma_chains<1>: one chain of dependent FMAs per thread
  OCC_FMA_ILP2 = 5,
  OCC_FMA_ILP4 = 6,    // four independent chains per thread
  OCC_KERNELS = 7
};
const char* occ_kernel_name(int kernel);
inline bool occ_is_memory(int kernel) { return kernel <= OCC_MEM_PAD160; }
inline int occ_ilp(int kernel) {
  static const int ilp[OCC_KERNELS] = {1, 4, 1, 1, 1, 2, 4};
  return ilp[kernel];
}

struct OccInfo {
  int blocks_per_sm = 0;  // cudaOccupancyMaxActiveBlocksPerMultiprocessor (0: the launch is not possible)
  int regs = 0;           // registers per thread (cudaFuncGetAttributes)
  int spill_bytes = 0;    // local memory per thread (spills)
  int max_threads = 0;    // cudaFuncAttributes::maxThreadsPerBlock (launch bounds)
  // Shared memory as the occupancy calculator counts it (analysis.hpp SmemLimits):
  std::size_t static_smem = 0;    // the kernel's __shared__ arrays (sharedSizeBytes)
  std::size_t reserved_smem = 0;  // per block, for the system (cudaDevAttrReservedSharedMemoryPerBlock)
  std::size_t optin_smem = 0;     // static + dynamic of one block at most (sharedMemPerBlockOptin)
  std::size_t smem_per_sm = 0;
  std::size_t max_dynamic_smem() const { return optin_smem > static_smem ? optin_smem - static_smem : 0; }
};
// Attributes and occupancy of one configuration. A dynamic size above max_dynamic_smem() or a
// block above max_threads gives blocks_per_sm = 0 (no CUDA call that would fail is made).
OccInfo occ_query(int kernel, int threads, std::size_t smem_bytes);

// Memory kernels: d_partials[b] = block b's sum of the 32-bit words it read of d16[0, n16).
// FMA kernels: d_fout[t] = fma_chains<ILP>(d_fin[t % n_in], k) for every grid thread t.
struct OccArgs {
  const uint4* d16 = nullptr;
  std::size_t n16 = 0;
  std::uint32_t* d_partials = nullptr;
  std::uint32_t* d_sink = nullptr;
  const float* d_fin = nullptr;
  std::size_t n_in = 1;
  float* d_fout = nullptr;
  int k = 0;
};
// Throws std::invalid_argument (naming the sizes) when smem_bytes is above the kernel's
// max_dynamic_smem() instead of letting cudaFuncSetAttribute fail.
void launch_occ(int kernel, const OccArgs& a, int blocks, int threads, std::size_t smem_bytes, cudaStream_t s);

}  // namespace joseki::probes
