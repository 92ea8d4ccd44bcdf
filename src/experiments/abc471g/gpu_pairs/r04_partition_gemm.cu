// Rung 4 of the gpu-pairs ladder: r03's count, the product on cuBLASLt's int8 GEMM, and no table
// at all when the solve is one chunk (the histograms write the product's planes).
//
// What changed from r03: at the max case (N = 7e6, K = 2300) r03 spends ~110 us in its own
// mma.sync product (operands straight from L2, 80 registers, 31 % occupancy: ~220 int8 TOPS) and
// ~20 us slicing a 21 MB table into byte planes, itself zeroed (~6 us) and read-modify-written by
// the histograms. Here:
//   * the product G = C_0 * circ(V) of plane 0 (C & 127, signed int8) is one cuBLASLt call
//     (int8 x int8 -> int32, "TN"; on sm_90 cuBLASLt runs wgmma kernels that an sm_90 build
//     cannot emit); circ(V) is a kp x kp int8 matrix built here (symmetric, so A^T = A), and G
//     (kp x kp int32) is reduced by a masked column sum: answer[k] += sum_a (1 - V[a+k]) G[a][k].
//   * the bits above 7 (C >> 7, byte planes) stay on r02's mma.sync kernel, which exits at once
//     when the table's maximum is < 128 (the max case: one plane, the GEMM's).
//   * when the solve is a single chunk, each histogram block writes its slice of the planes
//     straight from shared memory (fused_hist_kernel): no table zeroing, no table traffic, no
//     slicing pass. A spilled bucket's counts are read from the table and cleared there.
//   * circ(V), the (1 - V) copy and the first terms: product_prep_kernel on a lowest-priority side
//     stream; the histograms and the column sum are programmatic dependent launches.
// Prediction: GEMM ~26 us (probe: 2304^3 in 26 us, ~940 TOPS), reduce ~5 us (21 MB from L2),
// prep ~3 us, count ~45 us (r03's 63 us less the zeroing and the table's read-modify-write):
// the max case ~80 us, at the 0.08 ms goal; 10^9 unchanged (the combine is ~0.1 ms of 4.7 ms).
// Measured (H200, results/h200/2026-11-30-gemm/final, commit 1b16018): the max case 77.34 us
// GPU_COMPUTE (77.28 us in a second call; r03 171.87 us in the same run: 2.22x) -- the 0.08 ms goal
// is met; 83.71 us before the partition's 18-pair tiles for short runs. Count alone 43.97 us,
// combine alone 40.22 us; ncu: GEMM ~25 us (held), the column sum ~10 us (G comes back from HBM:
// ~2x the prediction), partition 36.4 us. N = 10^9 4.743 ms, as r03.
// Not the shipped gpu-pairs: loading cuBLASLt costs a one-shot solve ~50-90 ms EXTERNAL, more than
// the ~0.09 ms it saves (auto failed at 10^9 with it); `--solver gpu-pairs-gemm`.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>

#include "backend/cuda/check.hpp"
#include "backend/cuda/clocks.cuh"
#include "backend/cuda/launch.cuh"
#include "experiments/abc471g/gpu_pairs/kernels.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "experiments/abc471g/gpu_pairs/partition_hist.cuh"

namespace joseki::abc471g::pairs {

namespace {

constexpr std::uint32_t LOW_MAX = 1u << GEMM_LOW_BITS;  // counts below it need plane 0 only

// circ(V) (kp x kp int8, row-major, V[(b+c) mod K] for b, c < K, else 0; symmetric), the column sum's
// mask u2[i] = 1 - V[i mod K] (i < 2 kp) and the answers' first terms, made by product_prep_kernel.

// Bytes of shared memory load_v_twice needs for this K (V twice over, then 32 zero bytes that
// write_circ16's last words may read).
__host__ __device__ constexpr std::uint32_t v_twice_bytes(std::uint32_t k) { return (2 * k + 32 + 15) / 16 * 16; }

// s_v[i] = V[i mod K] for i < 2K (then 32 zero bytes), from 4-byte words: one round trip, not one per byte.
__device__ __forceinline__ void load_v_twice(std::uint8_t* s_v, const std::uint8_t* d_v, std::uint32_t k,
                                             std::uint32_t t0, std::uint32_t stride) {
  const std::uint32_t words4 = k / 4;
  for (std::uint32_t i = t0; i < words4; i += stride) {
    const std::uint32_t w = reinterpret_cast<const std::uint32_t*>(d_v)[i];
#pragma unroll
    for (int e = 0; e < 4; ++e) s_v[4 * i + e] = s_v[k + 4 * i + e] = static_cast<std::uint8_t>(w >> (8 * e));
  }
  for (std::uint32_t i = 4 * words4 + t0; i < k; i += stride) s_v[i] = s_v[k + i] = d_v[i];
  for (std::uint32_t i = 2 * k + t0; i < 2 * k + 32; i += stride) s_v[i] = 0;
}

// 16 cells of circ(V) per step: row b, columns c0 .. c0 + 15 (unaligned 16 bytes of s_v by funnel shifts).
// s_v must be 4-byte aligned; `words` = kp * kp / 16.
__device__ __forceinline__ void write_circ16(std::int8_t* circ, const std::uint8_t* s_v, std::uint32_t k,
                                             std::uint32_t kp, std::uint32_t t0, std::uint32_t stride) {
  const std::uint32_t row16 = kp / 16, words = kp * row16;
  const std::uint32_t* s32 = reinterpret_cast<const std::uint32_t*>(s_v);
  for (std::uint32_t w = t0; w < words; w += stride) {
    const std::uint32_t b = w / row16, c0 = (w - b * row16) * 16;
    uint4 q = make_uint4(0, 0, 0, 0);
    if (b < k && c0 < k) {
      const std::uint32_t o = b + c0, i = o / 4, sh = 8 * (o % 4);
      const std::uint32_t x0 = s32[i], x1 = s32[i + 1], x2 = s32[i + 2], x3 = s32[i + 3], x4 = s32[i + 4];
      std::uint32_t r[4] = {__funnelshift_r(x0, x1, sh), __funnelshift_r(x1, x2, sh), __funnelshift_r(x2, x3, sh),
                            __funnelshift_r(x3, x4, sh)};
      if (c0 + 16 > k) {  // the row's last columns: zero past K
        const std::uint32_t valid = k - c0;  // 1 .. 15
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int keep = static_cast<int>(valid) - 4 * e;  // bytes of word e to keep
          r[e] = keep >= 4 ? r[e] : keep <= 0 ? 0u : r[e] & ((1u << (8 * keep)) - 1);
        }
      }
      q = make_uint4(r[0], r[1], r[2], r[3]);
    }
    reinterpret_cast<uint4*>(circ)[w] = q;
  }
}

// The first terms (answer[k] = V[(a0+k) mod K]) and u2[i] = 1 - V[i mod K] (i < 2 kp); either may be nullptr.
__device__ __forceinline__ void write_first_terms_and_u2(std::uint64_t* answer, std::uint8_t* u2, const std::uint8_t* s_v,
                                                         std::uint32_t k, std::uint32_t kp, std::uint32_t a0,
                                                         std::uint32_t t0, std::uint32_t stride) {
  if (answer)
    for (std::uint32_t i = t0; i < k; i += stride) answer[i] = s_v[a0 + i];  // a0 + i < 2K
  if (u2)
    for (std::uint32_t i = t0; i < 2 * kp; i += stride) u2[i] = 1 - s_v[i % (2 * k)];
}

__device__ __forceinline__ std::uint32_t pack_bytes(uint4 h, int shift, std::uint32_t mask) {
  return ((h.x >> shift) & mask) | ((h.y >> shift) & mask) << 8 | ((h.z >> shift) & mask) << 16 |
         ((h.w >> shift) & mask) << 24;
}

// r33 (FuseArgs::skew): this slice's cells [lo, lo + len) into `plane` skewed (cell (a, b) at column skew_col(a, b, K) of
// row a), output word by output word: the word at columns d0 .. d0 + 3 of row a holds cells b = (a + d0 + e) mod K
// and goes out as one aligned 32-bit store when all four are this slice's (every row the slice holds whole), byte by
// byte where the slice holds only part of the row (its first and last rows). Rows and columns >= K are not written
// (nothing reads them). s_bytes (FuseArgs::skew_stage): this plane's bytes of the slice's cells, packed four a word
// (then four zero words), so that a whole row's word is one funnel shift of two conflict-free shared loads; nullptr
// (the slice's counters leave no room for them): each byte from its counter, value(c).
// (Measured, H200 calls of 2026-12-03 at the max case: writing each cell's byte at its skewed column made the count
// ~6.4 us slower than r31's; output words from the counters, four shared loads a word, ~7.4 us; hence the bytes.)
template <int THREADS, class Byte>
__device__ __forceinline__ void write_skewed_plane(std::uint8_t* plane, const std::uint32_t* s_hist,
                                                   const std::uint32_t* s_bytes, std::uint32_t lo, std::uint32_t len,
                                                   std::uint32_t k, std::uint32_t kp, Byte value) {
  const std::uint32_t a_first = lo / kp, a_end = min((lo + len - 1) / kp + 1, k);  // rows [a_first, a_end)
  if (a_first >= a_end) return;
  const std::uint8_t* s_b = reinterpret_cast<const std::uint8_t*>(s_bytes);
  const std::uint32_t wpr = (k + 3) / 4;  // words of a row below K
  std::uint32_t t = threadIdx.x, a = a_first + t / wpr, w = t - (a - a_first) * wpr;
  for (; a < a_end;) {
    const std::uint32_t row0 = a * kp, d0 = 4 * w;
    const std::uint32_t cb = lo > row0 ? lo - row0 : 0u, ce = min(lo + len - row0, k);  // this slice's columns of row a
    const bool whole = cb == 0 && ce == k;
    std::uint32_t b = a + d0;
    b = b >= k ? b - k : b;
    const std::uint32_t need = d0 + 4 <= k ? 0xFu : (1u << (k - d0)) - 1u;
    if (s_bytes && whole && b + 4 <= k) {  // four consecutive cells of this slice: one funnel shift
      const std::uint32_t o = row0 + b - lo;
      const std::uint32_t word = __funnelshift_r(s_bytes[o >> 2], s_bytes[(o >> 2) + 1], 8 * (o & 3));
      *reinterpret_cast<std::uint32_t*>(plane + row0 + d0) = need == 0xFu ? word : word & ((1u << (8 * (k - d0))) - 1u);
    } else {
      std::uint32_t word = 0, mine = 0;
#pragma unroll
      for (std::uint32_t e = 0; e < 4; ++e) {
        const std::uint32_t be = b + e >= k ? b + e - k : b + e;  // the source of column d0 + e
        if (d0 + e < k && (whole || (be >= cb && be < ce))) {
          const std::uint32_t c = row0 + be - lo;
          word |= (s_bytes ? static_cast<std::uint32_t>(s_b[c]) : value(s_hist[c])) << (8 * e);
          mine |= 1u << e;
        }
      }
      if (mine == need && (whole || d0 + 4 <= k)) {
        *reinterpret_cast<std::uint32_t*>(plane + row0 + d0) = word;  // bytes past K: zero (never read)
      } else {
#pragma unroll
        for (std::uint32_t e = 0; e < 4; ++e)
          if (mine >> e & 1u) plane[row0 + d0 + e] = static_cast<std::uint8_t>(word >> (8 * e));
      }
    }
    w += THREADS;
    if (w >= 2 * wpr) {  // short rows (small K): a division; otherwise one or two rows on
      const std::uint32_t rows = w / wpr;
      a += rows;
      w -= rows * wpr;
    } else if (w >= wpr) {
      w -= wpr;
      ++a;
    }
  }
}

// One plane of the slice skewed (write_skewed_plane), its bytes staged in shared memory first when there is room
// (s_bytes: the word of cells 4i .. 4i + 3 is pack(s_hist4[i]), then four zero words). Every thread; barriers.
template <int THREADS, class Pack, class Byte>
__device__ __forceinline__ void skew_plane(std::uint8_t* plane, const uint4* s_hist4, std::uint32_t* s_bytes, std::uint32_t lo,
                                           std::uint32_t len, std::uint32_t k, std::uint32_t kp, Pack pack, Byte value) {
  if (s_bytes) {
    for (std::uint32_t i = threadIdx.x; i < len / 4 + 4; i += THREADS) s_bytes[i] = i < len / 4 ? pack(s_hist4[i]) : 0u;
    __syncthreads();
  }
  write_skewed_plane<THREADS>(plane, reinterpret_cast<const std::uint32_t*>(s_hist4), s_bytes, lo, len, k, kp, value);
  if (s_bytes) __syncthreads();  // the next plane's bytes replace these
}

// THREADS: HIST_THREADS or 1024 (PartitionArgs::hist_threads); LOADS: 16-byte loads in flight a thread (hist_loads).
template <int THREADS = HIST_THREADS, int LOADS = 1>
__global__ void __launch_bounds__(THREADS) fused_hist_kernel(PartitionArgs a, FuseArgs f) {
  extern __shared__ uint4 s_hist4[];  // a.slice counters
  __shared__ std::uint32_t s_max;
  if (threadIdx.x == 0) s_max = 0;  // ordered before its use by the histogram's barriers
  const std::uint32_t b = blockIdx.x;
  // The count's trace (a diagnostic, a.d_trace): after the partition blocks' words, this block's entry, the end of its
  // counting (past the wait for the partition), its end and its SM.
  std::uint64_t* trace = a.d_trace && threadIdx.x == 0
                             ? a.d_trace + COUNT_TRACE_PARTITION_WORDS * a.trace_blocks + COUNT_TRACE_HIST_WORDS * b
                             : nullptr;
  if (trace) trace[0] = cuda::global_timer();
  const bool tracing = a.d_trace != nullptr;  // the same for the whole grid
  const auto trace_end = [trace, tracing] {
    if (tracing) __syncthreads();  // the block's end, not thread 0's
    if (!trace) return;
    trace[2] = cuda::global_timer();
    trace[3] = static_cast<std::uint64_t>(cuda::sm_id());
  };
  // r69 (f.d_done): this block's writes are done; one more ended block for the combine, which waits for their count. Each
  // thread's proxy fence orders its plane stores before the combine's copies (the async proxy) read them; the barrier
  // and thread 0's fence make them all visible before the count.
  const auto signal_done = [&f] {
    if (!f.d_done) return;
#if JOSEKI_ARCH_AT_LEAST(900)
    asm volatile("fence.proxy.async.global;" ::: "memory");
#endif
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      atomicAdd(f.d_done, 1u);
    }
  };
#if JOSEKI_ARCH_AT_LEAST(900)
  if (f.trigger) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");  // r38: the combine may launch
#endif
  if (f.d_answer)  // r38: the first terms (nothing the partition wrote: before the wait for it)
    for (std::uint32_t i = b * THREADS + threadIdx.x; i < f.k; i += gridDim.x * THREADS) {
      const std::uint32_t j = f.a0 + i;
      f.d_answer[i] = f.d_v[j >= f.k ? j - f.k : j];
    }
  // r67: this slice's maximum in the previous solve, read now (nothing of this solve writes it before this block does)
  const std::uint32_t before_at_start = f.early_before ? f.d_slice_max[b] : 0u;
  const bool spilled = bucket_histogram<THREADS, true, LOADS>(a, b, s_hist4) > a.cap;
  if (trace) trace[1] = cuda::global_timer();
  const std::uint32_t cells = a.c.kp * a.c.kp, lo = b * a.slice;
  const std::uint32_t len = cells - lo < a.slice ? cells - lo : a.slice;  // a multiple of 4
  uint4* t4 = reinterpret_cast<uint4*>(a.c.d_table + lo);
  std::uint32_t* plane0 = reinterpret_cast<std::uint32_t*>(f.d_planes + lo);
  std::uint32_t m = 0;
  for (std::uint32_t i = threadIdx.x; i < len / 4; i += THREADS) {
    uint4 h = s_hist4[i];
    if (spilled) {  // this slice's overflow went to the table: take it, leave zeros behind
      const uint4 t = t4[i];
      h.x += t.x;
      h.y += t.y;
      h.z += t.z;
      h.w += t.w;
      t4[i] = make_uint4(0, 0, 0, 0);
      s_hist4[i] = h;
    }
    m = max(m, max(max(h.x, h.y), max(h.z, h.w)));
    if (!f.skew) plane0[i] = pack_bytes(h, 0, LOW_MAX - 1);
  }
#if JOSEKI_ARCH_AT_LEAST(800)
  m = __reduce_max_sync(0xFFFFFFFFu, m);
#else  // no redux.sync: the same maximum from five butterfly shuffles
  for (int off = 16; off > 0; off >>= 1) m = max(m, __shfl_xor_sync(0xFFFFFFFFu, m, off));
#endif
  if ((threadIdx.x & 31) == 0) atomicMax(&s_max, m);
  __syncthreads();
  std::uint32_t* s_bytes = f.skew && f.skew_stage ? reinterpret_cast<std::uint32_t*>(
                                                         reinterpret_cast<unsigned char*>(s_hist4) + f.skew_stage)
                                                   : nullptr;
  if (f.skew)  // every counter is final (the spill merged) past the barrier
    skew_plane<THREADS>(
        f.d_planes, s_hist4, s_bytes, lo, len, a.c.k, a.c.kp, [](uint4 h) { return pack_bytes(h, 0, LOW_MAX - 1); },
        [](std::uint32_t c) { return c & (LOW_MAX - 1); });
  const std::uint32_t bmax = s_max;
  const std::uint32_t before = f.early_before ? before_at_start : f.d_slice_max[b];  // the previous solve's maximum
  __syncthreads();                                // every thread has read it before it changes
  if (threadIdx.x == 0) {
    f.d_slice_max[b] = bmax;
    if (bmax) atomicMax(reinterpret_cast<unsigned long long*>(f.d_max), static_cast<unsigned long long>(bmax));
  }
  // Planes 1.. of this slice: zero while its maximum is < LOW_MAX (then they are left alone).
  if (bmax < LOW_MAX && before < LOW_MAX) {
    signal_done();
    trace_end();
    return;
  }
  for (int j = 1; j < f.planes; ++j) {
    std::uint32_t* pj = reinterpret_cast<std::uint32_t*>(f.d_planes + static_cast<std::size_t>(j) * cells + lo);
    const int sh = plane_shift(j, GEMM_LOW_BITS);
    if (f.skew) {
      const bool zero = bmax < LOW_MAX;
      skew_plane<THREADS>(
          f.d_planes + static_cast<std::size_t>(j) * cells, s_hist4, s_bytes, lo, len, a.c.k, a.c.kp,
          [=](uint4 h) { return zero ? 0u : pack_bytes(h, sh, 255u); },
          [=](std::uint32_t c) { return zero ? 0u : (c >> sh) & 255u; });
      continue;
    }
    for (std::uint32_t i = threadIdx.x; i < len / 4; i += THREADS)
      pj[i] = bmax < LOW_MAX ? 0u : pack_bytes(s_hist4[i], sh, 255u);
  }
  signal_done();
  trace_end();
}

__global__ void __launch_bounds__(256) product_prep_kernel(ProductPrepArgs a) {
  __shared__ __align__(16) std::uint8_t s_v[v_twice_bytes(16384)];  // V twice over (K <= 16384)
  const std::uint32_t tid = blockIdx.x * 256u + threadIdx.x, stride = gridDim.x * 256u;
  load_v_twice(s_v, a.d_v, a.k, threadIdx.x, 256);
  __syncthreads();
  write_first_terms_and_u2(a.d_answer, a.d_circ ? a.d_u2 : nullptr, s_v, a.k, a.kp, a.a0, tid, stride);
  if (a.d_circ) write_circ16(a.d_circ, s_v, a.k, a.kp, tid, stride);
}

// Block: 128 columns (32 lanes x 4) by 8 row groups; grid.y splits the rows; each thread keeps
// RED_UNROLL rows' loads in flight.
constexpr int RED_ROWS = 8, RED_UNROLL = 8, RED_BLOCK_ROWS = RED_ROWS * RED_UNROLL;  // one round of loads
__global__ void __launch_bounds__(256) product_reduce_kernel(ProductReduceArgs a, std::uint32_t rows_per_block) {
  extern __shared__ uint4 s_u4[];  // 1 - V[i mod K], i < 2 kp (the prep's copy, 16 bytes a load)
  __shared__ unsigned long long s_sum[RED_ROWS][128];
  // u2 was made before the GEMM started (the stream waited for the prep): read it before waiting for G.
  for (std::uint32_t i = threadIdx.x; i < 2 * a.kp / 16; i += 256) s_u4[i] = reinterpret_cast<const uint4*>(a.d_u2)[i];
  const std::uint8_t* s_u = reinterpret_cast<const std::uint8_t*>(s_u4);
  wait_for_previous_grid();  // launched as a programmatic dependent of the GEMM
  __syncthreads();
  const std::uint32_t lane = threadIdx.x & 31, grp = threadIdx.x >> 5;
  const std::uint32_t k0 = blockIdx.x * 128 + 4 * lane;
  const std::uint32_t a_lo = a.row_begin + blockIdx.y * rows_per_block;
  const std::uint32_t a_hi = min(min(a.k, a.row_end), a_lo + rows_per_block);
  unsigned long long s[4] = {0, 0, 0, 0};
  for (std::uint32_t r0 = a_lo + grp; r0 < a_hi; r0 += RED_ROWS * RED_UNROLL) {
    int4 g[RED_UNROLL];
#pragma unroll
    for (int u = 0; u < RED_UNROLL; ++u) {
      const std::uint32_t r = r0 + u * RED_ROWS;
      g[u] = r < a_hi ? __ldcs(reinterpret_cast<const int4*>(a.d_g + static_cast<std::size_t>(r) * a.kp + k0))
                      : make_int4(0, 0, 0, 0);
    }
#pragma unroll
    for (int u = 0; u < RED_UNROLL; ++u) {
      const std::uint8_t* uu = s_u + r0 + u * RED_ROWS + k0;  // < 2 kp: rows < K, columns < kp
      if (r0 + u * RED_ROWS >= a_hi) break;
      s[0] += uu[0] ? static_cast<unsigned>(g[u].x) : 0u;
      s[1] += uu[1] ? static_cast<unsigned>(g[u].y) : 0u;
      s[2] += uu[2] ? static_cast<unsigned>(g[u].z) : 0u;
      s[3] += uu[3] ? static_cast<unsigned>(g[u].w) : 0u;
    }
  }
#pragma unroll
  for (int e = 0; e < 4; ++e) s_sum[grp][4 * lane + e] = s[e];
  __syncthreads();
  if (threadIdx.x < 128) {
    unsigned long long t = 0;
#pragma unroll
    for (int g = 0; g < RED_ROWS; ++g) t += s_sum[g][threadIdx.x];
    const std::uint32_t k = blockIdx.x * 128 + threadIdx.x;
    if (k < a.k && t) atomicAdd(reinterpret_cast<unsigned long long*>(a.d_answer + k), t);
  }
}

// kernel<<<grid, block, smem, s>>>(args...) with cudaLaunchAttributeProgrammaticStreamSerialization:
// the kernel may begin before the previous one in s ends and must call wait_for_previous_grid()
// before it reads that kernel's output. Programmatic dependent launch is sm_90+: on an older GPU
// the launch is in plain stream order (wait_for_previous_grid() compiles to nothing there).
// An attribute of the current device, cached per device (launches ask every time).
template <cudaDeviceAttr ATTR>
int current_device_attribute() {
  static std::atomic<int> cached[64] = {};
  int dev = 0;
  JOSEKI_CUDA_CHECK(cudaGetDevice(&dev));
  if (dev < 0 || dev >= 64) dev = 0;
  int v = cached[dev].load(std::memory_order_relaxed);
  if (v == 0) {
    JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&v, ATTR, dev));
    cached[dev].store(v, std::memory_order_relaxed);
  }
  return v;
}
int current_cc_major() { return current_device_attribute<cudaDevAttrComputeCapabilityMajor>(); }

// Whether the code that runs on the current device has griddepcontrol: the virtual architecture this
// file's kernels were compiled from (cudaFuncAttributes::ptxVersion), not the GPU's compute capability.
// A compute_80 PTX build on an H200 runs kernels without griddepcontrol.wait; launched as programmatic
// dependents they would read their predecessor's output before it is written (measured: wrong counts
// at k = 64.. in the compute_80 proof build on the H200, results/h200/2026-12-01-device-call-3).
bool running_code_has_pdl() {
  static std::atomic<int> cached[64] = {};  // 0 unknown, 1 no, 2 yes
  int dev = 0;
  JOSEKI_CUDA_CHECK(cudaGetDevice(&dev));
  if (dev < 0 || dev >= 64) dev = 0;
  int v = cached[dev].load(std::memory_order_relaxed);
  if (v == 0) {
    cudaFuncAttributes fa{};
    JOSEKI_CUDA_CHECK(cudaFuncGetAttributes(&fa, fused_hist_kernel<HIST_THREADS>));
    v = (current_cc_major() >= 9 && fa.ptxVersion >= 90) ? 2 : 1;
    cached[dev].store(v, std::memory_order_relaxed);
  }
  return v == 2;
}

template <class... K, class... A>
void launch_dependent(void (*kernel)(K...), dim3 grid, dim3 block, std::size_t smem, cudaStream_t s, A... args) {
  cuda::launch_programmatic(kernel, grid, block, smem, s, running_code_has_pdl(), args...);
}

// The fused histogram kernel for PartitionArgs::hist_threads (512 or 1024) and hist_loads (1, 2 or 4; the pipeline
// refuses others): the one place that maps the knobs to an instantiation, for the launch and the shared-memory limit.
template <int THREADS>
auto fused_hist_for_loads(int loads) {
  return loads == 4 ? fused_hist_kernel<THREADS, 4> : loads == 2 ? fused_hist_kernel<THREADS, 2> : fused_hist_kernel<THREADS, 1>;
}
auto fused_hist_for(int threads, int loads) {
  return threads == 1024 ? fused_hist_for_loads<1024>(loads) : fused_hist_for_loads<HIST_THREADS>(loads);
}

}  // namespace

std::uint32_t prepare_partition_fused(std::uint32_t slice, bool skew) {
  int optin = 0, dev = 0;
  JOSEKI_CUDA_CHECK(cudaGetDevice(&dev));
  JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  // r33: room for a plane's bytes of the slice beside its counters (then 16 zero bytes), where the GPU has it
  const std::size_t staged = hist_smem_bytes(slice) + slice + 16;
  const std::uint32_t stage = skew && staged + 1024 <= static_cast<std::size_t>(optin)
                                  ? static_cast<std::uint32_t>(hist_smem_bytes(slice))
                                  : 0u;
  const int bytes = static_cast<int>(std::max(hist_smem_bytes(std::max(slice, SLICE_MAX_CELLS)), stage ? staged : 0));
  for (const int threads : {HIST_THREADS, 1024})
    for (const int loads : {1, 2, 4}) {
      cudaFuncAttributes fa{};  // never below what an earlier device set (its r33 bytes)
      JOSEKI_CUDA_CHECK(cudaFuncGetAttributes(&fa, fused_hist_for(threads, loads)));
      JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(fused_hist_for(threads, loads), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             std::max(bytes, fa.maxDynamicSharedSizeBytes)));
    }
  return stage;
}

void launch_partition_fused(const PartitionArgs& a, const FuseArgs& f, int threads, cudaStream_t s) {
  launch_partition_only(a, threads, s);
  // A programmatic dependent launch: the histogram blocks start (and clear their counters) as the
  // partition's blocks retire, instead of after the whole grid and a launch.
  const unsigned hist = a.hist_threads == 1024 ? 1024u : static_cast<unsigned>(HIST_THREADS);
  const std::size_t smem = hist_smem_bytes(a.slice) + (f.skew && f.skew_stage ? a.slice + 16 : 0);  // r33's bytes
  launch_dependent(fused_hist_for(static_cast<int>(hist), a.hist_loads), dim3(a.buckets), dim3(hist), smem, s, a, f);
}

void launch_product_prep(const ProductPrepArgs& a, cudaStream_t s) {
  const std::uint32_t words = a.d_circ ? a.kp * (a.kp / 16) : 0;
  std::uint32_t blocks = (words + 255) / 256;
  blocks = blocks < (a.k + 255) / 256 ? (a.k + 255) / 256 : blocks;
  // ~4 per SM: each block fills its copy of V once (528 on the H200's 132 SMs).
  const std::uint32_t cap = 4u * static_cast<std::uint32_t>(current_device_attribute<cudaDevAttrMultiProcessorCount>());
  blocks = blocks > cap ? cap : blocks;
  product_prep_kernel<<<blocks ? blocks : 1, 256, 0, s>>>(a);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_product_reduce(const ProductReduceArgs& a, cudaStream_t s) {
  // 648 blocks at K = 2300 (18 column blocks x 36 row splits of 64 rows): one wave (5 blocks per
  // SM by registers; 48- and 56-row splits made 1.09 and 1.15 waves, ncu), every thread's loads at once.
  const std::uint32_t end = a.row_end < a.k ? a.row_end : a.k;
  if (a.row_begin >= end) return;
  const std::uint32_t splits = (end - a.row_begin + RED_BLOCK_ROWS - 1) / RED_BLOCK_ROWS;
  if (a.dependent) {
    launch_dependent(product_reduce_kernel, dim3(a.kp / 128, splits), dim3(256), 2 * a.kp, s, a,
                     static_cast<std::uint32_t>(RED_BLOCK_ROWS));
  } else {
    product_reduce_kernel<<<dim3(a.kp / 128, splits), dim3(256), 2 * a.kp, s>>>(a, static_cast<std::uint32_t>(RED_BLOCK_ROWS));
    JOSEKI_CUDA_CHECK_LAUNCH();
  }
}

}  // namespace joseki::abc471g::pairs
