// Rung 8 of the gpu-pairs ladder (issue 19): the count with the table in the distributed shared memory
// (DSMEM) of thread-block clusters; r04's combine (cuBLASLt GEMM of plane 0) after a slicing pass.
//
// What changed from r04: r03/r04 partition every pair through the L2/HBM into 395 slices of 2^14 cells
// (one block's shared memory each), and the partition kernel pays a 395-way sort per tile (ranking,
// a block scan of 395 counters, up to 395 reservations). Here one cluster of 8 blocks (16 with
// PairsConfig::dsmem_cluster = 16, non-portable) holds a range of rows of the table in its blocks'
// shared memory (dsmem_plan.hpp: 18 rows x 2304 columns x 4 bytes = 166 KB per block at K = 2300, 16
// ranges of 144 rows, 128 blocks = one wave on 132 SMs), so the routing is only 16-way:
//   1. route: every thread generates its run of pairs (the jump-ahead once, tiles of 16 pairs), ranks
//      them by range with warp ballots (one shared atomic per warp and range), one warp scans the <= 64
//      range counts and reserves room in each range's bucket (one global atomic per range and tile), the
//      tile is sorted in shared memory and written as 4-byte entries (slot in the cluster << 16 |
//      offset in the slot) in runs. A full bucket (skewed input) spills its pairs into the table with
//      RED.ADD, so every input stays exact.
//   2. count: one cluster per range; its blocks zero their rows, cluster barrier, each block reads a
//      1/cluster share of the range's bucket (16-byte loads) and adds 1 to the owning block's counter
//      through cluster.map_shared_rank (a remote shared-memory RED for 7 of 8 entries), cluster barrier,
//      each block adds its rows into the table (it owns them: plain read-modify-write).
//   Then r04's slicing pass (table -> planes) and GEMM combine; there is no fused variant (the planes
//   written by the count), so the max case pays the table's zeroing and the slicing pass that r04's
//   fused count avoids.
// Why not the other layouts: each cluster generating the whole sequence for its own row range (no
// route pass) generates every element 16 times (8 at cluster 16): >= 8 x the floor (1.04 ms at 10^9)
// before any counting. 16-bit counters would halve the ranges but need an overflow protocol on packed
// shared atomics (a carry into the neighbour's half); 32-bit counters keep the count exact without one.
//
// Prediction (before measuring; from the floor and the dsmem probe, docs/ABC471G_SCALE.md):
//   the deciding figure is the rate of 4-byte remote REDs, which no probe measured: the probe's DSMEM
//   read bandwidth, 2.85 TB/s device-wide at cluster 8 (2.65 at 16) in 16-byte loads, is 1.8e11
//   requests/s; if a 4-byte RED costs one such request the count runs at 1.8e11 pairs/s, if the network
//   is byte-bound ~4x that.
//   Max case (7e6 pairs): zeroing the 21 MB table ~5 us, route ~20 us (the floor 15.5 us + 28 MB of
//   entries), count 10-40 us (remote REDs) + ~5 us (the table's read-modify-write), slicing ~15 us,
//   combine ~40 us (r04's combine alone 39.9 us): ~95-125 us, i.e. 1.2-1.6x r04's 78.24 us: a loss.
//   N = 10^9: route 1.3-3 ms (at best the floor's 1.04 ms with 4 GB of entries at ~4.4 TB/s beside it;
//   at worst like r03's partition kernel, ~4 ms of r04's 4.55 ms count, less its 395-way scan), table
//   kernel 1.4-5.6 ms (remote REDs; reading 4 GB back ~0.9 ms beside them), combine 0.19 ms: ~3-9 ms
//   against r07's 4.595 ms. It wins at 10^9 only if the route stays near 2 ms and remote REDs run at
//   >= ~3.5e11/s (2x the probe's read-request rate); more likely a loss, kept as the measured answer
//   to "does DSMEM beat the partition through the L2".
// ptxas (sm_90, this build): route kernel 64 registers (2 blocks of 512 per SM), 33.8 KB static shared
// memory, no spill; table kernel 32 registers, blocks of 1024, one per SM (its rows' shared memory).
// Measured, final call (results/h200/2026-12-01-session6/final-a/hopper_abc, commit 566b24d; medians of three
// processes; every answer exact; memcheck 0 errors, racecheck 0 hazards): max case 227.94 us (r04 78.18 us:
// 2.92x), 10^8 2092.94 us (4.17x), 10^9 20.348 ms (4.28x; r07 4.597 ms); remote adds 6.27e10/s (max),
// 7.05e10/s (10^8). The debug calls below read the same.
// Measured (H200, debug call 1 of 2026-12-01 21:22 (lead's debug call; its files not kept); medians
// of three processes; every answer exact, GPU tests 10/10, memcheck 0 errors, racecheck 0 hazards), with
// the generic atomicAdd through cluster.map_shared_rank: a clear LOSS, worse than predicted.
//   whole solve: max case 227.17 us (r04 79.26 us in the same run: 2.87x), 10^8 2097.6 us (4.19x),
//   10^9 20.374 ms (4.29x r04's 4.749 ms; r07 4.584 ms).
//   count alone, clusters of 8 / 16: max 172.4 / 175.3 us (r04's 45.2 us), 10^8 2043.7 / 2046.0 us (r04's
//   464.4 us), 10^9 20.18 / 20.27 ms (r04's 4.56 ms). The occupancy API gave 15 clusters of 8 (15 ranges
//   of 20 rows, 184 KB a block) and 7 of 16 (7 ranges of 21 rows, 194 KB).
//   route kernel alone: 55.1 / 53.0 us (max), 620.9 / 593.9 us (10^8): 5.6x the floor, itself slower than
//   r04's whole count (464 us): the warp-ballot ranking (5 ballots a pair) and the 4-byte entries (twice
//   r03's bytes) cost more than the 395-way scan they replace.
//   table kernel alone: 111.4 / 115.6 us (max), 1415 / 1445 us (10^8) = 6.3-7.1e10 remote adds/s
//   device-wide: 2.5-2.9x below the prediction's floor (1.8e11/s) and below the L2's random RED rate
//   (1.0e11/s, r02): a remote shared-memory add is slower than an L2 atomic, so the table in DSMEM cannot
//   beat a partition through the L2 that ends in local shared-memory atomics (r04's whole count: 2.2e11
//   pairs/s at 10^9).
// Since call 1 the add is an explicit mapa.shared::cluster + red.shared::cluster (the PTX of the generic
// form is a generic atom.add with a return value). Debug call 2 (21:47, a debug call whose files are not kept,
// commit 1181074; same A/B in one process): no difference, 6.27e10 vs 6.25e10 adds/s (max case), 7.06e10
// vs 7.06e10 (10^8): the network is the limit, not the instruction form. Ranking by __match_any_sync
// instead of 5 ballots: route 589.0 vs 616.8 us at 10^8 (-4.5 %), 51.6 vs 54.8 us at the max case; kept
// as an A/B only (1.4 % of r08's solve). Whole solve in call 2: 228.32 us (r04 78.85: 2.90x), 10^8
// 2092.3 us (4.19x), 10^9 20.337 ms (4.29x; r07 4.581 ms); every answer exact; memcheck 0 errors.
//
// The kind (kinds.hpp): this file also holds r08's count kind "dsmem" (DsmemCountStage at its end, its
// static registrar); the ladder entry p08 names it (PairsConfig::count_kind = "dsmem"), PairsDevice
// calls its stage at the count's seams (pipeline.cpp has no branch of its own for it).
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "backend/cuda/buffer.hpp"
#include "backend/cuda/check.hpp"
#include "experiments/abc471g/gpu_pairs/dsmem_plan.hpp"
#include "experiments/abc471g/gpu_pairs/kernels.hpp"
#include "experiments/abc471g/gpu_pairs/kinds.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
#include "measure/errors.hpp"

// Clusters and the shared::cluster window exist from sm_90. A fat build (sm_75 .. sm_120) compiles
// this file for every architecture: below sm_90 the device code that needs them is left out and traps
// (the host never launches it there: p08 needs clusters, measure::Needs decides first).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define JK_R08_SM90 0
#else
#define JK_R08_SM90 1
#endif

namespace joseki::abc471g::pairs {

namespace {

namespace cg = cooperative_groups;

__constant__ JumpTable c_jump8 = make_jump_table();

constexpr int ROUTE_THREADS = 512;
constexpr int ROUTE_PPT = 16;
constexpr std::uint32_t ROUTE_TILE = ROUTE_THREADS * ROUTE_PPT;
constexpr int COUNT_THREADS_DS = 1024;

// Rank of this lane's key among the lanes of its warp with the same range (ballots on the range's
// bits), and one shared atomic per (warp, range) for the range's running count. Every lane calls it.
__device__ __forceinline__ std::uint32_t warp_rank(std::uint32_t range, bool valid, int range_bits,
                                                   std::uint32_t* s_cnt) {
  const std::uint32_t lane = threadIdx.x & 31u;
  std::uint32_t peers = __ballot_sync(0xFFFFFFFFu, valid);
  for (int i = 0; i < range_bits; ++i) {
    const bool bit = (range >> i) & 1u;
    const std::uint32_t b = __ballot_sync(0xFFFFFFFFu, bit);
    peers &= bit ? b : ~b;
  }
  if (!valid) peers = 1u << lane;  // alone: leads itself, takes no count
  const int leader = __ffs(peers) - 1;
  std::uint32_t base = 0;
  if (valid && static_cast<std::uint32_t>(leader) == lane) base = atomicAdd(&s_cnt[range], __popc(peers));
  base = __shfl_sync(0xFFFFFFFFu, base, leader);
  return base + __popc(peers & ((1u << lane) - 1u));
}

// The same rank with one __match_any_sync instead of the ballots (DsmemArgs::match_rank: the bench's A/B).
__device__ __forceinline__ std::uint32_t warp_rank_match(std::uint32_t range, bool valid, std::uint32_t* s_cnt) {
  const std::uint32_t lane = threadIdx.x & 31u;
  const std::uint32_t peers = __match_any_sync(0xFFFFFFFFu, valid ? range : 0xFFFFFFFFu);
  const int leader = __ffs(peers) - 1;
  std::uint32_t base = 0;
  if (valid && static_cast<std::uint32_t>(leader) == lane) base = atomicAdd(&s_cnt[range], __popc(peers));
  base = __shfl_sync(0xFFFFFFFFu, base, leader);
  return valid ? base + __popc(peers & ((1u << lane) - 1u)) : 0u;
}

template <bool MATCH>
__global__ void __launch_bounds__(ROUTE_THREADS, 2) route_kernel(DsmemArgs a, int bits, int range_bits) {
  __shared__ std::uint32_t s_sorted[ROUTE_TILE];  // the tile's keys (slot << 16 | offset), grouped by range
  __shared__ std::uint32_t s_cnt[DSMEM_MAX_RANGES];    // this tile's pairs per range (ranking)
  __shared__ std::uint32_t s_base[DSMEM_MAX_RANGES];   // the range's first index in s_sorted
  __shared__ std::uint32_t s_delta[DSMEM_MAX_RANGES];  // sorted entry i of range r -> d_buf[s_delta[r] + i]
  __shared__ std::uint32_t s_limit[DSMEM_MAX_RANGES];  // ... while i < s_limit[r], else it spills
  __shared__ std::uint32_t s_total;

  const CountArgs& c = a.c;
  const std::uint32_t kp = c.kp;
  const std::uint32_t lane = threadIdx.x & 31u;
  const std::uint64_t gtid = blockIdx.x * static_cast<std::uint64_t>(ROUTE_THREADS) + threadIdx.x;
  const std::uint64_t p0 = c.begin + gtid * a.run;
  const std::uint64_t p1 = p0 < c.end ? (c.end - p0 < a.run ? c.end : p0 + a.run) : p0;
  ElementCursor el{c.d_b, c.m, FastMod{c.fastmod_m, c.k}, p0, 0};
  std::uint32_t prev = 0;
  if (p0 < p1) {
    el.state = jump_with(c_jump8, c.seed, (p0 > c.m ? p0 : c.m) - c.m, bits);
    prev = el.next();
  }
  // Every thread of the block runs the same number of tiles (the block's longest run), so the
  // warp-wide ballots and the barriers see every thread.
  const std::uint64_t block_p0 = c.begin + blockIdx.x * static_cast<std::uint64_t>(ROUTE_THREADS) * a.run;
  const std::uint64_t block_pairs = block_p0 < c.end ? (c.end - block_p0) : 0;
  const std::uint64_t longest = block_pairs < a.run ? block_pairs : a.run;
  const std::uint32_t tiles = static_cast<std::uint32_t>((longest + ROUTE_PPT - 1) / ROUTE_PPT);
  std::uint64_t q = p0;
  for (std::uint32_t i = threadIdx.x; i < DSMEM_MAX_RANGES; i += ROUTE_THREADS) s_cnt[i] = 0;
  __syncthreads();
  for (std::uint32_t t = 0; t < tiles; ++t) {
    std::uint32_t key[ROUTE_PPT], rank2[ROUTE_PPT / 2] = {};
#pragma unroll
    for (int e = 0; e < ROUTE_PPT; ++e) {
      key[e] = ~0u;
      std::uint32_t range = 0;
      if (q < p1) {
        const std::uint32_t cur = el.next();
        key[e] = dsmem_key(prev, cur, kp, a.rows, a.magic);  // slot << 16 | offset
        range = dsmem_key_range(key[e], a.cluster_log);
        prev = cur;
        ++q;
      }
      const std::uint32_t rank = MATCH ? warp_rank_match(range, key[e] != ~0u, s_cnt)
                                       : warp_rank(range, key[e] != ~0u, range_bits, s_cnt);
      rank2[e / 2] |= rank << (16 * (e & 1));
    }
    __syncthreads();  // [A] the tile's counts are complete
    // Warp 0: exclusive scan of the range counts (two ranges a lane), reservations in the buckets.
    std::uint32_t gpos[2] = {0, 0}, first[2] = {0, 0}, cnt[2] = {0, 0};
    if (threadIdx.x < 32) {
      const std::uint32_t r0 = 2 * lane, r1 = r0 + 1;
      cnt[0] = r0 < a.ranges ? s_cnt[r0] : 0u;
      cnt[1] = r1 < a.ranges ? s_cnt[r1] : 0u;
      const std::uint32_t sum = cnt[0] + cnt[1];
      std::uint32_t incl = sum;
#pragma unroll
      for (int off = 1; off < 32; off <<= 1) {
        const std::uint32_t v = __shfl_up_sync(0xFFFFFFFFu, incl, off);
        if (lane >= static_cast<std::uint32_t>(off)) incl += v;
      }
      first[0] = incl - sum;
      first[1] = first[0] + cnt[0];
      if (lane == 31) s_total = incl;
#pragma unroll
      for (int u = 0; u < 2; ++u) {
        const std::uint32_t r = r0 + u;
        if (r < DSMEM_MAX_RANGES) {
          s_base[r] = first[u];
          s_cnt[r] = 0;  // for the next tile (its ranking starts after barrier [C])
        }
        if (r < a.ranges && cnt[u]) gpos[u] = atomicAdd(a.d_cursor + r, cnt[u]);  // answer used after the sort
      }
    }
    __syncthreads();  // [B] s_base
#pragma unroll
    for (int e = 0; e < ROUTE_PPT; ++e)
      if (key[e] != ~0u)
        s_sorted[s_base[dsmem_key_range(key[e], a.cluster_log)] + ((rank2[e / 2] >> (16 * (e & 1))) & 0xFFFFu)] = key[e];
    if (threadIdx.x < 32) {
#pragma unroll
      for (int u = 0; u < 2; ++u) {
        const std::uint32_t r = 2 * lane + u;
        if (r < a.ranges) {
          const std::uint32_t room = gpos[u] < a.cap ? a.cap - gpos[u] : 0u;
          // r * cap + gpos - first wraps modulo 2^32 for small r; adding i >= first unwraps it.
          s_delta[r] = r * a.cap + gpos[u] - first[u];
          s_limit[r] = first[u] + (room < cnt[u] ? room : cnt[u]);
        }
      }
    }
    __syncthreads();  // [C] s_sorted, s_delta, s_limit
    const std::uint32_t n = s_total;
    for (std::uint32_t i = threadIdx.x; i < n; i += ROUTE_THREADS) {
      const std::uint32_t k = s_sorted[i], r = dsmem_key_range(k, a.cluster_log);
      if (i < s_limit[r])
        a.d_buf[s_delta[r] + i] = dsmem_key_entry(k, a.cluster);
      else  // the bucket is full: count this pair in the table directly
        atomicAdd(c.d_table + dsmem_key_cell(k, a.rows, kp), 1u);
    }
    // The next tile writes s_base/s_delta/s_limit/s_total only after its barrier [A], and s_sorted
    // only after its [B]: no fourth barrier here.
  }
}

// counter (entry & 0xFFFF) of block (entry >> 16) of this cluster += 1: the address of this block's
// counter mapped into the target block's shared window, then a reduction there (result not returned).
// Only in sm_90+ device passes, as its one caller (the kernel's body below).
#if JK_R08_SM90
__device__ __forceinline__ void dsmem_add_one(std::uint32_t s_base32, std::uint32_t entry) {
  std::uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
               : "=r"(remote)
               : "r"(s_base32 + ((entry & 0xFFFFu) << 2)), "r"(entry >> 16));
  asm volatile("red.shared::cluster.add.u32 [%0], %1;" ::"r"(remote), "r"(1u) : "memory");
}
#endif

// One cluster per range, `cluster` blocks, each block `rows` table rows in its dynamic shared memory.
// GENERIC: call 1's form (cluster.map_shared_rank + atomicAdd: a generic mapa and a generic atom.add),
// kept for the bench's A/B (DsmemArgs::generic_add).
template <bool GENERIC>
__global__ void __launch_bounds__(COUNT_THREADS_DS, 1) dsmem_count_kernel(DsmemArgs a) {
#if JK_R08_SM90
  extern __shared__ uint4 s_rows4[];
  std::uint32_t* s_rows = reinterpret_cast<std::uint32_t*>(s_rows4);
  cg::cluster_group cluster = cg::this_cluster();
  const std::uint32_t rank = cluster.block_rank();
  const std::uint32_t range = blockIdx.x >> a.cluster_log;
  const std::uint32_t g = range * a.cluster + rank;  // this block's slot
  const std::uint32_t kp = a.c.kp;
  const std::uint32_t cells4 = a.rows * kp / 4;
  for (std::uint32_t i = threadIdx.x; i < cells4; i += COUNT_THREADS_DS) s_rows4[i] = make_uint4(0, 0, 0, 0);
  const std::uint32_t filled = a.d_cursor[range];
  const std::uint32_t n = filled < a.cap ? filled : a.cap;
  cluster.sync();  // every block's rows are zero before any remote add
  const std::uint32_t* __restrict__ src = a.d_buf + static_cast<std::size_t>(range) * a.cap;  // cap % 8 == 0
  const uint4* src4 = reinterpret_cast<const uint4*>(src);
  const std::uint32_t n4 = n / 4, stride = a.cluster * COUNT_THREADS_DS;
  // The add in the cluster's shared window: mapa.shared::cluster + red.shared::cluster (no return, no
  // generic address). Call 1 (2026-12-01) used cluster.map_shared_rank + atomicAdd, which compile to a
  // generic mapa and a generic atom.add: 6.3-7.1e10 adds/s device-wide.
  const std::uint32_t s_base32 = static_cast<std::uint32_t>(__cvta_generic_to_shared(s_rows));
  for (std::uint32_t i = rank * COUNT_THREADS_DS + threadIdx.x; i < n4; i += stride) {
    const uint4 v = __ldcs(src4 + i);  // read once
    const std::uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      if constexpr (GENERIC)
        atomicAdd(cluster.map_shared_rank(s_rows, w[e] >> 16) + (w[e] & 0xFFFFu), 1u);
      else
        dsmem_add_one(s_base32, w[e]);
    }
  }
  for (std::uint32_t i = n4 * 4 + rank * COUNT_THREADS_DS + threadIdx.x; i < n; i += stride) {
    if constexpr (GENERIC)
      atomicAdd(cluster.map_shared_rank(s_rows, src[i] >> 16) + (src[i] & 0xFFFFu), 1u);
    else
      dsmem_add_one(s_base32, src[i]);
  }
  cluster.sync();  // every remote add has landed; no block leaves while others may still write to it
  if (g < a.slots) {
    const std::uint32_t row0 = g * a.rows;
    const std::uint32_t nrows = kp - row0 < a.rows ? kp - row0 : a.rows;
    uint4* t4 = reinterpret_cast<uint4*>(a.c.d_table + static_cast<std::size_t>(row0) * kp);
    for (std::uint32_t i = threadIdx.x; i < nrows * kp / 4; i += COUNT_THREADS_DS) {
      const uint4 h = s_rows4[i];
      if ((h.x | h.y | h.z | h.w) == 0) continue;
      uint4 t = t4[i];
      t.x += h.x;
      t.y += h.y;
      t.z += h.z;
      t.w += h.w;
      t4[i] = t;
    }
  }
  if (rank == 0 && threadIdx.x == 0 && !a.keep_cursor) a.d_cursor[range] = 0;  // every block read it before the first cluster.sync
#else
  (void)a;
  __trap();
#endif
}

}  // namespace

DsmemLaunch prepare_dsmem(int device, std::uint32_t cluster) {
  DsmemLaunch l;
  int optin = 0, sms = 1, per_sm = 1;
  JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  l.smem_optin = static_cast<std::size_t>(optin);
  for (auto* k : {dsmem_count_kernel<false>, dsmem_count_kernel<true>}) {
    JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
    if (cluster > 8) JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  }
  cudaLaunchConfig_t cfg{};
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = cluster;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.gridDim = dim3(cluster, 1, 1);
  cfg.blockDim = dim3(COUNT_THREADS_DS, 1, 1);
  cfg.dynamicSmemBytes = static_cast<std::size_t>(optin);
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  int clusters = 0;
  JOSEKI_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, dsmem_count_kernel<false>, &cfg));
  l.resident_clusters = static_cast<std::uint32_t>(clusters > 0 ? clusters : 0);
  JOSEKI_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, route_kernel<false>, ROUTE_THREADS, 0));
  l.route_threads = static_cast<std::uint64_t>(sms) * static_cast<std::uint64_t>(per_sm > 0 ? per_sm : 1) * ROUTE_THREADS;
  return l;
}

void launch_dsmem_count(const DsmemArgs& a, cudaStream_t s) {
  if (a.c.end <= a.c.begin) return;
  const std::uint64_t threads = (a.c.end - a.c.begin + a.run - 1) / a.run;
  const unsigned blocks = static_cast<unsigned>((threads + ROUTE_THREADS - 1) / ROUTE_THREADS);
  const int bits = a.c.end > a.c.m ? bit_length(a.c.end - a.c.m) : 0;
  int range_bits = 0;
  while ((1u << range_bits) < a.ranges) ++range_bits;
  if (a.phases & 1) {
    if (a.match_rank)
      route_kernel<true><<<blocks, ROUTE_THREADS, 0, s>>>(a, bits, range_bits);
    else
      route_kernel<false><<<blocks, ROUTE_THREADS, 0, s>>>(a, bits, range_bits);
    JOSEKI_CUDA_CHECK_LAUNCH();
  }
  if (!(a.phases & 2)) return;

  cudaLaunchConfig_t cfg{};
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = a.cluster;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.gridDim = dim3(a.ranges * a.cluster, 1, 1);
  cfg.blockDim = dim3(COUNT_THREADS_DS, 1, 1);
  cfg.dynamicSmemBytes = static_cast<std::size_t>(a.rows) * a.c.kp * sizeof(std::uint32_t);
  cfg.stream = s;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  if (a.generic_add)
    JOSEKI_CUDA_CHECK(cudaLaunchKernelEx(&cfg, dsmem_count_kernel<true>, a));
  else
    JOSEKI_CUDA_CHECK(cudaLaunchKernelEx(&cfg, dsmem_count_kernel<false>, a));
  JOSEKI_CUDA_CHECK_LAUNCH();
}

// ---- the count kind "dsmem" (kinds.hpp) ------------------------------------------------------
namespace {

// One device's part of r08: the layout over clusters, one bucket of 4-byte entries per row range.
class DsmemCountStage final : public CountStage {
 public:
  explicit DsmemCountStage(const StageContext& ctx) {
    const PairsConfig& c = *ctx.cfg;
    if (c.dsmem_cluster != 8 && c.dsmem_cluster != 16)
      throw InputError("gpu-pairs: PairsConfig::dsmem_cluster = " + std::to_string(c.dsmem_cluster) +
                       ": clusters of 8 or 16 blocks only");
    const DsmemLaunch dl = prepare_dsmem(ctx.device, c.dsmem_cluster);
    if (dl.resident_clusters == 0)
      throw GpuUnavailable("gpu-pairs: the DSMEM count (r08): no cluster of " + std::to_string(c.dsmem_cluster) +
                           " blocks fits on GPU " + std::to_string(ctx.device) + " (cudaOccupancyMaxActiveClusters = 0)");
    m_ds = plan_dsmem(ctx.kp, c.dsmem_cluster, dl.resident_clusters, dl.smem_optin);
    if (m_ds.rows == 0)
      throw InputError("gpu-pairs: the DSMEM count (r08) has no layout for K = " + std::to_string(ctx.p->k) + " (" +
                       std::to_string(ctx.kp) + " padded columns) in clusters of " + std::to_string(c.dsmem_cluster) +
                       " blocks of " + std::to_string(dl.smem_optin) + " bytes");
    m_ppt_knob = c.pairs_per_thread;
    chunk_pairs = std::clamp<std::uint64_t>(c.chunk_pairs, 1, std::min<std::uint64_t>(ctx.round, 1ULL << 31));
    chunks_per_round = static_cast<std::size_t>((ctx.round + chunk_pairs - 1) / chunk_pairs);
    m_resident = dl.route_threads;
    pairs_per_thread = static_cast<std::uint32_t>(run(chunk_pairs));
    bucket_cap = dsmem_bucket_cap(chunk_pairs, m_ds.ranges, c.bucket_cap);
    m_dbuf = cuda::DeviceBuffer<std::uint32_t>(static_cast<std::size_t>(m_ds.ranges) * bucket_cap);
    m_cursor = cuda::DeviceBuffer<std::uint32_t>(m_ds.ranges);
  }
  void enqueue_zero(cudaStream_t s) override {
    JOSEKI_CUDA_CHECK(cudaMemsetAsync(m_cursor.data(), 0, m_cursor.bytes(), s));
  }
  void enqueue_round(const CountArgs& a, cudaStream_t s) override {
    for (std::uint64_t b = a.begin; b < a.end; b += chunk_pairs)
      launch_dsmem_count(args(a, b, std::min(a.end, b + chunk_pairs)), s);
  }
  void poison(cudaStream_t s) override { m_dbuf.poison(s); }
  std::string explanation() const override {
    return "routed by row range into " + std::to_string(m_ds.ranges) +
           " buckets and counted in the distributed shared memory of clusters of " + std::to_string(m_ds.cluster) +
           " blocks (" + std::to_string(m_ds.rows) + " rows a block)";
  }
  std::vector<std::pair<std::string, std::uint64_t>> extras() const override {
    return {{"dsmem_cluster", m_ds.cluster}, {"dsmem_rows", m_ds.rows},       {"dsmem_ranges", m_ds.ranges},
            {"dsmem_block_bytes", m_ds.cta_bytes}, {"bucket_cap", bucket_cap}, {"chunk_pairs", chunk_pairs}};
  }
  // Phase 1: empty the buckets, route; phase 2: the table kernel, the buckets left full (timed again).
  void enqueue_phase(const CountArgs& a, int phase, bool variant, cudaStream_t s) override {
    if (phase != 1 && phase != 2)
      throw RunError("gpu-pairs: enqueue_count_phase(" + std::to_string(phase) + "): r08's count has phases 1 and 2");
    DsmemArgs da = args(a, a.begin, a.end);
    da.phases = phase;
    da.keep_cursor = phase == 2;
    da.generic_add = variant && phase == 2;
    da.match_rank = variant && phase == 1;
    if (phase == 1) JOSEKI_CUDA_CHECK(cudaMemsetAsync(m_cursor.data(), 0, m_cursor.bytes(), s));
    launch_dsmem_count(da, s);
  }

 private:
  DsmemPlan m_ds;
  std::uint64_t m_resident = 1;  // route threads resident at once
  std::uint32_t m_ppt_knob = 0;  // PairsConfig::pairs_per_thread (0: one wave)
  cuda::DeviceBuffer<std::uint32_t> m_dbuf;
  cuda::DeviceBuffer<std::uint32_t> m_cursor;
  // Pair starts per route thread for a chunk of `pairs`: one wave, unless the knob says otherwise.
  std::uint64_t run(std::uint64_t pairs) const {
    if (m_ppt_knob) return m_ppt_knob;
    return pairs == 0 ? 1 : (pairs + m_resident - 1) / m_resident;
  }
  DsmemArgs args(const CountArgs& a, std::uint64_t begin, std::uint64_t end) {
    DsmemArgs da;
    da.c = a;
    da.c.begin = begin;
    da.c.end = end;
    da.run = run(end - begin);
    da.cluster = m_ds.cluster;
    da.cluster_log = m_ds.cluster_log;
    da.rows = m_ds.rows;
    da.magic = m_ds.magic;
    da.slots = m_ds.slots;
    da.ranges = m_ds.ranges;
    da.cap = bucket_cap;
    da.d_buf = m_dbuf.data();
    da.d_cursor = m_cursor.data();
    return da;
  }
};

std::unique_ptr<CountStage> make_dsmem_stage(const StageContext& ctx) { return std::make_unique<DsmemCountStage>(ctx); }

const CountKindRegistrar reg_dsmem{CountKind{"dsmem", "the DSMEM count (r08)", dsmem_needs(), make_dsmem_stage}};

}  // namespace

}  // namespace joseki::abc471g::pairs
