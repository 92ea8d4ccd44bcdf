// What a rung, probe or solver needs of the device, and why it cannot run when a need is unmet.
// Pure C++: declared next to each rung/probe/solver, checked against DeviceFacts at run time, so an
// unmet need is a skip with a reason ("needs sm_90: cp.async.bulk"), never "no kernel image" or a crash.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "measure/record.hpp"

namespace joseki::measure {

// Hardware features a kernel may use, each with the lowest compute capability that has it.
enum class Feature : std::uint8_t {
  Int8Mma,               // mma.sync int8 (m8n8k16): sm_75
  Int8MmaK32,            // mma.sync int8 m16n8k32 (the Ampere shape gpu-pairs uses): sm_80
  CpAsync,               // cp.async (Ampere async copy to shared memory): sm_80
  ReduxSync,             // redux.sync (warp reduce in one instruction): sm_80
  L2Persistence,         // cudaAccessPolicyWindow / persisting L2 set-aside: sm_80
  L2CacheHint,           // createpolicy + ld .L2::cache_hint (L2 eviction-priority loads): sm_80
  BulkCopy,              // cp.async.bulk + mbarrier transaction counts (TMA bulk copies): sm_90
  TensorMapCopy,         // cp.async.bulk.tensor (TMA with a tensor map): sm_90
  Clusters,              // thread-block clusters and distributed shared memory: sm_90
  ProgrammaticLaunch,    // programmatic dependent launch (griddepcontrol): sm_90
  Wgmma,                 // warpgroup MMA: sm_90a only (arch-specific code)
};

// The feature's name as a PTX/CUDA programmer would say it, e.g. "cp.async.bulk".
const char* feature_name(Feature f);
// The lowest compute capability (major*10 + minor) that has the feature.
int feature_min_cc(Feature f);

struct Needs {
  int min_cc = 0;                         // major*10 + minor, 0 = any
  std::vector<Feature> features;          // each implies its own minimum compute capability
  std::int64_t smem_per_block = 0;        // bytes of shared memory per block (opt-in limit checked)
  // The effective minimum compute capability: max(min_cc, every feature's minimum).
  int effective_min_cc() const;
};

// Why `needs` cannot run on `device`, or nullopt when it can. Examples:
//   "needs sm_90: cp.async.bulk"  "needs sm_80 (this GPU is sm_75)"  "no GPU"
//   "needs 200 KiB of shared memory per block (this GPU allows 99 KiB)"
//   "needs sm_90: cp.async.bulk (this GPU is sm_90, but runs this build's compute_80 PTX)"
// The compute capability that counts is the lower of the GPU's and that of the code that runs on
// it (device.code_arch: a build with only compute_80 PTX runs sm_80 code on an H200, where the
// guarded sm_90 kernels are traps: backend/cuda/arch.cuh).
std::optional<std::string> unmet(const Needs& needs, const DeviceFacts& device);

// Whether a build for `cuda_architectures` (CMake's list, space or ;-separated: "75-real 80-real
// 120", "80-virtual", "90") carries SASS that runs natively on a GPU of compute capability
// major.minor: a real architecture of the same major and a minor no higher (CUDA's binary
// compatibility; "90a" counts for 9.0 only). Otherwise the driver compiles the build's PTX.
bool has_sass_for(const std::string& cuda_architectures, int major, int minor);

// One line for `joseki device`: whether the device code that runs is native SASS or PTX compiled by
// the driver, e.g. "native SASS for sm_90 (this binary: 75-real ... 120)" or "compute_80 PTX,
// compiled by the driver for sm_90 (this binary: 80-virtual): rungs that need sm_90 are skipped".
std::string running_code_text(const DeviceFacts& device, const std::string& cuda_architectures);

}  // namespace joseki::measure
