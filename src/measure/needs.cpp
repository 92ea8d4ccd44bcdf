#include "measure/needs.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace joseki::measure {

const char* feature_name(Feature f) {
  switch (f) {
    case Feature::Int8Mma: return "int8 mma.sync";
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
  const int cc = device.cc_major * 10 + device.cc_minor;
  // Name the first feature that the device lacks, so the reason says what is missing.
  for (Feature f : needs.features) {
    const int want = feature_min_cc(f);
    if (cc < want) return fmt::format("needs sm_{}: {} (this GPU is sm_{})", want, feature_name(f), cc);
    // wgmma exists on sm_90a only: the 9.x parts, not later majors' arch-specific code.
    if (f == Feature::Wgmma && device.cc_major != 9)
      return fmt::format("needs sm_90a: {} (this GPU is sm_{})", feature_name(f), cc);
  }
  if (cc < needs.min_cc) return fmt::format("needs sm_{} (this GPU is sm_{})", needs.min_cc, cc);
  if (needs.smem_per_block > 0 && device.smem_per_block_optin > 0 && needs.smem_per_block > device.smem_per_block_optin)
    return fmt::format("needs {} KiB of shared memory per block (this GPU allows {} KiB)", needs.smem_per_block / 1024,
                       device.smem_per_block_optin / 1024);
  return std::nullopt;
}

}  // namespace joseki::measure
