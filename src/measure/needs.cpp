#include "measure/needs.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace joseki::measure {

const char* feature_name(Feature f) {
  switch (f) {
    case Feature::Int8Mma: return "int8 mma.sync";
    case Feature::Int8MmaK32: return "int8 mma.sync m16n8k32";
    case Feature::L2CacheHint: return "L2 cache-hint loads (createpolicy)";
    case Feature::CpAsync: return "cp.async";
    case Feature::ReduxSync: return "redux.sync";
    case Feature::L2Persistence: return "L2 persistence";
    case Feature::BulkCopy: return "cp.async.bulk";
    case Feature::TensorMapCopy: return "cp.async.bulk.tensor (TMA)";
    case Feature::Clusters: return "thread-block clusters";
    case Feature::ProgrammaticLaunch: return "programmatic dependent launch";
    case Feature::Wgmma: return "wgmma";
  }
  return "unknown feature";
}

int feature_min_cc(Feature f) {
  switch (f) {
    case Feature::Int8Mma: return 75;
    case Feature::Int8MmaK32:
    case Feature::L2CacheHint:
    case Feature::CpAsync:
    case Feature::ReduxSync:
    case Feature::L2Persistence: return 80;
    case Feature::BulkCopy:
    case Feature::TensorMapCopy:
    case Feature::Clusters:
    case Feature::ProgrammaticLaunch:
    case Feature::Wgmma: return 90;
  }
  return 0;
}

int Needs::effective_min_cc() const {
  int cc = min_cc;
  for (Feature f : features) cc = std::max(cc, feature_min_cc(f));
  return cc;
}

std::optional<std::string> unmet(const Needs& needs, const DeviceFacts& device) {
  if (!device.present) return std::string("no GPU");
  const int gpu_cc = device.cc_major * 10 + device.cc_minor;
  // The code that runs may be older than the GPU (a PTX-only build, compiled by the driver).
  const int cc = device.code_arch > 0 && device.code_arch < gpu_cc ? device.code_arch : gpu_cc;
  const std::string is = cc == gpu_cc ? fmt::format("this GPU is sm_{}", gpu_cc)
                                      : fmt::format("this GPU is sm_{}, but runs this build's compute_{} PTX", gpu_cc, cc);
  // Name the first feature that the device lacks, so the reason says what is missing.
  for (Feature f : needs.features) {
    const int want = feature_min_cc(f);
    if (cc < want) return fmt::format("needs sm_{}: {} ({})", want, feature_name(f), is);
    // wgmma exists on sm_90a only: the 9.x parts, not later majors' arch-specific code.
    if (f == Feature::Wgmma && device.cc_major != 9)
      return fmt::format("needs sm_90a: {} ({})", feature_name(f), is);
  }
  if (cc < needs.min_cc) return fmt::format("needs sm_{} ({})", needs.min_cc, is);
  if (needs.smem_per_block > 0 && device.smem_per_block_optin > 0 && needs.smem_per_block > device.smem_per_block_optin)
    return fmt::format("needs {} KiB of shared memory per block (this GPU allows {} KiB)", needs.smem_per_block / 1024,
                       device.smem_per_block_optin / 1024);
  return std::nullopt;
}

std::string running_code_text(const DeviceFacts& d, const std::string& archs) {
  const int gpu_cc = d.cc_major * 10 + d.cc_minor;
  const std::string built = archs.empty() ? "unknown" : archs;
  if (d.code_arch <= 0) return fmt::format("unknown (this binary: {})", built);
  if (!d.code_jit)
    return fmt::format("native SASS for sm_{}{} (this binary: {})", gpu_cc,
                       d.code_arch < gpu_cc ? fmt::format(", compiled from compute_{}", d.code_arch) : "", built);
  return fmt::format("compute_{} PTX, compiled by the driver for sm_{} (this binary: {}){}", d.code_arch, gpu_cc, built,
                     d.code_arch < gpu_cc ? fmt::format(": what needs more than sm_{} is skipped", d.code_arch) : "");
}

bool has_sass_for(const std::string& cuda_architectures, int major, int minor) {
  std::string s = cuda_architectures;
  std::replace(s.begin(), s.end(), ';', ' ');
  std::replace(s.begin(), s.end(), ',', ' ');
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t j = std::min(s.find(' ', i), s.size());
    const std::string item = s.substr(i, j - i);
    i = j + 1;
    if (item.empty() || item.find("virtual") != std::string::npos) continue;
    std::size_t digits = 0;
    while (digits < item.size() && item[digits] >= '0' && item[digits] <= '9') ++digits;
    if (digits < 2) continue;  // "all", "native", ...: not a number
    const int cc = std::stoi(item.substr(0, digits));
    const bool specific = digits < item.size() && (item[digits] == 'a' || item[digits] == 'f');
    if (specific ? cc == major * 10 + minor : (cc / 10 == major && cc % 10 <= minor)) return true;
  }
  return false;
}

}  // namespace joseki::measure
