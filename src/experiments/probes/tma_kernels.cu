// The tma probe's kernels. The bulk-copy ring IS reduce r08/r11's (experiments/reduce/bulk.cuh,
// sum_through_ring: one thread issues cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// per stage; all threads mbarrier.try_wait.parity on it; a block barrier before a stage is refilled),
// shared rather than copied (it was a copy until issue 19's duplicate D1), so the probe varies the
// tile and the stages of the very code the rungs run. PTX forms as in the PTX ISA 8.x:
// mbarrier.init.shared::cta.b64, fence.mbarrier_init.release.cluster, fence.proxy.async.shared::cta,
// mbarrier.arrive.expect_tx.shared::cta.b64, mbarrier.try_wait.parity.shared::cta.b64.
#include "backend/cuda/check.hpp"
#include "experiments/probes/hopper_device.cuh"
#include "experiments/probes/probe_device.cuh"
#include "experiments/probes/tma_kernels.hpp"
#include "experiments/reduce/bulk.cuh"

namespace joseki::probes {

namespace {

using u32 = std::uint32_t;
static_assert(TMA_RING_OFFSET == reduce::bulk::RING_OFFSET, "the probe sizes the ring reduce's kernels use");

__global__ void tma_stream_kernel(const unsigned char* __restrict__ d, std::size_t tiles, unsigned tile_bytes,
                                  unsigned stages, u32* partials) {
#if JOSEKI_SM90_CODE
  extern __shared__ __align__(128) unsigned char smem[];
  // This block's tiles: blockIdx.x, blockIdx.x + gridDim.x, ... through reduce's ring (r08/r11's code).
  const std::size_t mine = tiles > blockIdx.x ? (tiles - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
  const u32 acc = reduce::bulk::sum_through_ring(
      smem, stages, tile_bytes, mine,
      [&](std::size_t k) { return d + (blockIdx.x + k * gridDim.x) * static_cast<std::size_t>(tile_bytes); },
      [&](std::size_t) { return tile_bytes; });
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
