// The sampling loop: warm-up, then samples until the stopping rule says enough.
//
// A sample is produced by a caller-supplied function that returns the time of one
// run in seconds (measured by CUDA events, a host clock, or a child process).
// Before each sample an untimed `prepare` hook runs: in cold mode it flushes the
// L2 cache, in hot mode it is empty and samples run back to back.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "measure/environment.hpp"
#include "measure/stats.hpp"

namespace joseki::measure {

enum class Mode { Cold, Hot };
const char* to_string(Mode m);       // "cold" | "hot"
Mode mode_from_string(const std::string& s);  // throws InputError naming the value

struct StoppingRule {
  int min_samples = 10;      // never stop before this many samples
  int max_samples = 2000;    // always stop at this many
  double min_time_s = 0.05;  // ... nor before the samples add up to this much measured time
  double max_noise = 0.02;   // converged when rel_stdev <= max_noise (after the minimums)
  double timeout_s = 3.0;    // wall-clock budget for the samples (flushes included); then stop anyway
  // Drop a sample the environment check flags (a throttle reason active, or the SM clock more than
  // 5 % below the block's start: environment.hpp) and keep sampling; only where the timer supplies
  // the flag (GPU timing: on by default). The record keeps the number and the values dropped.
  bool discard_flagged = true;
  void validate() const;     // throws InputError on nonsense (negative, min > max, ...)
};

struct WarmUp {
  int min_runs = 2;          // at least this many untimed runs: covers lazy module loading,
  double min_time_s = 0.01;  // first-touch page faults and clock ramp-up; and at least this long
};

enum class StopReason { Converged, MaxSamples, Timeout };
const char* to_string(StopReason r);  // "converged" | "max_samples" | "timeout"

struct StopDecision {
  bool stop = false;
  StopReason reason = StopReason::Converged;
};

// Pure decision function, unit-tested: should sampling stop after these samples,
// `elapsed_wall_s` seconds after the first sample started?
StopDecision should_stop(const StoppingRule& rule, std::span<const double> samples, double elapsed_wall_s);

struct Measurement {
  std::vector<double> samples_s;
  Stats stats;
  StopReason reason = StopReason::Converged;
  int warmup_runs = 0;
  double wall_s = 0;  // wall time spent sampling (flushes included)
  std::optional<Environment> environment;  // set by timers that read the GPU's environment (GpuTimer)
  std::vector<double> discarded_s;  // samples dropped because their environment was flagged
  std::vector<int> discarded_at;    // their indices in the order the samples were taken
};

using SampleFn = std::function<double()>;   // runs once, returns its time in seconds
using PrepareFn = std::function<void()>;    // untimed, before every warm-up run and sample
using ClockFn = std::function<double()>;    // seconds, monotonic; injectable for tests
using FlagFn = std::function<bool()>;       // after each sample: was its environment flagged?

double steady_seconds();  // std::chrono::steady_clock in seconds

// With `flagged` and rule.discard_flagged, a flagged sample is set aside (discarded_s) and sampling
// goes on: the rule judges the kept samples, max_samples counts every sample taken, and if every
// sample was flagged when it stops, they are all kept (the environment's flags say so).
Measurement measure(const SampleFn& sample, const PrepareFn& prepare, const StoppingRule& rule,
                    const WarmUp& warmup = {}, const ClockFn& clock = steady_seconds, const FlagFn& flagged = nullptr);

}  // namespace joseki::measure
