// The probes of the GPU memory model (issue 7): one probe per rule of the guide
// (shared/seeds/002), each returning raw measurement records and one summary record per
// rule with extra.rule, extra.verdict ("holds" | "does not hold" | "depends") and extra.figure.
//
// A probe registers itself from its host .cpp file:
//   JOSEKI_REGISTER_PROBE(banks, ProbeInfo{"banks", "shared-memory bank conflicts", ..., run_banks});
// and the CLI (`joseki probe NAME|all|list`), the tour step and the docs list them from here.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "experiments/probes/analysis.hpp"
#include "measure/needs.hpp"
#include "measure/record.hpp"
#include "measure/stopping.hpp"

namespace joseki::probes {

inline constexpr const char* NO_CUDA = "this joseki was built without CUDA; the GPU probes are not available";

struct ProbeOptions {
  int device = 0;
  measure::StoppingRule rule;  // for GPU_COMPUTE samples (the probes lighten it for cycle counts)
  bool quick = false;          // fewer sizes and points: the tour's quick run and the tests
  std::string self_exe;        // the joseki binary: start-up programs beside it, ncu and reduce children
  // Records of probes run earlier in the same invocation (the profile reuses their unit costs).
  const std::vector<measure::Record>* earlier = nullptr;
};

using ProbeFn = std::function<std::vector<measure::Record>(const ProbeOptions&)>;

struct ProbeInfo {
  std::string name;     // "coalescing"; the records' experiment is "probe.<name>"
  std::string title;    // one line
  std::string rules;    // the guide's rules it tests, short
  bool needs_gpu = true;
  int order = 0;
  double est_seconds = 5;  // on the GPU host, full run
  ProbeFn run;
  measure::Needs needs{};  // what it needs of the GPU beyond one being there (unmet: skipped with the reason)
};

struct ProbeRegistry {
  static std::vector<ProbeInfo>& all();           // sorted by order on first use by the CLI
  static const ProbeInfo* find(const std::string& name);
  static std::vector<std::string> names();        // in order
  struct Add {
    explicit Add(ProbeInfo p);
  };
};

#define JOSEKI_REGISTER_PROBE(id, ...) \
  static const ::joseki::probes::ProbeRegistry::Add joseki_probe_registration_##id{__VA_ARGS__}

// A probe whose run is host code in every build (startup, profile: they spawn or call other probes)
// registers itself after `std::vector<measure::Record> run_<id>(const ProbeOptions&)`:
//   JOSEKI_REGISTER_HOST_PROBE(startup, "title", "rules", needs_gpu, order, est_seconds);
#define JOSEKI_REGISTER_HOST_PROBE(id, title, rules, needs_gpu, order, est_seconds) \
  JOSEKI_REGISTER_PROBE(id, ::joseki::probes::ProbeInfo{#id, title, rules, needs_gpu, order, est_seconds, run_##id})

// A GPU probe registers itself at the top of its file, inside its anonymous namespace:
//   JOSEKI_REGISTER_GPU_PROBE(banks, "title", "rules", order, est_seconds[, needs]);
// and defines `std::vector<measure::Record> run_banks(const ProbeOptions&)` inside
// #ifdef JOSEKI_HAVE_CUDA with no #else: in a CPU-only build the registry supplies the one stub that
// says so (GpuUnavailable(NO_CUDA)). The run opens its GPU with `auto [g, s, d] = GpuProbeRun(o.device);`.
#ifdef JOSEKI_HAVE_CUDA
#define JOSEKI_GPU_PROBE(fn) ::joseki::probes::ProbeFn(fn)
#define JOSEKI_DECLARE_GPU_PROBE_RUN(id) \
  std::vector<::joseki::measure::Record> run_##id(const ::joseki::probes::ProbeOptions&);
#else
#define JOSEKI_GPU_PROBE(fn) ::joseki::probes::ProbeFn()
#define JOSEKI_DECLARE_GPU_PROBE_RUN(id)
#endif
// An optional last argument is the probe's measure::Needs (unmet: skipped with the reason).
#define JOSEKI_REGISTER_GPU_PROBE(id, title, rules, order, est_seconds, ...)                                  \
  JOSEKI_DECLARE_GPU_PROBE_RUN(id)                                                                            \
  JOSEKI_REGISTER_PROBE(id, ::joseki::probes::ProbeInfo{#id, title, rules, true, order, est_seconds,          \
                                                        JOSEKI_GPU_PROBE(run_##id) __VA_OPT__(, ) __VA_ARGS__})

// ---- record helpers (device/host/build facts are stamped by the CLI) ----
using measure::Record;
using measure::Scope;
measure::Record make_record(const std::string& probe, const std::string& variant, const std::string& technique,
                            Scope scope, const std::string& mode, const std::string& unit = "s");
// A record of one derived figure (scope VALUE, one sample).
measure::Record value_record(const std::string& probe, const std::string& variant, const std::string& technique,
                             double value, const std::string& unit);
// The summary record of one rule.
measure::Record verdict_record(const std::string& probe, const std::string& rule_id, const std::string& rule,
                               Verdict verdict, const std::string& figure, double value, const std::string& unit);
measure::Record skipped_record(const std::string& probe, const std::string& variant, const std::string& technique,
                               const std::string& reason, Scope scope = Scope::GpuCompute);

// Samples of any unit (cycles, B/s ...) taken by the stopping-rule loop.
measure::Measurement measure_values(const std::function<double()>& sample, const measure::StoppingRule& rule);
// The rule for cheap cycle-count samples: few samples, short timeout.
measure::StoppingRule light_rule(const measure::StoppingRule& base, bool quick);

// The seed of this run's random data (fresh per process, recorded in extra.seed).
std::uint32_t run_seed();

// Unit costs (seconds) that probes publish for the profile: extra.unit_costs = {name: s}.
void add_unit_cost(measure::Record& r, const std::string& name, double seconds);
// Looks a unit cost up in records; < 0 when absent.
double find_unit_cost(const std::vector<measure::Record>& recs, const std::string& name);

}  // namespace joseki::probes

namespace joseki::probes {
// `joseki probe diagnose --run-kernels`: runs every diagnose kernel once (validated), for ncu.
void run_diagnose_kernels(int device);
}  // namespace joseki::probes
