// Probe "startup": what a CUDA program pays before and after its work. Four programs
// (startup/): PLAIN (plain C++), CUDA_LINK (static cudart linked, never called), CUDA_TOUCH
// (cudaGetDeviceCount) and CONTEXT (+ cudaFree(0)), each spawned several times (EXTERNAL
// scope) after one untimed run; each reports main entry/end through measure/program_scope.hpp,
// so EXTERNAL splits into pre-main, in-main and post-main. Runs without a GPU: CUDA_TOUCH then
// measures the failure path (no driver), and CONTEXT is skipped.
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "backend/gpu.hpp"
#include "experiments/probes/probe.hpp"
#include "measure/errors.hpp"
#include "measure/scopes.hpp"
#include "measure/spawn.hpp"
#include "measure/table.hpp"

namespace joseki::probes {
namespace {

namespace fs = std::filesystem;
struct Program {
  const char* variant;
  const char* exe;
  const char* technique;
  bool needs_gpu;
};
constexpr Program PROGRAMS[] = {
    {"PLAIN", "joseki_probe_plain", "plain C++ program that does nothing", false},
    {"CUDA_LINK", "joseki_probe_cuda_link", "static CUDA runtime linked in, never called", false},
    {"CUDA_TOUCH", "joseki_probe_cuda_touch", "cudaGetDeviceCount: loads the driver, no context", false},
    {"CONTEXT", "joseki_probe_context", "cudaGetDeviceCount + cudaFree(0): primary context, torn down at exit",
     true},
};

#ifndef JOSEKI_PROBES_BUILD_DIR
#define JOSEKI_PROBES_BUILD_DIR ""
#endif

// <dir of joseki>/probes/NAME, <dir of joseki>/NAME, $JOSEKI_PROBES_DIR/NAME, then the build folder.
std::string find_program(const std::string& self_exe, const std::string& name, std::string& looked) {
  std::vector<fs::path> dirs;
  if (const char* e = std::getenv("JOSEKI_PROBES_DIR"); e && *e) dirs.emplace_back(e);
  std::error_code ec;
  const fs::path self = self_exe.empty() ? fs::read_symlink("/proc/self/exe", ec) : fs::path(self_exe);
  if (!self.empty()) {
    const fs::path d = self.parent_path();
    dirs.push_back(d / "probes");
    dirs.push_back(d);
  }
  if (*JOSEKI_PROBES_BUILD_DIR) dirs.emplace_back(JOSEKI_PROBES_BUILD_DIR);
  std::vector<std::string> seen;
  for (const auto& d : dirs) {
    if (std::find(seen.begin(), seen.end(), d.string()) != seen.end()) continue;
    seen.push_back(d.string());
    looked += (looked.empty() ? "" : ", ") + d.string();
    const fs::path p = d / name;
    if (fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0) return p.string();
  }
  return "";
}

double med(const std::vector<double>& v) { return v.empty() ? 0.0 : measure::median_of(v); }

Record part_record(const Program& p, const std::string& part, Scope scope, const std::vector<double>& v,
                   int warm) {
  Record r = make_record("startup", p.variant, p.technique, scope, "", "s");
  r.backend = "process";
  r.axes.set("part", part);
  measure::Measurement m;
  m.samples_s = v;
  m.stats = measure::summarize(v);
  m.warmup_runs = warm;
  r.set_measurement(m);
  r.stop_reason = "max_samples";
  r.validation = "not-applicable";
  return r;
}

struct Outcome {
  bool ran = false;
  double external = 0, pre = 0, in_main = 0, post = 0, figure = 0;
};

std::vector<Record> run_program(const ProbeOptions& o, const Program& p, bool gpu_ok, const std::string& gpu_reason,
                                Outcome& out) {
  std::string looked;
  const std::string exe = find_program(o.self_exe, p.exe, looked);
  if (exe.empty())
    return {skipped_record("startup", p.variant, p.technique,
                           fmt::format("{}{} not found (looked in {}){}", gpu_ok ? "" : "no GPU: " + gpu_reason + "; ",
                                       p.exe, looked,
                                       std::string(p.variant) != "PLAIN" ? "; a CPU-only build has only PLAIN" : ""),
                           Scope::External)};
  if (p.needs_gpu && !gpu_ok)
    return {skipped_record("startup", p.variant, p.technique, "no GPU: " + gpu_reason, Scope::External)};
  const bool heavy = std::string(p.variant) == "CONTEXT" || std::string(p.variant) == "CUDA_TOUCH";
  const int runs = o.quick ? (heavy ? 3 : 5) : (heavy ? 5 : 10);
  std::vector<double> ext, pre, in, post, count_call, ctx_call;
  std::vector<std::string> problems;
  double status = 0;
  int exit_code = 0;
  for (int i = 0; i <= runs; ++i) {
    measure::SpawnOptions so;
    so.argv = {exe};
    so.timeout_s = 60;
    const measure::ExternalResult er = measure::run_external(so);
    if (er.timed_out || er.term_signal) {
      problems.push_back(fmt::format("run {} {}", i, er.timed_out ? "timed out" : "died from a signal"));
      continue;
    }
    if (i == 0) continue;  // untimed: page cache, driver files
    exit_code = er.exit_code;
    if (er.figures.count("cuda_status")) status = er.figures.at("cuda_status");
    const bool failure_path = er.exit_code == 3 && std::string(p.variant) == "CUDA_TOUCH";
    if (er.exit_code != 0 && !failure_path) problems.push_back(fmt::format("exit code {}", er.exit_code));
    for (const auto& v : measure::check_nesting(er.scopes())) problems.push_back("nesting: " + v);
    if (!er.pre_main_s || !er.figures.count(to_string(Scope::Program))) {
      problems.push_back("no scope report from the child");
      continue;
    }
    ext.push_back(er.external_s);
    pre.push_back(*er.pre_main_s);
    in.push_back(er.figures.at(to_string(Scope::Program)));
    post.push_back(*er.post_main_s);
    if (er.figures.count("device_count_call")) count_call.push_back(er.figures.at("device_count_call"));
    if (er.figures.count("context_create")) ctx_call.push_back(er.figures.at("context_create"));
  }
  if (ext.empty()) throw RunError(fmt::format("startup {}: no run reported its scopes ({})", p.variant,
                                              problems.empty() ? "?" : problems.front()));
  std::vector<Record> recs;
  Record total = part_record(p, "total", Scope::External, ext, 1);
  total.extra["pre_main_s"] = med(pre);
  total.extra["in_main_s"] = med(in);
  total.extra["post_main_s"] = med(post);
  if (!count_call.empty()) total.extra["device_count_call_s"] = med(count_call);
  if (!ctx_call.empty()) total.extra["context_create_s"] = med(ctx_call);
  total.extra["exit_code"] = exit_code;
  if (std::string(p.variant) == "CUDA_TOUCH" || std::string(p.variant) == "CONTEXT") {
    total.extra["cuda_status"] = status;
    total.extra["path"] = status == 0 ? "success" : fmt::format("failure path: cudaGetDeviceCount returned error {} "
                                                                "(no usable driver/GPU here)", status);
  }
  total.extra["display"] = fmt::format("pre-main {} + in-main {} + post-main {}", measure::format_time(med(pre)),
                                       measure::format_time(med(in)), measure::format_time(med(post))) +
                           (ctx_call.empty() ? "" : "; cudaFree(0) " + measure::format_time(med(ctx_call))) +
                           (status != 0 ? " (failure path)" : "");
  if (!problems.empty()) total.validation = "failed: " + problems.front();
  recs.push_back(total);
  recs.push_back(part_record(p, "pre_main", Scope::External, pre, 1));
  recs.push_back(part_record(p, "in_main", Scope::Program, in, 1));
  recs.push_back(part_record(p, "post_main", Scope::External, post, 1));
  out = {true, med(ext), med(pre), med(in), med(post), med(ctx_call)};
  return recs;
}

std::vector<Record> run_startup(const ProbeOptions& o) {
  const gpu::Availability a = gpu::availability();
  const bool gpu_ok = a.ok && o.device < a.device_count;
  std::vector<Record> recs;
  Outcome oc[4];
  for (int i = 0; i < 4; ++i)
    for (auto& r : run_program(o, PROGRAMS[i], gpu_ok, a.reason, oc[i])) recs.push_back(std::move(r));
  using measure::format_time;
  const std::string link_rule = "linking the CUDA runtime costs nothing until it is used";
  if (oc[0].ran && oc[1].ran) {
    const double d = oc[1].external - oc[0].external;
    const Verdict v = d < std::max(1e-3, 0.2 * oc[0].external) ? Verdict::Holds : Verdict::DoesNotHold;
    recs.push_back(verdict_record("startup", "link", link_rule, v,
                                  fmt::format("CUDA_LINK {} vs PLAIN {} per process ({:+.2f} ms)",
                                              format_time(oc[1].external), format_time(oc[0].external), d * 1e3),
                                  d, "s"));
  } else {
    recs.push_back(
        skipped_record("startup", "verdict:link", link_rule,
                       fmt::format("{}needs PLAIN and CUDA_LINK (a CUDA build)", gpu_ok ? "" : "no GPU: " + a.reason + "; "),
                       Scope::Value));
  }
  const std::string ctx_rule = "CUDA start-up is paid at first use: creating the context dominates (pre-main, "
                               "in-main and post-main separated)";
  if (oc[0].ran && oc[3].ran) {
    const double extra_cost = oc[3].external - oc[0].external;
    const Verdict v = oc[3].figure > 0.5 * extra_cost ? Verdict::Holds : Verdict::Depends;
    recs.push_back(verdict_record(
        "startup", "context", ctx_rule, v,
        fmt::format("CONTEXT {} vs PLAIN {}: pre-main {}, in-main {} (cudaFree(0) {}), post-main {}",
                    format_time(oc[3].external), format_time(oc[0].external), format_time(oc[3].pre),
                    format_time(oc[3].in_main), format_time(oc[3].figure), format_time(oc[3].post)),
        extra_cost, "s"));
  } else {
    recs.push_back(skipped_record("startup", "verdict:context", ctx_rule,
                                  gpu_ok ? "CONTEXT program not built" : "no GPU: " + a.reason, Scope::Value));
  }
  return recs;
}

}  // namespace

JOSEKI_REGISTER_HOST_PROBE(startup, "process start-up: PLAIN, CUDA_LINK, CUDA_TOUCH, CONTEXT",
                           "pre-main / in-main / post-main of a CUDA process", false, 95, 5);

}  // namespace joseki::probes
