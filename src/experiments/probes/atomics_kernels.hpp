// Launchers of the atomics and fences probes (atomics_kernels.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace joseki::probes {

inline constexpr int ATOM_BLOCK = 256;
// Modes of probe_device.cuh's atomic_body: 0 same address (provably uniform: nvcc aggregates
// per warp), 1 same address through a loaded index (32 atomics per warp), 2 distinct addresses,
// 3 explicit warp sum + one lane's atomic, 4 block sum + one atomic per block.
inline constexpr int ATOM_MODES = 5;
const char* atomic_mode_name(int mode);

// Every element in[i] (i < n) is added into out (or out[i], mode 2); slot[] holds zeros.
void launch_atomics(int mode, const std::uint32_t* d_in, const std::uint32_t* d_slot, std::size_t n,
                    std::uint32_t* d_out, cudaStream_t s);

// Fences: each thread stores to its own word then fences, iters times (kind 0 none, 1
// __threadfence_block, 2 __threadfence, 3 __threadfence_system); d_buf[thread] ends at iters;
// d_cycles[block] = the block's clock64 interval.
void launch_fences(int kind, std::uint32_t* d_buf, int iters, long long* d_cycles, int blocks, int threads,
                   cudaStream_t s);

}  // namespace joseki::probes
