// The four nested timing scopes of one configuration, measured in one run:
//   EXTERNAL     a parent process spawns the program and times it to its exit
//   PROGRAM      main() entry to normal completion (measured inside the program)
//   GPU_PIPELINE first host-to-device copy to last device-to-host copy
//   GPU_COMPUTE  CUDA events around the kernels
// and CPU_COMPUTE for CPU variants (host clock around the compute call); VALUE marks a record of
// a derived figure (a ratio, a verdict, a calibrated cost), not a timing.
//
// A record's `scope` and a child's figure names are these names as text (the JSON schema's
// strings); code writes and compares them through the enum, never as literals:
//   r.scope = to_string(Scope::GpuCompute);   if (r.scope == to_string(Scope::External)) ...
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace joseki::measure {

enum class Scope { External, Program, GpuPipeline, GpuCompute, CpuCompute, Value };
const char* to_string(Scope s);  // "EXTERNAL", "PROGRAM", "GPU_PIPELINE", "GPU_COMPUTE", "CPU_COMPUTE", "VALUE"
// The scope a name stands for; nullopt for any other text (names are case-sensitive).
std::optional<Scope> scope_from_string(std::string_view name);
// Every scope, in the order above (what a record's `scope` may be).
std::span<const Scope> all_scopes();
// GPU_COMPUTE or CPU_COMPUTE: the compute scope of a GPU or a CPU variant.
inline bool is_compute(Scope s) { return s == Scope::GpuCompute || s == Scope::CpuCompute; }

struct ScopeTimes {
  std::optional<double> external, program, gpu_pipeline, gpu_compute;
  std::optional<double> pre_main, post_main;  // parts of EXTERNAL outside PROGRAM
};

// Checks COMPUTE <= PIPELINE <= PROGRAM <= EXTERNAL over the scopes present.
// Returns one message per violation; empty when the nesting holds.
std::vector<std::string> check_nesting(const ScopeTimes& t);

}  // namespace joseki::measure
