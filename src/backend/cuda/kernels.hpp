// Launchers for the device layer's own kernels (defined in kernels.cu). Host code is
// compiled by the C++ compiler; only kernels and their thin launchers go through nvcc.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace joseki::cuda {

// Reads n 16-byte words (4 independent loads in flight per thread); `sink` is written
// only if an impossible XOR value appears, which keeps the loads alive.
void launch_stream_read(const uint4* p, std::size_t n, unsigned int* sink, int blocks, int threads, cudaStream_t s);
// An empty kernel, <<<1, 32>>>, for launch-latency measurements.
void launch_empty(cudaStream_t s);
// y[i] = x[i] * 2654435761 + i (mod 2^32), the sanity run's kernel.
void launch_check_kernel(const std::uint32_t* x, std::uint32_t* y, std::size_t n, cudaStream_t s);

}  // namespace joseki::cuda
