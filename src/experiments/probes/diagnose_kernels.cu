// The diagnose probe's kernels (bad and fixed, per symptom).
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
    case DIAG_OCC_BAD:
      JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(diag_occupancy_bad, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(a.smem_bytes)));
      diag_occupancy_bad<<<g, b, a.smem_bytes, s>>>(d16, a.n, a.d_out);
      break;
    default: diag_occupancy_fix<<<g, b, 0, s>>>(d16, a.n, a.d_out); break;
  }
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::probes
