// Rung 16 of the gpu-pairs ladder (issue 19, both goals): r15 with a leaner partition kernel. Same
// algorithm as r03's (generate a tile of pairs per thread, rank them by slice with shared-memory atomics,
// scan, reserve, sort the tile in shared memory, write 16-bit offsets in runs); the histograms, the
// combine and the graph are r15's. PairsConfig::partition_lean = 4; the kernel is in this file.
//
// What changed from r15 (r03's partition_kernel), from ncu's SASS-level profile of r04's count at
// N = 10^8 (results/h200/2026-12-02-session9/call1: partition 409.7 us, histograms 59.4 us; 65.7 issued
// instructions per pair in the partition, issue slots 55 % busy; the generation floor 22.5 per element):
//   * generation, ~27 -> ~20 instructions per pair: the compiler had folded the 16 unrolled LCG steps of
//     a tile into 16 independent jumps from the tile's first state, each with its own 64-bit constant
//     (two register moves and four multiplies per element); here each step is three multiply-adds in
//     PTX (lcg_step_halves). The PCG output from the state's halves (3 ALU instructions, not 5), and
//     x mod K by one 32-bit high product and a conditional subtract (fastmod32: 2 multiplies + 2 ALU
//     instead of 4 multiplies; the fma pipe throttled the generation: "math pipe throttle" 10 % of
//     the samples).
//   * the tile's scatter into shared memory, ~10.5 -> ~6 per pair: a full tile (every pair generated,
//     the rule) has no per-pair branch (r03's `key != ~0u` test cost a BSSY/BSYNC pair and made the
//     compiler recompute the shared-memory window's address, 4 uniform instructions a pair).
//   * the key is slice << 18 | offset (r03: << 16), so key >> 16 is the slice's byte offset in the
//     shared arrays: the write-out reads s_delta without the shift-and-mask (~9 -> ~7 per pair).
//   * the element index is not kept per element (a 64-bit increment per element in r03): q + 1.
//   * added after the first measurement (below): one slice per thread in the scan and the reservations
//     when the slices number <= 512 (variant 4; r03 gives every thread two of up to 1024), and a tile
//     with given values loads them all before it ranks.
// Prediction: ~65.7 -> ~50 instructions per pair; if the time follows the issued instructions, the
// partition ~410 -> ~320 us at 10^8 and the count at 10^9 ~4.56 -> ~3.7 ms (the 3.0 ms goal is still
// not reached by this alone); the max case's count (44 us, a short run of 52 pairs a thread) ~-5 us.
// Measured (H200, 2026-12-02 session 9, results/h200/2026-12-02-session9; every answer exact against
// cpu-direct; GPU tests of every variant, tile size, spilling buckets and several chunks against the CPU):
//   call 2, the first four changes (variant 1): 48.8 instructions per pair (-26 %, as predicted) but SLOWER:
//   partition 464.4 us under ncu at 10^8 (r03's 409.7), whole solves 596 us at 10^8 (r15 494), 4770 us at
//   10^9 (r15 4632), 73.7 us at the max case (r15 71.5). ncu: the scatter's shared loads wait (short
//   scoreboard 4.7 per issued instruction, r03 2.5) and the barrier after it (2.9, r03 1.4): shared-memory
//   wavefronts per pair are unchanged (13.6 per 32 pairs, 2.2x the ideal: random slices), so removing ALU
//   work did not shorten the phases that queue on the shared-memory pipe.
//   Two more variants, kept as sweep points (pairs.sweep.partition_kernel), both negative: 2 gathers a full
//   tile's scatter positions before any store (no better than 1: 488 vs 501 us at 10^8 in tiles of 16, 3957
//   vs 3647 us at 10^9 in tiles of 24, final call); 3 also overlaps a tile's write-out with the next tile's
//   generation (two counter buffers, one barrier less): slower everywhere (535 us at 10^8, 4735-4766 us at
//   10^9): the write-out's branches inside the generation cost ~10 instructions a pair (59 per pair, ncu)
//   and the barrier after the scatter waited longer (15 % of the samples).
//   call 4: r16's generator alone (pairs.floor.generate_lean) 681.8 us at 10^9 against the floor's 1039.8 us.
//   In tiles of 24, variant 1 read 3873 us at 10^9 but 488 us at 10^8: the first chunk was slow. Its cause
//   (call 5): the threads whose runs lie wholly in the M = 10^5 given values took a partial tile's path
//   with one dependent load per pair, and their block finished last. With a tile's given values loaded
//   at once: the max case 68.77 us, 10^8 508.1 us, 10^9 4431 us (call 5; variant 1 in tiles of 16).
//   call 6: variant 4 (this rung), and a chunk-size sweep (2^28 pairs per chunk stays best: 10^9 in one
//   fused chunk of 2^30 read 3650 us against 3619 us).
//   Final (code of b8550c3, medians of three processes [min, max]): the max case **66.62 us** [66.46, 66.66]
//   (r15 70.46: -5.5 %; 4.28x the floor 15.58 us), 10^8 439.15 us (r15 492.64: -10.9 %), 10^9 3875.36 us
//   (r15 4605.70: -15.9 %). The count alone: 39.58 us at the max case (r04's 43.87), 411.68 us at 10^8
//   (462.85), 3825.31 us at 10^9 (4548.22). ncu (final call, chunk 0 at 10^9 in tiles of 24): 42.2
//   instructions per pair (r03's kernel in tiles of 24: 60.8), issue slots 51 % busy, 865.6 us for the
//   chunk (r03's kernel in tiles of 24: 1220.0 us in call 4). The held prediction: ~50 instructions per
//   pair (42 with variant 4); the time did not follow the instructions until the straggler and the
//   per-tile scan were fixed. The goals stay unmet: 40 us needs the count near 15 us, 3.0 ms needs
//   ~0.6 ms less count (r17, tiles of 24: 3601.95 us).
#include <cuda_runtime.h>

#include <set>

#include <cub/block/block_scan.cuh>

#include "backend/cuda/arch.cuh"
#include "backend/cuda/check.hpp"
#include "backend/cuda/clocks.cuh"
#include "experiments/abc471g/gpu_pairs/kernels.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"

namespace joseki::abc471g::pairs {

namespace {

__constant__ JumpTable c_jump16 = make_jump_table();

constexpr int LEAN_THREADS = 512;

// The shared array word at byte offset `byte` (a key's slice: key >> 16 = 4 * slice).
__device__ __forceinline__ std::uint32_t& at_byte(std::uint32_t* base, std::uint32_t byte) {
  return *reinterpret_cast<std::uint32_t*>(reinterpret_cast<char*>(base) + byte);
}

// r03's partition kernel with the changes above; blocks of 512, two per SM (<= 64 registers).
// VAR (PartitionArgs::lean): 1 as described above; 2 also gathers a full tile's sorted positions before it
// stores any key (the scatter's shared loads in flight together, not one load-add-store chain per pair);
// 3 also overlaps the write-out of tile t with the generation of tile t + 1 (two slice-counter buffers,
// one block barrier less per tile); 4 is 1 with one slice per thread in the scan and the reservations
// (when the slices number <= 512: half the per-tile work of r03's two).
// T: threads per block, 512 (r16, r17), or 256 or 128 (session 10: four or eight blocks a SM, fewer warps at
// each barrier; VAR 4 only, launched when the slices number <= 256: two a thread in blocks of 128).
// MINB: blocks a SM the registers are budgeted for (1024 / T: 64 registers); 3 with T = 256 gives 85 registers,
// room for tiles of 32 without a spill (session 10's sweep point: 768 threads a SM).
template <int PPT, int VAR, int T = LEAN_THREADS, int MINB = 1024 / T>
__global__ void __launch_bounds__(T, MINB) lean_partition_kernel(PartitionArgs a, int bits) {
  constexpr std::uint32_t TILE = T * PPT;
  constexpr bool BATCH = VAR == 2 || VAR == 3, OVERLAP = VAR == 3;
  static_assert(PPT % 2 == 0 && TILE < 65536, "ranks are packed two per register, 16 bits each");
  // Slices per thread in the scan: 2 (up to 1024 slices); VAR 4: 1, or 2 in blocks of 128 (launched only
  // when the slices fit: <= 512 in blocks of 512, <= 256 in smaller ones).
  // VAR 5 (session 10, r20): 4 with a full tile's write-out unrolled (no loop counter, bound or branch a pair).
  // VAR 6 (session 11, r21): 5 with the slice counters in two buffers (tile t counts into t & 1, and clears
  // the other for tile t + 1 after its first barrier), so no barrier closes the tile: a warp done with its
  // write-out generates the next tile while the others still write.
  // VAR 7 (session 11, r22): 6 without 5's unrolled write-out (4's loop again). VAR 8 (r23): 7 with the next
  // tile's given values prefetched into L1 while this tile is ranked (a thread whose run lies in the given
  // values otherwise waits one load latency a tile, and its block, the last to finish, sets the chunk's time).
  // VAR 9 (r24): 4 (r19's kernel, with the barrier that closes a tile) with 8's prefetch. VAR 10 (r28): 8 with
  // a tile of given values only on the full tile's path (no per-pair test in the ranking or the scatter).
  // VAR 11 (r30): 8 with the write-out in pairs of entries: every slice's run in the sorted tile and in its bucket
  // starts at an even index (a slice with an odd count gets a hole entry, offset a.slice, which the histograms
  // count into a spare counter), so a thread writes two adjacent entries of one slice with one 32-bit store
  // (half the shared loads, stores and loop steps of the write-out). VAR 12 (r31): 11 in groups of four entries
  // (runs padded to a multiple of 4 with up to three holes; one 128-bit shared load and one 64-bit store for four).
  // VAR 13 (r37): 12 with each pair's cell rotated, (a, b) -> a kp + (b - a) mod K, so that the table and the planes
  // hold P[a][d] = C[a][(a + d) mod K], the skewed combine's operand (r33), without a second pass in the histograms.
  // VAR 14 (r42): 13 with VAR 10's tile of given values on the full tile's path (no per-pair test), so the threads
  // whose runs lie in the given values no longer make their blocks the last to finish.
  constexpr bool ONE = VAR >= 4 && VAR <= 14, UNROLLED = VAR == 5 || VAR == 6,
                 TWO = OVERLAP || (VAR >= 6 && VAR <= 8) || VAR >= 10, END_BARRIER = VAR < 6 || VAR == 9,
                 PREFETCH = VAR >= 8, GIVEN_FULL = VAR == 10 || VAR == 14,
                 PAIRED = VAR >= 11 && VAR <= 14, ROTATE = VAR == 13 || VAR == 14;
  constexpr std::uint32_t GROUP = VAR >= 12 && VAR <= 14 ? 4 : PAIRED ? 2 : 1;  // entries a write-out step stores at once
  constexpr std::uint32_t BPT = ONE ? (T >= 256 ? 1 : 256 / T) : (PART_MAX_BUCKETS + T - 1) / T;
  using Scan = cub::BlockScan<std::uint32_t, T, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ typename Scan::TempStorage scan_tmp;
  // TILE keys grouped by slice (PAIRED: up to TILE + (GROUP - 1) * a.buckets, each slice's run padded to a multiple
  // of GROUP)
  extern __shared__ __align__(16) std::uint32_t s_sorted[];
  // Slice counts, then the slice's first index in s_sorted; TWO: two buffers, tile t uses t & 1.
  __shared__ std::uint32_t s_base2[(TWO ? 2 : 1) * PART_MAX_BUCKETS];
  __shared__ std::uint32_t s_delta[PART_MAX_BUCKETS];  // sorted entry i of slice b -> d_buf[s_delta[b] + i]
  __shared__ std::uint32_t s_limit[PART_MAX_BUCKETS];  // ... while i < s_limit[b], else it spills
  __shared__ std::uint32_t s_total;

  const CountArgs& c = a.c;
  if (a.d_zero && blockIdx.x == 0 && threadIdx.x == 0) *a.d_zero = 0;
  // The count's trace (a diagnostic, a.d_trace): this block's entry; its end and SM after the last tile.
  if (a.d_trace && threadIdx.x == 0 && blockIdx.x < a.trace_blocks)
    a.d_trace[COUNT_TRACE_PARTITION_WORDS * blockIdx.x] = cuda::global_timer();
#if JOSEKI_ARCH_AT_LEAST(900)
  // r62: the histograms may launch once every partition block has started (all resident: none waits for an SM they
  // hold); they read nothing of this kernel's before their griddepcontrol.wait, which waits for its end.
  if (a.trigger_dependents) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
  const std::uint64_t gtid = blockIdx.x * static_cast<std::uint64_t>(T) + threadIdx.x;
  // r60 (a.given_threads > 0): the first given_threads threads take runs of given_run pairs (given_run < run, so every
  // thread's run still fits the block's `tiles`), the others runs of `run` after them. r64 (a.full_threads > 0): after the
  // full runs, threads of a.tail_run pairs (tail_run < run too). This is pairs_math.hpp's thread_run written out: called,
  // it made ptxas spill 4 bytes in tiles of 26. The unit test ChunkLayoutsTileEveryChunk checks thread_run and
  // layout_threads (the launch's count); a map here that differed from them would miss or double pairs in the GPU tests'
  // whole solves under every layout (SpreadGivenRunsAreExact).
  std::uint64_t p0 = c.begin, i = gtid, len = a.run;
  if (i < a.given_threads) {
    len = a.given_run;
  } else {
    p0 += a.given_threads * a.given_run;
    i -= a.given_threads;
    if (a.full_threads > 0 && i >= a.full_threads) {
      p0 += a.full_threads * a.run;
      i -= a.full_threads;
      len = a.tail_run;
    }
  }
  p0 += i * len;
  const std::uint64_t p1 = p0 < c.end ? (c.end - p0 < len ? c.end : p0 + len) : p0;
  const FastMod32 fm = make_fastmod32(c.k);
  const std::uint32_t shift_key = (1u << 18) - a.slice;  // key = cell + slice * shift_key
  const std::uint32_t kp_rot = c.kp - 1;  // ROTATE: cell = a (kp - 1) + b (+ K when b < a) = a kp + (b - a) mod K
  std::uint32_t lo = 0, hi = 0;  // the LCG state of element max(q + 1, M)
  std::uint32_t prev = 0;
  // Sorted entry i (< n) of the tile in s_sorted to its bucket, or into the table when the bucket is full.
  auto write_out = [&](std::uint32_t i, std::uint32_t n, int spill) {
    if (i >= n) return;
    const std::uint32_t k = s_sorted[i], bb = k >> 16;
    if (!spill || i < at_byte(s_limit, bb))
      a.d_buf[at_byte(s_delta, bb) + i] = static_cast<std::uint16_t>(k);  // PAIRED: a hole too (the histograms skip it)
    else if (!PAIRED || (k & 0xFFFFu) != a.slice)  // the bucket is full: count this pair the r02 way (not a hole)
      atomicAdd(c.d_table + (bb >> 2) * a.slice + (k & 0xFFFFu), 1u);
  };
  if (p0 < p1) {
    const std::uint64_t s = jump_with(c_jump16, c.seed, (p0 > c.m ? p0 : c.m) - c.m, bits);
    lo = static_cast<std::uint32_t>(s);
    hi = static_cast<std::uint32_t>(s >> 32);
    prev = p0 < c.m ? c.d_b[p0] : lean_next(lo, hi, fm);  // element p0: given below M, generated from M on
  }
  const std::uint32_t tiles = static_cast<std::uint32_t>((a.run + PPT - 1) / PPT);
  std::uint64_t q = p0;
  for (std::uint32_t i = threadIdx.x; i < (TWO ? 2 : 1) * PART_MAX_BUCKETS; i += T) s_base2[i] = 0;
  std::uint32_t n_prev = 0;  // OVERLAP: the previous tile's entries, written out during this tile's generation
  int spill_prev = 0;
  __syncthreads();
  for (std::uint32_t t = 0; t < tiles; ++t) {
    std::uint32_t* s_base = s_base2 + (TWO ? (t & 1u) * PART_MAX_BUCKETS : 0u);
    std::uint32_t key[PPT], rank2[PPT / 2] = {};
    // Pair e of the tile (prev, cur): its key (b << 18 | (cell - b * slice)) and its rank in slice b.
    auto rank_pair = [&](int e, std::uint32_t cur) {
      const std::uint32_t cell = ROTATE ? rotated_cell(prev, cur, c.k, kp_rot) : prev * c.kp + cur;
      const std::uint32_t b = __umulhi(cell, a.magic);
      key[e] = cell + b * shift_key;
      prev = cur;
      rank2[e / 2] |= atomicAdd(&s_base[b], 1u) << (16 * (e & 1));
    };
    const bool full = q + PPT <= p1 && q + 1 >= c.m;  // PPT generated pairs
    const bool given_full = GIVEN_FULL && q + PPT <= p1 && q + PPT < c.m;  // PPT given pairs (VAR 10)
    if (full) {
#pragma unroll
      for (int e = 0; e < PPT; ++e) {
        rank_pair(e, lean_next(lo, hi, fm));
        if constexpr (OVERLAP) write_out(threadIdx.x + e * T, n_prev, spill_prev);
      }
      q += PPT;
    } else {  // given values in this tile, or the run's end
      if constexpr (OVERLAP)
        for (int e = 0; e < PPT; ++e) write_out(threadIdx.x + e * T, n_prev, spill_prev);
      // The tile's given values first, every load in flight at once (a thread whose whole run lies in
      // the given values would otherwise wait for one load per pair: the straggler of block 0).
      std::uint32_t given[PPT];
#pragma unroll
      for (int e = 0; e < PPT; ++e) given[e] = q + e < p1 && q + 1 + e < c.m ? __ldg(c.d_b + q + 1 + e) : 0u;
      if constexpr (PREFETCH) {  // the next tile's given values (PPT words: at most two 128-byte lines) into L1
        const std::uint64_t next = q + 1 + PPT, last = next + PPT - 1;
        if (next < p1 && next < c.m) {
          asm volatile("prefetch.global.L1 [%0];" ::"l"(c.d_b + next));
          if (last < c.m) asm volatile("prefetch.global.L1 [%0];" ::"l"(c.d_b + last));
        }
      }
      if (given_full) {  // VAR 10: every pair of the tile given, the full tile's path
#pragma unroll
        for (int e = 0; e < PPT; ++e) rank_pair(e, given[e]);
        q += PPT;
      } else {
#pragma unroll
        for (int e = 0; e < PPT; ++e) {
          key[e] = ~0u;
          if (q < p1) {
            rank_pair(e, q + 1 < c.m ? given[e] : lean_next(lo, hi, fm));
            ++q;
          }
        }
      }
    }
    __syncthreads();
    if constexpr (TWO) {  // the other buffer: last read by tile t - 1's scatter, next counted by tile t + 1
      std::uint32_t* other = s_base2 + ((t + 1) & 1u) * PART_MAX_BUCKETS;
      for (std::uint32_t i = threadIdx.x; i < a.buckets; i += T) other[i] = 0;
    }
    // cnt: the slice's pairs in this tile; PAIRED: rounded up to a multiple of GROUP (the run's holes are its last)
    std::uint32_t cnt[BPT], sum = 0;
#pragma unroll
    for (std::uint32_t u = 0; u < BPT; ++u) {
      const std::uint32_t b = threadIdx.x * BPT + u;
      cnt[u] = b < a.buckets ? s_base[b] : 0u;
      if constexpr (PAIRED) cnt[u] = (cnt[u] + GROUP - 1) & ~(GROUP - 1);
      sum += cnt[u];
    }
    std::uint32_t offset, total;
    Scan(scan_tmp).ExclusiveSum(sum, offset, total);
    std::uint32_t gpos[BPT], first[BPT];
#pragma unroll
    for (std::uint32_t u = 0; u < BPT; ++u) {
      const std::uint32_t b = threadIdx.x * BPT + u;
      gpos[u] = 0;
      first[u] = offset;
      if (b < a.buckets) {
        s_base[b] = offset;
        if (cnt[u]) gpos[u] = atomicAdd(a.d_cursor + b * a.cursor_stride, cnt[u]);  // r63: one line a cursor
        // PAIRED: the holes closing a run (no pair is scattered there; tile t - 1's write-out read s_sorted before
        // this tile's first barrier): its last GROUP - 1 slots, which the scatter then overwrites where they hold pairs
        if (PAIRED && cnt[u])
#pragma unroll
          for (std::uint32_t h = 1; h < GROUP; ++h) s_sorted[offset + cnt[u] - h] = b << 18 | a.slice;
      }
      offset += cnt[u];
    }
    if (threadIdx.x == 0) s_total = total;
    __syncthreads();
    if (full || given_full) {  // no per-pair test
      if constexpr (BATCH) {
        std::uint32_t pos[PPT];
#pragma unroll
        for (int e = 0; e < PPT; ++e) pos[e] = at_byte(s_base, key[e] >> 16);
#pragma unroll
        for (int e = 0; e < PPT; ++e) s_sorted[pos[e] + ((rank2[e / 2] >> (16 * (e & 1))) & 0xFFFFu)] = key[e];
      } else {
#pragma unroll
        for (int e = 0; e < PPT; ++e)
          s_sorted[at_byte(s_base, key[e] >> 16) + ((rank2[e / 2] >> (16 * (e & 1))) & 0xFFFFu)] = key[e];
      }
    } else {
#pragma unroll
      for (int e = 0; e < PPT; ++e)
        if (key[e] != ~0u) s_sorted[at_byte(s_base, key[e] >> 16) + ((rank2[e / 2] >> (16 * (e & 1))) & 0xFFFFu)] = key[e];
    }
    int spill_here = 0;
#pragma unroll
    for (std::uint32_t u = 0; u < BPT; ++u) {
      const std::uint32_t b = threadIdx.x * BPT + u;
      if (b < a.buckets) {
        // b * cap + gpos - first wraps modulo 2^32 for small b; adding i >= first unwraps it.
        s_delta[b] = b * a.cap + gpos[u] - first[u];
        s_limit[b] = first[u] + (gpos[u] < a.cap ? a.cap - gpos[u] : 0u);
        spill_here |= cnt[u] > (gpos[u] < a.cap ? a.cap - gpos[u] : 0u);
      }
    }
    const int spill = __syncthreads_or(spill_here);
    if constexpr (OVERLAP) {
      n_prev = s_total;  // written again only after the next tile's first barrier
      spill_prev = spill;
    } else {
      if constexpr (!TWO)
        for (std::uint32_t i = threadIdx.x; i < a.buckets; i += T) s_base[i] = 0;
      const std::uint32_t n = s_total;
      if (UNROLLED && !spill && n == TILE) {  // every pair of the tile generated: PPT entries a thread
#pragma unroll
        for (int e = 0; e < PPT; ++e) {
          const std::uint32_t i = threadIdx.x + static_cast<std::uint32_t>(e) * T;
          const std::uint32_t k = s_sorted[i];
          a.d_buf[at_byte(s_delta, k >> 16) + i] = static_cast<std::uint16_t>(k);
        }
      } else if (GROUP == 4 && !spill) {  // n % 4 == 0, every run starts at a multiple of 4 here and in its bucket
        const uint4* s_quads = reinterpret_cast<const uint4*>(s_sorted);
        for (std::uint32_t j = threadIdx.x; j < n / 4; j += T) {
          const uint4 k = s_quads[j];  // entries 4j .. 4j + 3: one slice
          *reinterpret_cast<uint2*>(a.d_buf + at_byte(s_delta, k.x >> 16) + 4 * j) =
              make_uint2((k.x & 0xFFFFu) | k.y << 16, (k.z & 0xFFFFu) | k.w << 16);
        }
      } else if (PAIRED && !spill) {  // n is even, every run starts at an even index here and in its bucket
        const uint2* s_pairs = reinterpret_cast<const uint2*>(s_sorted);
        for (std::uint32_t j = threadIdx.x; j < n / 2; j += T) {
          const uint2 k = s_pairs[j];  // entries 2j and 2j + 1: the same slice
          *reinterpret_cast<std::uint32_t*>(a.d_buf + at_byte(s_delta, k.x >> 16) + 2 * j) = (k.x & 0xFFFFu) | k.y << 16;
        }
      } else if (!spill) {
        for (std::uint32_t i = threadIdx.x; i < n; i += T) {
          const std::uint32_t k = s_sorted[i];
          a.d_buf[at_byte(s_delta, k >> 16) + i] = static_cast<std::uint16_t>(k);
        }
      } else {
        for (std::uint32_t i = threadIdx.x; i < n; i += T) write_out(i, n, 1);
      }
      // VAR >= 6: tile t + 1's first barrier orders this write-out's reads of s_sorted, s_delta, s_limit and
      // s_total before their next writes (all after that barrier), and its counters were cleared during tile t.
      if constexpr (END_BARRIER) __syncthreads();
    }
  }
  if constexpr (OVERLAP)  // the last tile's entries
    for (std::uint32_t i = threadIdx.x; i < n_prev; i += T) write_out(i, n_prev, spill_prev);
  if (a.d_trace) __syncthreads();  // the trace (the same for the whole grid): the block's end, not thread 0's
  if (a.d_trace && threadIdx.x == 0 && blockIdx.x < a.trace_blocks) {
    std::uint64_t* w = a.d_trace + COUNT_TRACE_PARTITION_WORDS * blockIdx.x;
    w[1] = cuda::global_timer();
    w[2] = static_cast<std::uint64_t>(cuda::sm_id());
  }
}

// The sorted tile's shared memory; variants 11 and 12 (PAIRED) also hold up to one or three holes a slice (<= 256
// slices).
constexpr std::size_t lean_sorted_bytes(int ppt, int threads = LEAN_THREADS, int var = 1) {
  return (static_cast<std::size_t>(threads) * static_cast<std::size_t>(ppt) + (var == 11 ? 256u : var >= 12 && var <= 14 ? 768u : 0u)) *
         sizeof(std::uint32_t);
}

// One instantiation of the lean kernel and its launch shape. choose_lean is the only place that maps the
// knobs to an instantiation: launch_lean_partition launches its choice and lean_partition_blocks_per_sm asks
// the occupancy API about the same one, so the two cannot disagree.
struct LeanKernel {
  void (*kernel)(PartitionArgs, int) = nullptr;
  int threads = LEAN_THREADS;
  std::size_t smem = 0;  // dynamic shared memory: the sorted tile
  int tile = 16;         // pairs a thread and tile (PPT)
};

template <int PPT, int VAR, int T = LEAN_THREADS, int MINB = 1024 / T>
LeanKernel lean_kernel() {
  return {lean_partition_kernel<PPT, VAR, T, MINB>, T, lean_sorted_bytes(PPT, T, VAR), PPT};
}

// Blocks of 512: tiles of 24, of 18 for a short run (r04's rule: one tile less), else of 16; 32 (variant 1: a
// sweep point whose registers spill).
template <int VAR>
LeanKernel lean_kernel_512(int tile, std::uint64_t run) {
  if constexpr (VAR == 1)
    if (tile == 32) return lean_kernel<32, 1>();
  if (tile == 24) return lean_kernel<24, VAR>();
  if (run <= 64 && (run + 17) / 18 < (run + 15) / 16) return lean_kernel<18, VAR>();
  return lean_kernel<16, VAR>();
}

// Blocks of 256, variants 5 .. 14: tiles of 28 or 24, else 16 (no tiles of 18 in blocks of 256); variants 13 and 14
// also in tiles of 26 (r41, r42: the max case's run of 52 pairs a thread on the H200 in two full tiles).
template <int VAR>
LeanKernel lean_kernel_256(int tile) {
  if constexpr (VAR == 13 || VAR == 14)
    if (tile == 26) return lean_kernel<26, VAR, 256>();
  return tile == 28 ? lean_kernel<28, VAR, 256>() : tile == 24 ? lean_kernel<24, VAR, 256>() : lean_kernel<16, VAR, 256>();
}

// threads 256 with variants 5 .. 13 (r20 .. r28, r30, r31, r37) or 4, and 128 with 4, when the slices number <= 256 (the
// pipeline refuses the other small-block combinations); everything else runs in blocks of 512, where
// variant 4 needs <= 512 slices (else 1) and values other than 1, 2, 4 mean 3.
LeanKernel choose_lean(int threads, int lean, int tile, std::uint64_t run, std::uint32_t buckets) {
  if (threads == 256 && lean >= 5 && lean <= 14 && buckets <= 256) {
    switch (lean) {
      case 5: return lean_kernel_256<5>(tile);
      case 6: return lean_kernel_256<6>(tile);
      case 7: return lean_kernel_256<7>(tile);
      case 8: return lean_kernel_256<8>(tile);
      case 9: return lean_kernel_256<9>(tile);
      case 10: return lean_kernel_256<10>(tile);
      case 11: return lean_kernel_256<11>(tile);
      case 12: return lean_kernel_256<12>(tile);
      case 13: return lean_kernel_256<13>(tile);
      default: return lean_kernel_256<14>(tile);
    }
  }
  if ((threads == 256 || threads == 128) && lean == 4 && buckets <= 256) {
    if (threads == 128) return tile == 24 ? lean_kernel<24, 4, 128>() : lean_kernel<16, 4, 128>();
    if (tile == 32) return lean_kernel<32, 4, 256, 3>();  // three blocks a SM, 85 registers
    if (tile == 28) return lean_kernel<28, 4, 256>();
    return tile == 24 ? lean_kernel<24, 4, 256>() : lean_kernel<16, 4, 256>();
  }
  switch (lean) {
    case 1: return lean_kernel_512<1>(tile, run);
    case 2: return lean_kernel_512<2>(tile, run);
    case 4: return buckets <= LEAN_THREADS ? lean_kernel_512<4>(tile, run) : lean_kernel_512<1>(tile, run);
    default: return lean_kernel_512<3>(tile, run);
  }
}

}  // namespace

void prepare_lean_partition() {
  // Every instantiation choose_lean can return: the shared-memory limit of its sorted tile.
  std::set<void (*)(PartitionArgs, int)> done;
  for (const int threads : {512, 256, 128})
    for (const int lean : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14})
      for (const int tile : {0, 24, 26, 28, 32})
        for (const std::uint64_t run : {std::uint64_t{52}, std::uint64_t{1} << 20})
          for (const std::uint32_t buckets : {256u, 512u, 1024u}) {
            const LeanKernel k = choose_lean(threads, lean, tile, run, buckets);
            if (done.insert(k.kernel).second)
              JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(k.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                     static_cast<int>(k.smem)));
          }
}

void launch_lean_partition(const PartitionArgs& a, int bits, cudaStream_t s, int threads) {
  const std::uint64_t total =  // pairs_math.hpp layout_threads: r60's and r64's layouts, or every thread a run of `run`
      layout_threads(a.c.end - a.c.begin, a.run, a.given_threads, a.given_run, a.full_threads, a.tail_run);
  const LeanKernel k = choose_lean(threads, a.lean, a.tile_pairs, a.run, a.buckets);
  const auto blocks = static_cast<unsigned>((total + static_cast<std::uint64_t>(k.threads) - 1) /
                                            static_cast<std::uint64_t>(k.threads));
  k.kernel<<<blocks, k.threads, k.smem, s>>>(a, bits);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

bool lean_partition_tile_built(int threads, int lean, int tile_pairs, std::uint32_t buckets) {
  if (tile_pairs == 0) return true;  // the kernel's own choice (16, or 18 on a short run in blocks of 512)
  // A long run (no tiles of 18): the tile choose_lean maps these knobs to must be the one asked for.
  return choose_lean(threads, lean, tile_pairs, std::uint64_t{1} << 20, buckets).tile == tile_pairs;
}

int lean_partition_blocks_per_sm(int threads, int tile_pairs, int lean, std::uint32_t buckets) {
  const LeanKernel k = choose_lean(threads, lean, tile_pairs, std::uint64_t{1} << 20, buckets);  // a long run
  int n = 0;
  JOSEKI_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k.kernel, k.threads, k.smem));
  return n;
}

}  // namespace joseki::abc471g::pairs
