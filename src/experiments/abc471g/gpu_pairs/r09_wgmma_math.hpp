// The index math of r09's wgmma combine (sm90a/r09_wgmma_combine.cu), shared with its host emulation
// (tests/unit/test_abc471g_wgmma_emu.cpp): tile layout in shared memory, the circulant's bytes from V,
// the A fragments, the stream-K segments and the accumulator's layout. __host__ __device__, std only.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/hd.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"

namespace joseki::abc471g::pairs::r09 {

// A block is WGS consumer warpgroups (2 or 4), each 64 rows of k: BM = 64 WGS rows of k, BN = 128 columns a;
// a stage is BK bytes of b (64 or 128: BK / 32 k32 wgmmas per warpgroup between barriers).
inline constexpr std::uint32_t BN = 128;       // columns a per block (wgmma n128)
inline constexpr std::uint32_t STAGES = 4;       // stage slots (r09 .. r11)
inline constexpr std::uint32_t DEEP_STAGES = 6;  // r12: rs with a group in flight, copies 4 stages ahead
JOSEKI_HD constexpr std::uint32_t block_rows(std::uint32_t wgs) { return 64 * wgs; }       // BM
JOSEKI_HD constexpr std::uint32_t block_threads(std::uint32_t wgs) { return 128 * wgs; }
// One k32 half of a stage tile of `rows` rows: rows x 32 bytes; a stage is two halves.
JOSEKI_HD constexpr std::uint32_t half_bytes(std::uint32_t rows) { return rows * 32; }
// A stage tile of `rows` rows (P's: BN; W's: BM) and bk bytes of b.
JOSEKI_HD constexpr std::uint32_t tile_bytes(std::uint32_t rows, std::uint32_t bk) { return rows * bk; }
// The matrix descriptors' byte offsets (no swizzle, K-major): LBO = the next core matrix along K,
// SBO = the next 8 rows.
inline constexpr std::uint32_t LBO = 128, SBO = 256;

// V[i mod K] for i < 2 kp + 256: every window the fragments, the W tiles and the masks read (rows of k
// run to kp + 127 when 256-row blocks overhang kp; columns b to kp - 1, plus a word past a fragment).
JOSEKI_HD constexpr std::uint32_t v_bytes(std::uint32_t kp) { return 2 * kp + 256; }
// rs's copies of V2 (below) lie copy_stride bytes apart. v_bytes is a multiple of 256 bytes, so copies
// v_bytes apart (r09, r10: pad 0) put the same word of every copy in the same shared-memory bank, and the
// four lanes of a fragment load that differ only in g & 3 (the same word, four copies) conflict 4-way (ncu
// of r10: 3.7-way on average). 32 bytes more (r11: pad 1) move copy c by 8 c banks: a warp's fragment load
// touches words w .. w + 4 of each copy, banks 8 c + (0 .. 4): no two lanes' banks meet.
JOSEKI_HD constexpr std::uint32_t copy_stride(std::uint32_t kp, int pad) { return v_bytes(kp) + (pad ? 32u : 0u); }
// P's stage tiles, W's (ss only), then V twice over.
// rs also keeps V2 shifted by 1, 2 and 3 bytes (a_fragment_rs: aligned word loads, no shifts), room for
// the padded stride either way.
JOSEKI_HD constexpr std::size_t smem_bytes(std::uint32_t kp, bool ss, std::uint32_t wgs, std::uint32_t bk,
                                           std::uint32_t stages = STAGES) {
  return stages * (tile_bytes(BN, bk) + (ss ? tile_bytes(block_rows(wgs), bk) : 0)) +
         (ss ? v_bytes(kp) : 3 * copy_stride(kp, 1) + v_bytes(kp));
}

// The TMA kernel (r13, wgmma_combine_tma_kernel): full[NST] and empty[NST], 8 bytes each, at the start;
// the ring at the next 1 KB boundary past them (the 64-byte swizzle repeats every 512 bytes and the
// descriptors assume an aligned pattern: base offset 0), whatever the alignment of the dynamic shared
// memory: 2 KB cover both.
inline constexpr std::uint32_t TMA_BARRIER_BYTES = 2048;
// r13 runs six slots (the copies four stages ahead); eight (six ahead) is r15's (the bench's .st8.tma).
inline constexpr std::uint32_t TMA_DEEPER_STAGES = 8;
JOSEKI_HD constexpr std::size_t tma_smem_bytes(std::uint32_t kp, std::uint32_t nst, std::uint32_t bk) {
  return TMA_BARRIER_BYTES + static_cast<std::size_t>(nst) * tile_bytes(BN, bk) + 3 * copy_stride(kp, 1) + v_bytes(kp);
}

// Byte offset of (row r, 16-byte chunk c of the stage's bk bytes) in a stage tile of `rows` rows:
// half c / 2, core matrix (r / 8, c % 2) at (r / 8) SBO + (c % 2) LBO, row r % 8 at 16 (r % 8).
JOSEKI_HD std::uint32_t tile_offset(std::uint32_t r, std::uint32_t c, std::uint32_t rows) {
  return (c >> 1) * half_bytes(rows) + (r >> 3) * SBO + (c & 1) * LBO + ((r & 7) << 4);
}

// The first `keep` bytes of x (keep may be <= 0 or >= 4).
JOSEKI_HD std::uint32_t keep_bytes(std::uint32_t x, int keep) {
  return keep >= 4 ? x : keep <= 0 ? 0u : x & ((1u << (8 * keep)) - 1);
}

// The 4 bytes at byte offset o of a little-endian word array (o may be unaligned).
JOSEKI_HD std::uint32_t window4(const std::uint32_t* v32, std::uint32_t o) {
  const std::uint32_t w = o >> 2, sh = 8 * (o & 3);
  return sh ? (v32[w] >> sh) | (v32[w + 1] << (32 - sh)) : v32[w];
}

// W[k][b] = V[(k + b) mod K] for b < K, else 0 (V2 = V twice over: W[k][b] = V2[k + b]).
// 16 bytes of W's row k from column b (ss: one chunk of the stage tile).
JOSEKI_HD void w_chunk(const std::uint32_t* v32, std::uint32_t k, std::uint32_t b, std::uint32_t kk,
                       std::uint32_t (&out)[4]) {
  const int keep = static_cast<int>(kk) - static_cast<int>(b);
  for (int e = 0; e < 4; ++e) out[e] = keep_bytes(window4(v32, k + b + 4 * e), keep - 4 * e);
}

// The A fragment (wgmma k32 8-bit, per warp the mma.sync m16n8k32 layout) of the lane with quad
// index q whose rows are row and row + 8, for the k32 step at column b: a0 = row, columns 4q..4q+3;
// a1 = row + 8, the same columns; a2, a3 = the same rows, columns 16 + 4q ...
JOSEKI_HD void a_fragment(const std::uint32_t* v32, std::uint32_t row, std::uint32_t b, std::uint32_t q,
                          std::uint32_t kk, std::uint32_t (&fr)[4]) {
  const std::uint32_t o = row + b + 4 * q;
  const int keep = static_cast<int>(kk) - static_cast<int>(b + 4 * q);
  fr[0] = keep_bytes(window4(v32, o), keep);
  fr[1] = keep_bytes(window4(v32, o + 8), keep);
  fr[2] = keep_bytes(window4(v32, o + 16), keep - 16);
  fr[3] = keep_bytes(window4(v32, o + 24), keep - 16);
}

// rs: the A fragment from V2's byte-shifted copies (copy c holds V2[i + c] at byte i; copy 0 is V2), four
// aligned word loads at fixed distances: the bytes at o, o + 8, o + 16, o + 24 for o = row + b + 4q. No
// masking of columns b >= K: the kernel zeroes P's columns >= K in its stage tile instead (p_chunk_keep).
// `copy` is the copy for row & 3 (b and 4q are multiples of 4: o & 3 = row & 3, fixed per thread).
JOSEKI_HD void a_fragment_rs(const std::uint32_t* copy, std::uint32_t row, std::uint32_t b, std::uint32_t q,
                             std::uint32_t (&fr)[4]) {
  const std::uint32_t o = row + b + 4 * q;
  const std::uint32_t* w = copy + (o >> 2);
  fr[0] = w[0];
  fr[1] = w[2];
  fr[2] = w[4];
  fr[3] = w[6];
}

// Bytes of P's 16-byte chunk at columns b .. b + 15 that are columns < K (16: all; <= 0: none).
JOSEKI_HD int p_chunk_keep(std::uint32_t k, std::uint32_t b) { return static_cast<int>(k) - static_cast<int>(b); }

// Planes to run: those the table's maximum needs (all `planes` when there is no maximum).
JOSEKI_HD int planes_to_run(int planes, bool has_max, std::uint64_t max, int low_bits) {
  if (!has_max) return planes;
  const int need = max == 0 ? 0 : planes_for(max, low_bits);
  return need < planes ? need : planes;
}

// Stream-K: the units are (plane, tile, stage); block i of `grid` takes [total i / grid, total (i+1) / grid).
struct Units {
  std::uint32_t bm = 128, bk = 64, tn = 1, steps = 1;  // rows per block, bytes per stage, column tiles, stages per tile
  std::uint64_t per_plane = 0, total = 0;
  std::uint32_t tm = 0;  // row tiles (r54's block_begin32)
};
// m_rows rows of the product (k; r33: the rows x with V[x] = 0, compacted), k columns a and k bytes of b.
JOSEKI_HD Units units_rows(std::uint32_t m_rows, std::uint32_t k, int planes, std::uint32_t wgs, std::uint32_t bk) {
  Units u;
  u.bm = block_rows(wgs);
  u.bk = bk;
  const std::uint32_t tm = (m_rows + u.bm - 1) / u.bm;
  u.tn = (k + BN - 1) / BN;
  u.steps = (k + bk - 1) / bk;  // bk divides kp (a multiple of 128): no stage reads past it
  u.tm = tm;
  u.per_plane = static_cast<std::uint64_t>(tm) * u.tn * u.steps;
  u.total = u.per_plane * static_cast<std::uint64_t>(planes > 0 ? planes : 0);
  return u;
}
JOSEKI_HD Units units(std::uint32_t k, int planes, std::uint32_t wgs, std::uint32_t bk) {
  return units_rows(k, k, planes, wgs, bk);
}
JOSEKI_HD std::uint64_t block_begin(const Units& u, std::uint32_t block, std::uint32_t grid) {
  return u.total * block / grid;
}
// r46 (WgmmaCombineArgs::segment_weight): the same split when every segment a block runs costs w stages more than its
// stages (its epilogue, its set-up, the pipeline's refill). Tiles (u.steps units each; a plane holds whole tiles) are
// laid on a cost line, each as w, then its u.steps stages; block i takes the cost range [C i / grid, C (i+1) / grid),
// C = tiles (steps + w), and a boundary inside a tile's w snaps to the tile's start. A block that starts inside a tile
// pays one segment its range does not hold, as (nearly) every block does; a block that holds a tile's start pays the
// new segment inside its range: so every block's stages + w x segments comes out within w + 1 of each other's, where
// the even split (w = 0) gives the blocks that cross a tile boundary w more than the others. w = 0: block_begin.
JOSEKI_HD std::uint64_t block_begin_weighted(const Units& u, std::uint32_t block, std::uint32_t grid, std::uint32_t w) {
  if (w == 0) return block_begin(u, block, grid);
  const std::uint64_t span = u.steps + w, tiles = u.total / u.steps;
  const std::uint64_t at = tiles * span * block / grid, t = at / span, r = at - t * span;
  return t * u.steps + (r > w ? r - w : 0);
}
// r51, r52 (WgmmaCombineArgs::skip_idle, idle_discount): the warpgroups of a tile whose 64 rows all lie past the `rows`
// rows of the product (the last row tile's, at most) skip its stages: no fragments, no wgmma (they only pace
// themselves on the copies). Warpgroups of a tile that starts at row k0 with work: ceil((rows - k0) / 64), at most wgs.
JOSEKI_HD std::uint32_t active_warpgroups(std::uint32_t rows, std::uint32_t k0, std::uint32_t wgs) {
  const std::uint32_t left = rows > k0 ? rows - k0 : 0u, n = (left + 63) / 64;
  return n < wgs ? n : wgs;
}
// r51, r52: r46's split with the last row tile's stages lighter: a stage costs 8 eighths, less d for each idle
// warpgroup of its tile (d = idle_discount, 0 .. 2: a light stage costs 2 .. 8 eighths), a segment 8 w eighths. The cost
// line holds each plane's full tiles (w, then their stages at 8), then its last row tile's tn tiles (w, then their
// stages at 8 - (wgs - active) d); block i takes [C i / grid, C (i+1) / grid), a boundary inside a tile's w snapping to
// the tile's start, one inside a stage to that stage's start. d = 0 gives block_begin_weighted's split exactly.
JOSEKI_HD std::uint64_t block_begin_light(const Units& u, std::uint32_t rows, std::uint32_t wgs, std::uint32_t block,
                                          std::uint32_t grid, std::uint32_t w, std::uint32_t d) {
  if (u.total == 0 || u.per_plane == 0) return 0;
  const std::uint64_t tile_units = static_cast<std::uint64_t>(u.tn) * u.steps, tm = u.per_plane / tile_units;
  const std::uint64_t planes = u.total / u.per_plane;
  const std::uint32_t na = active_warpgroups(rows, static_cast<std::uint32_t>((tm - 1) * u.bm), wgs);
  const std::uint64_t cl = 8u - (wgs - na) * d;  // eighths a stage of the last row tile (8 when it has no idle warpgroup)
  const std::uint64_t ww = 8ull * w, span_f = ww + 8ull * u.steps, span_l = ww + cl * u.steps;
  const std::uint64_t full_tiles = (tm - 1) * u.tn, full_cost = full_tiles * span_f, plane_cost = full_cost + u.tn * span_l;
  const std::uint64_t at = planes * plane_cost * block / grid, p = at / plane_cost;
  if (p >= planes) return u.total;
  const std::uint64_t rem = at - p * plane_cost, base = p * u.per_plane;
  if (rem < full_cost) {
    const std::uint64_t t = rem / span_f, r = rem - t * span_f;
    return base + t * u.steps + (r > ww ? (r - ww) / 8 : 0);
  }
  const std::uint64_t t = (rem - full_cost) / span_l, r = rem - full_cost - t * span_l;
  return base + (full_tiles + t) * u.steps + (r > ww ? (r - ww) / cl : 0);
}

// The combine kernel's trace of one block (WgmmaCombineArgs::d_trace), word by word: the global timer (ns) at the
// block's entry and end; the SM's clock at entry, at the prologue's end, after the wait for the previous kernel (= the
// prologue's end when the launch is not dependent), at the end; the clocks summed over its segments' main loops and
// over their epilogues; its SM | segments << 16 | stages << 32.
enum CombineTrace : std::uint32_t {
  TRACE_GT_ENTRY = 0,
  TRACE_GT_END,
  TRACE_CLK_ENTRY,
  TRACE_CLK_READY,
  TRACE_CLK_GO,
  TRACE_CLK_END,
  TRACE_CLK_LOOPS,
  TRACE_CLK_EPILOGUES,
  TRACE_WHERE,
  COMBINE_TRACE_SLOTS
};

// One segment: stages s0 .. s0 + nsteps - 1 of one tile of one plane (ends at the tile's end or the block's).
struct Segment {
  std::uint32_t plane = 0, k0 = 0, a0 = 0, s0 = 0, nsteps = 0;
};
JOSEKI_HD Segment segment_at(const Units& u, std::uint64_t at, std::uint64_t end) {
  Segment s;
  s.plane = static_cast<std::uint32_t>(at / u.per_plane);
  const std::uint64_t rem = at - static_cast<std::uint64_t>(s.plane) * u.per_plane;
  const std::uint32_t tile = static_cast<std::uint32_t>(rem / u.steps);
  s.s0 = static_cast<std::uint32_t>(rem - static_cast<std::uint64_t>(tile) * u.steps);
  const std::uint64_t left = end - at, in_tile = u.steps - s.s0;
  s.nsteps = static_cast<std::uint32_t>(left < in_tile ? left : in_tile);
  s.k0 = (tile / u.tn) * u.bm;
  s.a0 = (tile % u.tn) * BN;
  return s;
}

// r54: block_begin_weighted (d = 0) or block_begin_light (d > 0) and segment_at in 32-bit arithmetic, valid when
// range_fits32 holds (every product of the cost line below 2^32: the max case's is ~3e7). The same results (unit-tested
// against the 64-bit functions); a 32-bit division is a fraction of a 64-bit one's instructions and latency.
JOSEKI_HD bool range_fits32(const Units& u, std::uint32_t w, std::uint32_t grid) {
  const std::uint64_t bound = u.total * 8ull * (1ull + w);
  return bound < (1ull << 32) && bound * (static_cast<std::uint64_t>(grid) + 1) < (1ull << 32);
}
JOSEKI_HD std::uint32_t block_begin32(const Units& u, std::uint32_t rows, std::uint32_t wgs, std::uint32_t block,
                                      std::uint32_t grid, std::uint32_t w, std::uint32_t d) {
  using U = std::uint32_t;
  const U total = static_cast<U>(u.total), per_plane = static_cast<U>(u.per_plane);
  if (total == 0 || per_plane == 0) return 0;
  if (d == 0) {
    if (w == 0) return total * block / grid;
    const U span = u.steps + w, tiles = total / u.steps;
    const U at = tiles * span * block / grid, t = at / span, r = at - t * span;
    return t * u.steps + (r > w ? r - w : 0u);
  }
  const U planes = total / per_plane, na = active_warpgroups(rows, (u.tm - 1) * u.bm, wgs);
  const U cl = 8u - (wgs - na) * d, ww = 8u * w, span_f = ww + 8u * u.steps, span_l = ww + cl * u.steps;
  const U full_tiles = (u.tm - 1) * u.tn, full_cost = full_tiles * span_f, plane_cost = full_cost + u.tn * span_l;
  const U at = planes * plane_cost * block / grid, p = at / plane_cost;
  if (p >= planes) return total;
  const U rem = at - p * plane_cost, base = p * per_plane;
  if (rem < full_cost) {
    const U t = rem / span_f, r = rem - t * span_f;
    return base + t * u.steps + (r > ww ? (r - ww) / 8u : 0u);
  }
  const U t = (rem - full_cost) / span_l, r = rem - full_cost - t * span_l;
  return base + (full_tiles + t) * u.steps + (r > ww ? (r - ww) / cl : 0u);
}
JOSEKI_HD Segment segment_at32(const Units& u, std::uint32_t at, std::uint32_t end) {
  using U = std::uint32_t;
  Segment s;
  const U per_plane = static_cast<U>(u.per_plane);
  s.plane = at / per_plane;
  const U rem = at - s.plane * per_plane, tile = rem / u.steps;
  s.s0 = rem - tile * u.steps;
  const U left = end - at, in_tile = u.steps - s.s0;
  s.nsteps = left < in_tile ? left : in_tile;
  s.k0 = (tile / u.tn) * u.bm;
  s.a0 = (tile % u.tn) * BN;
  return s;
}

// The accumulator (m64n128, s32) of lane (g, q) in warp w of its warpgroup: element e is
// row 16 w + g + 8 ((e % 4) >> 1), column 8 (e / 4) + 2 q + (e & 1).
JOSEKI_HD std::uint32_t acc_row(std::uint32_t w, std::uint32_t g, std::uint32_t e) { return 16 * w + g + 8 * ((e & 3) >> 1); }
JOSEKI_HD std::uint32_t acc_col(std::uint32_t q, std::uint32_t e) { return 8 * (e >> 2) + 2 * q + (e & 1); }

// ---- r33: the skewed combine (r33_skewed_combine.cpp; kernel: wgmma_combine_tma_kernel<4, 64, 8, true>) ----
// Rows are the compacted list x_0 < x_1 < ... of the x with V[x] = 0 (WgmmaCombineArgs::d_rows); the planes are
// skewed (P[a][d] = C[a][(a + d) mod K], pairs_math.hpp skew_col); the tile's D'[m][n] = sum_d V[(x_m + d) mod K]
// P[a0 + n][d] goes to answer[(x_m - a) mod K], a = a0 + n. Each block adds its tile into shared-memory windows
// indexed by x - base + a0 + BN - 1 - a (base = the tile's first x), then adds the windows into the answer.
// Entries (32-bit) of one window copy: 2048 for blocks of 256 rows (4 warpgroups), 1024 for 128 rows (two such
// blocks a SM fit beside each other); a tile at V's half ones spans ~2 x its rows + 128.
JOSEKI_HD constexpr std::uint32_t skew_window(std::uint32_t wgs) { return 512 * wgs; }
// Window copies: one per quad lane q (a warp's atomics of one accumulator element then meet only lanes of
// other rows, never two lanes of one row), or one where four do not fit beside the ring and V's copies.
JOSEKI_HD constexpr std::uint32_t skew_copies(std::uint32_t kp) { return kp <= 4096 ? 4u : 1u; }
// r43 (WgmmaCombineArgs::window_pad): the copies WINDOW_PAD entries further apart. Lane (g, q)'s entry is its row's
// x less 2 q plus a constant, so with copies WIN apart (a multiple of 32 entries) a warp's atomic meets the banks of
// x_g - 2 q: ~3.25 wavefronts at V's half ones (ncu, session 13: 450 K conflicts for 203 K atomics); 10 entries on
// a copy make it x_g + 8 q, ~2.08 (an emulation of the max case's rows, session 17).
inline constexpr std::uint32_t WINDOW_PAD = 10;
JOSEKI_HD constexpr std::uint32_t skew_copy_stride(std::uint32_t wgs, bool pad) { return skew_window(wgs) + (pad ? WINDOW_PAD : 0u); }
// Shared memory of the windows (room for the padded stride whichever the launch asks for: 160 bytes).
JOSEKI_HD constexpr std::size_t skew_window_bytes(std::uint32_t kp, std::uint32_t wgs) {
  return static_cast<std::size_t>(skew_copies(kp)) * skew_copy_stride(wgs, true) * 4;
}
// The A fragment of rows x_lo and x_hi (no longer x and x + 8): a0 = row x_lo, columns b + 4q ..; a1 = row x_hi;
// a2, a3 = the same rows, 16 columns on. copy_lo / copy_hi: the copies of V2 for x_lo & 3 and x_hi & 3.
JOSEKI_HD void a_fragment_skew(const std::uint32_t* copy_lo, std::uint32_t x_lo, const std::uint32_t* copy_hi,
                               std::uint32_t x_hi, std::uint32_t b, std::uint32_t q, std::uint32_t (&fr)[4]) {
  const std::uint32_t* wl = copy_lo + ((x_lo + b + 4 * q) >> 2);
  const std::uint32_t* wh = copy_hi + ((x_hi + b + 4 * q) >> 2);
  fr[0] = wl[0];
  fr[1] = wh[0];
  fr[2] = wl[4];
  fr[3] = wh[4];
}
// Window entries a tile uses: its rows' x span base .. last, plus BN columns.
JOSEKI_HD std::uint32_t skew_span(std::uint32_t base, std::uint32_t last) { return last - base + BN; }
// The window entry of (x, a), a0 <= a < a0 + BN, base <= x: 0 .. span - 1.
JOSEKI_HD std::uint32_t skew_slot(std::uint32_t x, std::uint32_t base, std::uint32_t a0, std::uint32_t a) {
  return x - base + a0 + (BN - 1) - a;
}
// The answer's index of window entry w: (x - a) mod K (x, a < K for every entry that holds a value).
JOSEKI_HD std::uint32_t skew_answer(std::uint32_t w, std::uint32_t base, std::uint32_t a0, std::uint32_t k) {
  const long long kr = static_cast<long long>(base) + w - a0 - (BN - 1);
  return static_cast<std::uint32_t>(kr < 0 ? kr + k : kr);
}

// ---- r35: circ(V) as a Hankel view in shared memory (r35_hankel_operand.cpp; kernel:
// wgmma_combine_tma_kernel<WGS, 64, 8, false, true>) ----
// W[k][b] = V[(k + b) mod K] depends on k + b alone. A no-swizzle K-major core matrix is 8 rows of 16 bytes at a
// 16-byte stride, so W's core matrix at rows k .. k + 7, bytes b .. b + 15 is W[k + i][b + j] = H[t + i][j] with
// t = (k + b) mod K and H[p][j] = V[(p + j) mod K]: 8 consecutive 16-byte entries of one array H. The next core
// matrix along K (b + 16) starts 16 entries on (LBO = 256 bytes), the next along M (k + 8) 8 entries on (SBO = 128
// bytes): r09's offsets exchanged. So one array of (K + 128) x 16 bytes, written once per block, is wgmma's A
// operand for every tile and stage through a descriptor alone: no fragment assembly, no W tile per stage.
inline constexpr std::uint32_t HANKEL_LBO = 256, HANKEL_SBO = 128;
// H's entries: t < K plus a descriptor's reach (63 rows + 16 of the second core matrix along K + 32 of a stage's
// second k32 step) and room.
JOSEKI_HD constexpr std::uint32_t hankel_rows(std::uint32_t kp) { return kp + 128; }
JOSEKI_HD constexpr std::size_t hankel_bytes(std::uint32_t kp) { return 16 * static_cast<std::size_t>(hankel_rows(kp)); }
// The TMA kernel with the Hankel operand: barriers, the ring, V2 (the epilogue's masks; no shifted copies), H.
JOSEKI_HD constexpr std::size_t tma_hankel_smem_bytes(std::uint32_t kp, std::uint32_t nst) {
  return TMA_BARRIER_BYTES + static_cast<std::size_t>(nst) * tile_bytes(BN, 64) + v_bytes(kp) + hankel_bytes(kp);
}
// The largest kp (a multiple of 128) whose Hankel kernel with nst slots fits 227 KiB of shared memory a block
// (69888 + 18 kp bytes with 8 slots: 8960; 10 slots: 8064; 14 slots: 6272).
JOSEKI_HD constexpr std::uint32_t hankel_max_kp(std::uint32_t nst) {
  const std::size_t fixed = tma_hankel_smem_bytes(0, nst);  // 18 kp bytes more at kp
  return fixed >= 232448 ? 0u : static_cast<std::uint32_t>((232448 - fixed) / 18 / 128 * 128);
}
inline constexpr std::uint32_t HANKEL_MAX_KP = hankel_max_kp(8);  // r35's (8960)
inline constexpr std::uint32_t HANKEL_SLOTS[] = {8, 10, 14};  // the Hankel kernel's slot counts (r35, bench, r36)
// r36: the Hankel kernel commits each stage's two wgmmas as a group and leaves W groups in flight (wait_group W), a
// stage's slot released once its group is done: with nst slots it copies nst - W - 1 stages ahead. Slots 8, 10, 14:
// 1 (r35), 3, 7 groups in flight, six stages ahead each.
JOSEKI_HD constexpr std::uint32_t hankel_in_flight(std::uint32_t nst) { return nst >= 14 ? 7u : nst >= 10 ? 3u : 1u; }
JOSEKI_HD constexpr std::uint32_t hankel_ahead(std::uint32_t nst) { return nst - hankel_in_flight(nst) - 1; }
// Entry p of H from V2 (V twice over, as 32-bit words): its 16 bytes V2[p .. p + 15].
JOSEKI_HD void hankel_entry(const std::uint32_t* v2_32, std::uint32_t p, std::uint32_t (&out)[4]) {
  for (std::uint32_t w = 0; w < 4; ++w) out[w] = window4(v2_32, p + 4 * w);
}
// The byte of H (from its start) that the tensor cores read for element (i, j) (i < 64 rows, j < 32 bytes) of an
// A descriptor that starts at entry t, with HANKEL_LBO / HANKEL_SBO (the no-swizzle K-major layout).
JOSEKI_HD std::uint32_t hankel_offset(std::uint32_t t, std::uint32_t i, std::uint32_t j) {
  return 16 * t + (i >> 3) * HANKEL_SBO + (j >> 4) * HANKEL_LBO + ((i & 7) << 4) + (j & 15);
}
// A warpgroup's first entry for its rows k .. and the stage's bytes b ..: (k + b) mod K; the next stage's is
// hankel_advance(t, bk % K, K) (one compare, no division in the main loop).
JOSEKI_HD std::uint32_t hankel_start(std::uint32_t k, std::uint32_t b, std::uint32_t kk) { return (k + b) % kk; }
JOSEKI_HD std::uint32_t hankel_advance(std::uint32_t t, std::uint32_t step, std::uint32_t kk) {
  t += step;
  return t >= kk ? t - kk : t;
}

}  // namespace joseki::abc471g::pairs::r09
