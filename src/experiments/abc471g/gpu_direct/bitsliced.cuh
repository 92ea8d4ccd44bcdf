// What the bit-sliced chunk rungs g05..g09 share: one thread per (chunk, 32-lane word), a
// 16-plane counter per thread, partial counts per (chunk, k) reduced by the shared kernel.
// Grid: chunks x ceil(W / block) blocks, W = ceil(K / 32) words; threads past W are the seed's
// "idle guard threads" (block 64 for 72 words leaves 56 of 128 idle).
#pragma once

#include <string>

#include "experiments/abc471g/gpu_direct/common.cuh"
#include "experiments/abc471g/gpu_direct/shared_kernels.hpp"

namespace joseki::abc471g::JK_GPU_NS::bitsliced {

// 16 planes count to 65535: a chunk of up to 65536 elements has at most 32768 rises.
constexpr int PLANES = 16;
constexpr std::int64_t MAX_CHUNK = 65536;

// The chunk and word of this thread (2-D mapping flattened into blockIdx.x).
struct Slot {
  u64 chunk;
  u32 word;
};
JK_DEV Slot slot(u32 per_chunk) {
  return Slot{blockIdx.x / per_chunk, (blockIdx.x % per_chunk) * blockDim.x + threadIdx.x};
}

// Writes the 32 lanes of word w (shifts 32w + b < K) of chunk c.
JK_DEV void emit_contiguous(const u32 (&cnt)[PLANES], u64 c, u32 w, u32 k, u32* partial) {
  for (int b = 0; b < 32; ++b) {
    const u32 shift = 32u * w + static_cast<u32>(b);
    if (shift < k) partial[c * k + shift] = lane_value(cnt, b);
  }
}

// A thread's walk in the bit-sliced rungs: its slot, its chunk [begin, end) of the elements, and the
// offset of its 32 lanes (32 x word). False for an idle guard thread (word >= words).
struct Walk {
  Slot sl;
  u64 begin, end;
  u32 off;
};
JK_DEV bool start_walk(u32 per, u32 words, u64 n, u64 chunk, Walk& w) {
  w.sl = slot(per);
  if (w.sl.word >= words) return false;
  w.begin = w.sl.chunk * chunk;
  w.end = min_u64(n, w.begin + chunk);
  w.off = 32u * w.sl.word;
  return true;
}

// The rises of elements [i, end) two at a time, then the odd one; lanes(A) is the word of the
// thread's 32 lanes for an element of value A. The tail of g06b..g09 and all of g06a.
template <class Lanes>
JK_DEV void rise_pairs(u32 (&cnt)[PLANES], const u32* __restrict__ a, u64 i, u64 end, u32 prev, Lanes lanes) {
  for (; i + 1 < end; i += 2) {
    const u32 c1 = lanes(a[i]), c2 = lanes(a[i + 1]);
    ripple_add<0>(cnt, pair_rise(prev, c1, c2));
    prev = c2;
  }
  if (i < end) ripple_add<0>(cnt, lanes(a[i]) & ~prev);  // odd element at the end
}

// 32 elements at a time: 16 pair rises into compress16, one ripple from the eights plane (g06c, g07,
// g09). Returns where it stopped; `prev` is the last element's lanes.
template <class Lanes>
JK_DEV u64 rise_compress16(u32 (&cnt)[PLANES], const u32* __restrict__ a, u64 i, u64 end, u32& prev, Lanes lanes) {
  for (; i + 31 < end; i += 32) {
    u32 d[16];
    JK_UNROLL
    for (int m = 0; m < 16; ++m) {
      const u32 c1 = lanes(a[i + 2 * m]), c2 = lanes(a[i + 2 * m + 1]);
      d[m] = pair_rise(prev, c1, c2);
      prev = c2;
    }
    ripple_add<4>(cnt, compress16(cnt[0], cnt[1], cnt[2], cnt[3], d));
  }
  return i;
}

inline u64 chunks_of(const Shape& sh, const Config& c) { return (sh.n + c.chunk - 1) / c.chunk; }
inline u32 per_chunk(const Shape& sh, const Config& c) { return ceil_div_u32(words32(sh.k), static_cast<u32>(c.block)); }
// Doubled V bits: window32 reads words q and q + 1 with q <= (A + 32 w) / 32 < 2W.
inline u32 vbits_words(u32 k) { return 2 * words32(k) + 2; }
inline std::size_t partial_bytes(const Shape& sh, const Config& c) { return align256(chunks_of(sh, c) * sh.k * 4); }

inline std::string check(const Shape& sh, const Config& c) {
  if (c.block < 1 || c.block > 1024) return "block " + std::to_string(c.block) + " outside 1..1024";
  if (c.chunk < 1 || c.chunk > MAX_CHUNK)
    return "chunk " + std::to_string(c.chunk) + " outside 1..65536 (16 counter planes)";
  if (chunk_grid(chunks_of(sh, c), per_chunk(sh, c)) == 0)
    return "chunk " + std::to_string(c.chunk) + ": too many blocks for one grid";
  return "";
}

// The host side of g05..g06c: V as doubled bits, then kernel(a, vbits, n, k, words, chunk,
// per_chunk, partial) over every (chunk, word), then the partials summed into the answers.
using VbitsKernel = void (*)(const u32*, const u32*, u64, u32, u32, u64, u32, u32*);

inline std::size_t vbits_scratch(const Shape& sh, const Config& c) {
  return align256(vbits_words(sh.k) * 4) + partial_bytes(sh, c);
}

inline void launch_vbits(VbitsKernel kernel, const DeviceProblem& p, const Config& c, CUstream_st* s) {
  const u32 vw = vbits_words(p.shape.k);
  auto* vbits = static_cast<u32*>(p.d_scratch);
  auto* partial = reinterpret_cast<u32*>(static_cast<unsigned char*>(p.d_scratch) + align256(vw * 4));
  const u64 chunks = chunks_of(p.shape, c);
  const u32 per = per_chunk(p.shape, c);
  launch_build_vbits(p.d_v, p.shape.k, vw, vbits, s);
  JK_LAUNCH(kernel, static_cast<unsigned>(chunk_grid(chunks, per)), c.block, 0, s, p.d_a, vbits, p.shape.n,
            p.shape.k, words32(p.shape.k), static_cast<u64>(c.chunk), per, partial);
  launch_reduce_partials(partial, chunks, p.shape.k, p.d_answer, s);
}

// The thread's 32 lanes for an element of value A in the doubled V bits: one funnel-shifted window.
struct VbitsLanes {
  const u32* vbits;
  u32 off;
  JK_DEV u32 operator()(u32 x) const { return window32(vbits, x + off); }
};

// The kernel of the rungs that read the doubled V bits (g05..g06c): the thread's walk (slot, chunk,
// lanes, the element before its chunk), the rung's own count of the chunk (Count, the only part
// the rungs differ in), the counts out. Count{}(cnt, a, begin, end, prev, lanes).
template <class Count>
__global__ void vbits_kernel(const u32* __restrict__ a, const u32* __restrict__ vbits, u64 n, u32 k, u32 words,
                             u64 chunk, u32 per, u32* __restrict__ partial) {
  Walk w;
  if (!start_walk(per, words, n, chunk, w)) return;  // idle guard thread
  const VbitsLanes lanes{vbits, w.off};
  u32 cnt[PLANES] = {};
  Count{}(cnt, a, w.begin, w.end, w.begin > 0 ? lanes(a[w.begin - 1]) : 0u, lanes);
  emit_contiguous(cnt, w.sl.chunk, w.sl.word, k, partial);
}

template <class Count>
void launch_vbits_rung(const DeviceProblem& p, const Config& c, CUstream_st* s) {
  launch_vbits(vbits_kernel<Count>, p, c, s);
}

// A vbits rung's operations: the shared check and scratch, its Count in vbits_kernel.
template <class Count>
RungOps vbits_ops() {
  return {.check = check, .scratch_bytes = vbits_scratch, .launch = launch_vbits_rung<Count>};
}

}  // namespace joseki::abc471g::JK_GPU_NS::bitsliced
