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

}  // namespace joseki::abc471g::JK_GPU_NS::bitsliced
