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

// The pure pointer chase: each 8-byte slot holds the absolute address of the next slot, so a
// load's address IS the previous load's value (no index-to-address arithmetic on the dependent
// path, unlike chase_kernel's next[x]). The loop counter is off that path and overlaps the load.
// The pure pointer chase: each 8-byte slot holds the global address of the next slot, so a
// load's address IS the previous load's value (ld.global with no index-to-address arithmetic on
// the dependent path, unlike chase_kernel's next[x]). The loop counter is off that path.
__global__ void ptr_chase_build_kernel(unsigned long long* slots, const std::uint32_t* __restrict__ order,
                                       std::uint32_t nodes, std::uint32_t spacing) {
  const unsigned long long base = __cvta_generic_to_global(slots);
  for (std::size_t k = dev::global_thread(); k < nodes; k += dev::grid_threads()) {
    const std::uint32_t to = order[k + 1 < nodes ? k + 1 : 0];
    slots[static_cast<std::size_t>(order[k]) * spacing] = base + static_cast<unsigned long long>(to) * spacing * 8u;
  }
}

__global__ void ptr_chase_kernel(const unsigned long long* slots, unsigned long long start_slot, int warm, int steps,
                                 long long* cycles, unsigned long long* end_slot) {
  const unsigned long long base = __cvta_generic_to_global(slots);
  unsigned long long a = base + start_slot * 8u;
  for (int i = 0; i < warm; ++i) asm volatile("ld.global.u64 %0, [%0];" : "+l"(a) : : "memory");
  const long long t0 = clock64();
#pragma unroll 8
  for (int i = 0; i < steps; ++i) asm volatile("ld.global.u64 %0, [%0];" : "+l"(a) : : "memory");
  const long long t1 = clock64();
  *cycles = t1 - t0;
  *end_slot = (a - base) / 8u;  // back to a slot index, for the host's check
}

// Shared-memory latency by a pure chase: the ring (word indices, as chase_build_kernel writes
// them) is copied into shared memory as 32-bit shared-window addresses, then one thread chases
// with ld.shared whose address register is the previous load's value.
__global__ void shared_chase_kernel(const std::uint32_t* __restrict__ next, std::uint32_t words, std::uint32_t start,
                                    int warm, int steps, long long* cycles, std::uint32_t* end) {
  extern __shared__ std::uint32_t ring[];
  const std::uint32_t base = static_cast<std::uint32_t>(__cvta_generic_to_shared(ring));
  for (std::uint32_t i = threadIdx.x; i < words; i += blockDim.x) ring[i] = base + next[i] * 4u;
  __syncthreads();
  if (threadIdx.x == 0) {
    std::uint32_t a = base + start * 4u;
    for (int i = 0; i < warm; ++i) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a) : : "memory");
    const long long t0 = clock64();
#pragma unroll 8
    for (int i = 0; i < steps; ++i) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a) : : "memory");
    const long long t1 = clock64();
    *cycles = t1 - t0;
    *end = (a - base) / 4u;  // back to a word index, for the host's check
  }
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

void launch_ptr_chase_build(unsigned long long* d_slots, const std::uint32_t* d_order, std::uint32_t nodes,
                            std::uint32_t spacing_slots, cudaStream_t s) {
  ptr_chase_build_kernel<<<1024, 256, 0, s>>>(d_slots, d_order, nodes, spacing_slots);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_ptr_chase(const unsigned long long* d_slots, std::uint64_t start_slot, int warm, int steps,
                      long long* d_cycles, unsigned long long* d_end_slot, cudaStream_t s) {
  ptr_chase_kernel<<<1, 1, 0, s>>>(d_slots, start_slot, warm, steps, d_cycles, d_end_slot);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_shared_chase(const std::uint32_t* d_next, std::uint32_t words, std::uint32_t start, int warm, int steps,
                         long long* d_cycles, std::uint32_t* d_end, cudaStream_t s) {
  shared_chase_kernel<<<1, 256, std::size_t{words} * 4, s>>>(d_next, words, start, warm, steps, d_cycles, d_end);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_ws_read(const uint4* d, std::size_t n16, std::size_t per_block, std::uint32_t* d_partials, int blocks,
                    int threads, cudaStream_t s) {
  ws_read_kernel<<<blocks, threads, 0, s>>>(d, n16, per_block, d_partials);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::probes
