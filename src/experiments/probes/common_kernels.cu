// Kernels shared by the probes: random fills and the clock spinner.
#include "backend/cuda/check.hpp"
#include "experiments/probes/common_kernels.hpp"
#include "experiments/probes/probe_device.cuh"

namespace joseki::probes {

namespace {

__global__ void fill_mix32_kernel(std::uint32_t* d, std::size_t n, std::uint32_t seed) {
  for (std::size_t i = dev::global_thread(); i < n; i += dev::grid_threads()) d[i] = mix32(i, seed);
}

__global__ void fill_unit_kernel(float* d, std::size_t n, std::uint32_t seed) {
  for (std::size_t i = dev::global_thread(); i < n; i += dev::grid_threads()) d[i] = mix_unit(i, seed);
}

__global__ void clock_spin_kernel(long long cycles, long long* out) {
  const long long t0 = clock64();
  long long t = t0;
  while (t - t0 < cycles) t = clock64();
  *out = t - t0;
}

unsigned fill_grid(std::size_t n) {
  const std::size_t blocks = (n + 255) / 256;
  return static_cast<unsigned>(blocks < 65536 ? (blocks ? blocks : 1) : 65536);
}

}  // namespace

void launch_fill_mix32(std::uint32_t* d, std::size_t n, std::uint32_t seed, cudaStream_t s) {
  fill_mix32_kernel<<<fill_grid(n), 256, 0, s>>>(d, n, seed);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_fill_unit(float* d, std::size_t n, std::uint32_t seed, cudaStream_t s) {
  fill_unit_kernel<<<fill_grid(n), 256, 0, s>>>(d, n, seed);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_clock_spin(long long cycles, long long* d_out, cudaStream_t s) {
  clock_spin_kernel<<<1, 1, 0, s>>>(cycles, d_out);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::probes
