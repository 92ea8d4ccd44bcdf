// The count phase shared by every gpu-pairs rung: generate A on the GPU and count adjacent
// pairs into the K x K table, plus the table plumbing (64-bit flush, add) and the L2 atomic
// ceiling probe.
//
// Work split: the pair starts [begin, end) of a round are cut into runs of `pairs_per_thread`;
// a thread owning pair starts [p0, p1) reads elements p0..p1 (one past its run), so the pair
// that straddles two runs is counted once, by the run where it starts. Elements i < M come from
// b; the others from the LCG, which each thread jumps to its first element with the table of
// 2^j-step maps (<= 64 multiply-adds, in constant memory, read as a broadcast).
//
// Prediction: ~N random 4-byte atomics into a 21 MB table that stays in the 60 MiB L2; the L2's
// atomic throughput is the bound, the generator (~25 integer instructions per element) second.
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour): held. Max case: count 80.29 us (8.72e10
// pairs/s) vs 82.91 us for the same number of random RED.ADD into the same footprint without a
// generator; generation alone 16.03 us. 10^9: 1.01e11 pairs/s (whole solve 9.932 ms).
#include <cuda_runtime.h>

#include "backend/cuda/check.hpp"
#include "backend/cuda/clocks.cuh"
#include "experiments/abc471g/gpu_pairs/kernels.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"

namespace joseki::abc471g::pairs {

namespace {

__constant__ JumpTable c_jump = make_jump_table();

constexpr int COUNT_THREADS = 256;

template <bool ATOMICS>
__global__ void __launch_bounds__(COUNT_THREADS) count_pairs_kernel(CountArgs a, int bits) {
  const std::uint64_t tid = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  const std::uint64_t p0 = a.begin + tid * a.pairs_per_thread;
  if (p0 >= a.end) return;
  const std::uint64_t p1 = p0 + a.pairs_per_thread < a.end ? p0 + a.pairs_per_thread : a.end;
  const FastMod fm{a.fastmod_m, a.k};
  // State of the first generated element this thread needs: max(p0, M).
  std::uint64_t state = jump_with(c_jump, a.seed, (p0 > a.m ? p0 : a.m) - a.m, bits);
  std::uint32_t* __restrict__ table = a.d_table;
  std::uint32_t sink = 0;
  auto count = [&](std::uint32_t prev, std::uint32_t cur) {
    if constexpr (ATOMICS) {
      atomicAdd(table + prev * a.kp + cur, 1u);  // result unused: compiles to RED.E.ADD
    } else {
      sink ^= prev * a.kp + cur;
    }
  };
  std::uint32_t prev;
  std::uint64_t j = p0 + 1;  // next element
  if (p0 < a.m) {
    prev = a.d_b[p0];
    for (; j <= p1 && j < a.m; ++j) {
      const std::uint32_t cur = a.d_b[j];
      count(prev, cur);
      prev = cur;
    }
  } else {
    prev = fastmod(pcg_raw(state), fm);
    state = state * LCG_MUL + LCG_INC;
  }
  // Elements j..p1 are generated (j >= M here whenever j <= p1).
  const std::uint32_t left = j <= p1 ? static_cast<std::uint32_t>(p1 - j + 1) : 0u;
#pragma unroll 4
  for (std::uint32_t c = 0; c < left; ++c) {
    const std::uint32_t cur = fastmod(pcg_raw(state), fm);
    state = state * LCG_MUL + LCG_INC;
    count(prev, cur);
    prev = cur;
  }
  if constexpr (!ATOMICS) {
    if (sink == 0xFFFFFFFFu) table[0] = sink;  // keeps the generator alive; practically never true
  }
}

__global__ void flush_table_kernel(std::uint32_t* __restrict__ t32, std::uint64_t* __restrict__ t64, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {
    const std::uint32_t c = t32[i];
    if (c) {
      t64[i] += c;
      t32[i] = 0;
    }
  }
}

template <class T>
__global__ void add_table_kernel(const T* __restrict__ src, T* __restrict__ dst, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    dst[i] += src[i];
}

__global__ void atomic_probe_kernel(std::uint32_t* __restrict__ table, std::uint32_t cells, std::uint64_t n,
                                    std::uint32_t per_thread, std::uint64_t salt) {
  const std::uint64_t tid = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  const std::uint64_t first = tid * per_thread;
  if (first >= n) return;
  const std::uint32_t count = static_cast<std::uint32_t>(n - first < per_thread ? n - first : per_thread);
  std::uint64_t x = salt ^ (tid * 0x9E3779B97F4A7C15ULL);
  for (std::uint32_t c = 0; c < count; ++c) {
    x = x * LCG_MUL + LCG_INC;
    const std::uint32_t idx = __umulhi(static_cast<std::uint32_t>(x >> 32), cells);  // uniform in [0, cells)
    atomicAdd(table + idx, 1u);
  }
}

int grid_for(std::size_t n, int threads, int cap) {
  const std::size_t b = (n + threads - 1) / threads;
  return static_cast<int>(b < static_cast<std::size_t>(cap) ? (b ? b : 1) : cap);
}

}  // namespace

void launch_count_pairs(const CountArgs& a, bool generate_only, cudaStream_t s) {
  if (a.end <= a.begin) return;
  const std::uint64_t threads = (a.end - a.begin + a.pairs_per_thread - 1) / a.pairs_per_thread;
  const unsigned blocks = static_cast<unsigned>((threads + COUNT_THREADS - 1) / COUNT_THREADS);
  const int bits = a.end > a.m ? bit_length(a.end - a.m) : 0;
  if (generate_only)
    count_pairs_kernel<false><<<blocks, COUNT_THREADS, 0, s>>>(a, bits);
  else
    count_pairs_kernel<true><<<blocks, COUNT_THREADS, 0, s>>>(a, bits);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_flush_table(std::uint32_t* d_t32, std::uint64_t* d_t64, std::size_t n, cudaStream_t s) {
  flush_table_kernel<<<grid_for(n, 256, 4096), 256, 0, s>>>(d_t32, d_t64, n);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_add_table(const std::uint64_t* d_src, std::uint64_t* d_dst, std::size_t n, cudaStream_t s) {
  add_table_kernel<std::uint64_t><<<grid_for(n, 256, 4096), 256, 0, s>>>(d_src, d_dst, n);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_add_table32(const std::uint32_t* d_src, std::uint32_t* d_dst, std::size_t n, cudaStream_t s) {
  add_table_kernel<std::uint32_t><<<grid_for(n, 256, 4096), 256, 0, s>>>(d_src, d_dst, n);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

namespace {
__global__ void timer_stamp_kernel(std::uint64_t* d_out) { *d_out = cuda::global_timer(); }
}  // namespace

void launch_timer_stamp(std::uint64_t* d_out, cudaStream_t s) {
  timer_stamp_kernel<<<1, 1, 0, s>>>(d_out);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_atomic_probe(std::uint32_t* d_table, std::uint32_t cells, std::uint64_t n, std::uint64_t salt,
                         cudaStream_t s) {
  if (n == 0 || cells == 0) return;
  constexpr std::uint32_t PER_THREAD = 64;
  const std::uint64_t threads = (n + PER_THREAD - 1) / PER_THREAD;
  const unsigned blocks = static_cast<unsigned>((threads + 255) / 256);
  atomic_probe_kernel<<<blocks, 256, 0, s>>>(d_table, cells, n, PER_THREAD, salt);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::abc471g::pairs
