// CPU facts and the SIMD level chosen at run time (AVX-512, AVX2 or scalar).
#pragma once

#include <string>

namespace joseki::cpu {

enum class SimdLevel { Scalar = 0, Avx2 = 1, Avx512 = 2 };
const char* to_string(SimdLevel s);  // "scalar" | "avx2" | "avx512"

struct CpuFeatures {
  bool avx2 = false;
  bool avx512f = false, avx512bw = false, avx512vl = false, avx512vpopcntdq = false;
  int logical_cpus = 1;
  SimdLevel best() const;  // avx512 needs F+BW+VL; avx2 needs AVX2
};

const CpuFeatures& cpu_features();
// The level to use: the best the CPU has, lowered by the environment variable
// JOSEKI_SIMD=scalar|avx2|avx512 (for tests and comparisons; never raised above what the CPU has).
SimdLevel simd_level();

}  // namespace joseki::cpu
