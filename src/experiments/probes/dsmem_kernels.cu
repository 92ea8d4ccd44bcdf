// The dsmem probe's kernels: pointer chases in local / peer shared memory and in the L2, and the
// distributed-shared-memory read bandwidth. sm_90 code behind JOSEKI_SM90_CODE (hopper_device.cuh).
#include <cooperative_groups.h>

#include "backend/cuda/check.hpp"
#include "experiments/probes/dsmem_kernels.hpp"
#include "experiments/probes/hopper_device.cuh"
#include "experiments/probes/probe_device.cuh"

namespace cg = cooperative_groups;

namespace joseki::probes {

namespace {

using u32 = std::uint32_t;

#if JOSEKI_SM90_CODE
__device__ __forceinline__ u32 chase(const u32* p, u32 x, int n) {
  for (int i = 0; i < n; ++i) x = p[x];  // each load's address is the previous load's value
  return x;
}
#endif

__global__ void dsmem_chase_kernel(const u32* __restrict__ next, u32 words, int target, u32 start, int warm, int steps,
                                   long long* cycles, u32* end) {
#if JOSEKI_SM90_CODE
  extern __shared__ u32 ring[];
  cg::cluster_group cluster = cg::this_cluster();
  for (u32 i = threadIdx.x; i < words; i += blockDim.x) ring[i] = next[i];
  cluster.sync();  // every block's ring is written (and visible cluster-wide) before anyone chases
  if (cluster.block_rank() == 0 && threadIdx.x == 0) {
    u32 x = start;
    long long t0 = 0, t1 = 0;
    if (target == 0) {  // plain shared pointer: LDS
      x = chase(ring, x, warm);
      t0 = clock64();
      x = chase(ring, x, steps);
      t1 = clock64();
    } else {  // the peer's shared memory through the cluster window: generic loads over the SM-to-SM network
      const u32* peer = cluster.map_shared_rank(ring, static_cast<unsigned>(target));
      x = chase(peer, x, warm);
      t0 = clock64();
      x = chase(peer, x, steps);
      t1 = clock64();
    }
    *cycles = t1 - t0;
    *end = x;
  }
  cluster.sync();  // no block leaves while a peer may still read its shared memory
#else
  JOSEKI_NOT_HERE();
#endif
}

__global__ void l2_chase_kernel(const u32* next, u32 start, int warm, int steps, long long* cycles, u32* end) {
  u32 x = start;
  for (int i = 0; i < warm; ++i) x = __ldcg(next + x);
  const long long t0 = clock64();
  for (int i = 0; i < steps; ++i) x = __ldcg(next + x);  // .cg: cached in the L2 only
  const long long t1 = clock64();
  *cycles = t1 - t0;
  *end = x;
}

template <bool REMOTE>
__global__ void __launch_bounds__(1024) dsmem_read_kernel(u32 words, int reps, u32 seed, u32* partials, u32* ranks) {
#if JOSEKI_SM90_CODE
  extern __shared__ uint4 buf4[];
  u32* buf = reinterpret_cast<u32*>(buf4);
  cg::cluster_group cluster = cg::this_cluster();
  const u32 rank = cluster.block_rank(), size = cluster.num_blocks();
  for (u32 i = threadIdx.x; i < words; i += blockDim.x) buf[i] = mix32(static_cast<std::uint64_t>(rank) * words + i, seed);
  cluster.sync();
  const uint4* src = REMOTE ? cluster.map_shared_rank(buf4, (rank + 1) % size) : buf4;
  const u32 n4 = words / 4;  // a power of two
  u32 acc = 0;
  for (int r = 0; r < reps; ++r) {
    // A rotation per repetition: every 16-byte word once per repetition, at an address the compiler
    // cannot prove repeats (no load is hoisted out of the repetition loop).
    const u32 rot = static_cast<u32>(r) * 97u;
    for (u32 j = threadIdx.x; j < n4; j += blockDim.x) {
      const uint4 v = src[(j + rot) & (n4 - 1)];
      acc += v.x + v.y + v.z + v.w;
    }
  }
  const u32 sum = dev::block_sum(acc);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = sum;
    ranks[blockIdx.x] = rank;
  }
  cluster.sync();  // the peer reading this block's buffer is done before the block exits
#else
  JOSEKI_NOT_HERE();
#endif
}

template <class Kernel>
cudaLaunchConfig_t cluster_config(Kernel kernel, int cluster, int blocks, int threads, std::size_t smem,
                                  cudaLaunchAttribute* attr, cudaStream_t s) {
  JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  if (cluster > 8) JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(static_cast<unsigned>(blocks));
  cfg.blockDim = dim3(static_cast<unsigned>(threads));
  cfg.dynamicSmemBytes = smem;
  cfg.stream = s;
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = static_cast<unsigned>(cluster);
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  return cfg;
}

}  // namespace

void launch_dsmem_chase(const std::uint32_t* d_next, std::uint32_t words, int cluster, int target, std::uint32_t start,
                        int warm, int steps, long long* d_cycles, std::uint32_t* d_end, cudaStream_t s) {
  cudaLaunchAttribute attr[1];
  cudaLaunchConfig_t cfg = cluster_config(dsmem_chase_kernel, cluster, cluster, 64, std::size_t{words} * 4, attr, s);
  JOSEKI_CUDA_CHECK(cudaLaunchKernelEx(&cfg, dsmem_chase_kernel, d_next, words, target, start, warm, steps, d_cycles, d_end));
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_l2_chase(const std::uint32_t* d_next, std::uint32_t start, int warm, int steps, long long* d_cycles,
                     std::uint32_t* d_end, cudaStream_t s) {
  l2_chase_kernel<<<1, 1, 0, s>>>(d_next, start, warm, steps, d_cycles, d_end);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_dsmem_read(bool remote, int cluster, int blocks, int threads, std::uint32_t words, int reps,
                       std::uint32_t seed, std::uint32_t* d_partials, std::uint32_t* d_ranks, cudaStream_t s) {
  cudaLaunchAttribute attr[1];
  const std::size_t smem = std::size_t{words} * 4;
  if (remote) {
    cudaLaunchConfig_t cfg = cluster_config(dsmem_read_kernel<true>, cluster, blocks, threads, smem, attr, s);
    JOSEKI_CUDA_CHECK(cudaLaunchKernelEx(&cfg, dsmem_read_kernel<true>, words, reps, seed, d_partials, d_ranks));
  } else {
    cudaLaunchConfig_t cfg = cluster_config(dsmem_read_kernel<false>, cluster, blocks, threads, smem, attr, s);
    JOSEKI_CUDA_CHECK(cudaLaunchKernelEx(&cfg, dsmem_read_kernel<false>, words, reps, seed, d_partials, d_ranks));
  }
  JOSEKI_CUDA_CHECK_LAUNCH();
}

int dsmem_max_clusters(bool remote, int cluster, int threads, std::uint32_t words) {
  cudaLaunchAttribute attr[1];
  const std::size_t smem = std::size_t{words} * 4;
  int n = 0;
  cudaError_t e;
  if (remote) {
    cudaLaunchConfig_t cfg = cluster_config(dsmem_read_kernel<true>, cluster, cluster, threads, smem, attr, nullptr);
    e = cudaOccupancyMaxActiveClusters(&n, dsmem_read_kernel<true>, &cfg);
  } else {
    cudaLaunchConfig_t cfg = cluster_config(dsmem_read_kernel<false>, cluster, cluster, threads, smem, attr, nullptr);
    e = cudaOccupancyMaxActiveClusters(&n, dsmem_read_kernel<false>, &cfg);
  }
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // an unsupported cluster size is an answer (0), not a sticky error
    return 0;
  }
  return n;
}

}  // namespace joseki::probes
