// The coalescing probe's kernels: strided 4-byte reads and an AoS field read.
#include "backend/cuda/check.hpp"
#include "experiments/probes/coalescing_kernels.hpp"
#include "experiments/probes/probe_device.cuh"

namespace joseki::probes {

namespace {

struct Particle {
  float x, y, z;  // the guide's AoS: reading .x alone strides by 12 bytes
};

__global__ void strided_sum_kernel(const std::uint32_t* __restrict__ d, std::size_t n, std::size_t stride,
                                   std::size_t offset, std::uint32_t* partials) {
  const std::uint32_t s = dev::block_sum(dev::strided_partial<COAL_UNROLL>(d, n, stride, offset));
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}

__global__ void aos_x_sum_kernel(const Particle* __restrict__ p, std::size_t n, std::uint32_t* partials) {
  const std::size_t total = dev::grid_threads();
  std::size_t i = dev::global_thread();
  std::uint32_t acc = 0;
  for (; i + (COAL_UNROLL - 1) * total < n; i += COAL_UNROLL * total) {
    float v[COAL_UNROLL];
#pragma unroll
    for (int u = 0; u < COAL_UNROLL; ++u) v[u] = p[i + u * total].x;
#pragma unroll
    for (int u = 0; u < COAL_UNROLL; ++u) acc += __float_as_uint(v[u]);
  }
  for (; i < n; i += total) acc += __float_as_uint(p[i].x);
  const std::uint32_t s = dev::block_sum(acc);
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}

}  // namespace

void launch_strided_sum(const std::uint32_t* d, std::size_t n, std::size_t stride, std::size_t offset,
                        std::uint32_t* d_partials, int blocks, cudaStream_t s) {
  strided_sum_kernel<<<blocks, COAL_BLOCK, 0, s>>>(d, n, stride, offset, d_partials);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_aos_x_sum(const std::uint32_t* d_words, std::size_t n, std::uint32_t* d_partials, int blocks,
                      cudaStream_t s) {
  aos_x_sum_kernel<<<blocks, COAL_BLOCK, 0, s>>>(reinterpret_cast<const Particle*>(d_words), n, d_partials);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::probes
