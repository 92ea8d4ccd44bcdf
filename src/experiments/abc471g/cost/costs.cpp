// Measured costs for `auto` (costs.hpp): the cost file, the fit, and the calibration run.
#include "experiments/abc471g/cost/costs.hpp"
#include "measure/clock.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <tuple>

#include <fmt/format.h>

#include "backend/cpu/parallel.hpp"
#include "backend/gpu.hpp"
#include "experiments/abc471g/inputs.hpp"
#include "experiments/abc471g/problem.hpp"
#include "measure/errors.hpp"
#include "measure/host_load.hpp"
#include "measure/spawn.hpp"
#include "measure/stats.hpp"

namespace joseki::abc471g {

std::string SolverFit::formula() const {
  std::string s = fmt::format("{:.3f} ms", c0 * 1e3);
  if (c_n > 0) s += fmt::format(" + N x {:.3g} ns", c_n * 1e9);
  if (c_nk > 0) s += fmt::format(" + N K x {:.3g} ps", c_nk * 1e12);
  if (c_k2 > 0) s += fmt::format(" + K^2 x {:.3g} ns", c_k2 * 1e9);
  return s;
}

CostModel default_costs() {
  CostModel m;
  m.source = "defaults";
  SolverFit g;  // assumptions, not measurements: 5e10 pairs/s, 0.5 ms combine + setup at K = 2300
  g.c0 = 0.5e-3;
  g.c_n = 1.0 / 5e10;
  g.c_k2 = 0.5e-3 / (2300.0 * 2300.0);
  m.solvers["gpu-pairs"] = g;
  return m;
}

std::string costs_path() {
  if (const char* p = std::getenv("JOSEKI_COSTS"); p && *p) return p;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/joseki/abc471g_costs.json";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/joseki/abc471g_costs.json";
  return ".joseki_abc471g_costs.json";
}

std::string CostModel::fixed_costs_text() const {
  auto one = [](double v, bool measured) { return fmt::format("{:.1f} ms ({})", v * 1e3, measured ? "calibrated" : "default"); };
  return fmt::format("idle {} / held {}, + module load {:.1f} ms", one(gpu_fixed_idle_s, idle_measured),
                     one(gpu_fixed_held_s, held_measured), module_load_s * 1e3);
}

std::string CostModel::load_text() const {
  if (others_cpu_share < 0) return "";
  return fmt::format("other processes used {:.0f} % of the {} CPUs while it was calibrated", 100 * others_cpu_share, cpus);
}

std::string CostModel::busy_text() const {
  return others_cpu_share > BUSY_WARN ? load_text() + ": its CPU figures may be slow" : "";
}

nlohmann::json to_json(const CostModel& m, bool with_points) {
  nlohmann::json s = nlohmann::json::object();
  for (const auto& [name, f] : m.solvers) {
    s[name] = {{"c0_s", f.c0},         {"per_n_s", f.c_n},   {"per_nk_s", f.c_nk}, {"per_k2_s", f.c_k2},
               {"threads", f.threads}, {"max_rel_err", f.max_rel_err}};
    if (with_points) s[name]["points"] = f.points;
  }
  return {{"schema", "joseki.abc471g.costs/2"},
          {"source", m.source},
          {"created", m.created},
          {"host", m.host},
          {"device", {{"index", m.device}, {"name", m.device_name}}},
          {"gpu",
           {{"fixed_external_idle_s", m.gpu_fixed_idle_s},
            {"fixed_external_held_s", m.gpu_fixed_held_s},
            {"idle_measured", m.idle_measured},
            {"held_measured", m.held_measured},
            {"idle_note", m.idle_note},
            {"module_load_s", m.module_load_s}}},
          {"machine", {{"others_cpu_share", m.others_cpu_share}, {"cpus", m.cpus}}},
          {"solvers", s}};
}

CostModel costs_from_json(const nlohmann::json& j) {
  auto need = [](const nlohmann::json& o, const char* key, const std::string& where) -> const nlohmann::json& {
    if (!o.is_object() || !o.contains(key)) throw InputError("cost file: missing field " + where + key);
    return o.at(key);
  };
  try {
    const std::string schema = need(j, "schema", "").get<std::string>();
    if (schema != "joseki.abc471g.costs/1" && schema != "joseki.abc471g.costs/2")
      throw InputError("cost file: schema '" + schema + "' is not joseki.abc471g.costs/1 or /2");
    CostModel m;
    m.source = need(j, "source", "").get<std::string>();
    m.created = need(j, "created", "").get<std::string>();
    m.host = j.value("host", "");
    const auto& d = need(j, "device", "");
    m.device = d.value("index", 0);
    m.device_name = d.value("name", "");
    const auto& g = need(j, "gpu", "");
    if (schema == "joseki.abc471g.costs/1") {
      // One figure, measured by a parent that held a context: the held state's. Idle keeps its default.
      m.gpu_fixed_held_s = need(g, "fixed_external_s", "gpu.").get<double>();
      m.held_measured = g.value("measured", false);
      m.idle_note = "a /1 cost file (held state only): run `joseki abc471g calibrate` again";
    } else {
      m.gpu_fixed_idle_s = need(g, "fixed_external_idle_s", "gpu.").get<double>();
      m.gpu_fixed_held_s = need(g, "fixed_external_held_s", "gpu.").get<double>();
      m.idle_measured = g.value("idle_measured", false);
      m.held_measured = g.value("held_measured", false);
      m.idle_note = g.value("idle_note", "");
    }
    if (m.gpu_fixed_idle_s < 0 || m.gpu_fixed_held_s < 0) throw InputError("cost file: negative GPU fixed cost");
    m.module_load_s = need(g, "module_load_s", "gpu.").get<double>();
    if (j.contains("machine")) {  // optional: files written before session 19 lack it
      m.others_cpu_share = j.at("machine").value("others_cpu_share", -1.0);
      m.cpus = j.at("machine").value("cpus", 0);
    }
    for (const auto& [name, f] : need(j, "solvers", "").items()) {
      SolverFit s;
      const std::string w = "solvers." + name + ".";
      s.c0 = need(f, "c0_s", w).get<double>();
      s.c_n = need(f, "per_n_s", w).get<double>();
      s.c_nk = need(f, "per_nk_s", w).get<double>();
      s.c_k2 = need(f, "per_k2_s", w).get<double>();
      s.threads = f.value("threads", 0);
      s.max_rel_err = f.value("max_rel_err", 0.0);
      if (f.contains("points")) s.points = f.at("points").get<std::vector<std::array<double, 3>>>();
      if (s.c0 < 0 || s.c_n < 0 || s.c_nk < 0 || s.c_k2 < 0) throw InputError("cost file: negative coefficient in " + name);
      m.solvers[name] = s;
    }
    return m;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("cost file: ") + e.what());
  }
}

std::optional<CostModel> load_costs(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(ss.str());
  } catch (const nlohmann::json::exception& e) {
    throw InputError("cost file " + path + ": not JSON (" + e.what() + ")");
  }
  try {
    return costs_from_json(j);
  } catch (const InputError& e) {
    throw InputError(std::string(e.what()) + " (" + path + "; run `joseki abc471g calibrate` to remake it)");
  }
}

void save_costs(const CostModel& m, const std::string& path) {
  // mkdir -p of the folder
  for (std::size_t i = 1; i < path.size(); ++i)
    if (path[i] == '/') ::mkdir(path.substr(0, i).c_str(), 0755);
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp);
    if (!out) throw RunError("cannot write the cost file " + tmp);
    out << to_json(m, /*with_points=*/false).dump(1) << "\n";
    if (!out) throw RunError("cannot write the cost file " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw RunError("cannot rename " + tmp + " to " + path);
}

const CostModel& active_costs() {
  static const CostModel m = [] {
    try {
      if (auto c = load_costs(costs_path())) return *c;
    } catch (const InputError&) {
      // a broken file must not stop a solve: fall back to the defaults (--explain says so)
    }
    return default_costs();
  }();
  return m;
}

SolverFit fit_solver(const std::vector<std::array<double, 3>>& points) {
  SolverFit f;
  f.points = points;
  if (points.empty()) return f;
  // Features per point, scaled by 1/t so that the fit minimises relative error.
  auto feat = [](const std::array<double, 3>& p) {
    return std::array<double, 4>{1.0, p[0], p[0] * p[1], p[1] * p[1]};
  };
  std::array<bool, 4> active{true, true, true, true};
  std::array<double, 4> c{};
  for (int iter = 0; iter < 5; ++iter) {
    // Normal equations on the active columns, each column normalised for conditioning.
    std::array<double, 4> scale{};
    for (const auto& p : points)
      for (int i = 0; i < 4; ++i) scale[i] = std::max(scale[i], feat(p)[i] / std::max(p[2], 1e-12));
    double a[4][5] = {};
    for (const auto& p : points) {
      const auto x = feat(p);
      const double w = 1.0 / std::max(p[2], 1e-12);
      for (int i = 0; i < 4; ++i) {
        if (!active[i] || scale[i] == 0) continue;
        const double xi = x[i] * w / scale[i];
        for (int j = 0; j < 4; ++j)
          if (active[j] && scale[j] != 0) a[i][j] += xi * x[j] * w / scale[j];
        a[i][4] += xi;  // target: t * w = 1
      }
    }
    for (int i = 0; i < 4; ++i)
      if (!active[i] || scale[i] == 0) a[i][i] = 1, a[i][4] = 0;
    // Gaussian elimination with partial pivoting (4 x 4).
    for (int col = 0; col < 4; ++col) {
      int piv = col;
      for (int r = col + 1; r < 4; ++r)
        if (std::fabs(a[r][col]) > std::fabs(a[piv][col])) piv = r;
      std::swap(a[col], a[piv]);
      if (std::fabs(a[col][col]) < 1e-300) continue;
      for (int r = 0; r < 4; ++r) {
        if (r == col) continue;
        const double m = a[r][col] / a[col][col];
        for (int j = col; j < 5; ++j) a[r][j] -= m * a[col][j];
      }
    }
    bool negative = false;
    for (int i = 0; i < 4; ++i) {
      c[i] = (active[i] && scale[i] != 0 && std::fabs(a[i][i]) > 1e-300) ? a[i][4] / a[i][i] / scale[i] : 0;
      if (c[i] < 0) {
        active[i] = false;
        negative = true;
        c[i] = 0;
      }
    }
    if (!negative) break;
  }
  f.c0 = c[0];
  f.c_n = c[1];
  f.c_nk = c[2];
  f.c_k2 = c[3];
  for (const auto& p : points)
    f.max_rel_err = std::max(f.max_rel_err, std::fabs(f.seconds(p[0], p[1]) - p[2]) / std::max(p[2], 1e-12));
  return f;
}

std::string gpu_presence_reason() {
#ifndef JOSEKI_HAVE_CUDA
  return "this joseki was built without CUDA";
#else
  if (::access("/dev/nvidiactl", F_OK) != 0) return "no NVIDIA driver (no /dev/nvidiactl)";
  return "";
#endif
}

std::optional<double> estimate_external(const CostModel& m, const std::string& solver, bool needs_gpu, double n,
                                        double k, DeviceState state) {
  const auto it = m.solvers.find(solver);
  if (it == m.solvers.end()) return std::nullopt;
  return it->second.seconds(n, k) + (needs_gpu ? m.gpu_fixed_s(state) : 0.0);
}

std::optional<std::pair<double, std::string>> calibrated_estimate(const std::string& solver, double n, double k,
                                                                  int threads, DeviceState state) {
  const CostModel& m = active_costs();
  if (m.source != "measured") return std::nullopt;
  const auto it = m.solvers.find(solver);
  if (it == m.solvers.end()) return std::nullopt;
  bool gpu = false;
  for (const Solver& s : solver_registry())
    if (s.name == solver) gpu = s.needs_gpu;
  if (!gpu && it->second.threads > 0 && it->second.threads != threads) return std::nullopt;
  const double t = it->second.seconds(n, k) + (gpu ? m.gpu_fixed_s(state) : 0.0);
  std::string f = it->second.formula();
  if (gpu) f = fmt::format("GPU fixed ({}) {:.1f} ms + {}", to_string(state), m.gpu_fixed_s(state) * 1e3, f);
  const std::string busy = m.busy_text();
  return std::make_pair(t, f + "  [calibrated " + m.created + (busy.empty() ? "" : "; " + busy) + "]");
}

namespace {

using measure::now_s;

measure::Record value_record(const std::string& variant, const std::string& technique, double value,
                             const std::string& unit) {
  measure::Record r;
  r.experiment = "abc471g";
  r.variant = variant;
  r.technique = technique;
  r.backend = "process";
  r.scope = measure::to_string(measure::Scope::Value);
  r.unit = unit;
  r.samples = {value};
  r.summary = measure::summarize(r.samples);
  r.stop_reason = "single";
  r.validation = "not-applicable";
  r.ladder.sweep = "calibration";
  return r;
}

struct SpawnSet {
  std::vector<double> times;
  std::vector<std::string> states;  // the device state each timed spawn found ("idle" | "held" | "")
};

SpawnSet spawn_times(const CalibrateOptions& o, const std::string& phase, int runs, std::vector<double>* module_load) {
  SpawnSet set;
  for (int i = 0; i <= runs; ++i) {  // the first run is untimed (page cache, driver warm-up)
    measure::SpawnOptions so;
    so.argv = {o.self_exe, "--device", std::to_string(o.device), "abc471g", "scale", "child", "--phase", phase};
    so.timeout_s = 60;
    const measure::ExternalResult r = measure::run_external(so);
    if (r.exit_code != 0)
      throw RunError(fmt::format("calibration child '{} abc471g scale child --phase {}' failed (exit {})", o.self_exe,
                                 phase, r.exit_code));
    if (i == 0) continue;
    set.times.push_back(r.external_s);
    set.states.push_back(r.device_state);
    if (module_load && r.figures.count("module_load")) module_load->push_back(r.figures.at("module_load"));
  }
  return set;
}

// EXTERNAL(context + module child) - EXTERNAL(no-CUDA child) - module load, in the state the process
// is in now; states: every state the spawns found.
double fixed_cost_now(const CalibrateOptions& o, int runs, std::vector<double>& module_load,
                      std::vector<std::string>& states) {
  const SpawnSet base = spawn_times(o, "none", runs, nullptr);
  const SpawnSet ctx = spawn_times(o, "module", runs, &module_load);
  states = ctx.states;
  const double load = module_load.empty() ? 0.0 : measure::median_of(module_load);
  return std::max(0.0, measure::median_of(ctx.times) - measure::median_of(base.times) - load);
}

std::string states_text(const std::vector<std::string>& states) {
  int idle = 0, held = 0, unknown = 0;
  for (const auto& s : states) (s == "idle" ? idle : s == "held" ? held : unknown)++;
  return fmt::format("{} idle, {} held, {} unknown", idle, held, unknown);
}

}  // namespace

CostModel calibrate(const CalibrateOptions& o, std::vector<measure::Record>* records) {
  auto note = [&](const std::string& s) {
    if (o.note) o.note(s);
  };
  CostModel m = default_costs();
  m.solvers.clear();
  m.source = "measured";
  m.created = measure::utc_now_iso8601();
  m.host = measure::query_host().hostname;
  m.device = o.device;
  const int runs = o.quick ? 2 : 5;
  const measure::HostCpuSample busy_from = measure::sample_host_cpu();
  std::vector<double> module_load;
  // Idle first: nothing in this process has touched CUDA yet (gpu_presence_reason does not), so the
  // children find the GPU idle unless another process holds a context, which NVML reports per spawn.
  std::optional<double> idle;
  std::vector<std::string> idle_states;
  std::string idle_error;
  if (gpu_presence_reason().empty() && !o.self_exe.empty()) {
    note("calibrate: GPU fixed cost, idle state (child processes: no CUDA / context only; no context held here)");
    try {
      idle = fixed_cost_now(o, runs, module_load, idle_states);
    } catch (const RunError& e) {
      idle_error = e.what();  // no usable GPU after all: availability() below says why
    }
  }
  const gpu::Availability av = gpu::availability();
  const bool gpu = av.ok;
  if (gpu) {
    if (o.self_exe.empty()) throw RunError("calibrate: the path of the joseki binary is unknown");
    if (!idle_error.empty()) throw RunError(idle_error);
    m.device_name = gpu::device_facts(o.device).name;
    gpu::create_context_only(o.device);  // held: this process keeps a context while the children run
    note("calibrate: GPU fixed cost, held state (this process holds a context)");
    std::vector<std::string> held_states;
    m.gpu_fixed_held_s = fixed_cost_now(o, runs, module_load, held_states);
    m.held_measured = true;
    m.module_load_s = module_load.empty() ? 0.0 : measure::median_of(module_load);
    const bool idle_clean = idle && std::all_of(idle_states.begin(), idle_states.end(), [](const std::string& s) {
                              return s == "idle" || s.empty();
                            });
    const bool idle_known = idle_clean && std::any_of(idle_states.begin(), idle_states.end(),
                                                      [](const std::string& s) { return s == "idle"; });
    if (idle_clean) {
      m.gpu_fixed_idle_s = *idle;
      m.idle_measured = true;
      if (!idle_known) m.idle_note = "NVML could not say whether another process held a context (assumed idle)";
    } else {
      m.idle_note = idle ? "another process held a CUDA context during the idle set (" + states_text(idle_states) +
                               "); the default idle figure is kept"
                         : "not measured";
      note("calibrate: " + m.idle_note);
    }
    note(fmt::format("calibrate: GPU fixed costs {}", m.fixed_costs_text()));
    if (records) {
      for (const auto& [state, v, measured, st] :
           {std::tuple{"idle", m.gpu_fixed_idle_s, m.idle_measured, idle_states},
            std::tuple{"held", m.gpu_fixed_held_s, m.held_measured, held_states}}) {
        if (!measured) continue;
        measure::Record r = value_record("calibration.gpu_fixed_external." + std::string(state),
                                         "EXTERNAL(context child) - EXTERNAL(no-CUDA child) - module load", v, "s");
        r.axes.set("device_state", std::string(state));
        r.extra["spawn_states"] = states_text(st);
        records->push_back(r);
      }
      records->push_back(value_record("calibration.module_load", "first launch of the gpu-pairs count kernel",
                                      m.module_load_s, "s"));
    }
  } else {
    note("calibrate: no GPU (" + av.reason + "): GPU solvers left out");
  }

  // Per-solver fits from in-process solve() calls on random instances.
  std::vector<const Solver*> todo;
  for (const Solver& s : solver_registry()) {
    const bool listed = o.solvers.empty() ? (s.name != "auto" && s.name != "brute" && s.name != "editorial")
                                          : std::find(o.solvers.begin(), o.solvers.end(), s.name) != o.solvers.end();
    if (listed && (!s.needs_gpu || gpu)) todo.push_back(&s);
  }
  const std::vector<std::uint32_t> ks = o.quick ? std::vector<std::uint32_t>{64, 300} : std::vector<std::uint32_t>{256, 2300};
  SolveOptions so;
  so.device = o.device;
  so.threads = o.threads;
  for (const Solver* s : todo) {
    std::vector<double> ns = o.quick ? std::vector<double>{1e3, 1e4, 1e5}
                                     : (s->needs_gpu ? std::vector<double>{1e6, 1e7, 1e8, 1e9}
                                                     : std::vector<double>{1e5, 1e6, 1e7});
    std::vector<std::array<double, 3>> pts;
    for (const std::uint32_t k : ks) {
      for (const double n : ns) {
        InstanceSpec spec;
        spec.n = static_cast<std::uint64_t>(n);
        spec.k = k;
        spec.m = std::min<std::uint64_t>(spec.n, 1000);
        spec.seed = 12345 + k;
        spec.rng = 7;
        const Problem p = make_problem(spec);
        std::vector<double> t;
        try {
          for (int rep = 0; rep < 4; ++rep) {  // one warm-up (module load, first touch), three timed
            const double t0 = now_s();
            (void)s->solve(p, so);
            const double dt = now_s() - t0;
            if (rep > 0) t.push_back(dt);
            if (dt > 3.0) break;  // slow enough: one sample will do
          }
        } catch (const InputError& e) {
          note("calibrate: " + s->name + " cannot run N = " + fmt::format("{:g}", n) + ", K = " + std::to_string(k) +
               ": " + e.what());
          break;
        }
        if (t.empty()) continue;
        const double med = measure::median_of(t);
        pts.push_back({n, static_cast<double>(k), med});
        if (med > 3.0) break;  // larger N would take too long; the fit extrapolates
      }
    }
    if (pts.empty()) continue;
    SolverFit f = fit_solver(pts);
    f.threads = s->needs_gpu ? 0 : (o.threads > 0 ? o.threads : cpu::ThreadPool::global().size());
    m.solvers[s->name] = f;
    note(fmt::format("calibrate: {:<14} {}  (worst fit error {:.0f}%)", s->name, f.formula(), 100 * f.max_rel_err));
    if (records) {
      measure::Record r = value_record("calibration." + s->name, "fitted solve time t(N, K)", f.seconds(7e6, 2300), "s");
      r.axes.set("n", static_cast<std::int64_t>(7'000'000)).set("k", static_cast<std::int64_t>(2300));
      r.extra["fit"] = to_json(m)["solvers"][s->name];
      r.extra["formula"] = f.formula();
      records->push_back(r);
    }
  }
  // How loaded the machine was: other processes' CPU time over the whole calibration (the fits and the children).
  if (const auto share = measure::others_cpu_share(busy_from, measure::sample_host_cpu())) {
    m.others_cpu_share = *share;
    m.cpus = busy_from.cpus;
    if (const std::string busy = m.busy_text(); !busy.empty())
      note("calibrate: warning: " + busy + "; run it again on an idle machine");
  }
  return m;
}

}  // namespace joseki::abc471g
