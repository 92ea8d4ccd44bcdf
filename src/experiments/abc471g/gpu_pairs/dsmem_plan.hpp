// r08's layout of the K x K count table over the distributed shared memory of thread-block clusters
// (r08_dsmem_count.cu). Pure constexpr arithmetic, shared by the host (PairsDevice, unit tests) and
// the kernels.
//
// The table's kp rows are cut into CTA slots of `rows` rows (slot g = rows [g*rows, (g+1)*rows) ∩
// [0, kp)), each slot's rows x kp 32-bit counters in one block's shared memory; `cluster` consecutive
// slots form a range, owned by one cluster (range r = slots [r*cluster, (r+1)*cluster)): one bucket
// per range, so the pairs are routed `ranges` ways (r03: 395 ways at K = 2300). A bucket entry is
// (slot within the range) << 16 | (row within the slot) * kp + column: rows * kp <= 2^16 keeps the
// offset in 16 bits, cluster <= 16 the slot in 4.
#pragma once

#include <cstddef>
#include <cstdint>

#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "measure/needs.hpp"

namespace joseki::abc471g::pairs {

// What r08's count kind ("dsmem") needs of the GPU: thread-block clusters (sm_90).
inline measure::Needs dsmem_needs() {
  measure::Needs n;
  n.features = {measure::Feature::Clusters};
  return n;
}

inline constexpr std::uint32_t DSMEM_MAX_RANGES = 64;  // the route kernel's scan: one warp, 2 ranges a lane
inline constexpr std::uint32_t DSMEM_MAX_CLUSTER = 16;

struct DsmemPlan {
  std::uint32_t cluster = 8;       // blocks per cluster (8: portable; 16: non-portable)
  std::uint32_t cluster_log = 3;   // log2(cluster)
  std::uint32_t rows = 0;          // table rows per block; 0: no plan fits (see dsmem_plan_problem)
  std::uint32_t magic = 0;         // slot of a row = umulhi(row, magic), exact for every row < kp
  std::uint32_t slots = 0;         // ceil(kp / rows)
  std::uint32_t ranges = 0;        // ceil(slots / cluster): buckets, and clusters per launch
  std::size_t cta_bytes = 0;       // rows * kp * 4: a block's dynamic shared memory
};

constexpr bool dsmem_magic_exact(std::uint32_t kp, std::uint32_t rows, std::uint64_t magic) {
  for (std::uint32_t row = 0; row < kp; ++row)
    if (static_cast<std::uint32_t>((static_cast<std::uint64_t>(row) * magic) >> 32) != row / rows) return false;
  return true;
}

// The plan for kp padded columns (a multiple of 128), clusters of `cluster` (a power of two <= 16),
// `resident_clusters` clusters the GPU holds at once and `smem_max` bytes of shared memory a block may
// opt in to. Rows per block: as few as fill one wave of resident clusters (each SM one slot), at least
// 2 (the magic's range) and enough that there are <= DSMEM_MAX_RANGES ranges, at most what fits the
// block's shared memory and the 16-bit offsets. rows == 0 when none does.
constexpr DsmemPlan plan_dsmem(std::uint32_t kp, std::uint32_t cluster, std::uint32_t resident_clusters,
                               std::size_t smem_max) {
  DsmemPlan p;
  if (kp == 0 || cluster == 0 || cluster > DSMEM_MAX_CLUSTER || (cluster & (cluster - 1)) != 0) return p;
  p.cluster = cluster;
  p.cluster_log = 0;
  while ((1u << p.cluster_log) < cluster) ++p.cluster_log;
  const std::uint64_t by_smem = smem_max / (4ULL * kp);
  const std::uint64_t by_offset = 65536ULL / kp;
  const std::uint64_t max_rows = by_smem < by_offset ? by_smem : by_offset;
  const std::uint64_t wave_slots = static_cast<std::uint64_t>(resident_clusters ? resident_clusters : 1) * cluster;
  const std::uint64_t want = (kp + wave_slots - 1) / wave_slots;
  const std::uint64_t min_rows = (kp + DSMEM_MAX_RANGES * cluster - 1) / (static_cast<std::uint64_t>(DSMEM_MAX_RANGES) * cluster);
  std::uint64_t rows = want > min_rows ? want : min_rows;
  if (rows < 2) rows = 2;  // magic = ceil(2^32 / rows) must fit 32 bits (small K: a few SMs idle)
  if (rows > max_rows) rows = max_rows;
  if (rows == 0 || rows < min_rows) return p;
  p.rows = static_cast<std::uint32_t>(rows);
  p.magic = static_cast<std::uint32_t>(((1ULL << 32) + rows - 1) / rows);
  p.slots = static_cast<std::uint32_t>((kp + rows - 1) / rows);
  p.ranges = (p.slots + cluster - 1) / cluster;
  p.cta_bytes = static_cast<std::size_t>(rows) * kp * 4;
  return p;
}

// The routing, shared by the kernels and the unit tests (JOSEKI_HD). A pair (prev, cur) becomes the key
// slot << 16 | offset (slot = prev / rows by the magic multiply, offset = (prev - slot*rows) * kp + cur);
// its range (bucket) is slot >> cluster_log; the bucket holds the entry (slot within the range) << 16 |
// offset; the count kernel adds 1 to counter `offset` of the range's block `entry >> 16`.
JOSEKI_HD std::uint32_t dsmem_key(std::uint32_t prev, std::uint32_t cur, std::uint32_t kp, std::uint32_t rows,
                                  std::uint32_t magic) {
  const std::uint32_t g = umulhi32(prev, magic);
  return g << 16 | ((prev - g * rows) * kp + cur);
}
JOSEKI_HD std::uint32_t dsmem_key_range(std::uint32_t key, std::uint32_t cluster_log) { return key >> (16u + cluster_log); }
JOSEKI_HD std::uint32_t dsmem_key_entry(std::uint32_t key, std::uint32_t cluster) { return key & ((cluster << 16) - 1u); }
// The table cell of a key (a full bucket's pair is added there directly).
JOSEKI_HD std::size_t dsmem_key_cell(std::uint32_t key, std::uint32_t rows, std::uint32_t kp) {
  return static_cast<std::size_t>(key >> 16) * rows * kp + (key & 0xFFFFu);
}
// The table cell the count kernel's block (range, entry >> 16) adds to when it flushes its rows.
JOSEKI_HD std::size_t dsmem_entry_cell(std::uint32_t range, std::uint32_t entry, std::uint32_t cluster,
                                       std::uint32_t rows, std::uint32_t kp) {
  return static_cast<std::size_t>(range * cluster + (entry >> 16)) * rows * kp + (entry & 0xFFFFu);
}

// Entries per bucket for chunks of `chunk` pairs: the range's expected share plus 1/16 and 1024 of slack,
// a multiple of 8 (16-byte loads), `want` when given (tests: tiny buckets force the spill); ranges * cap
// stays below 2^32.
constexpr std::uint32_t dsmem_bucket_cap(std::uint64_t chunk, std::uint32_t ranges, std::uint32_t want) {
  const std::uint64_t r = ranges ? ranges : 1;
  const std::uint64_t share = chunk / r + chunk / r / 16 + 1024;
  const std::uint64_t limit = 0xFFFFFFFFULL / r - 8;
  std::uint64_t cap = want ? want : share;
  if (cap > limit) cap = limit;
  return static_cast<std::uint32_t>((cap + 7) / 8 * 8);
}

}  // namespace joseki::abc471g::pairs
