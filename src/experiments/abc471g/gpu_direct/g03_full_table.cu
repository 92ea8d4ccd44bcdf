// g03 — the full table current[A][k] (the seed's rejected variant, kept as a result).
// What changed from g02: V[(a + k) mod K] is precomputed for every (a, k) as a K x K byte table
//   (5.3 MB at K = 2300; built inside the timed launch), so the inner loop is one load at
//   table[A_i * K + k] with no add/compare for the mod.
// Prediction: slower, as on the seed's laptop (+72%). g02's V is 2.3 KB and lives in L1; the
//   table is 5.3 MB: it fits the H200's 60 MB L2 but not its 256 KB L1, so every lookup becomes
//   an L2 access (~4x the latency, and L2 bandwidth instead of L1's) to save two integer ops.
//   The larger L2 of Hopper does not help: the cost is L1 vs L2, not L2 vs DRAM.
// Preconditions: chunk >= 1; K x K bytes of scratch.
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour): 7.601 ms at g02's chunk 8192, 0.95x vs
//   g02, 37.89x over g01. The prediction (slower) held, but the loss is 5 %, not the seed's 72 %:
//   the table spills out of the laptop's 3 MB L2 but stays in the H200's 60 MB L2, so a lookup
//   costs an L2 hit (the predicted L1-vs-L2 cost), not DRAM.
#include "experiments/abc471g/gpu_direct/lane_chunks.cuh"

namespace joseki::abc471g::JK_GPU_NS {
namespace g03 {

__global__ void build_kernel(const u8* __restrict__ v, u32 k, u8* __restrict__ table) {
  const u64 total = static_cast<u64>(k) * k;
  for (u64 x = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; x < total;
       x += static_cast<u64>(gridDim.x) * blockDim.x) {
    const u32 a = static_cast<u32>(x / k), shift = static_cast<u32>(x % k);
    u32 idx = a + shift;
    if (idx >= k) idx -= k;
    table[x] = v[idx];
  }
}

__global__ void kernel(const u32* __restrict__ a, const u8* __restrict__ table, u64 n, u32 k, u64 chunk,
                       u32 per_chunk, u32* __restrict__ partial) {
  const u64 c = blockIdx.x / per_chunk;
  const u32 shift = (blockIdx.x % per_chunk) * blockDim.x + threadIdx.x;
  if (shift >= k) return;
  const u64 begin = c * chunk, end = min_u64(n, begin + chunk);
  u32 prev = begin > 0 ? table[static_cast<u64>(a[begin - 1]) * k + shift] : 0u;
  u32 count = 0;
  for (u64 i = begin; i < end; ++i) {
    const u32 cur = table[static_cast<u64>(a[i]) * k + shift];
    count += cur & (prev ^ 1u);
    prev = cur;
  }
  partial[c * k + shift] = count;
}

std::size_t table_bytes(const Shape& sh) { return align256(static_cast<std::size_t>(sh.k) * sh.k); }

std::size_t scratch(const Shape& sh, const Config& c) { return table_bytes(sh) + lane_chunks::partial_bytes(sh, c); }

void launch(const DeviceProblem& p, const Config& c, CUstream_st* s) {
  auto* table = static_cast<u8*>(p.d_scratch);
  auto* partial = reinterpret_cast<u32*>(static_cast<unsigned char*>(p.d_scratch) + table_bytes(p.shape));
  const u64 entries = static_cast<u64>(p.shape.k) * p.shape.k;
  const unsigned build_grid = static_cast<unsigned>(min_u64((entries + 255) / 256, 4096));
  JK_LAUNCH(build_kernel, build_grid, 256, 0, s, p.d_v, p.shape.k, table);
  lane_chunks::launch(kernel, table, partial, p, c, s);
}

}  // namespace g03

RungOps g03_ops() { return {.check = lane_chunks::check, .scratch_bytes = g03::scratch, .launch = g03::launch}; }

}  // namespace joseki::abc471g::JK_GPU_NS
