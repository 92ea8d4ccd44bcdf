// CPU facts and the SIMD level chosen at run time (AVX-512, AVX2 or scalar on x86-64; NEON or
// scalar on aarch64).
#pragma once

#include <string>

namespace joseki::cpu {

// Levels of one architecture are ordered (Scalar < Avx2 < Avx512; Scalar < Neon); a level of the
// other architecture is never best() and never chosen.
enum class SimdLevel { Scalar = 0, Avx2 = 1, Avx512 = 2, Neon = 3 };
const char* to_string(SimdLevel s);  // "scalar" | "avx2" | "avx512" | "neon"

struct CpuFeatures {
  bool avx2 = false;
  bool avx512f = false, avx512bw = false, avx512vl = false, avx512vpopcntdq = false;
  bool neon = false;  // AArch64 Advanced SIMD (every AArch64 CPU)
  int logical_cpus = 1;
  SimdLevel best() const;  // avx512 needs F+BW+VL; avx2 needs AVX2; neon on aarch64
  bool has(SimdLevel s) const;  // the CPU can run this level
};

const CpuFeatures& cpu_features();
// The level to use: the best the CPU has, lowered by the environment variable
// JOSEKI_SIMD=scalar|avx2|avx512|neon (for tests and comparisons; never raised above what the CPU
// has, and a level of another architecture is ignored).
SimdLevel simd_level();

}  // namespace joseki::cpu
