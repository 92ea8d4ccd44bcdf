// What the probes' kernels and their CPU mirrors share: the random data (a hash of the
// index, so the host can recompute any element without a copy), the FMA chains of the
// divergence and occupancy probes, and a few constants. Standard headers only (and backend/hd.hpp): this file
// is compiled by nvcc (kernels) and by g++ (CPU mirrors), and both must agree bit for bit.
#pragma once

#include <cmath>
#include <cstdint>

#include "backend/hd.hpp"

namespace joseki::probes {

inline constexpr std::uint32_t POISON_U32 = 0xA5A5A5A5u;  // DeviceBuffer::poison() default byte, as a word
inline constexpr std::uint32_t SINK_MAGIC = 0x9E3779B9u;  // a sink is written only if this value appears
inline constexpr int WARP = 32;                            // NVIDIA's warp; the exec probe checks it

// The diagnose probe's kernel function names (diagnose_kernels.cu defines them; ncu selects
// them by the prefix "diag_"), indexed by DiagKernel.
inline constexpr const char* DIAG_KERNEL_NAMES[9] = {
    "diag_coalesce",   "diag_smem_bad",   "diag_smem_fix",      "diag_barrier_bad",  "diag_barrier_fix",
    "diag_atomic_bad", "diag_atomic_fix", "diag_occupancy_bad", "diag_occupancy_fix"};

// splitmix64 finaliser of (index, seed): the probes' "fresh random data", never all zeros.
JOSEKI_HD std::uint32_t mix32(std::uint64_t i, std::uint32_t seed) {
  std::uint64_t z = i + 0x9E3779B97F4A7C15ull * (static_cast<std::uint64_t>(seed) + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return static_cast<std::uint32_t>((z ^ (z >> 31)) >> 32);
}

// A float in [0, 1) from the same hash (24 random bits).
JOSEKI_HD float mix_unit(std::uint64_t i, std::uint32_t seed) {
  return static_cast<float>(mix32(i, seed) >> 8) * (1.0f / 16777216.0f);
}

// k dependent FMAs x = x * a + c. With |a| < 1 the map contracts, so the values stay bounded for any k.
JOSEKI_HD float fma_path(float x, int k, float a, float c) {
#if defined(__CUDA_ARCH__)
#pragma unroll 8
#endif
  for (int j = 0; j < k; ++j) x = fmaf(x, a, c);
  return x;
}
// Path A and path B of the divergence probe: k dependent FMAs each, different constants.
JOSEKI_HD float path_a(float x, int k) { return fma_path(x, k, 0.999f, 0.5f); }
JOSEKI_HD float path_b(float x, int k) { return fma_path(x, k, 0.998f, 0.25f); }

// The occupancy probe's compute-bound chains: ILP independent chains of k dependent FMAs,
// started from x, x+1, ..., summed left to right.
template <int ILP>
JOSEKI_HD float fma_chains(float x, int k) {
  float c[ILP];
  for (int u = 0; u < ILP; ++u) c[u] = x + static_cast<float>(u);
#if defined(__CUDA_ARCH__)
#pragma unroll 4
#endif
  for (int j = 0; j < k; ++j)
    for (int u = 0; u < ILP; ++u) c[u] = fmaf(c[u], 0.999f, 0.5f);
  float s = 0.0f;
  for (int u = 0; u < ILP; ++u) s += c[u];
  return s;
}

// One step of the barrier probe's per-thread work (a 32-bit LCG): cheap, and data the
// compiler cannot fold across iterations separated by a barrier.
JOSEKI_HD std::uint32_t lcg_step(std::uint32_t x) { return x * 1664525u + 1013904223u; }

}  // namespace joseki::probes
