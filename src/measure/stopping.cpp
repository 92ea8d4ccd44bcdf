#include "measure/stopping.hpp"

#include "measure/clock.hpp"
#include "measure/enum_names.hpp"

#include <chrono>
#include <numeric>

#include <fmt/format.h>

#include "measure/errors.hpp"

namespace joseki::measure {

const char* to_string(Mode m) { return m == Mode::Cold ? "cold" : "hot"; }

Mode mode_from_string(const std::string& s) {
  if (s == "cold") return Mode::Cold;
  if (s == "hot") return Mode::Hot;
  throw InputError(fmt::format("--mode: '{}' is not a mode (expected cold or hot)", s));
}

const char* to_string(StopReason r) {
  static constexpr EnumName<StopReason> names[] = {
      {StopReason::Converged, "converged"}, {StopReason::MaxSamples, "max_samples"}, {StopReason::Timeout, "timeout"}};
  return enum_name(r, names);
}

void StoppingRule::validate() const {
  if (min_samples < 1) throw InputError(fmt::format("stopping rule: min_samples {} < 1", min_samples));
  if (max_samples < min_samples)
    throw InputError(fmt::format("stopping rule: max_samples {} < min_samples {}", max_samples, min_samples));
  if (!(min_time_s >= 0)) throw InputError(fmt::format("stopping rule: min_time {} s is negative", min_time_s));
  if (!(max_noise > 0)) throw InputError(fmt::format("stopping rule: max_noise {} must be > 0", max_noise));
  if (!(timeout_s > 0)) throw InputError(fmt::format("stopping rule: timeout {} s must be > 0", timeout_s));
}

StopDecision should_stop(const StoppingRule& rule, std::span<const double> samples, double elapsed_wall_s) {
  const int n = static_cast<int>(samples.size());
  if (n >= rule.max_samples) return {true, StopReason::MaxSamples};
  if (n >= 1 && elapsed_wall_s >= rule.timeout_s) return {true, StopReason::Timeout};
  if (n < rule.min_samples) return {false, StopReason::Converged};
  const double measured = std::accumulate(samples.begin(), samples.end(), 0.0);
  if (measured < rule.min_time_s) return {false, StopReason::Converged};
  if (summarize(samples).rel_stdev <= rule.max_noise) return {true, StopReason::Converged};
  return {false, StopReason::Converged};
}

double steady_seconds() { return now_s(); }

Measurement measure(const SampleFn& sample, const PrepareFn& prepare, const StoppingRule& rule,
                    const WarmUp& warmup, const ClockFn& clock, const FlagFn& flagged) {
  rule.validate();
  Measurement m;
  const double warm_start = clock();
  while (m.warmup_runs < warmup.min_runs || clock() - warm_start < warmup.min_time_s) {
    if (prepare) prepare();
    (void)sample();
    ++m.warmup_runs;
    if (clock() - warm_start > rule.timeout_s) break;  // a very slow kernel: don't warm up forever
  }
  const double start = clock();
  for (;;) {
    if (prepare) prepare();
    const double v = sample();
    const int taken = static_cast<int>(m.samples_s.size() + m.discarded_s.size());
    if (rule.discard_flagged && flagged && flagged()) {
      m.discarded_s.push_back(v);
      m.discarded_at.push_back(taken);
    } else {
      m.samples_s.push_back(v);
    }
    const double elapsed = clock() - start;
    StopDecision d = should_stop(rule, m.samples_s, elapsed);
    if (!d.stop && taken + 1 >= rule.max_samples) d = {true, StopReason::MaxSamples};
    if (!d.stop && m.samples_s.empty() && elapsed >= rule.timeout_s) d = {true, StopReason::Timeout};
    if (d.stop) {
      m.reason = d.reason;
      break;
    }
  }
  if (m.samples_s.empty()) {  // every sample was flagged: keep them all rather than none
    m.samples_s = std::move(m.discarded_s);
    m.discarded_s.clear();
    m.discarded_at.clear();
  }
  m.wall_s = clock() - start;
  m.stats = summarize(m.samples_s);
  return m;
}

}  // namespace joseki::measure
