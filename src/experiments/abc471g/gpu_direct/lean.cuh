// The per-block set-up and epilogue of the blocked kernel, done by warps (g14, g15): the strided
// table built by 32 x 32 bit transposes across a warp instead of one byte load per bit, and the
// counters of a warp's four streams summed (bit-sliced, across lanes) before one decode instead of
// four. Used by blocked.cuh's kernel under its LEAN flags; every thread of the block calls these
// with the same control flow (the shuffles need the whole warp).
#pragma once

#include "experiments/abc471g/gpu_direct/common.cuh"

namespace joseki::abc471g::JK_GPU_NS::lean {

constexpr unsigned FULL_WARP = 0xffffffffu;

// The repeated V bit string of the transposed build: bit x (bit x % 32 of word x / 32) =
// V[x mod K] for x < 32 * vrep_words(K) (at least K + 64 bits: any 32-bit window starting below K).
JOSEKI_HD u32 vrep_words(u32 k) { return (k + 64 + 31) / 32; }

JK_DEV void build_vrep(u32* vrep, const u8* __restrict__ v, u32 k, int tid, int nt) {
  const u32 words = vrep_words(k);
  for (u32 q = static_cast<u32>(tid); q < words; q += static_cast<u32>(nt)) {
    u32 x = (32u * q) % k, word = 0;
    for (int b = 0; b < 32; ++b) {
      word |= static_cast<u32>(v[x] & 1u) << b;
      if (++x == k) x = 0;
    }
    vrep[q] = word;
  }
}

// Transposes the 32 x 32 bit matrix a warp holds (lane i: row i, bit j = entry (i, j)): afterwards
// lane i holds column i (bit j = entry (j, i)). Step s (16, 8, .., 1): lanes i and i ^ s swap the
// off-diagonal s x s blocks; m selects the bits j with j & s == 0.
JK_DEV u32 warp_transpose32(u32 x, u32 lane) {
  u32 m = 0x0000FFFFu;
  JK_UNROLL
  for (u32 s = 16; s > 0;) {
    const u32 y = __shfl_xor_sync(FULL_WARP, x, static_cast<int>(s));
    x = (lane & s) ? (x & ~m) | ((y & ~m) >> s) : (x & m) | ((y & m) << s);
    s >>= 1;
    m ^= m << s;
  }
  return x;
}

// The strided table (blocked.cuh): row u < srows has bit b = V[(u + words * b) mod K]; rows
// srows..rows are zero; each row is stored `copies` times (table[copies * u + c]). A warp builds
// rows u0..u0+31 at once: lane b takes the 32 bits V[(u0 + words * b + j) mod K], j < 32 (one
// window of vrep), and the transpose hands lane j the word of row u0 + j. About 30 instructions per
// 32 rows and thread, against 32 dependent byte loads per row.
JK_DEV void build_table_transposed(u32* table, u32 copies, const u32* vrep, u32 k, u32 words, u32 srows, u32 rows,
                                   int tid, int nt) {
  const u32 lane = static_cast<u32>(tid) & 31u, warp = static_cast<u32>(tid) >> 5, warps = static_cast<u32>(nt) >> 5;
  // The same trip count in every thread of the block (a warp past the last rows transposes once
  // for nothing): the shuffles need the whole warp, the host emulation the whole block.
  for (u32 base = 0; base < rows; base += 32u * warps) {
    const u32 u0 = base + 32u * warp;
    const u32 x = warp_transpose32(window32(vrep, (u0 + words * lane) % k), lane);
    const u32 u = u0 + lane;
    if (u < rows)
      for (u32 c = 0; c < copies; ++c) table[copies * u + c] = u < srows ? x : 0u;
  }
}

// a + b for two bit-sliced counters of P planes: a ripple-carry adder (one carry-save adder, two
// LOP3s, a plane) into P + 1 planes.
template <int P, class W>
JK_DEV void add_counters(const W (&a)[P], const W (&b)[P], W (&out)[P + 1]) {
  W carry = 0;
  JK_UNROLL
  for (int q = 0; q < P; ++q) {
    W hi;
    csa(hi, out[q], a[q], b[q], carry);
    carry = hi;
  }
  out[P] = carry;
}

// The epilogue of one word for the four streams of a warp (lanes t, t + 8, t + 16, t + 24 own the
// same words): their counters summed across the warp (two butterfly steps: every lane gets the
// sum, two planes wider), then lane group g = lane / 8 decodes lanes 8g .. 8g + 7 of word w into
// the block's answers: a quarter of the decoding and of the shared-memory atomics per thread.
template <int P, class W>
JK_DEV void warp_sum_decode(const W (&planes)[P], u32 lane, u32 w, u32 words, u32 k, u32* s_ans) {
  static_assert(sizeof(W) == 4, "32 lanes a word: 4 groups of 8 lanes");
  W o1[P], s1[P + 1], o2[P + 1], s2[P + 2];
  JK_UNROLL
  for (int q = 0; q < P; ++q) o1[q] = __shfl_xor_sync(FULL_WARP, planes[q], 8);
  add_counters(planes, o1, s1);
  JK_UNROLL
  for (int q = 0; q <= P; ++q) o2[q] = __shfl_xor_sync(FULL_WARP, s1[q], 16);
  add_counters(s1, o2, s2);
  if (w >= words) return;  // after the shuffles: every lane took part in them
  const int g = static_cast<int>(lane >> 3);
  JK_UNROLL
  for (int i = 0; i < 8; ++i) {
    const int b = 8 * g + i;
    const u32 kk = w + words * static_cast<u32>(b);
    if (kk >= k) break;
    const u32 val = lane_value(s2, b);
    if (val) atomicAdd(&s_ans[kk], val);
  }
}

}  // namespace joseki::abc471g::JK_GPU_NS::lean
