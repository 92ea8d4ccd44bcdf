// The diagnose probe's kernels (bad and fixed, per symptom).
#include <stdexcept>
#include <string>

#include "backend/cuda/check.hpp"
#include "experiments/probes/diagnose_kernels.hpp"
#include "experiments/probes/probe_device.cuh"

namespace joseki::probes {

namespace {

using dev::u32;

__global__ void diag_coalesce(const u32* __restrict__ d, std::size_t n, std::size_t stride, u32* partials) {
  const u32 s = dev::block_sum(dev::strided_partial<8>(d, n, stride, 0));
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}

__global__ void diag_smem_bad(const u32* __restrict__ in, u32* out, int reps) {
  out[dev::global_thread()] = dev::tile_reads<32, true>(in, reps, nullptr);
}

__global__ void diag_smem_fix(const u32* __restrict__ in, u32* out, int reps) {
  out[dev::global_thread()] = dev::tile_reads<33, true>(in, reps, nullptr);
}

// One element per thread; block sums with a barrier per level of a shared-memory tree.
__global__ void diag_barrier_bad(const u32* __restrict__ in, std::size_t n, u32* partials) {
  extern __shared__ u32 s_tree[];
  const std::size_t i = dev::global_thread();
  s_tree[threadIdx.x] = i < n ? in[i] : 0u;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) s_tree[threadIdx.x] += s_tree[threadIdx.x + half];
    __syncthreads();  // every level waits for the whole block, even when one warp is working
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = s_tree[0];
}

__global__ void diag_barrier_fix(const u32* __restrict__ in, std::size_t n, u32* partials) {
  const std::size_t i = dev::global_thread();
  const u32 s = dev::block_sum(i < n ? in[i] : 0u);  // shuffles, one barrier
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}

__global__ void diag_atomic_bad(const u32* __restrict__ in, const u32* __restrict__ slot, std::size_t n, u32* out) {
  dev::atomic_body<dev::ATOM_OPAQUE>(in, slot, n, out);
}

__global__ void diag_atomic_fix(const u32* __restrict__ in, const u32* __restrict__ slot, std::size_t n, u32* out) {
  dev::atomic_body<dev::ATOM_BLOCK>(in, slot, n, out);
}

__device__ __forceinline__ void stream_sum(const uint4* __restrict__ d, std::size_t n16, u32* partials) {
  u32 acc = 0;
  for (std::size_t i = dev::global_thread(); i < n16; i += dev::grid_threads()) {
    const uint4 v = d[i];
    acc += v.x + v.y + v.z + v.w;
  }
  const u32 s = dev::block_sum(acc);
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}

__global__ void diag_occupancy_bad(const uint4* __restrict__ d, std::size_t n16, u32* partials) {
  stream_sum(d, n16, partials);
}

__global__ void diag_occupancy_fix(const uint4* __restrict__ d, std::size_t n16, u32* partials) {
  stream_sum(d, n16, partials);
}

}  // namespace

namespace {
template <class F>
void with_diag_kernel(int kernel, F&& f) {
  switch (kernel) {
    case DIAG_COALESCE: f(diag_coalesce); break;
    case DIAG_SMEM_BAD: f(diag_smem_bad); break;
    case DIAG_SMEM_FIX: f(diag_smem_fix); break;
    case DIAG_BARRIER_BAD: f(diag_barrier_bad); break;
    case DIAG_BARRIER_FIX: f(diag_barrier_fix); break;
    case DIAG_ATOMIC_BAD: f(diag_atomic_bad); break;
    case DIAG_ATOMIC_FIX: f(diag_atomic_fix); break;
    case DIAG_OCC_BAD: f(diag_occupancy_bad); break;
    default: f(diag_occupancy_fix); break;
  }
}
}  // namespace

DiagOcc diag_occupancy(int kernel, int threads, std::size_t smem_bytes) {
  DiagOcc o;
  with_diag_kernel(kernel, [&](auto fn) {
    cudaFuncAttributes attr{};
    JOSEKI_CUDA_CHECK(cudaFuncGetAttributes(&attr, fn));
    int dev = 0, optin = 0;
    JOSEKI_CUDA_CHECK(cudaGetDevice(&dev));
    JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    o.static_smem = attr.sharedSizeBytes;
    o.regs = attr.numRegs;
    o.max_dynamic_smem = static_cast<std::size_t>(optin) > attr.sharedSizeBytes ? optin - attr.sharedSizeBytes : 0;
    if (smem_bytes > o.max_dynamic_smem || threads > attr.maxThreadsPerBlock) return;
    if (smem_bytes > static_cast<std::size_t>(attr.maxDynamicSharedSizeBytes))
      JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem_bytes)));
    JOSEKI_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&o.blocks_per_sm, fn, threads, smem_bytes));
  });
  return o;
}

const char* diag_kernel_name(int kernel) { return kernel >= 0 && kernel < DIAG_KERNELS ? DIAG_KERNEL_NAMES[kernel] : "?"; }

void launch_diag(int kernel, const DiagArgs& a, cudaStream_t s) {
  const dim3 g(static_cast<unsigned>(a.blocks)), b(static_cast<unsigned>(a.threads));
  const uint4* d16 = reinterpret_cast<const uint4*>(a.d_in);
  switch (kernel) {
    case DIAG_COALESCE: diag_coalesce<<<g, b, 0, s>>>(a.d_in, a.n, a.stride, a.d_out); break;
    case DIAG_SMEM_BAD: diag_smem_bad<<<g, b, 0, s>>>(a.d_in, a.d_out, a.reps); break;
    case DIAG_SMEM_FIX: diag_smem_fix<<<g, b, 0, s>>>(a.d_in, a.d_out, a.reps); break;
    case DIAG_BARRIER_BAD:
      diag_barrier_bad<<<g, b, static_cast<std::size_t>(a.threads) * sizeof(u32), s>>>(a.d_in, a.n, a.d_out);
      break;
    case DIAG_BARRIER_FIX: diag_barrier_fix<<<g, b, 0, s>>>(a.d_in, a.n, a.d_out); break;
    case DIAG_ATOMIC_BAD: diag_atomic_bad<<<g, b, 0, s>>>(a.d_in, a.d_slot, a.n, a.d_out); break;
    case DIAG_ATOMIC_FIX: diag_atomic_fix<<<g, b, 0, s>>>(a.d_in, a.d_slot, a.n, a.d_out); break;
    case DIAG_OCC_BAD: {
      // Opt in once (a timed launch makes no attribute call); the limit is optin - static.
      static std::size_t allowed = 0;
      if (a.smem_bytes > allowed) {
        const DiagOcc o = diag_occupancy(DIAG_OCC_BAD, a.threads, a.smem_bytes);
        if (o.blocks_per_sm == 0)
          throw std::invalid_argument("diag_occupancy_bad: " + std::to_string(a.smem_bytes) + " B of dynamic shared " +
                                      "memory with " + std::to_string(a.threads) + " threads cannot launch (at most " +
                                      std::to_string(o.max_dynamic_smem) + " B)");
        allowed = a.smem_bytes;
      }
      diag_occupancy_bad<<<g, b, a.smem_bytes, s>>>(d16, a.n, a.d_out);
      break;
    }
    default: diag_occupancy_fix<<<g, b, 0, s>>>(d16, a.n, a.d_out); break;
  }
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::probes
