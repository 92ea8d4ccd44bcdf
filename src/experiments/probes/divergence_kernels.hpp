// Launchers of the divergence probe (divergence_kernels.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace joseki::probes {

inline constexpr int DIV_BLOCK = 256;
// Which threads take path A (ka dependent FMAs) and which path B (kb), device_common.hpp.
enum DivMode : int {
  DIV_UNIFORM_A = 0,    // every thread: A
  DIV_UNIFORM_B = 1,    // every thread: B
  DIV_LANE_PARITY = 2,  // even lanes A, odd lanes B: every warp diverges
  DIV_PREDICATED = 3,   // every thread computes A and B, then selects with ?: (even lanes A)
  DIV_BLOCK_UNIFORM = 4,  // even blocks A, odd blocks B: branch on block-level data
  DIV_WARP_UNIFORM = 5,   // even warps A, odd warps B: uniform within each warp
  DIV_MODES = 6
};
const char* div_mode_name(int mode);

// out[i] = the chosen path applied to in[i], i < n; DIV_BLOCK threads per block.
void launch_divergence(int mode, const float* d_in, float* d_out, std::size_t n, int ka, int kb, cudaStream_t s);

}  // namespace joseki::probes
