// The histogram half of the partition count (r03_partition_tc.cu, r04_partition_gemm.cu): one
// block of THREADS counts slice b's bucket into shared-memory counters. Device code only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "backend/cuda/arch.cuh"
#include "experiments/abc471g/gpu_pairs/kernels.hpp"

namespace joseki::abc471g::pairs {

inline constexpr int HIST_THREADS = 512;

// A histogram block's dynamic shared memory for slices of `slice` cells (a multiple of 4): the counters and
// four spare ones (bucket_histogram).
inline std::size_t hist_smem_bytes(std::uint32_t slice) { return (static_cast<std::size_t>(slice) + 4) * sizeof(std::uint32_t); }

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

// s_hist4 (a.slice counters and 4 spare ones, 16-byte aligned: hist_smem_bytes) receives the counts of bucket b;
// counter a.slice counts the holes of r30's paired write-out (entries with offset a.slice), never read. The bucket's
// cursor is reset for the next chunk. Returns the cursor as it was: more than a.cap when some of
// this slice's pairs spilled into the table. Ends with a barrier. DEPENDENT: launched as a
// programmatic dependent of the partition kernel (the counters are cleared before the wait).
// LOADS (PartitionArgs::hist_loads, r29): 16-byte loads each thread has in flight before it counts them (1:
// one load, eight atomics, the next load; with one block of 1024 threads a SM that is 16 KiB in flight a SM).
template <int THREADS, bool DEPENDENT = false, int LOADS = 1>
__device__ __forceinline__ std::uint32_t bucket_histogram(const PartitionArgs& a, std::uint32_t b, uint4* s_hist4) {
  static_assert(LOADS >= 1 && LOADS <= 8, "1 .. 8 loads in flight a thread");
  std::uint32_t* s_hist = reinterpret_cast<std::uint32_t*>(s_hist4);
  for (std::uint32_t i = threadIdx.x; i <= a.slice / 4; i += THREADS) s_hist4[i] = make_uint4(0, 0, 0, 0);
  if constexpr (DEPENDENT) wait_for_previous_grid();
  std::uint32_t* const cursor = a.d_cursor + static_cast<std::size_t>(b) * a.cursor_stride;  // r63: one line a cursor
  const std::uint32_t filled = *cursor;
  const std::uint32_t n = filled < a.cap ? filled : a.cap;
  __syncthreads();
  const std::uint16_t* __restrict__ src = a.d_buf + static_cast<std::size_t>(b) * a.cap;  // cap % 8 == 0
  const uint4* src4 = reinterpret_cast<const uint4*>(src);
  const std::uint32_t n8 = n / 8;
  auto count8 = [&](const uint4 v) {
    const std::uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      atomicAdd(&s_hist[w[e] & 0xFFFFu], 1u);
      atomicAdd(&s_hist[w[e] >> 16], 1u);
    }
  };
  std::uint32_t i = threadIdx.x;
  if constexpr (LOADS > 1) {  // LOADS coalesced loads issued together, then their 8 * LOADS atomics
    for (; i + (LOADS - 1) * THREADS < n8; i += LOADS * THREADS) {
      uint4 v[LOADS];
#pragma unroll
      for (int u = 0; u < LOADS; ++u) v[u] = __ldcs(src4 + i + u * THREADS);  // read once: do not keep it in L2
#pragma unroll
      for (int u = 0; u < LOADS; ++u) count8(v[u]);
    }
  }
  for (; i < n8; i += THREADS) count8(__ldcs(src4 + i));
  for (std::uint32_t j = n8 * 8 + threadIdx.x; j < n; j += THREADS) atomicAdd(&s_hist[src[j]], 1u);
  __syncthreads();
  if (threadIdx.x == 0) *cursor = 0;  // the bucket is empty again for the next chunk
  return filled;
}

}  // namespace joseki::abc471g::pairs
