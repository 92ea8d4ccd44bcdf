// Device-side pieces shared by the probes' .cu files (nvcc only): warp and block sums, and
// the kernel bodies that both a probe and the diagnose probe's ncu kernels run.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "backend/cuda/arch.cuh"
#include "experiments/probes/device_common.hpp"

namespace joseki::probes::dev {

using u32 = std::uint32_t;

__device__ __forceinline__ std::size_t global_thread() {
  return static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ std::size_t grid_threads() { return static_cast<std::size_t>(gridDim.x) * blockDim.x; }

__device__ __forceinline__ u32 warp_sum(u32 v) {
#pragma unroll
  for (int off = WARP / 2; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// Sum over the block (blockDim a multiple of 32), valid in thread 0. Every thread must call
// it, once per kernel (it owns a small static shared array).
__device__ __forceinline__ u32 block_sum(u32 v) {
  __shared__ u32 s_warp[32];
  v = warp_sum(v);
  if ((threadIdx.x & 31) == 0) s_warp[threadIdx.x >> 5] = v;
  __syncthreads();
  v = threadIdx.x < (blockDim.x >> 5) ? s_warp[threadIdx.x] : 0u;
  return threadIdx.x < 32 ? warp_sum(v) : 0u;
}

// Thread t of the grid adds d[i * stride + offset] for i = t, t + T, t + 2T, ... < n
// (T = grid threads), UNROLL loads in flight.
template <int UNROLL>
__device__ __forceinline__ u32 strided_partial(const u32* __restrict__ d, std::size_t n, std::size_t stride,
                                               std::size_t offset) {
  const std::size_t total = grid_threads();
  std::size_t i = global_thread();
  u32 acc = 0;
  for (; i + (UNROLL - 1) * total < n; i += UNROLL * total) {
    u32 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = d[(i + u * total) * stride + offset];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) acc += v[u];
  }
  for (; i < n; i += total) acc += d[i * stride + offset];
  return acc;
}

// The guide's tile: __shared__ tile[32][PITCH] filled with the block's 1024 input words
// (row-major), then every lane reads column c of its own row (COLUMN: tile[lane][c], the
// 32-way conflict when PITCH == 32) or row c (tile[c][lane], conflict-free), reps x 32 times.
// Volatile: every read is a real shared load. Block-level cycles in *cycles (thread 0).
template <int PITCH, bool COLUMN>
__device__ __forceinline__ u32 tile_reads(const u32* __restrict__ in, int reps, long long* cycles) {
  __shared__ u32 tile[32][PITCH];
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * 1024;
  for (int j = threadIdx.x; j < 1024; j += blockDim.x) tile[j / 32][j % 32] = in[base + j];
  __syncthreads();
  volatile u32(*t)[PITCH] = tile;
  const int lane = threadIdx.x & 31;
  u32 acc = 0;
  const long long t0 = clock64();
  for (int r = 0; r < reps; ++r) {
#pragma unroll
    for (int c = 0; c < 32; ++c) acc += COLUMN ? t[lane][c] : t[c][lane];
  }
  __syncthreads();
  if (cycles && threadIdx.x == 0) *cycles = clock64() - t0;
  return acc;
}

enum AtomicMode : int { ATOM_UNIFORM = 0, ATOM_OPAQUE = 1, ATOM_DISTINCT = 2, ATOM_WARP = 3, ATOM_BLOCK = 4 };

// One element per thread (the grid covers n rounded up to the block; no thread leaves early,
// so warp- and block-wide operations see every lane).
template <int MODE>
__device__ __forceinline__ void atomic_body(const u32* __restrict__ in, const u32* __restrict__ slot, std::size_t n,
                                            u32* out) {
  const std::size_t i = global_thread();
  const u32 v = i < n ? in[i] : 0u;
  if constexpr (MODE == ATOM_UNIFORM) {
    if (i < n) atomicAdd(out, v);  // address provably uniform: nvcc aggregates per warp
  } else if constexpr (MODE == ATOM_OPAQUE) {
    if (i < n) atomicAdd(out + slot[i], v);  // slot[i] == 0, but loaded: 32 atomics per warp
  } else if constexpr (MODE == ATOM_DISTINCT) {
    if (i < n) atomicAdd(out + i, v);
  } else if constexpr (MODE == ATOM_WARP) {
    // explicit warp sum (redux.sync from sm_80, five butterfly shuffles before), one lane's atomic
#if JOSEKI_ARCH_AT_LEAST(800)
    const u32 s = __reduce_add_sync(0xffffffffu, v);
#else
    u32 s = v;
#pragma unroll
    for (int m = 16; m > 0; m >>= 1) s += __shfl_xor_sync(0xffffffffu, s, m);
#endif
    if ((threadIdx.x & 31) == 0) atomicAdd(out + slot[i < n ? i : 0], s);
  } else {
    const u32 s = block_sum(v);  // hierarchy: block sum, then one atomic per block
    if (threadIdx.x == 0) atomicAdd(out + slot[i < n ? i : 0], s);
  }
}

}  // namespace joseki::probes::dev
