// CPU mirrors of the probe kernels: what each kernel must compute, element for element,
// from the same hashed input (device_common.hpp). The probes and the GPU tests compare
// the kernels' outputs with these exactly (integers) or bit for bit (floats).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace joseki::probes::mirror {

using u32 = std::uint32_t;

// Divergence modes (divergence_kernels.hpp) and the value thread (block, thread) writes.
float divergence(int mode, float x, unsigned thread, unsigned block, int ka, int kb);

// strided_partial + block sum: per-block sums of mix32(i * stride + offset, seed), i < n,
// element i handled by grid thread i % (blocks * threads).
std::vector<u32> strided_partials(std::size_t n, std::size_t stride, std::size_t offset, u32 seed, int blocks,
                                  int threads);

// Bank probe: lane reads words lane * stride + 32 k (k < 32) of its block's slice of
// `words` input words, reps times.
u32 bank_stride_sum(u32 seed, std::size_t block, int lane, int stride, int reps, std::size_t words);
// Tile probe: reps x (column c of row `lane`, or row c at column `lane`) of the block's 1024 words.
u32 tile_sum(u32 seed, std::size_t block, int lane, bool column, int reps);

// Working-set read: what block b of `blocks` adds when it reads `per_block` 16-byte words
// of a buffer of n16 of them, starting at (n16 / blocks) * b and wrapping around.
u32 ws_read_partial(std::size_t n16, std::size_t per_block, int blocks, int b, u32 seed);

// Sum of mix32(i, seed) for i < n (mod 2^32): the atomics' and occupancy probe's totals.
u32 total(std::size_t n, u32 seed);

// Barrier probe: lcg_step applied `iters` times to the thread index.
u32 lcg_iterate(u32 x, int iters);

}  // namespace joseki::probes::mirror
