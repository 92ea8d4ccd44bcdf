// What a GPU rung of the reduction ladder receives and how an input that may start
// anywhere (4-byte aligned) splits into a scalar head, a body of 16-byte words and a
// scalar tail. Plain C++ with std headers only: included by the rungs' .cu files (nvcc)
// and by the host harness and the unit tests (g++).
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/hd.hpp"

struct CUstream_st;  // = cudaStream_t, without including the CUDA headers

namespace joseki::reduce {

// The launch a rung makes, resolved by the host from the rung's knobs, the size and the device.
struct LaunchPlan {
  int block = 256;        // threads per block
  int grid = 1;           // blocks
  int unroll = 1;         // 16-byte loads in flight per thread (r05..r07)
  int stages = 0;         // shared-memory ring stages (r08, r11)
  int chunk_bytes = 0;    // bytes per bulk copy (r08, r11)
  int hint = 0;           // which load hint (r07): see r07_load_hints.cu
  std::size_t dynamic_smem = 0;  // bytes of dynamic shared memory
};

// Where a rung leaves its result.
enum class Output {
  Word,     // d_out[0] = the sum; nothing is assumed about d_out before the launch (CUB's contract)
  TwoSlot,  // d_out[0..1]: the launch adds into d_out[slot], which must be 0 when it starts, and zeroes
            // d_out[slot ^ 1] for the next launch, which uses the other slot (the caller alternates;
            // both slots are zeroed once before the first launch). A launch's result stays in its slot
            // until the next launch starts (which zeroes that slot): read it in between, in stream order.
};

struct GpuArgs {
  const std::uint32_t* d_in = nullptr;  // n inputs; 4-byte aligned, not necessarily 16-byte aligned
  std::size_t n = 0;                    // >= 1
  std::uint32_t* d_out = nullptr;       // the sum (mod 2^32) is written here (two words: see Output)
  unsigned slot = 0;                    // Output::TwoSlot: this launch's slot (0 or 1)
  void* d_work = nullptr;               // the rung's workspace, zeroed once before the first launch
  std::size_t work_bytes = 0;
  LaunchPlan plan;
};

// Enqueues the whole reduction on the stream (every kernel and memset it needs), checked.
using GpuLaunchFn = void (*)(const GpuArgs&, CUstream_st*);
// Bytes of workspace the rung needs for n inputs (0: none).
using WorkspaceFn = std::size_t (*)(std::size_t n);

// What a GPU rung's file gives the ladder: each rNN_*.cu defines `GpuOps <id>_ops()` (declared
// below from rungs.def, whose line for the rung carries everything else: registry.hpp).
struct GpuOps {
  GpuLaunchFn launch = nullptr;
  WorkspaceFn workspace = nullptr;  // null: no workspace
};

// Single-pass rungs (r06..r08) keep this in their workspace: the running total and the
// count of finished blocks. The last block publishes the total and resets both to zero,
// so the next launch needs no host work. r09 and r11 use the same 8 bytes as one 64-bit
// word: the total in the high half, the count in the low half (one atomic carries both).
struct alignas(8) SinglePassState {
  std::uint32_t acc;
  std::uint32_t count;
};

struct VecSplit {
  std::size_t head;  // scalars before the first 16-byte boundary (0..3)
  std::size_t nvec;  // 16-byte words in the body
  std::size_t tail;  // scalars after the body (0..3)
};

// addr must be 4-byte aligned (a uint32_t pointer).
JOSEKI_HD constexpr VecSplit vec_split(std::uintptr_t addr, std::size_t n) {
  std::size_t head = ((16u - (addr & 15u)) & 15u) / 4u;
  if (head > n) head = n;
  const std::size_t nvec = (n - head) / 4u;
  return VecSplit{head, nvec, n - head - 4u * nvec};
}

// The vector rungs' walk over the 16-byte body (common.cuh, sum_tiles): in round k < rounds,
// thread t of block b reads words tile_word(w, k, b, t) + u * block for u < unroll; then every
// thread g of the grid reads rest_word(w, g) + u * grid_threads (when below nvec).
struct TileWalk {
  std::size_t tile;    // block x unroll words
  std::size_t round;   // tile x grid words: one tile per block
  std::size_t rounds;  // whole rounds in the body
};
JOSEKI_HD constexpr TileWalk tile_walk(std::size_t nvec, unsigned block, unsigned grid, unsigned unroll) {
  const std::size_t tile = static_cast<std::size_t>(block) * unroll;
  return TileWalk{tile, tile * grid, nvec / (tile * grid)};
}
JOSEKI_HD constexpr std::size_t tile_word(const TileWalk& w, std::size_t k, unsigned b, unsigned t) {
  return k * w.round + static_cast<std::size_t>(b) * w.tile + t;
}
JOSEKI_HD constexpr std::size_t rest_word(const TileWalk& w, std::size_t g) { return w.rounds * w.round + g; }

// r08's bulk chunks: block b takes chunks b, b + grid, ...; the last chunk may be short.
JOSEKI_HD constexpr std::size_t chunks_of_block(std::size_t chunks, unsigned b, unsigned grid) {
  return b < chunks ? (chunks - 1 - b) / grid + 1 : 0;
}
JOSEKI_HD constexpr std::size_t chunk_index(unsigned b, std::size_t k, unsigned grid) {
  return b + k * grid;
}
JOSEKI_HD constexpr unsigned chunk_size(std::size_t body_bytes, unsigned chunk_bytes, std::size_t c) {
  const std::size_t left = body_bytes - c * chunk_bytes;
  return static_cast<unsigned>(left < chunk_bytes ? left : chunk_bytes);
}

// r11's balanced slabs: block b reads the 16-byte words [begin, end) of the body, one contiguous
// range; the ranges differ in length by at most one word, so every block ends at the same time.
// Within its slab a block reads chunks 0, 1, ... of chunk_size(slab bytes, chunk_bytes, k).
struct Slab {
  std::size_t begin, end;
};
JOSEKI_HD constexpr Slab slab_of_block(std::size_t nvec, unsigned grid, unsigned b) {
  const std::size_t base = nvec / grid, extra = nvec % grid;
  const std::size_t begin = b * base + (b < extra ? b : extra);
  return Slab{begin, begin + base + (b < extra ? 1 : 0)};
}

// The GPU rungs' files, one function each (defined only in a CUDA build).
#define JK_REDUCE_RUNG(id_, ...) GpuOps id_##_ops();
#include "experiments/reduce/rungs.def"
#undef JK_REDUCE_RUNG

}  // namespace joseki::reduce
