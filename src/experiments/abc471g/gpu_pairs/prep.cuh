// The GEMM combiner's inputs made from V (r04): circ(V) (kp x kp int8, row-major, V[(b+c) mod K]
// for b, c < K, else 0; symmetric), the reduction's mask u2[i] = 1 - V[i mod K] (i < 2 kp) and
// the answers' first terms V[(a0+k) mod K]. Written by the partition kernel's threads in a fused
// solve (their issue slots are the cheapest on the GPU then), else by product_prep_kernel.
// Device code only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "experiments/abc471g/gpu_pairs/kernels.hpp"

namespace joseki::abc471g::pairs {

// Bytes of shared memory load_v_twice needs for this K (V twice over, then 32 zero bytes that
// write_circ16's last words may read).
__host__ __device__ constexpr std::uint32_t v_twice_bytes(std::uint32_t k) { return (2 * k + 32 + 15) / 16 * 16; }

// s_v[i] = V[i mod K] for i < 2K (then 32 zero bytes), from 4-byte words: one round trip, not one per byte.
__device__ __forceinline__ void load_v_twice(std::uint8_t* s_v, const std::uint8_t* d_v, std::uint32_t k,
                                             std::uint32_t t0, std::uint32_t stride) {
  const std::uint32_t words4 = k / 4;
  for (std::uint32_t i = t0; i < words4; i += stride) {
    const std::uint32_t w = reinterpret_cast<const std::uint32_t*>(d_v)[i];
#pragma unroll
    for (int e = 0; e < 4; ++e) s_v[4 * i + e] = s_v[k + 4 * i + e] = static_cast<std::uint8_t>(w >> (8 * e));
  }
  for (std::uint32_t i = 4 * words4 + t0; i < k; i += stride) s_v[i] = s_v[k + i] = d_v[i];
  for (std::uint32_t i = 2 * k + t0; i < 2 * k + 32; i += stride) s_v[i] = 0;
}

// 16 cells of circ(V) per step: row b, columns c0 .. c0 + 15 (unaligned 16 bytes of s_v by funnel shifts).
// s_v must be 4-byte aligned; `words` = kp * kp / 16.
__device__ __forceinline__ void write_circ16(std::int8_t* circ, const std::uint8_t* s_v, std::uint32_t k,
                                             std::uint32_t kp, std::uint32_t t0, std::uint32_t stride) {
  const std::uint32_t row16 = kp / 16, words = kp * row16;
  const std::uint32_t* s32 = reinterpret_cast<const std::uint32_t*>(s_v);
  for (std::uint32_t w = t0; w < words; w += stride) {
    const std::uint32_t b = w / row16, c0 = (w - b * row16) * 16;
    uint4 q = make_uint4(0, 0, 0, 0);
    if (b < k && c0 < k) {
      const std::uint32_t o = b + c0, i = o / 4, sh = 8 * (o % 4);
      const std::uint32_t x0 = s32[i], x1 = s32[i + 1], x2 = s32[i + 2], x3 = s32[i + 3], x4 = s32[i + 4];
      std::uint32_t r[4] = {__funnelshift_r(x0, x1, sh), __funnelshift_r(x1, x2, sh), __funnelshift_r(x2, x3, sh),
                            __funnelshift_r(x3, x4, sh)};
      if (c0 + 16 > k) {  // the row's last columns: zero past K
        const std::uint32_t valid = k - c0;  // 1 .. 15
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int keep = static_cast<int>(valid) - 4 * e;  // bytes of word e to keep
          r[e] = keep >= 4 ? r[e] : keep <= 0 ? 0u : r[e] & ((1u << (8 * keep)) - 1);
        }
      }
      q = make_uint4(r[0], r[1], r[2], r[3]);
    }
    reinterpret_cast<uint4*>(circ)[w] = q;
  }
}

// The first terms (answer[k] = V[(a0+k) mod K]) and u2[i] = 1 - V[i mod K] (i < 2 kp); either may be nullptr.
__device__ __forceinline__ void write_first_terms_and_u2(std::uint64_t* answer, std::uint8_t* u2, const std::uint8_t* s_v,
                                                         std::uint32_t k, std::uint32_t kp, std::uint32_t a0,
                                                         std::uint32_t t0, std::uint32_t stride) {
  if (answer)
    for (std::uint32_t i = t0; i < k; i += stride) answer[i] = s_v[a0 + i];  // a0 + i < 2K
  if (u2)
    for (std::uint32_t i = t0; i < 2 * kp; i += stride) u2[i] = 1 - s_v[i % (2 * k)];
}

}  // namespace joseki::abc471g::pairs
