// The CPU kernels behind cpu-direct and cpu-pairs, one set per SIMD level (scalar u64, AVX2,
// AVX-512 on x86-64; NEON on aarch64), each set compiled in its own translation unit with its own target flags and chosen
// at run time (backend/cpu simd_level()). Plain types only: the SIMD files include nothing
// else, so no inline function compiled for AVX-512 can leak into code that runs elsewhere.
#pragma once

#include <cstddef>
#include <cstdint>

namespace joseki::abc471g::cpu {

// Bit-sliced counting of the direct method, per vector of lanes: a Harley-Seal tree of carry-save
// adders keeps `levels` running words (weights 1, 2, ..., 2^(levels-1)); its weight-2^levels
// output ripples into a counter of DIRECT_SLICES words (weights 2^levels ..): no count below
// 2^(levels + DIRECT_SLICES) >= 2^53 can overflow it. A tree consumes 2^levels fused words, that
// is 2^(levels+1) elements (the "group"); buffers are padded to whole groups.
inline constexpr int DIRECT_SLICES = 48;
inline constexpr int MAX_TILE = 4;  // vectors per pass, at most
constexpr int direct_state_words(int levels) { return 1 + levels + DIRECT_SLICES; }  // prev, levels, slices
constexpr int direct_group(int levels) { return 2 << levels; }
inline constexpr int MAX_GROUP = 2 << 8;  // the largest group any kernel set uses

// Generation: writes `count` values A = pcg_value(state_j, k) for the states state, step(state),
// ... ; when stride != 0 it writes the bank offset (a & 7) * stride + (a >> 3) instead of a.
// Returns the state after `count` steps. k >= 2.
using GenFn = std::uint64_t (*)(std::uint64_t state, std::size_t count, std::uint32_t k, std::uint32_t stride,
                                std::uint32_t* out);

// Direct method, one pass over a tile of `tile` vectors: for each of 2 * pairs elements (a whole
// number of groups) loads the lane words at bank_tile + offs[i] + j * VBYTES, fuses two rises
// into one word ((c1 & ~prev) | (c2 & ~c1): the two cannot both be set) and accumulates it.
// state: tile * direct_state_words(levels) vectors (prev, levels, slices), kept between calls.
using DirectFn = void (*)(const std::uint8_t* bank_tile, const std::uint32_t* offs, std::size_t pairs, void* state);

struct KernelSet {
  const char* name;      // "scalar" | "avx2" | "avx512"
  unsigned vbits;        // lanes per vector: 64, 256, 512
  int tile;              // vectors per pass used for full tiles
  int levels;            // depth of the carry-save tree
  GenFn gen;
  DirectFn direct[MAX_TILE + 1];  // by tile size; [0] unused
  unsigned half_vbits;   // 0, or the width of a narrower vector for the last lanes (AVX-512: 256)
  DirectFn direct_half;  // one vector of half_vbits lanes, same levels
};

const KernelSet& kernels_scalar();
#if defined(__x86_64__)  // the AVX sets are compiled on x86-64 only, the NEON set on aarch64 only
const KernelSet& kernels_avx2();    // only call when the CPU has AVX2
const KernelSet& kernels_avx512();  // only call when the CPU has AVX-512 F+BW+VL
#endif
#if defined(__aarch64__)
const KernelSet& kernels_neon();    // every AArch64 CPU has NEON
#endif

}  // namespace joseki::abc471g::cpu
