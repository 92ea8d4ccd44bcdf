// Rung 3 of the gpu-pairs ladder: the count without global atomics (partition, then shared-memory
// histograms); the combine is r02's (tensor cores).
//
// What changed from r02: r02 sends one random RED.ADD per pair to the L2 and runs at the L2's
// random-atomic rate (~1.0e11/s on the H200), which is the whole reason N = 10^9 takes ~10 ms.
// Here the table is cut into slices of at most 2^14 cells (plan_slices: sized so that the
// histogram blocks spread evenly over the SMs; 395 slices of 13,452 cells at K = 2300 on 132 SMs),
// and each chunk of pairs (2^28 by default) is counted in two kernels:
//   1. partition: every thread generates 16 pairs per tile (jump-ahead once per thread, then it
//      walks its own run), ranks them by slice with shared-memory atomics, the block scans the
//      slice counts, reserves room in each slice's bucket with one global atomic per slice and
//      tile, sorts the tile in shared memory and writes 16-bit cell offsets in runs (coalesced).
//      A bucket that is full (skewed input) spills the rest of its pairs straight into the
//      table with RED.ADD (r02's path), so every input is counted exactly, only slower.
//   2. histogram: one block per slice reads its bucket (16-byte loads), counts into shared-memory
//      counters and adds them to the table (it owns the slice: plain stores).
// Prediction: the L2 atomics are gone; what is left is the generator (~2.3 ms at 10^9, ALU),
// the ranking and sorting in shared memory, and 2 + 2 bytes of HBM traffic per pair
// (~1 ms at 10^9): N = 10^9 in ~4-5 ms, the max case's count ~30-40 us instead of 80 us.
// Measured (H200, results/h200/2026-11-30-partition-dev, docs/ABC471G_SCALE.md "r03"): N = 10^9
// 4.74 ms (r02: 9.76 ms in the same run), 10^10 42.9 ms (2.33e11 pairs/s). Held for 10^9; the
// max case's count took 63 us, not 30-40 (ncu: partition 37.9 us, histograms 18.6 us), and the
// max case as a whole (170 us) stays far above 0.08 ms: the tensor-core product alone is ~110 us.
// Per chunk at 10^9 (ncu): partition ~500 us, issue-bound (52-60% of issue slots; stalls: shared
// memory, not selected, math pipe), histograms ~92 us, bound by shared-memory atomics (L1 94%).
// Later (results/h200/2026-11-30-gemm/final): a short run on 512-thread blocks goes in tiles of 18
// pairs when that saves a tile (the max case: 3 of 52 pairs, not 4): partition 36.4 us instead of
// 39-41 us, the max case 171.87 us.
// Negative results kept: 256-thread blocks (4 per SM) took 12.8 ms at 10^9 (ncu: shared-memory, barrier
// and L2-reply stalls, the per-slice work of a tile weighs twice per pair); a
// 32-register build (4 blocks of 512 per SM) spilled and took 642 us per chunk instead of 502.
#include <cuda_runtime.h>

#include <algorithm>

#include <cub/block/block_scan.cuh>

#include "backend/cuda/check.hpp"
#include "experiments/abc471g/gpu_pairs/kernels.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "experiments/abc471g/gpu_pairs/partition_hist.cuh"

namespace joseki::abc471g::pairs {

namespace {

__constant__ JumpTable c_jump3 = make_jump_table();

// The elements p, p+1, ... of A: the given b while p < M, then the LCG (state = element max(p0, M)).
struct ElementStream {
  const std::uint32_t* __restrict__ b;
  std::uint64_t m;
  std::uint64_t j;
  std::uint64_t state;
  FastMod fm;
  __device__ __forceinline__ std::uint32_t next() {
    std::uint32_t v;
    if (j < m) {
      v = b[j];
    } else {
      v = fastmod(pcg_raw(state), fm);
      state = state * LCG_MUL + LCG_INC;
    }
    ++j;
    return v;
  }
  __device__ __forceinline__ std::uint32_t next_generated() {  // j >= m known
    const std::uint32_t v = fastmod(pcg_raw(state), fm);
    state = state * LCG_MUL + LCG_INC;
    ++j;
    return v;
  }
};

// 1024 threads per SM (<= 64 registers) in blocks of THREADS (a swept knob, PairsConfig::partition_threads):
// at one block of 512 (79 registers) the generator's dependent multiply chains left the schedulers idle
// (ncu at 10^9: 25% occupancy, 9.5 cycles per issued instruction, 41% of issue slots used).
// PPT: pairs per thread and tile (16; 18 when it saves a whole tile on a short run, launch_partition_only).
template <int PART_THREADS, int PPT = PART_PAIRS_PER_TILE>
__global__ void __launch_bounds__(PART_THREADS, 1024 / PART_THREADS) partition_kernel(PartitionArgs a, int bits) {
  constexpr std::uint32_t TILE = PART_THREADS * PPT;
  static_assert(PPT % 2 == 0 && TILE < 65536, "ranks are packed two per register, 16 bits each");
  constexpr std::uint32_t BUCKETS_PER_THREAD = (PART_MAX_BUCKETS + PART_THREADS - 1) / PART_THREADS;
  using Scan = cub::BlockScan<std::uint32_t, PART_THREADS, cub::BLOCK_SCAN_WARP_SCANS>;  // one barrier inside
  __shared__ typename Scan::TempStorage scan_tmp;
  // The tile's pairs as slice << 16 | offset in the slice (buckets <= 1024, offsets < 2^14),
  // grouped by slice. ~0u marks no pair (never a valid key: slice < 1024).
  extern __shared__ std::uint32_t s_sorted[];  // TILE entries (dynamic: with 18 pairs a tile the static total passed 48 KiB)
  __shared__ std::uint32_t s_base[PART_MAX_BUCKETS];  // counts, then the slice's first index in s_sorted
  // Sorted entry i of slice b goes to d_buf[s_delta[b] + i] while i < s_limit[b] (its bucket has
  // room), else it spills into the table.
  __shared__ std::uint32_t s_delta[PART_MAX_BUCKETS];
  __shared__ std::uint32_t s_limit[PART_MAX_BUCKETS];
  __shared__ std::uint32_t s_total;

  const CountArgs& c = a.c;
  if (a.d_zero && blockIdx.x == 0 && threadIdx.x == 0) *a.d_zero = 0;
  const std::uint64_t gtid = blockIdx.x * static_cast<std::uint64_t>(PART_THREADS) + threadIdx.x;
  const std::uint64_t p0 = c.begin + gtid * a.run;
  const std::uint64_t p1 = p0 < c.end ? (c.end - p0 < a.run ? c.end : p0 + a.run) : p0;  // empty when p0 >= end
  ElementStream es{c.d_b, c.m, p0, 0, FastMod{c.fastmod_m, c.k}};
  std::uint32_t prev = 0;
  if (p0 < p1) {
    es.state = jump_with(c_jump3, c.seed, (p0 > c.m ? p0 : c.m) - c.m, bits);
    prev = es.next();
  }
  const std::uint32_t tiles = (a.run + PPT - 1) / PPT;
  std::uint64_t q = p0;  // next pair start of this thread
  for (std::uint32_t i = threadIdx.x; i < a.buckets; i += PART_THREADS) s_base[i] = 0;
  __syncthreads();
  for (std::uint32_t t = 0; t < tiles; ++t) {
    // Ranks are < TILE: two per register (16 bits each) keep the kernel under 64 registers.
    std::uint32_t key[PPT], rank2[PPT / 2] = {};
    if (q + PPT <= p1 && es.j >= c.m) {  // the common case: PPT generated pairs
#pragma unroll
      for (int e = 0; e < PPT; ++e) {
        const std::uint32_t cur = es.next_generated();
        const std::uint32_t cell = prev * c.kp + cur, b = __umulhi(cell, a.magic);
        key[e] = cell + b * (65536u - a.slice);  // b << 16 | (cell - b * slice)
        prev = cur;
        rank2[e / 2] |= atomicAdd(&s_base[b], 1u) << (16 * (e & 1));
      }
      q += PPT;
    } else {
#pragma unroll
      for (int e = 0; e < PPT; ++e) {
        key[e] = ~0u;
        if (q < p1) {
          const std::uint32_t cur = es.next();
          const std::uint32_t cell = prev * c.kp + cur, b = __umulhi(cell, a.magic);
          key[e] = cell + b * (65536u - a.slice);
          prev = cur;
          rank2[e / 2] |= atomicAdd(&s_base[b], 1u) << (16 * (e & 1));
          ++q;
        }
      }
    }
    __syncthreads();
    // Exclusive scan of the slice counts (each thread owns BUCKETS_PER_THREAD consecutive slices)
    // and one global reservation per non-empty slice.
    std::uint32_t cnt[BUCKETS_PER_THREAD], sum = 0;
#pragma unroll
    for (std::uint32_t u = 0; u < BUCKETS_PER_THREAD; ++u) {
      const std::uint32_t b = threadIdx.x * BUCKETS_PER_THREAD + u;
      cnt[u] = b < a.buckets ? s_base[b] : 0u;
      sum += cnt[u];
    }
    std::uint32_t offset, total;
    Scan(scan_tmp).ExclusiveSum(sum, offset, total);
    // Reserve room in the buckets now, use the answers only after the scatter below: the L2
    // round trip of the atomics overlaps the shared-memory sort.
    std::uint32_t gpos[BUCKETS_PER_THREAD], first[BUCKETS_PER_THREAD];
#pragma unroll
    for (std::uint32_t u = 0; u < BUCKETS_PER_THREAD; ++u) {
      const std::uint32_t b = threadIdx.x * BUCKETS_PER_THREAD + u;
      gpos[u] = 0;
      first[u] = offset;
      if (b < a.buckets) {
        s_base[b] = offset;
        if (cnt[u]) gpos[u] = atomicAdd(a.d_cursor + b, cnt[u]);
      }
      offset += cnt[u];
    }
    if (threadIdx.x == 0) s_total = total;
    __syncthreads();
#pragma unroll
    for (int e = 0; e < PPT; ++e)
      if (key[e] != ~0u) s_sorted[s_base[key[e] >> 16] + ((rank2[e / 2] >> (16 * (e & 1))) & 0xFFFFu)] = key[e];
    int full = 0;  // a bucket of this thread has no room for all of this tile's pairs
#pragma unroll
    for (std::uint32_t u = 0; u < BUCKETS_PER_THREAD; ++u) {
      const std::uint32_t b = threadIdx.x * BUCKETS_PER_THREAD + u;
      if (b < a.buckets) {
        // b * cap + gpos - first wraps modulo 2^32 for small b; adding i >= first unwraps it
        // (buckets * cap < 2^32 is a precondition of the launcher).
        s_delta[b] = b * a.cap + gpos[u] - first[u];
        s_limit[b] = first[u] + (gpos[u] < a.cap ? a.cap - gpos[u] : 0u);
        full |= cnt[u] > (gpos[u] < a.cap ? a.cap - gpos[u] : 0u);
      }
    }
    const int spill = __syncthreads_or(full);
    // s_base is not read below: clear it for the next tile (the barrier after the write-out
    // orders this before the next tile's ranking).
    for (std::uint32_t i = threadIdx.x; i < a.buckets; i += PART_THREADS) s_base[i] = 0;
    const std::uint32_t n = s_total;
    if (!spill) {  // every bucket has room (the rule for random input): no limit check per pair
      for (std::uint32_t i = threadIdx.x; i < n; i += PART_THREADS) {
        const std::uint32_t k = s_sorted[i];
        a.d_buf[s_delta[k >> 16] + i] = static_cast<std::uint16_t>(k);
      }
    } else {
      for (std::uint32_t i = threadIdx.x; i < n; i += PART_THREADS) {
        const std::uint32_t k = s_sorted[i], b = k >> 16;
        if (i < s_limit[b])
          a.d_buf[s_delta[b] + i] = static_cast<std::uint16_t>(k);
        else  // the bucket is full: count this pair the r02 way
          atomicAdd(c.d_table + b * a.slice + (k & 0xFFFFu), 1u);
      }
    }
    __syncthreads();  // s_base, s_sorted, s_delta, s_limit are reused by the next tile
  }
}

// THREADS: HIST_THREADS, or 1024 (PartitionArgs::hist_threads: session 10's sweep point for one large slice a SM);
// LOADS: 16-byte loads in flight a thread (PartitionArgs::hist_loads, r29).
template <int THREADS = HIST_THREADS, int LOADS = 1>
__global__ void __launch_bounds__(THREADS) bucket_hist_kernel(PartitionArgs a) {
  extern __shared__ uint4 s_hist4[];  // a.slice counters (16-byte aligned: cleared and read as uint4)
  const std::uint32_t b = blockIdx.x;
  bucket_histogram<THREADS, false, LOADS>(a, b, s_hist4);
  const uint4* h4 = s_hist4;
  // This slice's cells: [b * slice, min((b + 1) * slice, kp^2)), a multiple of 4 cells.
  const std::uint32_t cells = a.c.kp * a.c.kp, lo = b * a.slice;
  const std::uint32_t len = cells - lo < a.slice ? cells - lo : a.slice;
  uint4* t4 = reinterpret_cast<uint4*>(a.c.d_table + lo);
  for (std::uint32_t i = threadIdx.x; i < len / 4; i += THREADS) {
    const uint4 h = h4[i];
    uint4 t = t4[i];
    t.x += h.x;
    t.y += h.y;
    t.z += h.z;
    t.w += h.w;
    t4[i] = t;
  }
}

// The histogram kernel for PartitionArgs::hist_threads (512 or 1024) and hist_loads (1, 2 or 4; the pipeline
// refuses others): the one place that maps the knobs to an instantiation.
template <int THREADS>
auto bucket_hist_for_loads(int loads) {
  return loads == 4 ? bucket_hist_kernel<THREADS, 4> : loads == 2 ? bucket_hist_kernel<THREADS, 2> : bucket_hist_kernel<THREADS, 1>;
}
auto bucket_hist_for(int threads, int loads) {
  return threads == 1024 ? bucket_hist_for_loads<1024>(loads) : bucket_hist_for_loads<HIST_THREADS>(loads);
}

}  // namespace

namespace {
constexpr std::size_t sorted_bytes(int threads, int ppt) {
  return static_cast<std::size_t>(threads) * static_cast<std::size_t>(ppt) * sizeof(std::uint32_t);
}
template <int T>
PartitionLaunch residency(int sms) {
  // The variants' dynamic shared memory (s_sorted); above 48 KiB in all it needs this opt-in.
  JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(partition_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(sorted_bytes(T, PART_PAIRS_PER_TILE))));
  if constexpr (T == 512) {
    JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(partition_kernel<512, 18>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(sorted_bytes(512, 18))));
    JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(partition_kernel<512, 24>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(sorted_bytes(512, 24))));
    JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(partition_kernel<512, 20>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(sorted_bytes(512, 20))));
  }
  int per_sm = 1;
  JOSEKI_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, partition_kernel<T>, T, sorted_bytes(T, PART_PAIRS_PER_TILE)));
  PartitionLaunch l;
  l.resident_threads = static_cast<std::uint64_t>(sms) * static_cast<std::uint64_t>(per_sm > 0 ? per_sm : 1) * T;
  l.threads_per_block = T;
  return l;
}
}  // namespace

PartitionLaunch prepare_partition(int device, int threads, std::uint32_t slice) {
  const int hist_bytes = static_cast<int>(hist_smem_bytes(std::max(slice, SLICE_MAX_CELLS)));
  for (const int threads : {HIST_THREADS, 1024})
    for (const int loads : {1, 2, 4})
      JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(bucket_hist_for(threads, loads), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             hist_bytes));
  prepare_lean_partition();
  int sms = 1;
  JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  switch (threads) {
    case 256: return residency<256>(sms);
    case 128: {  // r16's kernel only (the pipeline refuses r03's in blocks of 128): 8 blocks a SM, as 4 of 256
      PartitionLaunch l = residency<256>(sms);
      l.threads_per_block = 128;
      return l;
    }
    default: return residency<512>(sms);
  }
}

void launch_partition_only(const PartitionArgs& a, int threads, cudaStream_t s) {
  if (a.c.end <= a.c.begin) return;
  const std::uint64_t total = (a.c.end - a.c.begin + a.run - 1) / a.run;
  const int t = threads == 256 || threads == 128 ? threads : 512;
  const unsigned blocks = static_cast<unsigned>((total + t - 1) / t);
  const int bits = a.c.end > a.c.m ? bit_length(a.c.end - a.c.m) : 0;
  if (a.lean > 0) {  // r16, r17 (blocks of 256: the pipeline allows only variant 4 with <= 256 slices)
    launch_lean_partition(a, bits, s, t);
    return;
  }
  switch (t) {
    case 256: partition_kernel<256><<<blocks, 256, sorted_bytes(256, PART_PAIRS_PER_TILE), s>>>(a, bits); break;
    default:
      // A short run (the max case: 52 pairs per thread) in tiles of 18 takes 3 tiles instead of 4:
      // the per-tile work (scan, reservations, barriers) once less, same per-pair work.
      if (a.tile_pairs == 24)  // r07 (PairsConfig::partition_tile): larger tiles
        partition_kernel<512, 24><<<blocks, 512, sorted_bytes(512, 24), s>>>(a, bits);
      else if (a.tile_pairs == 20)
        partition_kernel<512, 20><<<blocks, 512, sorted_bytes(512, 20), s>>>(a, bits);
      else if (a.run <= 64 && (a.run + 17) / 18 < (a.run + 15) / 16)
        partition_kernel<512, 18><<<blocks, 512, sorted_bytes(512, 18), s>>>(a, bits);
      else
        partition_kernel<512><<<blocks, 512, sorted_bytes(512, PART_PAIRS_PER_TILE), s>>>(a, bits);
      break;
  }
  JOSEKI_CUDA_CHECK_LAUNCH();
}

bool partition_tile_built(int threads, int tile_pairs) {
  // launch_partition_only's switch: blocks of 256 take tiles of 16 only; blocks of 512 also 20 and 24.
  if (tile_pairs == 0 || tile_pairs == 16) return true;
  return threads != 256 && (tile_pairs == 20 || tile_pairs == 24);
}

void launch_partition(const PartitionArgs& a, int threads, cudaStream_t s) {
  if (a.c.end <= a.c.begin) return;
  launch_partition_only(a, threads, s);
  const unsigned hist = a.hist_threads == 1024 ? 1024u : static_cast<unsigned>(HIST_THREADS);
  bucket_hist_for(static_cast<int>(hist), a.hist_loads)<<<a.buckets, hist, hist_smem_bytes(a.slice), s>>>(a);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::abc471g::pairs
