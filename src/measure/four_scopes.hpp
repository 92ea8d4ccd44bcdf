// The four nested scopes of one measured program, sampled together: every sample is one child
// process (EXTERNAL: posix_spawn to waitpid, measure/spawn.hpp) that reports its PROGRAM,
// GPU_PIPELINE and GPU_COMPUTE, its phases and its main() entry/end (program_scope.hpp), so that
// EXTERNAL splits into pre-main + PROGRAM + post-main. The runner checks every child (exit code,
// the caller's output check, the scopes it must report) and the nesting
// COMPUTE <= PIPELINE <= PROGRAM <= EXTERNAL, and turns the samples into records.
//
//   FourScopesOptions o;
//   o.spawn.argv = {self, "abc471g", "solve", "--solver", "gpu-direct"};
//   o.required = {Scope::Program, Scope::GpuPipeline, Scope::GpuCompute};
//   o.check = [&](const ExternalResult&) { /* throws ValidationError on a wrong answer */ };
//   const ScopeSamples s = sample_four_scopes(o);
//   std::vector<Record> recs = four_scope_records(s, base, "abc471g-gpu-direct-<time>");
//
// Every EXTERNAL record says whether the measuring parent held a GPU context while it timed
// (extra.parent_gpu_context): false when the launcher timed it (measure/launcher.hpp: a process
// that never touched CUDA), else FourScopesOptions::parent_context (the backend's
// gpu::holds_context()); and the device state at the spawn (extra.device_state: idle / held, any
// process), which the caller may also put into the axes.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "measure/errors.hpp"
#include "measure/record.hpp"
#include "measure/scopes.hpp"
#include "measure/spawn.hpp"
#include "measure/stopping.hpp"

namespace joseki::measure {

struct FourScopesOptions {
  SpawnOptions spawn;                 // the measured program (want_report is forced on)
  std::string what = "child";         // names the program in errors: "gpu-direct child"
  std::string hint;                   // appended to a failed child's error: "run it by hand: ..."
  std::vector<Scope> required;        // scopes every child must report (Program, GpuPipeline, GpuCompute)
  // Called after every child that exited 0; throws (ValidationError, RunError) when its output is wrong.
  std::function<void(const ExternalResult&)> check;
  StoppingRule rule;                  // over the EXTERNAL samples
  WarmUp warmup{1, 0};                // untimed children first (cold file cache, the driver's first load)
  // Whether the parent holds a GPU context now (nullopt: unknown). Asked once, before the first child.
  std::function<std::optional<bool>()> parent_context;
};

// A child that did not finish well: timed out, or exited non-zero / by a signal.
class ChildFailed : public RunError {
 public:
  ChildFailed(const std::string& what, bool timed_out, int exit_code, int term_signal)
      : RunError(what), timed_out(timed_out), exit_code(exit_code), term_signal(term_signal) {}
  bool timed_out;
  int exit_code, term_signal;
};

struct ScopeSamples {
  Measurement external;                         // the sampling loop's result (EXTERNAL seconds)
  std::map<Scope, std::vector<double>> scopes;  // EXTERNAL, and each scope the children reported
  std::vector<double> pre_main, post_main;
  std::map<std::string, std::vector<double>> phases;  // every other figure the children reported
  std::vector<std::string> violations;          // nesting violations, one line each
  std::optional<bool> parent_context;           // did the process that timed EXTERNAL hold a GPU context
  bool launcher = false;                        // EXTERNAL timed by the launcher (measure/launcher.hpp)
  std::string device_state;                     // "idle" | "held" | "": any CUDA context at the first timed spawn
  const std::vector<double>* of(Scope s) const;  // nullptr when absent
};

// Throws ChildFailed naming the program when a child times out or exits non-zero, RunError when it
// cannot start or misses a required scope; whatever `check` throws.
ScopeSamples sample_four_scopes(const FourScopesOptions& o);

// One record per scope present (EXTERNAL, PROGRAM, GPU_PIPELINE, GPU_COMPUTE) and the pre-main /
// post-main parts (scope VALUE, axes.part), copied from `base` (experiment, variant, technique,
// axes, validation, extra; backend when set, else "cuda" for the GPU scopes and "process") with
// scope, samples, ladder.scope_set, extra.nesting and extra.measured_by set; EXTERNAL also
// extra.parent_gpu_context.
// part_records = false: the split stays on EXTERNAL (extra.pre_main_s / post_main_s) only.
std::vector<Record> four_scope_records(const ScopeSamples& s, const Record& base, const std::string& scope_set,
                                       bool part_records = true);

}  // namespace joseki::measure
