// Launchers of the barriers probe (barriers_kernels.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace joseki::probes {

// Each thread applies lcg_step `iters` times to its thread index, with a __syncthreads after
// every step (barrier) or without (baseline); d_out[thread] = the result, d_cycles[block] =
// the block's clock64 interval. smem_bytes (unused dynamic shared memory) limits residency.
void launch_barrier_loop(bool barrier, std::uint32_t* d_out, int iters, long long* d_cycles, int blocks, int threads,
                         std::size_t smem_bytes, cudaStream_t s);

}  // namespace joseki::probes
