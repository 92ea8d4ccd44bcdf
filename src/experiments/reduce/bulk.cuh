// Hopper's bulk copy engine (cp.async.bulk, "TMA" without a tensor map) feeding a ring of
// shared-memory stages counted in by mbarriers: the device pieces r08 and r11 share, and the
// host helper that raises a kernel's dynamic shared-memory limit. Included by .cu files only.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "backend/cuda/mbarrier.cuh"
#include "experiments/reduce/common.cuh"

namespace joseki::reduce::bulk {

constexpr int MAX_STAGES = 16;
constexpr unsigned RING_OFFSET = 128;  // the mbarriers (8 bytes each) sit before the ring

#if JOSEKI_ARCH_AT_LEAST(900)  // cp.async.bulk, mbarrier tx counts, cluster-scope fences: sm_90+

using cuda::fence_barrier_init;  // the mbarrier pieces (backend/cuda/mbarrier.cuh)
using cuda::fence_proxy_async;
using cuda::mbar_init;
using cuda::mbar_wait;
using cuda::smem_addr;

// One arrival that also announces `bytes` to come; then the copy that delivers them.
__device__ __forceinline__ void issue_chunk(void* dst, const void* src, unsigned bytes, unsigned long long* bar) {
  cuda::mbar_expect_tx(bar, bytes);
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   smem_addr(dst)),
               "l"(src), "r"(bytes), "r"(smem_addr(bar))
               : "memory");
}

// Streams this block's `count` chunks through a ring of `stages` x chunk_bytes at smem +
// RING_OFFSET and returns this thread's share of their sum. Chunk k is bytes_of(k) bytes
// (a multiple of 16) at src(k) (16-byte aligned). Thread 0 fills the ring and refills a stage
// as soon as every thread has read it; everyone waits on the stage's mbarrier, whose k-th use
// completes phase k / stages. Call from every thread of the block.
template <class Src, class Bytes>
__device__ __forceinline__ std::uint32_t sum_through_ring(unsigned char* smem, unsigned stages, unsigned chunk_bytes,
                                                          std::size_t count, Src src, Bytes bytes_of) {
  auto* bars = reinterpret_cast<unsigned long long*>(smem);
  unsigned char* ring = smem + RING_OFFSET;
  if (threadIdx.x == 0) {
    for (unsigned s = 0; s < stages; ++s) mbar_init(&bars[s], 1);
    fence_barrier_init();
    for (unsigned s = 0; s < stages && s < count; ++s)  // fill the ring
      issue_chunk(ring + s * chunk_bytes, src(s), bytes_of(s), &bars[s]);
  }
  __syncthreads();  // the barriers are initialised before anyone waits on them

  std::uint32_t sum = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const unsigned s = static_cast<unsigned>(k % stages);
    mbar_wait(&bars[s], static_cast<unsigned>((k / stages) & 1));
    const auto* buf = reinterpret_cast<const uint4*>(ring + s * chunk_bytes);
    const unsigned words = bytes_of(k) / 16;
    for (unsigned j = threadIdx.x; j < words; j += blockDim.x) sum += dev::sum4(buf[j]);
    __syncthreads();  // every thread is done reading stage s before it is refilled
    if (threadIdx.x == 0 && k + stages < count) {
      fence_proxy_async();
      issue_chunk(ring + s * chunk_bytes, src(k + stages), bytes_of(k + stages), &bars[s]);
    }
  }
  return sum;
}
#endif  // JOSEKI_ARCH_AT_LEAST(900)

// Host: lets `kernel` use up to the device's opt-in shared memory per block (minus its static
// shared memory) and returns that limit. Once per kernel (the caller keeps the result).
template <class Kernel>
int allow_max_dynamic_smem(Kernel kernel) {
  int dev_id = 0, optin = 0;
  JOSEKI_CUDA_CHECK(cudaGetDevice(&dev_id));
  JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev_id));
  cudaFuncAttributes attr{};
  JOSEKI_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
  const int limit = optin - static_cast<int>(attr.sharedSizeBytes);
  JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, limit));
  return limit;
}

// Host: launches a ring rung (r08, r11) on the plan: kernel(in, n, out, state, chunk_bytes, stages)
// with the ring's dynamic shared memory, which must be within the kernel's limit (raised once per
// kernel by allow_max_dynamic_smem, on its first launch); bad stages or chunk sizes throw naming the rung.
using RingKernel = void (*)(const std::uint32_t*, std::size_t, std::uint32_t*, SinglePassState*, unsigned, unsigned);
template <RingKernel kernel>
void launch_ring(const GpuArgs& a, cudaStream_t s, const char* rung) {
  static const int allowed = allow_max_dynamic_smem(kernel);
  const LaunchPlan& p = a.plan;
  if (p.stages < 2 || p.stages > MAX_STAGES || p.chunk_bytes < 16 || p.chunk_bytes % 16 != 0)
    throw std::invalid_argument(std::string(rung) + ": needs 2..16 stages and a chunk that is a multiple of 16 bytes");
  const std::size_t smem = RING_OFFSET + static_cast<std::size_t>(p.stages) * p.chunk_bytes;
  if (smem > static_cast<std::size_t>(allowed))
    throw std::invalid_argument(std::string(rung) + ": stages x chunk_bytes exceeds the shared memory per block");
  kernel<<<dev::grid_of(a), dev::block_of(a), smem, s>>>(a.d_in, a.n, a.d_out, static_cast<SinglePassState*>(a.d_work),
                                                         static_cast<unsigned>(p.chunk_bytes),
                                                         static_cast<unsigned>(p.stages));
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::reduce::bulk
