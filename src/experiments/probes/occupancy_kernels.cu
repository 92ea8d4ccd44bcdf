// The occupancy probe's kernels. Occupancy is set from outside (dynamic shared memory per
// block, block size) or by the kernel's own register use (PAD live registers, read from the
// clock so the compiler can neither drop nor recompute them).
#include <stdexcept>
#include <string>
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

namespace {
// Attributes of the kernel and the device's shared-memory limits; no attribute is changed.
template <class F>
OccInfo attributes(F fn) {
  OccInfo info;
  cudaFuncAttributes attr{};
  JOSEKI_CUDA_CHECK(cudaFuncGetAttributes(&attr, fn));
  int dev = 0, optin = 0, reserved = 0, per_sm = 0;
  JOSEKI_CUDA_CHECK(cudaGetDevice(&dev));
  JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, dev));
  JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
  info.regs = attr.numRegs;
  info.spill_bytes = static_cast<int>(attr.localSizeBytes);
  info.max_threads = attr.maxThreadsPerBlock;
  info.static_smem = attr.sharedSizeBytes;
  info.reserved_smem = static_cast<std::size_t>(reserved);
  info.optin_smem = static_cast<std::size_t>(optin);
  info.smem_per_sm = static_cast<std::size_t>(per_sm);
  return info;
}

// Per kernel: its attributes and the dynamic size allowed so far, for the current device
// (queried once, so that a timed launch does no attribute calls).
struct Allowed {
  int device = -1;
  OccInfo info;
  std::size_t allowed = 0;
};
Allowed g_allowed[OCC_KERNELS];

template <class F>
Allowed& state(int kernel, F fn) {
  int dev = 0;
  JOSEKI_CUDA_CHECK(cudaGetDevice(&dev));
  Allowed& st = g_allowed[kernel];
  if (st.device != dev) {
    st.info = attributes(fn);
    st.allowed = 0;  // any dynamic size is set explicitly once (the default limit depends on the static size)
    st.device = dev;
  }
  return st;
}

// cudaFuncSetAttribute(MaxDynamicSharedMemorySize) accepts at most optin - static.
template <class F>
void allow_dynamic_smem(int kernel, F fn, std::size_t smem_bytes) {
  Allowed& st = state(kernel, fn);
  if (smem_bytes <= st.allowed) return;
  if (smem_bytes > st.info.max_dynamic_smem())
    throw std::invalid_argument("occupancy kernel " + std::string(occ_kernel_name(kernel)) + ": " +
                                std::to_string(smem_bytes) + " B of dynamic shared memory exceeds its limit of " +
                                std::to_string(st.info.max_dynamic_smem()) + " B (opt-in " +
                                std::to_string(st.info.optin_smem) + " B per block minus " +
                                std::to_string(st.info.static_smem) + " B static)");
  JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem_bytes)));
  st.allowed = smem_bytes;
}
}  // namespace

OccInfo occ_query(int kernel, int threads, std::size_t smem_bytes) {
  OccInfo info;
  with_kernel(kernel, [&](auto fn) {
    info = state(kernel, fn).info;
    info.blocks_per_sm = 0;
    if (threads > info.max_threads || smem_bytes > info.max_dynamic_smem()) return;  // not launchable: 0 blocks
    allow_dynamic_smem(kernel, fn, smem_bytes);
    JOSEKI_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&info.blocks_per_sm, fn, threads, smem_bytes));
  });
  return info;
}

void launch_occ(int kernel, const OccArgs& a, int blocks, int threads, std::size_t smem_bytes, cudaStream_t s) {
  with_kernel(kernel, [&](auto fn) {
    allow_dynamic_smem(kernel, fn, smem_bytes);
    if constexpr (std::is_same_v<decltype(fn), decltype(&occ_fma_kernel<1>)>)
      fn<<<blocks, threads, smem_bytes, s>>>(a.d_fin, a.n_in, a.d_fout, a.k);
    else
      fn<<<blocks, threads, smem_bytes, s>>>(a.d16, a.n16, a.d_partials, a.d_sink);
  });
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::probes
