// Is `auto` right? (bench.hpp) For every N of the sweep: EXTERNAL of each candidate solver (the
// slower ones stopped once they pass 3x the best so far: a lower bound is enough to rank them),
// then EXTERNAL of `--solver auto` (dispatch.cpp, with gpu-pairs' calibrated estimator) and of
// the calibrated chooser (choose_calibrated: every candidate from the cost file). The verdict:
// auto's EXTERNAL within 10% of the better candidate's at every N.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_pairs/bench.hpp"
#include "experiments/abc471g/gpu_pairs/bench_util.hpp"
#include "experiments/abc471g/cost/costs.hpp"
#include "experiments/abc471g/inputs.hpp"
#include "experiments/abc471g/io.hpp"
#include "measure/errors.hpp"

namespace joseki::abc471g::pairs {

using bench::base_record;
using measure::Record;
using measure::Scope;

namespace {

// One run of `solve --solver auto --explain`: which solver did auto run?
std::string registry_auto_choice(const BenchOptions& o, const std::string& file, bench::TempDir& dir) {
  const std::string err = dir.write("auto_explain.err", "");
  measure::SpawnOptions so;
  so.argv = {o.self_exe, "--device", std::to_string(o.device), "abc471g", "solve", "--solver", "auto", "--explain", file};
  so.stderr_path = err;
  so.want_report = false;
  so.timeout_s = 600;
  (void)measure::run_external(so);
  std::ifstream in(err);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("solver: ", 0) == 0) return line.substr(8);
  return "?";
}

}  // namespace

std::vector<Record> bench_auto(const AutoSweepOptions& so, const BenchOptions& o) {
  if (o.self_exe.empty()) throw RunError("abc471g scale auto: the path of the joseki binary is unknown");
  std::vector<Record> out;
  bench::TempDir dir;
  const bool gpu_ok = gpu::availability().ok;
  const std::string set_id = "auto-sweep " + bench::now_id();
  int within = 0, total = 0;
  const auto t_begin = std::chrono::steady_clock::now();
  for (const std::uint64_t n : so.ns) {
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_begin).count();
    if (so.budget_s > 0 && spent > so.budget_s) {
      Record r = base_record("auto.size_skipped", "the sweep's time budget ran out before this N", "process", Scope::External, "");
      r.axes.set("n", static_cast<std::int64_t>(n)).set("k", static_cast<std::int64_t>(so.k));
      out.push_back(bench::skipped_record(r, fmt::format("time budget of {:.0f} s spent ({:.0f} s)", so.budget_s, spent)));
      ++total;  // a size not checked does not count as within
      continue;
    }
    InstanceSpec spec;
    spec.n = n;
    spec.k = so.k;
    spec.m = std::min<std::uint64_t>(n, 1000);
    spec.seed = 1234567;
    spec.rng = 9;
    const Problem p = make_problem(spec);
    const std::string file = dir.write("auto_" + bench::fmt_n(n) + ".in", to_text(p));
    const Reference ref = reference_answer(p);
    const std::string expected = format_answer(ref.answer);
    measure::Point axes;
    axes.set("n", static_cast<std::int64_t>(p.n)).set("k", static_cast<std::int64_t>(p.k)).set("m", static_cast<std::int64_t>(p.m()));
    o.say(fmt::format("auto sweep: N = {}", bench::fmt_n(n)));

    // Candidates, GPU first (its time bounds the CPU runs).
    std::vector<const Solver*> cands;
    for (const std::string& name : so.candidates)
      for (const Solver& s : solver_registry())
        if (s.name == name && (!s.needs_gpu || gpu_ok)) cands.push_back(&s);
    std::stable_sort(cands.begin(), cands.end(), [](const Solver* a, const Solver* b) { return a->needs_gpu > b->needs_gpu; });
    std::string best;
    double best_t = std::numeric_limits<double>::infinity();
    std::map<std::string, double> cand_t;  // median EXTERNAL of each candidate that finished
    for (const Solver* s : cands) {
      const double timeout = std::isfinite(best_t) ? std::max(2.0, 3.0 * best_t) : 600.0;
      const std::vector<std::string> argv{o.self_exe, "--device", std::to_string(o.device), "abc471g", "solve",
                                          "--solver", s->name, file};
      const bench::ExternalSet es = bench::sample_external(argv, {}, so.runs, expected, timeout);
      Record r = base_record("auto.candidate." + s->name, "joseki abc471g solve --solver " + s->name + " FILE", "process",
                             Scope::External, "");
      r.axes = axes;
      r.ladder.scope_set = set_id;
      r.ladder.sweep = "auto";
      if (!es.failure.empty()) {
        if (es.failure.rfind("timed out", 0) == 0) {
          r = bench::skipped_record(r, fmt::format("stopped after {:.2f} s (> 3x the best so far, {}): slower", timeout, best));
          r.extra["lower_bound_s"] = timeout;
        } else {
          r.validation = "failed: " + es.failure;
        }
        out.push_back(r);
        continue;
      }
      auto recs = bench::external_records(es, r.variant, r.technique, set_id + " " + bench::fmt_n(n) + " " + s->name, axes);
      const double t = recs.front().summary->median;
      cand_t[s->name] = t;
      if (t < best_t) {
        best_t = t;
        best = s->name;
      }
      out.insert(out.end(), recs.begin(), recs.end());
    }
    if (best.empty()) continue;

    // The two autos.
    const auto [cal_choice, cal_why] = choose_calibrated(p, so.candidates);
    const std::string reg_choice = registry_auto_choice(o, file, dir);
    const struct {
      const char* variant;
      std::string technique, choice;
      std::vector<std::string> argv;
    } autos[] = {
        {"auto.registry", "joseki abc471g solve --solver auto (dispatch.cpp + gpu-pairs' calibrated estimator)", reg_choice,
         {o.self_exe, "--device", std::to_string(o.device), "abc471g", "solve", "--solver", "auto", file}},
        {"auto.calibrated", "every candidate from the cost file (choose_calibrated)", cal_choice,
         {o.self_exe, "--device", std::to_string(o.device), "abc471g", "scale", "child", "--phase", "solve", "--solver",
          "auto-calibrated", "--input", file}},
    };
    for (const auto& a : autos) {
      const bench::ExternalSet es = bench::sample_external(a.argv, {}, so.runs, expected, 600);
      Record r = base_record(a.variant, a.technique, "process", Scope::External, "");
      r.axes = axes;
      if (!es.failure.empty()) {
        r.validation = "failed: " + es.failure;
        out.push_back(r);
        continue;
      }
      auto recs = bench::external_records(es, a.variant, a.technique, set_id + " " + bench::fmt_n(n) + " " + a.variant, axes);
      Record& e = recs.front();
      // The verdict compares the chosen solver's EXTERNAL with the best one's, both measured as
      // candidates in this run (when auto picks the best, the ratio is 1, not the noise between two
      // runs of the same program); auto's own process time is recorded beside it.
      const auto chosen = cand_t.find(a.choice);
      const double ratio = (chosen != cand_t.end() ? chosen->second : e.summary->median) / best_t;
      e.ladder.sweep = "auto";
      e.extra["choice"] = a.choice;
      e.extra["choice_s"] = chosen != cand_t.end() ? chosen->second : e.summary->median;
      e.extra["best"] = best;
      e.extra["best_s"] = best_t;
      e.extra["ratio_to_best"] = ratio;
      e.extra["ratio_auto_process"] = e.summary->median / best_t;
      e.extra["within_10pct"] = ratio <= 1.10;
      if (std::string(a.variant) == "auto.calibrated") {
        e.extra["explanation"] = cal_why;
        ++total;
        within += ratio <= 1.10 ? 1 : 0;
      }
      o.say(fmt::format("  {:<16} chose {:<11} {:.1f} ms; best {} {:.1f} ms; ratio {:.3f}", a.variant, a.choice,
                        e.summary->median * 1e3, best, best_t * 1e3, ratio));
      out.insert(out.end(), recs.begin(), recs.end());
    }
  }
  Record v = base_record("auto.verdict", "auto (calibrated) within 10% of the better EXTERNAL at every N", "process", Scope::Value, "");
  v.unit = "count";
  v.samples = {static_cast<double>(within)};
  v.summary = measure::summarize(v.samples);
  v.stop_reason = "single";
  v.validation = "not-applicable";
  v.extra["rule"] = "EXTERNAL of auto's choice <= 1.10 x the best candidate's EXTERNAL (same run), at every N";
  v.extra["verdict"] = total > 0 && within == total ? "holds" : "does not hold";
  v.extra["figure"] = fmt::format("{} of {} sizes within 10%", within, total);
  v.ladder.scope_set = set_id;
  out.push_back(v);
  return out;
}

}  // namespace joseki::abc471g::pairs
