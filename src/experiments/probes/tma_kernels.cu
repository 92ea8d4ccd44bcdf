// The tma probe's kernels. The bulk-copy ring is the shape of reduce r08 (one thread issues
// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes per stage; all threads
// mbarrier.try_wait.parity on it; a block barrier before a stage is refilled), written here on its
// own so the probe can vary the tile and the stages alone. PTX forms as in the PTX ISA 8.x:
// mbarrier.init.shared::cta.b64, fence.mbarrier_init.release.cluster, fence.proxy.async.shared::cta,
// mbarrier.arrive.expect_tx.shared::cta.b64, mbarrier.try_wait.parity.shared::cta.b64.
#include "backend/cuda/check.hpp"
#include "experiments/probes/hopper_device.cuh"
#include "experiments/probes/probe_device.cuh"
#include "experiments/probes/tma_kernels.hpp"

namespace joseki::probes {

namespace {

using u32 = std::uint32_t;

#if JOSEKI_SM90_CODE
__device__ __forceinline__ unsigned saddr(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void bulk_issue(void* dst, const void* src, unsigned bytes, unsigned long long* bar) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(saddr(bar)), "r"(bytes) : "memory");
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   saddr(dst)),
               "l"(src), "r"(bytes), "r"(saddr(bar))
               : "memory");
}

__device__ __forceinline__ void bar_wait(unsigned long long* bar, unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile(
        "{\n"
        " .reg .pred p;\n"
        " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        " selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(done)
        : "r"(saddr(bar)), "r"(parity)
        : "memory");
  } while (!done);
}
#endif

__global__ void tma_stream_kernel(const unsigned char* __restrict__ d, std::size_t tiles, unsigned tile_bytes,
                                  unsigned stages, u32* partials) {
#if JOSEKI_SM90_CODE
  extern __shared__ __align__(128) unsigned char smem[];
  auto* bars = reinterpret_cast<unsigned long long*>(smem);
  unsigned char* ring = smem + TMA_RING_OFFSET;
  // This block's tiles: blockIdx.x, blockIdx.x + gridDim.x, ...
  const std::size_t mine = tiles > blockIdx.x ? (tiles - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
  auto src = [&](std::size_t k) { return d + (blockIdx.x + k * gridDim.x) * static_cast<std::size_t>(tile_bytes); };
  if (threadIdx.x == 0) {
    for (unsigned st = 0; st < stages; ++st)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(saddr(&bars[st])), "r"(1u) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    for (unsigned st = 0; st < stages && st < mine; ++st) bulk_issue(ring + st * tile_bytes, src(st), tile_bytes, &bars[st]);
  }
  __syncthreads();  // the barriers are initialised before anyone waits on them
  u32 acc = 0;
  const unsigned words = tile_bytes / 16;
  for (std::size_t k = 0; k < mine; ++k) {
    const unsigned st = static_cast<unsigned>(k % stages);
    bar_wait(&bars[st], static_cast<unsigned>((k / stages) & 1));
    const uint4* buf = reinterpret_cast<const uint4*>(ring + st * tile_bytes);
    for (unsigned j = threadIdx.x; j < words; j += blockDim.x) {
      const uint4 v = buf[j];
      acc += v.x + v.y + v.z + v.w;
    }
    __syncthreads();  // every thread has read stage st before it is refilled
    if (threadIdx.x == 0 && k + stages < mine) {
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // generic reads before the async write
      bulk_issue(ring + st * tile_bytes, src(k + stages), tile_bytes, &bars[st]);
    }
  }
  const u32 sum = dev::block_sum(acc);
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
#else
  JOSEKI_NOT_HERE();
#endif
}

template <int UNROLL>
__global__ void vec_stream_kernel(const uint4* __restrict__ d, std::size_t n16, u32* partials) {
  const std::size_t total = dev::grid_threads();
  std::size_t i = dev::global_thread();
  u32 acc = 0;
  for (; i + (UNROLL - 1) * total < n16; i += UNROLL * total) {
    uint4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = d[i + u * total];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) acc += v[u].x + v[u].y + v[u].z + v[u].w;
  }
  for (; i < n16; i += total) {
    const uint4 v = d[i];
    acc += v.x + v.y + v.z + v.w;
  }
  const u32 sum = dev::block_sum(acc);
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

std::size_t ring_bytes(unsigned tile_bytes, int stages) {
  return TMA_RING_OFFSET + static_cast<std::size_t>(stages) * tile_bytes;
}

}  // namespace

void launch_tma_stream(const void* d, std::size_t bytes, unsigned tile_bytes, int stages, int blocks, int threads,
                       std::uint32_t* d_partials, cudaStream_t s) {
  const std::size_t smem = ring_bytes(tile_bytes, stages);
  JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(tma_stream_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  tma_stream_kernel<<<blocks, threads, smem, s>>>(static_cast<const unsigned char*>(d), bytes / tile_bytes, tile_bytes,
                                                  static_cast<unsigned>(stages), d_partials);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

int tma_blocks_per_sm(unsigned tile_bytes, int stages, int threads) {
  const std::size_t smem = ring_bytes(tile_bytes, stages);
  // Above the per-block limit (opt-in minus the kernel's static shared memory) no block fits: decided
  // here, not by a failing cudaFuncSetAttribute (compute-sanitizer reports every failing API call).
  int dev_id = 0, optin = 0;
  JOSEKI_CUDA_CHECK(cudaGetDevice(&dev_id));
  JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev_id));
  cudaFuncAttributes attr{};
  JOSEKI_CUDA_CHECK(cudaFuncGetAttributes(&attr, tma_stream_kernel));
  if (smem + attr.sharedSizeBytes > static_cast<std::size_t>(optin)) return 0;
  JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(tma_stream_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  int n = 0;
  JOSEKI_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, tma_stream_kernel, threads, smem));
  return n;
}

void launch_vec_stream(const uint4* d, std::size_t n16, int unroll, int blocks, int threads, std::uint32_t* d_partials,
                       cudaStream_t s) {
  if (unroll == 4)
    vec_stream_kernel<4><<<blocks, threads, 0, s>>>(d, n16, d_partials);
  else
    vec_stream_kernel<1><<<blocks, threads, 0, s>>>(d, n16, d_partials);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::probes
