// Device pieces shared by the reduction ladder's rungs: warp and block sums (shared tree,
// shuffle, redux.sync), the 16-byte tile loop with its scalar head and tail, and the
// single-pass finish (last block done publishes the total). Included by .cu files only.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "backend/cuda/arch.cuh"
#include "backend/cuda/check.hpp"
#include "experiments/reduce/rung.hpp"

namespace joseki::reduce::dev {

constexpr unsigned FULL_MASK = 0xffffffffu;

// For kernels launched as "one full wave" (SMs x the threads an SM holds): few enough registers
// per thread that a whole SM's worth of threads fits in its 64K registers whatever the block size
// (<= 1024), on every architecture: 32 where an SM holds 2048 threads (sm_80, sm_90, sm_100),
// 40 where it holds 1536 (sm_86, sm_87, sm_89, sm_120: there __launch_bounds__(1024, 2) is out of
// range and ptxas ignored it, giving r06 at unroll 8 58 registers: no full wave), 64 where it
// holds 1024 (sm_75). The host pass (no __CUDA_ARCH__) sees the first form; only the device
// passes allocate registers.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define JOSEKI_FULL_WAVE __launch_bounds__(1024, 1)
#elif defined(__CUDA_ARCH__) && ((__CUDA_ARCH__ >= 860 && __CUDA_ARCH__ < 900) || __CUDA_ARCH__ >= 1200)
#define JOSEKI_FULL_WAVE __maxnreg__(40)
#else
#define JOSEKI_FULL_WAVE __launch_bounds__(1024, 2)
#endif

__device__ __forceinline__ std::uint32_t sum4(const uint4& v) { return v.x + v.y + v.z + v.w; }

__device__ __forceinline__ std::size_t global_thread() {
  return static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ std::size_t grid_threads() { return static_cast<std::size_t>(gridDim.x) * blockDim.x; }

// The seed's v2 tree: s[] holds blockDim.x values (a power of two), halved level by level
// with a barrier per level. Returns the block's sum in thread 0.
__device__ __forceinline__ std::uint32_t block_sum_tree(std::uint32_t v, std::uint32_t* s) {
  const unsigned t = threadIdx.x;
  s[t] = v;
  __syncthreads();  // every value is in shared memory before the first level reads it
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();  // the next level reads what this level wrote
  }
  return t == 0 ? s[0] : 0u;
}

// Five shuffle steps: lane 0 ends with the warp's sum.
__device__ __forceinline__ std::uint32_t warp_sum_shfl(std::uint32_t v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(FULL_MASK, v, offset);
  return v;
}

// One instruction (REDUX.SUM, sm_80+): every lane gets the warp's sum. Below sm_80 (no
// redux.sync) the same result from five butterfly shuffles, so that the rungs after r04b, which
// use it only for their block sum, still run exactly there; r04b itself, whose point is the
// instruction, declares Feature::ReduxSync and is skipped below sm_80 (rungs.def).
__device__ __forceinline__ std::uint32_t warp_sum_redux(std::uint32_t v) {
#if JOSEKI_ARCH_AT_LEAST(800)
  return __reduce_add_sync(FULL_MASK, v);
#else
#pragma unroll
  for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(FULL_MASK, v, m);
  return v;
#endif
}

// Warp sums -> one shared slot per warp -> the first warp sums the slots. One barrier.
// blockDim.x must be a multiple of 32 (full warps). Returns the block's sum in thread 0.
template <bool REDUX>
__device__ __forceinline__ std::uint32_t block_sum_warps(std::uint32_t v) {
  __shared__ std::uint32_t s_warp[32];
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  v = REDUX ? warp_sum_redux(v) : warp_sum_shfl(v);
  if (lane == 0) s_warp[warp] = v;
  __syncthreads();  // every warp's sum is in shared memory
  v = 0;
  if (warp == 0) {
    v = lane < (blockDim.x >> 5) ? s_warp[lane] : 0u;
    v = REDUX ? warp_sum_redux(v) : warp_sum_shfl(v);
  }
  return threadIdx.x == 0 ? v : 0u;
}

// The scalars before and after the 16-byte body, one per thread of the first threads.
__device__ __forceinline__ std::uint32_t sum_head_tail(const std::uint32_t* in, std::size_t n, const VecSplit& sp) {
  const std::size_t g = global_thread();
  std::uint32_t s = 0;
  if (g < sp.head) s += in[g];
  if (g < sp.tail) s += in[n - sp.tail + g];
  return s;
}

// The body in tiles of blockDim.x * UNROLL 16-byte words. In each round every block takes one
// tile (tile = round * gridDim.x + blockIdx.x) and each thread issues UNROLL independent
// loads (blockDim.x words apart, so that every load instruction of a warp reads 512
// contiguous bytes) before it adds any of them. The words after the last whole round (fewer
// than one tile per block) are spread over all threads, UNROLL predicated loads each, so
// that no block ends a whole tile after the others.
// The index math is rung.hpp's tile_walk (unit-tested on the host by emulating the grid).
template <int UNROLL, class Load>
__device__ __forceinline__ std::uint32_t sum_tiles(const uint4* v, std::size_t nvec, Load load) {
  const TileWalk w = tile_walk(nvec, blockDim.x, gridDim.x, UNROLL);
  std::uint32_t sum = 0;
#pragma unroll 1  // UNROLL loads in flight means UNROLL, not UNROLL x the compiler's unrolling
  for (std::size_t k = 0; k < w.rounds; ++k) {
    const uint4* p = v + tile_word(w, k, blockIdx.x, threadIdx.x);
    uint4 r[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) r[u] = load(p + static_cast<std::size_t>(u) * blockDim.x);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) sum += sum4(r[u]);
  }
  // The rest: fewer than grid_threads() * UNROLL words, so UNROLL loads per thread cover it.
  const std::size_t base = rest_word(w, global_thread());
  uint4 r[UNROLL];
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) {
    const std::size_t i = base + static_cast<std::size_t>(u) * grid_threads();
    r[u] = i < nvec ? load(v + i) : make_uint4(0, 0, 0, 0);
  }
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) sum += sum4(r[u]);
  return sum;
}

struct PlainLoad {
  __device__ __forceinline__ uint4 operator()(const uint4* p) const { return *p; }
};

// The block's sum in thread 0 from each thread's share of the 16-byte body: the share plus the
// thread's scalars of the head and tail (sum_head_tail), then the warp sums (redux.sync) and one
// barrier (block_sum_warps). The end of every rung from r05 on (r08 and r11 get the share from the ring).
__device__ __forceinline__ std::uint32_t block_sum_with_head_tail(std::uint32_t body_share, const std::uint32_t* in,
                                                                  std::size_t n, const VecSplit& sp) {
  body_share += sum_head_tail(in, n, sp);
  return block_sum_warps<true>(body_share);
}

// The vector rungs' (r05..r07, r09, r10) block sum: the input split at its 16-byte boundaries
// (vec_split), the body read in tiles of UNROLL loads per thread (sum_tiles with `load`), then
// block_sum_with_head_tail. Returns the block's sum in thread 0; each rung adds its own finish.
template <int UNROLL, class Load>
__device__ __forceinline__ std::uint32_t vector_block_sum(const std::uint32_t* in, std::size_t n, Load load) {
  const VecSplit sp = vec_split(reinterpret_cast<std::uintptr_t>(in), n);
  const uint4* body = reinterpret_cast<const uint4*>(in + sp.head);
  return block_sum_with_head_tail(sum_tiles<UNROLL>(body, sp.nvec, load), in, n, sp);
}

// The last block done publishes the total: every block adds its sum to st->acc, fences,
// and takes a ticket; the block with the last ticket sees every other block's add, writes
// the total to *out and resets the state for the next launch. Call from every thread;
// block_sum is meaningful in thread 0.
__device__ __forceinline__ void single_pass_finish(std::uint32_t block_sum, SinglePassState* st, std::uint32_t* out) {
  if (threadIdx.x != 0) return;
  atomicAdd(&st->acc, block_sum);
  __threadfence();  // our add is visible device-wide before our ticket is
  const unsigned ticket = atomicAdd(&st->count, 1u);
  if (ticket == gridDim.x - 1) {
    __threadfence();  // every other block's add (ordered before its ticket) is visible to us
    *out = atomicExch(&st->acc, 0u);
    atomicExch(&st->count, 0u);
  }
}

// r09 and r11: the same publication with ONE atomic per block and no fence. The 64-bit word
// holds the running total in its high half and the count of finished blocks in its low half;
// each block adds (sum << 32) | 1. Atomics on one address are totally ordered, so the block
// whose add returns count == grid - 1 is the last, and the value it gets back already holds
// every other block's sum: no __threadfence is needed (the data and the ticket are the same
// word). The total wraps mod 2^32 in the high half (the carry out of bit 63 is dropped); the
// count cannot carry into it (grid < 2^32). The last block writes the total and resets the
// word; the next launch is ordered after this one by the stream. Call from every thread.
__device__ __forceinline__ void packed_ticket_finish(std::uint32_t block_sum, SinglePassState* st,
                                                     std::uint32_t* out) {
  if (threadIdx.x != 0) return;
  auto* word = reinterpret_cast<unsigned long long*>(st);
  const unsigned long long old = atomicAdd(word, (static_cast<unsigned long long>(block_sum) << 32) | 1ull);
  if (static_cast<unsigned>(old) == gridDim.x - 1) {
    *out = static_cast<std::uint32_t>(old >> 32) + block_sum;
    atomicExch(word, 0ull);
  }
}

// The single-pass rungs' workspace (r06..r09, r11): one SinglePassState, zeroed once at setup.
inline std::size_t single_pass_workspace(std::size_t) { return sizeof(SinglePassState); }

inline unsigned grid_of(const GpuArgs& a) { return static_cast<unsigned>(a.plan.grid); }
inline unsigned block_of(const GpuArgs& a) { return static_cast<unsigned>(a.plan.block); }

// The rungs that add into d_out[0] (Output::Word, the sum built by atomics): zero it, launch
// kernel(in, n, out) on the plan with `smem` bytes of dynamic shared memory, check the launch.
using AddingKernel = void (*)(const std::uint32_t*, std::size_t, std::uint32_t*);
inline void launch_adding(AddingKernel kernel, const GpuArgs& a, cudaStream_t s, std::size_t smem = 0) {
  JOSEKI_CUDA_CHECK(cudaMemsetAsync(a.d_out, 0, sizeof(std::uint32_t), s));
  kernel<<<grid_of(a), block_of(a), smem, s>>>(a.d_in, a.n, a.d_out);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

// The vector rungs' unroll knob: calls f(std::integral_constant<int, U>{}) for U = a.plan.unroll
// (1, 2, 4 or 8; anything else throws naming the rung), then checks the launch f made.
template <class F>
void with_unroll(const GpuArgs& a, const char* rung, F&& f) {
  switch (a.plan.unroll) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
    case 8: f(std::integral_constant<int, 8>{}); break;
    default: throw std::invalid_argument(std::string(rung) + ": unroll must be 1, 2, 4 or 8");
  }
  JOSEKI_CUDA_CHECK_LAUNCH();
}

// The single-pass vector rungs (r06, r07, r09): kernel_of(u), the kernel for UNROLL = u (a
// std::integral_constant, with_unroll's), launched on the plan as kernel(in, n, out, state) with the
// workspace's SinglePassState, then checked.
template <class KernelOf>
void launch_single_pass(const GpuArgs& a, cudaStream_t s, const char* rung, KernelOf kernel_of) {
  with_unroll(a, rung, [&](auto u) {
    const auto kernel = kernel_of(u);
    kernel<<<grid_of(a), block_of(a), 0, s>>>(a.d_in, a.n, a.d_out, static_cast<SinglePassState*>(a.d_work));
  });
}

}  // namespace joseki::reduce::dev
