#include "experiments/abc471g/bench.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "backend/cpu/cpu_info.hpp"
#include "backend/gpu.hpp"
#include "experiments/abc471g/problem.hpp"
#include "measure/errors.hpp"
#include "measure/scopes.hpp"
#include "measure/four_scopes.hpp"
#include "measure/stats.hpp"
#include "measure/table.hpp"

namespace joseki::abc471g {
namespace {

std::uint64_t parse_count(const std::string& key, const std::string& v) {
  // Plain integers, or 7e6 / 1e9 style (must be a whole number).
  if (v.empty() || v.find_first_not_of("0123456789eE.+") != std::string::npos || v[0] == '+')
    throw InputError(fmt::format("--case {}={}: not a non-negative number", key, v));
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (*end || !(d >= 0) || d > 1.8e19 || std::floor(d) != d)
    throw InputError(fmt::format("--case {}={}: not a whole number in range", key, v));
  if (v.find_first_not_of("0123456789") == std::string::npos) {
    errno = 0;
    const unsigned long long x = std::strtoull(v.c_str(), nullptr, 10);
    if (errno == ERANGE) throw InputError(fmt::format("--case {}={}: overflows 64 bits", key, v));
    return x;
  }
  return static_cast<std::uint64_t>(d);
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool ga = static_cast<bool>(std::getline(sa, la)), gb = static_cast<bool>(std::getline(sb, lb));
    if (!ga && !gb) return "";
    if (ga != gb || la != lb)
      return fmt::format("line {}: '{}' vs '{}'", line, ga ? la : "<end>", gb ? lb : "<end>");
  }
}

std::string tail_line(const std::string& path) {
  std::string s = slurp(path);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  const auto p = s.rfind('\n');
  return p == std::string::npos ? s : s.substr(p + 1);
}

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/joseki-abc471g-XXXXXX";
    if (!mkdtemp(tmpl)) throw RunError("bench: cannot create a temporary folder");
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

}  // namespace

BenchCase parse_bench_case(const std::string& text) {
  BenchCase c;
  if (text == "max" || text.empty()) return c;
  c.label = text;
  c.spec.m = 0;  // default below: min(N, 1e5)
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ',')) {
    const auto eq = part.find('=');
    if (eq == std::string::npos)
      throw InputError(fmt::format("--case {}: expected 'max' or KEY=VALUE,... with keys N, K, M, seed, rng", text));
    const std::string key = part.substr(0, eq), val = part.substr(eq + 1);
    const std::uint64_t x = parse_count(key, val);
    if (key == "N" || key == "n") c.spec.n = x;
    else if (key == "K" || key == "k") {
      if (x > kMaxK) throw InputError(fmt::format("--case K={}: above the maximum {}", val, kMaxK));
      c.spec.k = static_cast<std::uint32_t>(x);
    } else if (key == "M" || key == "m") c.spec.m = x;
    else if (key == "seed") c.spec.seed = x;
    else if (key == "rng") c.spec.rng = x;
    else throw InputError(fmt::format("--case {}: unknown key '{}' (keys: N, K, M, seed, rng)", text, key));
  }
  if (c.spec.m == 0) c.spec.m = std::min<std::uint64_t>(c.spec.n, 100000);
  if (const std::string bad = spec_error(c.spec, SpecNames::CaseKeys); !bad.empty())
    throw InputError(fmt::format("--case {}: {}", text, bad));
  return c;
}

std::vector<std::string> parse_solver_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string s;
  while (std::getline(ss, s, ',')) {
    if (s.empty()) continue;
    find_solver(s);  // throws InputError listing the names
    out.push_back(s);
  }
  if (out.empty()) throw InputError(fmt::format("--solvers '{}': no solver named", text));
  return out;
}

BenchResult run_bench(const BenchOptions& opt) {
  if (opt.runs < 1) throw InputError(fmt::format("--runs {}: must be at least 1", opt.runs));
  for (const auto& [name, n] : opt.runs_of)
    if (n < 1) throw InputError(fmt::format("runs of {}: {} must be at least 1", name, n));
  for (const auto& [name, n] : opt.warmups_of)
    if (n < 0) throw InputError(fmt::format("warm-up runs of {}: {} must not be negative", name, n));
  const Problem prob = make_problem(opt.bench_case.spec);
  TempDir dir;
  const std::string input = dir.path + "/input.txt";
  {
    std::ofstream f(input, std::ios::binary);
    f << to_text(prob);
    if (!f) throw RunError("bench: cannot write the input file " + input);
  }
  measure::Point axes;
  axes.set("case", opt.bench_case.label);
  axes.set("n", static_cast<std::int64_t>(prob.n));
  axes.set("k", static_cast<std::int64_t>(prob.k));
  axes.set("m", static_cast<std::int64_t>(prob.m()));
  axes.set("threads", static_cast<std::int64_t>(opt.threads));
  // What the CPU solvers run with here (the children inherit JOSEKI_SIMD): the level and the cores.
  const std::string simd = joseki::cpu::to_string(joseki::cpu::simd_level());
  const int cores = joseki::cpu::cpu_features().logical_cpus;

  BenchResult res;
  std::string reference, reference_solver;
  struct Done {
    std::size_t external_idx;
    double median;
  };
  std::map<std::string, Done> medians;
  for (const std::string& name : opt.solvers) {
    const Solver& solver = find_solver(name);
    measure::Record base;
    base.experiment = "abc471g";
    base.variant = name;
    base.technique = solver.description;
    base.backend = solver.needs_gpu ? "cuda" : "cpu";
    base.axes = axes;
    base.mode = "";
    base.extra["reference"] = reference_solver.empty() ? name : reference_solver;
    if (!solver.needs_gpu) {
      base.extra["simd"] = simd;
      base.extra["logical_cpus"] = cores;
    }
    std::optional<std::string> skip;
    if (name == "brute" && static_cast<double>(prob.n) * prob.k > 2e9)
      skip = "brute: O(N*K) reference, only for small cases (N*K <= 2e9)";
    if (name == "editorial" && prob.n > 998244353) skip = "editorial: N above 998244353 (its NTT would not be exact)";
    if ((name == "editorial" || name == "cpu-pairs") && prob.k > 8192) skip = name + ": K above 8192 (K^2 table)";
    if (skip) {
      for (measure::Scope scope : {measure::Scope::External, measure::Scope::Program}) {
        measure::Record r = base;
        r.scope = to_string(scope);
        r.skipped = *skip;
        r.validation = "not-applicable";
        res.records.push_back(std::move(r));
      }
      continue;
    }
    measure::SpawnOptions so;
    so.argv = {opt.self_exe, "--device", std::to_string(opt.device), "abc471g", "solve", "--solver", name};
    if (opt.threads > 0) so.argv.insert(so.argv.end(), {"--threads", std::to_string(opt.threads)});
    so.stdin_path = input;
    so.stdout_path = dir.path + "/out-" + name + ".txt";
    so.stderr_path = dir.path + "/err-" + name + ".txt";
    so.timeout_s = opt.timeout_s;

    const int runs = opt.runs_of.count(name) ? opt.runs_of.at(name) : opt.runs;
    const int warmups = opt.warmups_of.count(name) ? opt.warmups_of.at(name) : 1;
    measure::FourScopesOptions o;
    o.spawn = so;
    o.what = name;
    o.rule.min_samples = o.rule.max_samples = std::max(1, runs);  // exactly `runs` timed runs
    o.rule.min_time_s = 0;
    o.rule.timeout_s = 1e9;
    o.warmup = {warmups, 0};  // the first `warmups` are untimed
    o.check = [&](const measure::ExternalResult&) {
      const std::string out = slurp(so.stdout_path);
      if (reference_solver.empty()) {
        reference = out;
        reference_solver = name;
      } else if (out != reference) {
        throw ValidationError(fmt::format("output differs from {}: {}", reference_solver, first_difference(reference, out)));
      }
    };
    o.parent_context = [] { return std::optional<bool>(::joseki::gpu::holds_context()); };
    measure::ScopeSamples ss;
    std::string failure;
    try {
      ss = measure::sample_four_scopes(o);
    } catch (const measure::ChildFailed& e) {
      failure = e.timed_out ? fmt::format("timed out after {} s", opt.timeout_s)
                            : fmt::format("exit code {}{}: {}", e.exit_code,
                                          e.term_signal ? fmt::format(" (signal {})", e.term_signal) : "",
                                          tail_line(so.stderr_path));
    } catch (const ValidationError& e) {
      failure = e.what();
    }
    const std::vector<double> ext = ss.of(measure::Scope::External) ? *ss.of(measure::Scope::External) : std::vector<double>{};
    const std::vector<double>& pre = ss.pre_main;
    const std::vector<double>& post = ss.post_main;
    const std::vector<std::string>& nesting = ss.violations;
    // A solver that refuses this case (its precondition: exit 2) or finds no GPU is skipped, with
    // its own message as the reason; any other failure fails the bench.
    if (!failure.empty() && ext.empty()) {
      const std::string why = tail_line(so.stderr_path);
      if (failure.rfind("exit code 2", 0) == 0 || why.find("no GPU") != std::string::npos) {
        for (measure::Scope scope : {measure::Scope::External, measure::Scope::Program}) {
          measure::Record r = base;
          r.scope = to_string(scope);
          r.skipped = why.rfind("joseki: ", 0) == 0 ? why.substr(8) : why;
          r.validation = "not-applicable";
          res.records.push_back(std::move(r));
        }
        continue;
      }
    }
    if (!failure.empty()) {
      measure::Record r = base;
      r.scope = to_string(measure::Scope::External);
      r.validation = "failed: " + failure;
      res.records.push_back(std::move(r));
      res.failures.push_back(name + ": " + failure);
      continue;
    }
    nlohmann::json phases = nlohmann::json::object();
    for (const auto& [k, v] : ss.phases) phases[k] = measure::median_of(v);
    auto make = [&](measure::Scope scope, const std::vector<double>& samples) {
      measure::Record r = base;
      r.scope = to_string(scope);
      r.samples = samples;
      r.summary = measure::summarize(samples);
      r.stop_reason = samples.size() == 1 ? "single" : "max_samples";
      r.warmup_runs = warmups;
      r.validation = "exact";
      r.extra["phases_s"] = phases;
      r.extra["runs"] = runs;
      if (!pre.empty()) r.extra["pre_main_s"] = measure::median_of(pre);
      if (!post.empty()) r.extra["post_main_s"] = measure::median_of(post);
      if (!nesting.empty()) r.extra["nesting_violations"] = nesting;
      return r;
    };
    medians[name] = {res.records.size(), measure::median_of(ext)};
    res.records.push_back(make(measure::Scope::External, ext));
    for (measure::Scope sc : {measure::Scope::Program, measure::Scope::GpuPipeline, measure::Scope::GpuCompute})
      if (const std::vector<double>* v = ss.of(sc)) res.records.push_back(make(sc, *v));
  }
  // Ratios to the editorial baseline, scope by scope, from medians measured in this run.
  std::map<std::string, double> base_median;
  for (const auto& r : res.records)
    if (r.variant == "editorial" && r.summary) base_median[r.scope] = r.summary->median;
  for (auto& r : res.records) {
    if (!r.summary || !base_median.count(r.scope)) continue;
    r.ladder.baseline = "editorial";
    r.ladder.x_baseline = base_median[r.scope] / r.summary->median;
  }
  return res;
}

std::string bench_table(const std::vector<measure::Record>& records) {
  measure::Table t({"Solver", "Scope", "median", "min", "max", "noise", "parse", "generate", "count", "combine",
                    "pre-main", "post-main", "x editorial", "check"});
  auto ph = [](const measure::Record& r, const char* k) {
    const auto& p = r.extra.contains("phases_s") ? r.extra["phases_s"] : nlohmann::json::object();
    return p.contains(k) ? measure::format_time(p[k].get<double>()) : std::string("-");
  };
  for (const auto& r : records) {
    if (r.skipped) {
      if (r.scope_is(measure::Scope::External))
        t.add_row({r.variant, r.scope, "skipped: " + *r.skipped, "", "", "", "", "", "", "", "", "", "", ""});
      continue;
    }
    if (!r.summary) {
      t.add_row({r.variant, r.scope, "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", r.validation});
      continue;
    }
    const bool ext = r.scope_is(measure::Scope::External);
    t.add_row({r.variant, r.scope, measure::format_time(r.summary->median), measure::format_time(r.summary->min),
               measure::format_time(r.summary->max), measure::format_pct(100 * r.summary->rel_stdev),
               ext ? "" : ph(r, "parse"), ext ? "" : ph(r, "generate"), ext ? "" : ph(r, "count"),
               ext ? "" : ph(r, "combine"),
               ext && r.extra.contains("pre_main_s") ? measure::format_time(r.extra["pre_main_s"].get<double>()) : "",
               ext && r.extra.contains("post_main_s") ? measure::format_time(r.extra["post_main_s"].get<double>()) : "",
               r.ladder.x_baseline ? measure::format_ratio(*r.ladder.x_baseline) : "-",
               r.validation});
  }
  return t.markdown();
}

}  // namespace joseki::abc471g
