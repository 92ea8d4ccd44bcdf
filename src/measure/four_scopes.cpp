#include "measure/four_scopes.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "measure/errors.hpp"
#include "measure/stats.hpp"

namespace joseki::measure {

const std::vector<double>* ScopeSamples::of(Scope s) const {
  const auto it = scopes.find(s);
  return it == scopes.end() || it->second.empty() ? nullptr : &it->second;
}

namespace {

constexpr Scope kChildScopes[] = {Scope::Program, Scope::GpuPipeline, Scope::GpuCompute};

std::optional<Scope> child_scope(const std::string& figure) {
  for (Scope s : kChildScopes)
    if (figure == to_string(s)) return s;
  return std::nullopt;
}

}  // namespace

ScopeSamples sample_four_scopes(const FourScopesOptions& o) {
  ScopeSamples s;
  if (o.parent_context) s.parent_context = o.parent_context();
  SpawnOptions so = o.spawn;
  so.want_report = true;
  std::vector<ExternalResult> runs;
  auto sample = [&]() -> double {
    const ExternalResult r = run_external(so);
    const std::string hint = o.hint.empty() ? "" : " (" + o.hint + ")";
    if (r.timed_out)
      throw ChildFailed(fmt::format("{}: timed out after {:.0f} s{}", o.what, so.timeout_s, hint), true, r.exit_code,
                        r.term_signal);
    if (r.exit_code != 0)
      throw ChildFailed(fmt::format("{}: exit code {}{}{}", o.what, r.exit_code,
                                    r.term_signal ? fmt::format(", signal {}", r.term_signal) : "", hint),
                        false, r.exit_code, r.term_signal);
    if (o.check) o.check(r);
    for (Scope req : o.required)
      if (req != Scope::External && !r.figures.count(to_string(req)))
        throw RunError(fmt::format("{} reported no {} scope", o.what, to_string(req)));
    runs.push_back(r);
    return r.external_s;
  };
  s.external = measure(sample, nullptr, o.rule, o.warmup);
  // The warm-up's children ran too: keep only the timed samples.
  const std::size_t timed = s.external.samples_s.size();
  runs.erase(runs.begin(), runs.begin() + static_cast<std::ptrdiff_t>(runs.size() - std::min(timed, runs.size())));
  if (!runs.empty()) {
    s.launcher = runs.front().launcher;
    s.device_state = runs.front().device_state;
    if (s.launcher) s.parent_context = false;  // the launcher never touched CUDA
  }
  for (const ExternalResult& r : runs) {
    s.scopes[Scope::External].push_back(r.external_s);
    for (const auto& [name, v] : r.figures) {
      if (const auto sc = child_scope(name)) s.scopes[*sc].push_back(v);
      else s.phases[name].push_back(v);
    }
    if (r.pre_main_s) s.pre_main.push_back(*r.pre_main_s);
    if (r.post_main_s) s.post_main.push_back(*r.post_main_s);
    for (std::string& v : check_nesting(r.scopes())) s.violations.push_back(std::move(v));
  }
  return s;
}

std::vector<Record> four_scope_records(const ScopeSamples& s, const Record& base, const std::string& scope_set,
                                       bool part_records) {
  std::vector<Record> out;
  auto make = [&](Scope scope, const std::vector<double>& samples, const std::string& part) {
    Record rec = base;
    rec.scope = to_string(part.empty() ? scope : Scope::Value);
    if (base.backend.empty()) rec.backend = scope == Scope::GpuPipeline || scope == Scope::GpuCompute ? "cuda" : "process";
    if (!part.empty()) rec.axes.set("part", part);
    rec.ladder.scope_set = scope_set;
    rec.extra["measured_by"] = scope != Scope::External || !part.empty() ? "child: JOSEKI_SCOPE_REPORT"
                               : s.launcher ? "launcher (never touched CUDA): posix_spawn to waitpid"
                                            : "parent: posix_spawn to waitpid";
    rec.extra["nesting"] = s.violations.empty() ? "COMPUTE <= PIPELINE <= PROGRAM <= EXTERNAL in every sample"
                                                : "violated";
    if (!s.violations.empty()) rec.extra["nesting_violations"] = s.violations;
    Measurement m = s.external;
    m.samples_s = samples;
    m.stats = summarize(samples);
    rec.set_measurement(m);
    return rec;
  };
  ScopeTimes med;
  for (Scope sc : {Scope::External, Scope::Program, Scope::GpuPipeline, Scope::GpuCompute}) {
    const std::vector<double>* v = s.of(sc);
    if (!v) continue;
    out.push_back(make(sc, *v, ""));
    const double m = out.back().summary->median;
    if (sc == Scope::External) med.external = m;
    if (sc == Scope::Program) med.program = m;
    if (sc == Scope::GpuPipeline) med.gpu_pipeline = m;
    if (sc == Scope::GpuCompute) med.gpu_compute = m;
  }
  if (out.empty()) return out;
  // EXTERNAL carries its split, the children's phases and what the parent held while it timed.
  Record& ext = out.front();
  if (!s.pre_main.empty()) ext.extra["pre_main_s"] = median_of(s.pre_main);
  if (!s.post_main.empty()) ext.extra["post_main_s"] = median_of(s.post_main);
  nlohmann::json phases = nlohmann::json::object();
  for (const auto& [name, v] : s.phases) phases[name] = median_of(v);
  ext.extra["phases_s"] = phases;
  ext.extra["parent_gpu_context"] = s.parent_context ? nlohmann::json(*s.parent_context) : nlohmann::json("unknown");
  if (!s.device_state.empty()) ext.extra["device_state"] = s.device_state;
  if (part_records && !s.pre_main.empty()) out.push_back(make(Scope::External, s.pre_main, "pre-main"));
  if (part_records && !s.post_main.empty()) out.push_back(make(Scope::External, s.post_main, "post-main"));
  if (const auto bad = check_nesting(med); !bad.empty()) {
    std::string msg;
    for (const auto& b : bad) msg += (msg.empty() ? "" : "; ") + b;
    for (Record& r : out) r.validation = "failed: scope nesting: " + msg;
  }
  return out;
}

}  // namespace joseki::measure
