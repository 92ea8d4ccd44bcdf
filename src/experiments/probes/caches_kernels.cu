// The caches probe's kernels: the pointer chase (latency) and the working-set read (bandwidth).
#include "backend/cuda/check.hpp"
#include "experiments/probes/caches_kernels.hpp"
#include "experiments/probes/probe_device.cuh"

namespace joseki::probes {

namespace {

__global__ void chase_build_kernel(std::uint32_t* next, const std::uint32_t* __restrict__ order, std::uint32_t nodes,
                                   std::uint32_t spacing) {
  for (std::size_t k = dev::global_thread(); k < nodes; k += dev::grid_threads()) {
    const std::uint32_t to = order[k + 1 < nodes ? k + 1 : 0];
    next[static_cast<std::size_t>(order[k]) * spacing] = to * spacing;
  }
}

__global__ void chase_touch_kernel(const std::uint32_t* next, std::uint32_t nodes, std::uint32_t spacing,
                                   std::uint32_t* sink) {
  std::uint32_t acc = 0;
  for (std::size_t k = dev::global_thread(); k < nodes; k += dev::grid_threads())
    acc ^= next[k * spacing];
  if (acc == SINK_MAGIC) *sink = acc;
}

// Plain loads (no __restrict__/const-cache hints): the default global path, cached in L1.
__global__ void chase_kernel(const std::uint32_t* next, std::uint32_t start, int warm, int steps, long long* cycles,
                             std::uint32_t* end) {
  std::uint32_t x = start;
  for (int i = 0; i < warm; ++i) x = next[x];
  const long long t0 = clock64();
  for (int i = 0; i < steps; ++i) x = next[x];  // each load's address is the previous load's value
  const long long t1 = clock64();
  *cycles = t1 - t0;
  *end = x;
}

__global__ void ws_read_kernel(const uint4* __restrict__ d, std::size_t n16, std::size_t per_block,
                               std::uint32_t* partials) {
  std::size_t pos = (n16 / gridDim.x) * blockIdx.x;
  std::size_t left = per_block;
  std::uint32_t acc = 0;
  while (left > 0) {  // contiguous segments up to the end of the buffer, then from its start
    const std::size_t len = left < n16 - pos ? left : n16 - pos;
    const uint4* p = d + pos;
    std::size_t j = threadIdx.x;
    for (; j + 3 * blockDim.x < len; j += 4 * blockDim.x) {
      const uint4 a = p[j], b = p[j + blockDim.x], c = p[j + 2 * blockDim.x], e = p[j + 3 * blockDim.x];
      acc += a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w + c.x + c.y + c.z + c.w + e.x + e.y + e.z + e.w;
    }
    for (; j < len; j += blockDim.x) {
      const uint4 a = p[j];
      acc += a.x + a.y + a.z + a.w;
    }
    left -= len;
    pos = 0;
  }
  const std::uint32_t s = dev::block_sum(acc);
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}

}  // namespace

void launch_chase_build(std::uint32_t* d_next, const std::uint32_t* d_order, std::uint32_t nodes,
                        std::uint32_t spacing_words, cudaStream_t s) {
  chase_build_kernel<<<1024, 256, 0, s>>>(d_next, d_order, nodes, spacing_words);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_chase_touch(const std::uint32_t* d_next, std::uint32_t nodes, std::uint32_t spacing_words,
                        std::uint32_t* d_sink, cudaStream_t s) {
  chase_touch_kernel<<<1024, 256, 0, s>>>(d_next, nodes, spacing_words, d_sink);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_chase(const std::uint32_t* d_next, std::uint32_t start, int warm, int steps, long long* d_cycles,
                  std::uint32_t* d_end, cudaStream_t s) {
  chase_kernel<<<1, 1, 0, s>>>(d_next, start, warm, steps, d_cycles, d_end);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_ws_read(const uint4* d, std::size_t n16, std::size_t per_block, std::uint32_t* d_partials, int blocks,
                    int threads, cudaStream_t s) {
  ws_read_kernel<<<blocks, threads, 0, s>>>(d, n16, per_block, d_partials);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::probes
