// Launchers of the diagnose probe (diagnose_kernels.cu): a deliberately bad kernel and its
// fix for each symptom of the guide's table. Their function names start with "diag_" so ncu
// can select them (--kernel-name regex:diag_).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace joseki::probes {

enum DiagKernel : int {
  DIAG_COALESCE = 0,     // strided 4-byte reads (stride 1 = fix, 32 = bad): per-block sums
  DIAG_SMEM_BAD = 1,     // column reads of tile[32][32]: 32-way bank conflicts
  DIAG_SMEM_FIX = 2,     // column reads of tile[32][33]
  DIAG_BARRIER_BAD = 3,  // shared tree with a __syncthreads at every level (10 for 1024 threads)
  DIAG_BARRIER_FIX = 4,  // warp shuffles, one __syncthreads
  DIAG_ATOMIC_BAD = 5,   // every thread atomicAdd to one address (not provably uniform)
  DIAG_ATOMIC_FIX = 6,   // block sum, one atomicAdd per block
  DIAG_OCC_BAD = 7,      // streaming read with one 128-thread block per SM (asks for the most dynamic shared memory)
  DIAG_OCC_FIX = 8,      // the same read at full occupancy
  DIAG_KERNELS = 9
};
const char* diag_kernel_name(int kernel);  // the __global__ function's name

struct DiagArgs {
  const std::uint32_t* d_in = nullptr;    // input words
  std::size_t n = 0;                      // elements (words; 16-byte words for DIAG_OCC_*)
  std::size_t stride = 1;                 // DIAG_COALESCE
  const std::uint32_t* d_slot = nullptr;  // zeros (DIAG_ATOMIC_BAD)
  std::uint32_t* d_out = nullptr;         // per-block sums, per-thread sums, or the atomic result
  int blocks = 1, threads = 256;
  std::size_t smem_bytes = 0;             // dynamic shared memory (DIAG_OCC_BAD: limits residency)
  int reps = 1;                           // DIAG_SMEM_*
};
// Throws std::invalid_argument when a.smem_bytes is above the kernel's max_dynamic_smem.
void launch_diag(int kernel, const DiagArgs& a, cudaStream_t s);

struct DiagOcc {
  std::size_t max_dynamic_smem = 0;  // sharedMemPerBlockOptin minus the kernel's static shared memory
  std::size_t static_smem = 0;
  int regs = 0;
  int blocks_per_sm = 0;             // cudaOccupancyMaxActiveBlocksPerMultiprocessor for (threads, smem)
};
// The kernel's limits, and its occupancy for a launch of `threads` with `smem_bytes` dynamic
// shared memory (blocks_per_sm = 0 when smem_bytes is above the limit).
DiagOcc diag_occupancy(int kernel, int threads, std::size_t smem_bytes);

}  // namespace joseki::probes
