// The occupancy probe's kernels. Occupancy is set from outside (dynamic shared memory per
// block, block size) or by the kernel's own register use (PAD live registers, read from the
// clock so the compiler can neither drop nor recompute them).
#include <type_traits>

#include "backend/cuda/check.hpp"
#include "experiments/probes/occupancy_kernels.hpp"
#include "experiments/probes/probe_device.cuh"

namespace joseki::probes {

namespace {

template <int ILP, int PAD>
__global__ void __launch_bounds__(PAD == 0 ? 1024 : 128, PAD == 0 ? 2 : 1)
    occ_mem_kernel(const uint4* __restrict__ d, std::size_t n16, std::uint32_t* partials, std::uint32_t* sink) {
  std::uint32_t pad[PAD > 0 ? PAD : 1];
  if constexpr (PAD > 0) {
#pragma unroll
    for (int k = 0; k < PAD; ++k) asm volatile("mov.u32 %0, %%clock;" : "=r"(pad[k]));
  }
  const std::size_t stride = dev::grid_threads();
  std::size_t i = dev::global_thread();
  std::uint32_t acc = 0;
#pragma unroll 1
  for (; i + (ILP - 1) * stride < n16; i += ILP * stride) {
    uint4 v[ILP];
#pragma unroll
    for (int u = 0; u < ILP; ++u) v[u] = d[i + u * stride];
#pragma unroll
    for (int u = 0; u < ILP; ++u) acc += v[u].x + v[u].y + v[u].z + v[u].w;
  }
  for (; i < n16; i += stride) {
    const uint4 v = d[i];
    acc += v.x + v.y + v.z + v.w;
  }
  const std::uint32_t s = dev::block_sum(acc);
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
  if constexpr (PAD > 0) {
    std::uint32_t x = 0;
#pragma unroll
    for (int k = 0; k < PAD; ++k) x = x * 3u + pad[k];  // every pad value stays live to here
    if (x == SINK_MAGIC) *sink = x;
  }
}

template <int ILP>
__global__ void __launch_bounds__(1024, 2) occ_fma_kernel(const float* __restrict__ in, std::size_t n_in, float* out, int k) {
  const std::size_t t = dev::global_thread();
  out[t] = fma_chains<ILP>(in[t % n_in], k);
}

template <class F>
void with_kernel(int kernel, F&& f) {
  switch (kernel) {
    case OCC_MEM_ILP1: f(occ_mem_kernel<1, 0>); break;
    case OCC_MEM_ILP4: f(occ_mem_kernel<4, 0>); break;
    case OCC_MEM_PAD64: f(occ_mem_kernel<1, 64>); break;
    case OCC_MEM_PAD160: f(occ_mem_kernel<1, 160>); break;
    case OCC_FMA_ILP1: f(occ_fma_kernel<1>); break;
    case OCC_FMA_ILP2: f(occ_fma_kernel<2>); break;
    default: f(occ_fma_kernel<4>); break;
  }
}

}  // namespace

const char* occ_kernel_name(int kernel) {
  static const char* names[OCC_KERNELS] = {"mem_ilp1", "mem_ilp4", "mem_ilp1_regs+64", "mem_ilp1_regs+160",
                                           "fma_ilp1", "fma_ilp2", "fma_ilp4"};
  return kernel >= 0 && kernel < OCC_KERNELS ? names[kernel] : "?";
}

OccInfo occ_query(int kernel, int threads, std::size_t smem_bytes) {
  OccInfo info;
  with_kernel(kernel, [&](auto fn) {
    JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem_bytes)));
    cudaFuncAttributes attr{};
    JOSEKI_CUDA_CHECK(cudaFuncGetAttributes(&attr, fn));
    info.regs = attr.numRegs;
    info.spill_bytes = static_cast<int>(attr.localSizeBytes);
    if (threads > attr.maxThreadsPerBlock) return;  // launch bounds: 0 blocks
    JOSEKI_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&info.blocks_per_sm, fn, threads, smem_bytes));
  });
  return info;
}

void launch_occ(int kernel, const OccArgs& a, int blocks, int threads, std::size_t smem_bytes, cudaStream_t s) {
  with_kernel(kernel, [&](auto fn) {
    JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem_bytes)));
    if constexpr (std::is_same_v<decltype(fn), decltype(&occ_fma_kernel<1>)>)
      fn<<<blocks, threads, smem_bytes, s>>>(a.d_fin, a.n_in, a.d_fout, a.k);
    else
      fn<<<blocks, threads, smem_bytes, s>>>(a.d16, a.n16, a.d_partials, a.d_sink);
  });
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::probes
