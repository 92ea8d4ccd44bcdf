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
// The code of this binary that runs on the current device, as the runtime loaded it for the empty
// kernel (every .cu is compiled for the same architectures): ptx = the virtual architecture it was
// compiled from (e.g. 80 when the driver compiled compute_80 PTX), binary = the architecture of
// the machine code that runs (major*10+minor, cudaFuncAttributes).
struct CodeVersion {
  int ptx = 0;
  int binary = 0;
};
CodeVersion code_version();
// y[i] = x[i] * 2654435761 + i (mod 2^32), the sanity run's kernel.
void launch_check_kernel(const std::uint32_t* x, std::uint32_t* y, std::size_t n, cudaStream_t s);

}  // namespace joseki::cuda
