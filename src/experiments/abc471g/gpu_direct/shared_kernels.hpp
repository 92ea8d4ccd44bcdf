// Launchers of the small kernels several rungs share (common.cu): the per-k reduction of
// partial counts, and the V tables (doubled bit string, alignment bank, strided table).
// Standard headers only; every launcher enqueues on the stream and checks the launch.
#pragma once

#include <cstddef>
#include <cstdint>

#include "experiments/abc471g/gpu_direct/rung_api.hpp"

namespace joseki::abc471g::JK_GPU_NS {

// answer[k] = sum over c < chunks of partial[c * K + k], every k < K written.
void launch_reduce_partials(const std::uint32_t* d_partial, std::uint64_t chunks, std::uint32_t k,
                            std::uint32_t* d_answer, CUstream_st* s);

// The doubled V bit string: bit j (bit j % 32 of word j / 32) = V[j mod K], for 32 * words bits.
void launch_build_vbits(const std::uint8_t* d_v, std::uint32_t k, std::uint32_t words, std::uint32_t* d_bits,
                        CUstream_st* s);

// The alignment bank: bank[s * qb + q] = the 32 bits of `bits` starting at bit 32 q + s, for
// s < 32, q < qb. `bits` must hold qb + 1 words.
void launch_build_bank(const std::uint32_t* d_bits, std::uint32_t qb, std::uint32_t* d_bank, CUstream_st* s);

// The strided table: bit b of table[u] = V[(u + words * b) mod K], for u < rows (lane b of word w
// is shift w + words * b). Requires words <= K.
void launch_build_strided(const std::uint8_t* d_v, std::uint32_t k, std::uint32_t words, std::uint32_t rows,
                          std::uint32_t* d_table, CUstream_st* s);

// Scratch layout helper: n rounded up to a multiple of 256 bytes.
constexpr std::size_t align256(std::size_t n) { return (n + 255) / 256 * 256; }

// Words of 32 lanes for K shifts.
constexpr std::uint32_t words32(std::uint32_t k) { return (k + 31) / 32; }

// Blocks for "one chunk per row of blocks": chunks x ceil(threads / block), as a 1-D grid
// (block b: chunk b / per_chunk, part b % per_chunk). Returns 0 when it exceeds the grid limit.
constexpr std::uint64_t chunk_grid(std::uint64_t chunks, std::uint64_t per_chunk) {
  const std::uint64_t g = chunks * per_chunk;
  return g <= 0x7fffffffull ? g : 0;
}

}  // namespace joseki::abc471g::JK_GPU_NS
