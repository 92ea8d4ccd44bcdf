// The histogram half of the partition count (r03_partition_tc.cu, r04_partition_gemm.cu): one
// block of THREADS counts slice b's bucket into shared-memory counters. Device code only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "backend/cuda/arch.cuh"
#include "experiments/abc471g/gpu_pairs/kernels.hpp"

namespace joseki::abc471g::pairs {

inline constexpr int HIST_THREADS = 512;

// Programmatic dependent launch (sm_90): a kernel launched with
// cudaLaunchAttributeProgrammaticStreamSerialization may start while the previous kernel of its
// stream finishes; it waits here before it reads anything that kernel wrote. Below sm_90 there is
// no such launch (the host launches in plain stream order there: r04_partition_gemm.cu,
// launch_dependent), so the previous kernel has finished and there is nothing to wait for.
__device__ __forceinline__ void wait_for_previous_grid() {
#if JOSEKI_ARCH_AT_LEAST(900)
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// s_hist4 (a.slice counters, 16-byte aligned) receives the counts of bucket b; the bucket's
// cursor is reset for the next chunk. Returns the cursor as it was: more than a.cap when some of
// this slice's pairs spilled into the table. Ends with a barrier. DEPENDENT: launched as a
// programmatic dependent of the partition kernel (the counters are cleared before the wait).
template <int THREADS, bool DEPENDENT = false>
__device__ __forceinline__ std::uint32_t bucket_histogram(const PartitionArgs& a, std::uint32_t b, uint4* s_hist4) {
  std::uint32_t* s_hist = reinterpret_cast<std::uint32_t*>(s_hist4);
  for (std::uint32_t i = threadIdx.x; i < a.slice / 4; i += THREADS) s_hist4[i] = make_uint4(0, 0, 0, 0);
  if constexpr (DEPENDENT) wait_for_previous_grid();
  const std::uint32_t filled = a.d_cursor[b];
  const std::uint32_t n = filled < a.cap ? filled : a.cap;
  __syncthreads();
  const std::uint16_t* __restrict__ src = a.d_buf + static_cast<std::size_t>(b) * a.cap;  // cap % 8 == 0
  const uint4* src4 = reinterpret_cast<const uint4*>(src);
  const std::uint32_t n8 = n / 8;
  for (std::uint32_t i = threadIdx.x; i < n8; i += THREADS) {
    const uint4 v = __ldcs(src4 + i);  // read once: do not keep it in L2
    const std::uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      atomicAdd(&s_hist[w[e] & 0xFFFFu], 1u);
      atomicAdd(&s_hist[w[e] >> 16], 1u);
    }
  }
  for (std::uint32_t i = n8 * 8 + threadIdx.x; i < n; i += THREADS) atomicAdd(&s_hist[src[i]], 1u);
  __syncthreads();
  if (threadIdx.x == 0) a.d_cursor[b] = 0;  // the bucket is empty again for the next chunk
  return filled;
}

}  // namespace joseki::abc471g::pairs
