// Launchers of the coalescing probe (coalescing_kernels.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace joseki::probes {

inline constexpr int COAL_BLOCK = 256;
inline constexpr int COAL_UNROLL = 8;  // independent loads in flight per thread

// d_partials[b] = sum over the elements block b reads of d[i * stride + offset], i < n
// (grid-stride: element i belongs to grid thread i % (blocks * COAL_BLOCK)).
void launch_strided_sum(const std::uint32_t* d, std::size_t n, std::size_t stride, std::size_t offset,
                        std::uint32_t* d_partials, int blocks, cudaStream_t s);
// The same over an array of struct {float x, y, z;} reading only .x (its bits): stride 3, offset 0.
void launch_aos_x_sum(const std::uint32_t* d_words, std::size_t n, std::uint32_t* d_partials, int blocks,
                      cudaStream_t s);

}  // namespace joseki::probes
