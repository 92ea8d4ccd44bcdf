// What the byte-lane chunk rungs g02..g04 share on the host side: one thread per (chunk, shift k),
// ceil(K / block) blocks per chunk, a partial count per (chunk, k) summed by the shared kernel.
// A rung keeps its kernel (and any table it builds); the geometry, the checks and the launch of
// the chunk kernel + the reduction are here.
#pragma once

#include <string>

#include "experiments/abc471g/gpu_direct/common.cuh"
#include "experiments/abc471g/gpu_direct/shared_kernels.hpp"

namespace joseki::abc471g::JK_GPU_NS::lane_chunks {

// kernel(a, lanes, n, k, chunk, per_chunk, partial): lanes is V (g02, g04) or a K x K table (g03).
using Kernel = void (*)(const u32*, const u8*, u64, u32, u64, u32, u32*);

inline u64 chunks_of(const Shape& sh, const Config& c) { return (sh.n + c.chunk - 1) / c.chunk; }
inline std::size_t partial_bytes(const Shape& sh, const Config& c) {
  return align256(chunks_of(sh, c) * sh.k * sizeof(u32));
}

inline std::string check(const Shape& sh, const Config& c) {
  if (c.block < 1 || c.block > 1024) return "block " + std::to_string(c.block) + " outside 1..1024";
  if (c.chunk < 1) return "chunk " + std::to_string(c.chunk) + " < 1";
  if (chunk_grid(chunks_of(sh, c), ceil_div_u32(sh.k, c.block)) == 0)
    return "chunk " + std::to_string(c.chunk) + ": too many blocks for one grid";
  return "";
}

// The chunk kernel over every (chunk, k), then the partials summed into the answers.
inline void launch(Kernel kernel, const u8* lanes, u32* partial, const DeviceProblem& p, const Config& c,
                   CUstream_st* s) {
  const u64 chunks = chunks_of(p.shape, c);
  const u32 per_chunk = ceil_div_u32(p.shape.k, static_cast<u32>(c.block));
  JK_LAUNCH(kernel, static_cast<unsigned>(chunk_grid(chunks, per_chunk)), c.block, 0, s, p.d_a, lanes, p.shape.n,
            p.shape.k, static_cast<u64>(c.chunk), per_chunk, partial);
  launch_reduce_partials(partial, chunks, p.shape.k, p.d_answer, s);
}

}  // namespace joseki::abc471g::JK_GPU_NS::lane_chunks
