#include <algorithm>
#include <chrono>
#include <random>

#include "experiments/probes/probe.hpp"
#include "measure/errors.hpp"

namespace joseki::probes {

std::vector<ProbeInfo>& ProbeRegistry::all() {
  static std::vector<ProbeInfo> v;
  return v;
}

ProbeRegistry::Add::Add(ProbeInfo p) {
  if (!p.run)  // a GPU probe in a CPU-only build (JOSEKI_GPU_PROBE)
    p.run = [](const ProbeOptions&) -> std::vector<measure::Record> { throw GpuUnavailable(NO_CUDA); };
  auto& v = all();
  v.push_back(std::move(p));
  std::stable_sort(v.begin(), v.end(), [](const ProbeInfo& a, const ProbeInfo& b) { return a.order < b.order; });
}

const ProbeInfo* ProbeRegistry::find(const std::string& name) {
  for (const auto& p : all())
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<std::string> ProbeRegistry::names() {
  std::vector<std::string> out;
  for (const auto& p : all()) out.push_back(p.name);
  return out;
}

measure::Record make_record(const std::string& probe, const std::string& variant, const std::string& technique,
                            Scope scope, const std::string& mode, const std::string& unit) {
  measure::Record r;
  r.experiment = "probe." + probe;
  r.variant = variant;
  r.technique = technique;
  r.backend = scope == Scope::External || scope == Scope::Program ? "process" : "cuda";
  r.scope = to_string(scope);
  r.mode = mode;
  r.unit = unit;
  r.extra["seed"] = run_seed();
  return r;
}

measure::Record value_record(const std::string& probe, const std::string& variant, const std::string& technique,
                             double value, const std::string& unit) {
  measure::Record r = make_record(probe, variant, technique, Scope::Value, "", unit);
  r.set_single(value);
  r.validation = "not-applicable";
  return r;
}

measure::Record verdict_record(const std::string& probe, const std::string& rule_id, const std::string& rule,
                               Verdict verdict, const std::string& figure, double value, const std::string& unit) {
  measure::Record r = value_record(probe, "verdict:" + rule_id, rule, value, unit);
  r.extra["rule"] = rule;
  r.extra["verdict"] = to_string(verdict);
  r.extra["figure"] = figure;
  return r;
}

measure::Record skipped_record(const std::string& probe, const std::string& variant, const std::string& technique,
                               const std::string& reason, Scope scope) {
  measure::Record r = make_record(probe, variant, technique, scope, "");
  r.skipped = reason;
  r.validation = "not-applicable";
  return r;
}

measure::Measurement measure_values(const std::function<double()>& sample, const measure::StoppingRule& rule) {
  measure::StoppingRule r = rule;
  r.min_time_s = 0;  // the samples are not times
  measure::WarmUp w;
  w.min_runs = 1;
  w.min_time_s = 0;
  return measure::measure(sample, nullptr, r, w);
}

measure::StoppingRule light_rule(const measure::StoppingRule& base, bool quick) {
  measure::StoppingRule r = base;
  r.min_samples = std::min(base.min_samples, quick ? 3 : 5);
  r.timeout_s = std::min(base.timeout_s, quick ? 0.2 : 0.5);
  r.min_time_s = std::min(base.min_time_s, quick ? 0.005 : 0.02);
  return r;
}

std::uint32_t run_seed() {
  static const std::uint32_t seed = [] {
    std::random_device rd;
    return rd() ^ static_cast<std::uint32_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  }();
  return seed;
}

void add_unit_cost(measure::Record& r, const std::string& name, double seconds) {
  r.extra["unit_costs"][name] = seconds;
}

double find_unit_cost(const std::vector<measure::Record>& recs, const std::string& name) {
  for (auto it = recs.rbegin(); it != recs.rend(); ++it)
    if (it->extra.contains("unit_costs") && it->extra.at("unit_costs").contains(name))
      return it->extra.at("unit_costs").at(name).get<double>();
  return -1;
}

}  // namespace joseki::probes
