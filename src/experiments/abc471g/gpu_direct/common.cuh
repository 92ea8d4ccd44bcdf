// Device pieces shared by the ladder's rungs: launch/check macros (CUDA or the host emulation),
// the LCG jump-ahead and PCG output on the device, the bit-sliced counter operations (ripple,
// carry-save adder, compress16) and the lane-word helpers. Included by .cu files and, with
// JOSEKI_GPU_EMULATION, by the unit tests (where everything here is plain host C++).
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/hd.hpp"
#include "experiments/abc471g/gpu_direct/rung_api.hpp"

#if defined(JOSEKI_GPU_EMULATION)
#define JK_DEV inline
#define JK_UNROLL
#define JK_DYNAMIC_SMEM(type, name) type* name = reinterpret_cast<type*>(::joseki::abc471g::emu::dynamic_smem())
#define JK_LAUNCH(kernel, grid, block, smem, stream, ...)                                     \
  do {                                                                                        \
    (void)(stream);                                                                           \
    ::joseki::abc471g::emu::launch(dim3(grid), dim3(block), (smem), [&]() { kernel(__VA_ARGS__); }); \
  } while (0)
#define JK_CHECK(call) ::joseki::abc471g::emu::check((call), #call)
#else
#include <cuda_runtime.h>

#include "backend/cuda/check.hpp"
#define JK_DEV __device__ __forceinline__
#if defined(__CUDA_ARCH__)
#define JK_UNROLL _Pragma("unroll")
#else
#define JK_UNROLL  // the host pass of __host__ __device__ code: g++ does not know the pragma
#endif
#define JK_DYNAMIC_SMEM(type, name)                                  \
  extern __shared__ __align__(16) unsigned char jk_dynamic_smem_[]; \
  type* name = reinterpret_cast<type*>(jk_dynamic_smem_)
// kernel: a name or a pointer to a __global__ function (use a local pointer for templates).
#define JK_LAUNCH(kernel, grid, block, smem, stream, ...)            \
  do {                                                               \
    kernel<<<(grid), (block), (smem), (stream)>>>(__VA_ARGS__);      \
    JOSEKI_CUDA_CHECK_LAUNCH();                                      \
  } while (0)
#define JK_CHECK(call) JOSEKI_CUDA_CHECK(call)
#endif

namespace joseki::abc471g::JK_GPU_NS {

using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

inline constexpr u64 LCG_MUL = 6364136223846793005ULL;
inline constexpr u64 LCG_INC = 2026081520260815ULL;

// ---- the generator ----------------------------------------------------------------------

// s -> mul * s + inc (mod 2^64)
struct Affine {
  u64 mul, inc;
};

// The LCG step applied d times, as one affine map: square-and-multiply on (mul, inc).
JOSEKI_HD Affine lcg_power(u64 d) {
  u64 am = 1, ai = 0, cm = LCG_MUL, ci = LCG_INC;
  while (d) {
    if (d & 1) {
      am *= cm;
      ai = ai * cm + ci;
    }
    ci = (cm + 1) * ci;
    cm *= cm;
    d >>= 1;
  }
  return Affine{am, ai};
}

// The state d steps after s. d is taken mod 2^64: the LCG has full period 2^64 (odd increment,
// multiplier = 1 mod 4), so a "negative" d (i - M for i < M) steps backwards.
JOSEKI_HD u64 lcg_jump(u64 s, u64 d) {
  const Affine a = lcg_power(d);
  return a.mul * s + a.inc;
}

// PCG32 XSH-RR output of a state, mod k (problem.hpp's pcg_value).
JOSEKI_HD u32 pcg_mod(u64 state, u32 k) {
  const u32 x = static_cast<u32>(((state >> 18) ^ state) >> 27);
  const u32 r = static_cast<u32>(state >> 59);
  const u32 y = (x >> r) | (x << ((32u - r) & 31u));
  return y % k;
}

// ---- bit-sliced counters ------------------------------------------------------------------
// A counter of W lanes is an array of planes c[0..P): lane b holds sum_p bit_b(c[p]) << p.

// Two rises in a row are exclusive (a rise at i needs c_i = 1, a rise at i+1 needs c_i = 0):
// rise(i) + rise(i+1) = (c1 & ~c0) | (c2 & ~c1): one 3-input LOP3.
template <class W>
JOSEKI_HD W pair_rise(W c0, W c1, W c2) {
  return (c1 & ~c0) | (c2 & ~c1);
}

// Carry-save (full) adder: a + b + c = 2*hi + lo, per lane. Two 3-input LOP3s.
template <class W>
JOSEKI_HD void csa(W& hi, W& lo, W a, W b, W c) {
  const W u = a ^ b;
  hi = (a & b) | (u & c);
  lo = u ^ c;
}

// Adds a one-bit-per-lane value at plane FROM (weight 2^FROM), rippling the carry upwards and
// stopping as soon as no lane carries (the seed's ripple).
template <int FROM, int P, class W>
JOSEKI_HD void ripple_add(W (&c)[P], W carry) {
  JK_UNROLL
  for (int p = FROM; p < P; ++p) {
    if (!carry) break;
    const W t = c[p] & carry;
    c[p] ^= carry;
    carry = t;
  }
}

// The same without the early exit: every plane, no branch (for additions at the high planes).
template <int FROM, int P, class W>
JOSEKI_HD void ripple_add_full(W (&c)[P], W carry) {
  JK_UNROLL
  for (int p = FROM; p < P; ++p) {
    const W t = c[p] & carry;
    c[p] ^= carry;
    carry = t;
  }
}

// Harley-Seal compress16: adds 16 one-bit inputs to the low planes (ones, twos, fours, eights)
// with 15 carry-save adders and returns the carry of weight 16.
template <class W>
JOSEKI_HD W compress16(W& ones, W& twos, W& fours, W& eights, const W (&d)[16]) {
  W twos_a, twos_b, fours_a, fours_b, eights_a, eights_b, sixteens;
  csa(twos_a, ones, ones, d[0], d[1]);
  csa(twos_b, ones, ones, d[2], d[3]);
  csa(fours_a, twos, twos, twos_a, twos_b);
  csa(twos_a, ones, ones, d[4], d[5]);
  csa(twos_b, ones, ones, d[6], d[7]);
  csa(fours_b, twos, twos, twos_a, twos_b);
  csa(eights_a, fours, fours, fours_a, fours_b);
  csa(twos_a, ones, ones, d[8], d[9]);
  csa(twos_b, ones, ones, d[10], d[11]);
  csa(fours_a, twos, twos, twos_a, twos_b);
  csa(twos_a, ones, ones, d[12], d[13]);
  csa(twos_b, ones, ones, d[14], d[15]);
  csa(fours_b, twos, twos, twos_a, twos_b);
  csa(eights_b, fours, fours, fours_a, fours_b);
  csa(sixteens, eights, eights, eights_a, eights_b);
  return sixteens;
}

// The count of lane b.
template <int P, class W>
JOSEKI_HD u32 lane_value(const W (&c)[P], int b) {
  u32 v = 0;
  JK_UNROLL
  for (int p = 0; p < P; ++p) v |= static_cast<u32>((c[p] >> b) & 1u) << p;
  return v;
}

// ---- lane words ---------------------------------------------------------------------------

// 32 bits of a bit string starting at bit `pos` (bit j of the string is bit j%32 of bits[j/32]):
// two loads and a funnel shift.
JOSEKI_HD u32 window32(const u32* bits, u32 pos) {
  const u32 q = pos >> 5, s = pos & 31u;
  const u64 two = (static_cast<u64>(bits[q + 1]) << 32) | bits[q];
  return static_cast<u32>(two >> s);
}

JOSEKI_HD u32 ceil_div_u32(u32 a, u32 b) { return (a + b - 1) / b; }
JOSEKI_HD u64 min_u64(u64 a, u64 b) { return a < b ? a : b; }

}  // namespace joseki::abc471g::JK_GPU_NS
