// The four nested timing scopes of one configuration, measured in one run:
//   EXTERNAL     a parent process spawns the program and times it to its exit
//   PROGRAM      main() entry to normal completion (measured inside the program)
//   GPU_PIPELINE first host-to-device copy to last device-to-host copy
//   GPU_COMPUTE  CUDA events around the kernels
// and CPU_COMPUTE for CPU variants (host clock around the compute call).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace joseki::measure {

enum class Scope { External, Program, GpuPipeline, GpuCompute, CpuCompute };
const char* to_string(Scope s);  // "EXTERNAL", "PROGRAM", "GPU_PIPELINE", "GPU_COMPUTE", "CPU_COMPUTE"

struct ScopeTimes {
  std::optional<double> external, program, gpu_pipeline, gpu_compute;
  std::optional<double> pre_main, post_main;  // parts of EXTERNAL outside PROGRAM
};

// Checks COMPUTE <= PIPELINE <= PROGRAM <= EXTERNAL over the scopes present.
// Returns one message per violation; empty when the nesting holds.
std::vector<std::string> check_nesting(const ScopeTimes& t);

}  // namespace joseki::measure
