// g09 — strided lanes: one table of K + W words instead of 32 shifted copies.
// What changed from g08: lane b of word w now stands for shift k = w + W*b (W = ceil(K / 32))
//   instead of 32w + b. Then the word of word w at element A is the same table entry for every
//   (A, w) with the same A + w: T[u] has bit b = V[(u + W*b) mod K], and the lane word is
//   T[A_i + w]. The table is K + W words (9.5 KB for K = 2300, half the bank) and the address is
//   one add: no (A & 31) * QB + (A >> 5).
// Prediction: a few integer ops fewer per lane word and a smaller L1 footprint: a modest gain
//   (~5-10%) if the kernel is issue-bound, nothing if it is bound by L1 load throughput.
// Preconditions: as g05.
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour): 372.48 us at g08's block 72 / chunk
//   4096, 1.21x vs g08, 773.15x over g01: the predicted modest gain held, and larger (21 %). On
//   2026-11-29, at the seed's 72 / 16384, it lost 5 % (663.3 vs 631.6 us); why the sign depends on
//   the geometry is not measured (an ncu comparison would say).
#include "experiments/abc471g/gpu_direct/bitsliced.cuh"

namespace joseki::abc471g::JK_GPU_NS {
namespace g09 {

using namespace bitsliced;

__global__ void kernel(const u32* __restrict__ a, const u32* __restrict__ table, u64 n, u32 k, u32 words, u64 chunk,
                       u32 per, u32* __restrict__ partial) {
  const Slot sl = slot(per);
  if (sl.word >= words) return;  // idle guard thread
  const u64 begin = sl.chunk * chunk, end = min_u64(n, begin + chunk);
  const u32* tw = table + sl.word;  // T[A + w]
  const auto lanes = [&](u32 x) { return __ldg(tw + x); };
  u32 prev = begin > 0 ? lanes(a[begin - 1]) : 0u;
  u32 cnt[PLANES] = {};
  const u64 i = rise_compress16(cnt, a, begin, end, prev, lanes);
  rise_pairs(cnt, a, i, end, prev, lanes);
  for (int b = 0; b < 32; ++b) {  // lane b of word w is shift w + W*b
    const u32 shift = sl.word + words * static_cast<u32>(b);
    if (shift < k) partial[sl.chunk * k + shift] = lane_value(cnt, b);
  }
}

u32 table_rows(u32 k) { return k + words32(k); }  // u = A + w < K + W

std::size_t scratch(const Shape& sh, const Config& c) { return align256(table_rows(sh.k) * 4) + partial_bytes(sh, c); }

void launch(const DeviceProblem& p, const Config& c, CUstream_st* s) {
  const u32 rows = table_rows(p.shape.k), words = words32(p.shape.k);
  auto* table = static_cast<u32*>(p.d_scratch);
  auto* partial = reinterpret_cast<u32*>(static_cast<unsigned char*>(p.d_scratch) + align256(rows * 4));
  const u64 chunks = chunks_of(p.shape, c);
  const u32 per = per_chunk(p.shape, c);
  launch_build_strided(p.d_v, p.shape.k, words, rows, table, s);
  JK_LAUNCH(kernel, static_cast<unsigned>(chunk_grid(chunks, per)), c.block, 0, s, p.d_a, table, p.shape.n,
            p.shape.k, words, static_cast<u64>(c.chunk), per, partial);
  launch_reduce_partials(partial, chunks, p.shape.k, p.d_answer, s);
}

}  // namespace g09

RungOps g09_ops() { return {.check = bitsliced::check, .scratch_bytes = g09::scratch, .launch = g09::launch}; }

}  // namespace joseki::abc471g::JK_GPU_NS
