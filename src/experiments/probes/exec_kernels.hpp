// Launchers of the exec probe (exec_kernels.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace joseki::probes {

// Sums each warp's elements (in[w*warpSize ...], zero past n) with a shuffle tree that starts
// at warpSize / 2 and halves: the tree adapts to the warp size the device reports.
// d_warp_sums[w] for every warp that holds an element; d_info[0] = levels, d_info[1] = warpSize.
void launch_warp_tree(const std::uint32_t* d_in, std::size_t n, std::uint32_t* d_warp_sums, int* d_info,
                      cudaStream_t s);

}  // namespace joseki::probes
