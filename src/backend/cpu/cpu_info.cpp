#include "backend/cpu/cpu_info.hpp"

#include <cstdlib>
#include <string>
#include <thread>

#include "measure/enum_names.hpp"

namespace joseki::cpu {

const char* to_string(SimdLevel s) {
  static constexpr measure::EnumName<SimdLevel> names[] = {{SimdLevel::Scalar, "scalar"},
                                                           {SimdLevel::Avx2, "avx2"},
                                                           {SimdLevel::Avx512, "avx512"},
                                                           {SimdLevel::Neon, "neon"}};
  return measure::enum_name(s, names);
}

SimdLevel CpuFeatures::best() const {
  if (neon) return SimdLevel::Neon;
  if (avx512f && avx512bw && avx512vl) return SimdLevel::Avx512;
  if (avx2) return SimdLevel::Avx2;
  return SimdLevel::Scalar;
}

bool CpuFeatures::has(SimdLevel s) const {
  switch (s) {
    case SimdLevel::Scalar: return true;
    case SimdLevel::Avx2: return avx2;
    case SimdLevel::Avx512: return avx512f && avx512bw && avx512vl;
    case SimdLevel::Neon: return neon;
  }
  return false;
}

const CpuFeatures& cpu_features() {
  static const CpuFeatures f = [] {
    CpuFeatures c;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    c.avx2 = __builtin_cpu_supports("avx2");
    c.avx512f = __builtin_cpu_supports("avx512f");
    c.avx512bw = __builtin_cpu_supports("avx512bw");
    c.avx512vl = __builtin_cpu_supports("avx512vl");
    c.avx512vpopcntdq = __builtin_cpu_supports("avx512vpopcntdq");
#endif
#if defined(__aarch64__)
    c.neon = true;  // Advanced SIMD is mandatory in AArch64
#endif
    c.logical_cpus = static_cast<int>(std::thread::hardware_concurrency());
    if (c.logical_cpus < 1) c.logical_cpus = 1;
    return c;
  }();
  return f;
}

SimdLevel simd_level() {
  SimdLevel level = cpu_features().best();
  if (const char* e = std::getenv("JOSEKI_SIMD")) {
    const std::string s(e);
    SimdLevel want = level;
    if (s == "scalar") want = SimdLevel::Scalar;
    else if (s == "avx2") want = SimdLevel::Avx2;
    else if (s == "avx512") want = SimdLevel::Avx512;
    else if (s == "neon") want = SimdLevel::Neon;
    // Lower only, within this CPU's own levels (x86: scalar < avx2 < avx512; arm64: scalar < neon).
    if (want == SimdLevel::Scalar || (cpu_features().has(want) && static_cast<int>(want) < static_cast<int>(level)))
      level = want;
  }
  return level;
}

}  // namespace joseki::cpu
