// Launchers shared by the probes (common_kernels.cu): random fills and the clock spinner
// that measures the SM clock the cycle counts are converted with.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace joseki::probes {

// d[i] = mix32(i, seed) (device_common.hpp), i < n.
void launch_fill_mix32(std::uint32_t* d, std::size_t n, std::uint32_t seed, cudaStream_t s);
// d[i] = mix_unit(i, seed), i < n.
void launch_fill_unit(float* d, std::size_t n, std::uint32_t seed, cudaStream_t s);
// One thread spins until clock64() has advanced by `cycles`; writes the cycles it saw.
void launch_clock_spin(long long cycles, long long* d_out, cudaStream_t s);

}  // namespace joseki::probes
