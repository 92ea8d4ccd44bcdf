// `joseki abc471g ladder`: the seed's direct method on the GPU, rung by rung (g01..g13): every rung
// validated (test vectors, edge cases, poisoned outputs, exact), then GPU_COMPUTE of every rung on
// the max case side by side (x previous, x g01), the sweeps with their tie rules (--sweep), and
// the four scopes of `solve --solver gpu-direct` measured together. Also the tour step
// "abc471g-gpu". The ladder itself: src/experiments/abc471g/gpu_direct/ (docs/ABC471G_GPU.md).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>

#include <fmt/format.h>

#include "app/context.hpp"
#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_direct/ladder.hpp"
#include "experiments/abc471g/io.hpp"
#include "measure/errors.hpp"
#include "measure/ladder.hpp"
#include "measure/table.hpp"

namespace joseki::app {
namespace {

namespace L = joseki::abc471g::ladder;
namespace C = joseki::abc471g::gpu_cases;

struct LadderOpts {
  std::string input;
  std::string bcase;  // "" = max unless --input
  std::string rungs = "all";
  bool sweep = false;
  bool validate_only = false;
  bool no_scopes = false;
  std::string mode = "cold";
  measure::StoppingRule rule;
};

std::string cell_noise(const measure::Record& r) {
  return r.summary ? measure::format_pct(100.0 * r.summary->rel_stdev) : "-";
}

// Where the block and chunk of a row come from, for the rows not at their own defaults.
std::string geometry_notes(const std::vector<measure::Record>& recs) {
  std::string s;
  for (const measure::Record& r : recs) {
    if (!r.is_ladder_row() && !r.skipped) continue;
    if (!r.ladder.sweep.empty()) continue;
    const std::string g = r.extra.value("geometry", "defaults");
    if (g == "defaults") continue;
    s += fmt::format("- {}: {}: {}\n", r.variant, r.axes.label(), g);
  }
  return s.empty() ? "" : "\nGeometry:\n" + s;
}

std::string scopes_table(const std::vector<measure::Record>& recs) {
  measure::Table t({"scope", "median", "min", "max", "noise", "samples"});
  for (const measure::Record& r : recs) {
    const std::string name = r.axes.has("part") ? r.axes.get_str("part") : r.scope;
    if (!r.summary) {
      t.add_row({name, r.skipped.value_or("-"), "", "", "", ""});
      continue;
    }
    t.add_row({name, measure::format_time(r.summary->median), measure::format_time(r.summary->min),
               measure::format_time(r.summary->max), cell_noise(r), std::to_string(r.summary->n)});
  }
  return t.markdown();
}

// One line per rung: the configurations it was validated at (each on every case that fits it),
// the runs compared, the result.
std::string validation_table(const measure::LadderResult& res, const L::DirectRunner& runner) {
  measure::Table t({"rung", "configurations", "runs (case x configuration, twice)", "result"});
  std::vector<std::string> order;
  std::map<std::string, std::vector<const measure::ValidationResult*>> by;
  for (const measure::ValidationResult& v : res.validations) {
    if (!by.count(v.variant)) order.push_back(v.variant);
    by[v.variant].push_back(&v);
  }
  for (const std::string& name : order) {
    int ran = 0;
    std::string failed, skipped;
    for (const measure::ValidationResult* v : by[name]) {
      if (v->message.rfind("skipped", 0) != 0) ++ran;
      else if (skipped.empty()) skipped = v->message;
      if (!v->ok && failed.empty()) failed = "FAILED: " + v->message;
    }
    const std::string result = !failed.empty() ? failed : ran ? "exact" : skipped;
    const auto it = runner.runs_per_rung().find(name);
    t.add_row({name, std::to_string(ran), std::to_string(it == runner.runs_per_rung().end() ? 0 : it->second), result});
  }
  return t.markdown();
}

// The whole run; prints tables; returns stamped records. Failures are collected and thrown at the
// end (after the records are in ctx), so --json still has them.
void run_ladder(Context& ctx, const LadderOpts& o, bool print_header = true) {
  const std::vector<const L::RungInfo*> rs = L::select_rungs(o.rungs);
  const measure::Mode mode = measure::mode_from_string(o.mode);
  o.rule.validate();
  if (!o.input.empty() && !o.bcase.empty()) throw InputError("--input and --case: give one of them, not both");
  C::Case timed;
  if (!o.input.empty()) {
    std::FILE* f = std::fopen(o.input.c_str(), "rb");
    if (!f) throw InputError(fmt::format("--input {}: cannot open", o.input));
    std::string text;
    char buf[1 << 16];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
    std::fclose(f);
    timed.name = o.input;
    try {
      timed.problem = abc471g::parse_problem_text(text);
    } catch (const InputError& e) {
      throw InputError(fmt::format("--input {}: {}", o.input, e.what()));
    }
  } else {
    timed = C::builtin_case(o.bcase.empty() ? "max" : o.bcase);
  }
  if (!L::built_with_cuda()) throw GpuUnavailable("abc471g ladder: this joseki was built without CUDA");
  const measure::DeviceFacts dev = joseki::gpu::device_facts(ctx.device);  // GpuUnavailable without a GPU
  std::vector<std::string> failures;
  auto note = [&ctx](const std::string& s) { ctx.note("abc471g ladder: " + s); };

  // The suite (vectors + edge cases), or only the given case with --validate-only; the timed case.
  std::vector<std::string> notes;
  std::vector<C::Case> cases;
  const bool only_given = o.validate_only && (!o.input.empty() || !o.bcase.empty());
  if (only_given)
    cases.push_back(timed);
  else
    cases = L::validation_suite(notes);
  for (const auto& n : notes) note(n);
  std::vector<std::uint32_t> a;
  abc471g::Answer reference;
  std::optional<C::Case> timed_case;
  if (!o.validate_only) {
    note(fmt::format("case {}: N = {}, K = {}, M = {}; computing the CPU reference ...", timed.name, timed.problem.n,
                     timed.problem.k, timed.problem.m()));
    a = C::generate_all(timed.problem);
    reference = timed.expected ? *timed.expected : C::reference_answer(timed.problem, a);
    timed_case = timed;
  }
  L::DirectRunner runner(std::move(cases), timed_case, ctx.device, &a, &reference);

  // Validation, the sweeps (--sweep: g02's and g08's choices are the geometry of their rows and of
  // g03, g04, g09), the rows, the ratios: the measurement core's one ladder protocol.
  const measure::Ladder lad = L::make_ladder(rs, timed.problem.k);
  measure::LadderOptions lo;
  lo.modes = {mode};
  lo.rule = o.rule;
  lo.sweep = o.sweep;
  lo.validate_only = o.validate_only;
  lo.workload = L::case_workload(timed);
  lo.datasheet_Bps = dev.datasheet_bw_Bps();
  lo.progress = note;
  measure::LadderResult res = measure::run_ladder(lad, {&runner}, lo);
  failures = res.failures;

  const std::string suite = fmt::format("{} cases ({})", runner.cases() - (timed_case ? 1 : 0),
                                        notes.empty() ? "given case only" : notes.front());
  if (print_header)
    std::cout << fmt::format("## ABC471G on the GPU: validation ({})\n\n", suite) << validation_table(res, runner)
              << std::endl;
  if (o.validate_only) {
    if (!failures.empty()) throw ValidationError("abc471g ladder: " + failures.front());
    return;
  }
  std::set<std::string> swept;
  for (const measure::Record& r : res.records)
    if (r.ladder.chosen) swept.insert(L::find_rung(r.variant).id);
  for (measure::Record& r : res.records) {
    const L::RungInfo& info = L::find_rung(r.variant);
    if (r.ladder.sweep.empty())
      r.extra["geometry"] = L::geometry_note(info, swept.count(L::geometry_source(info).id) > 0);
    r.extra["validation_suite"] = suite;
    r.extra["a_source"] = info.a_on_device ? "generated on the GPU" : "generated on the host, copied";
    if (info.seed_ms > 0) r.extra["seed_laptop_ms"] = info.seed_ms;
    Context::stamp(r, dev);
  }
  ctx.add(res.records);
  std::cout << fmt::format("## ABC471G direct ladder on {} (case {}: N = {}, K = {}, M = {}; GPU_COMPUTE, {})\n\n",
                           dev.name, timed.name, timed.problem.n, timed.problem.k, timed.problem.m(), o.mode)
            << measure::ladder_table(res.records) << geometry_notes(res.records) << std::endl;
  if (o.sweep) std::cout << measure::sweep_table(res.records) << std::flush;

  // The four scopes of the final rung, together, in one run.
  const bool final_selected = std::any_of(rs.begin(), rs.end(), [](const L::RungInfo* r) { return r == &L::final_rung(); });
  const bool final_ok = std::none_of(res.failures.begin(), res.failures.end(), [](const std::string& f) {
    return f.rfind(L::final_rung().variant(), 0) == 0;
  });
  if (!o.no_scopes && final_selected && final_ok) {
    const std::string path = o.input.empty() ? L::write_case_file(timed.problem) : o.input;
    std::vector<measure::Record> sc;
    try {
      sc = L::four_scopes(ctx.self_exe, path, timed, reference, ctx.device, o.rule, note);
    } catch (...) {
      if (o.input.empty()) std::remove(path.c_str());
      throw;
    }
    if (o.input.empty()) std::remove(path.c_str());
    for (auto& r : sc) Context::stamp(r, dev);
    ctx.add(sc);
    std::cout << fmt::format("## Four scopes of `joseki abc471g solve --solver gpu-direct` ({}), one run, case {}\n\n",
                             L::final_rung().variant(), timed.name)
              << scopes_table(sc) << std::endl;
    if (!sc.empty() && sc.front().extra.value("nesting", "") == "violated")
      failures.push_back("four scopes: nesting violated: " + sc.front().extra["nesting_violations"][0].get<std::string>());
  }
  if (!failures.empty()) {
    std::string msg;
    for (const auto& f : failures) msg += (msg.empty() ? "" : "; ") + f;
    throw ValidationError("abc471g ladder: " + msg);
  }
}

void add_ladder_command(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<LadderOpts>();
  std::string rung_list;
  for (const auto& r : L::rungs()) rung_list += fmt::format("\n  {:<24} {}", r.variant(), r.name);
  auto* cmd = abc471g_app(app)->add_subcommand(
      "ladder",
      "the seed's direct method on the GPU, rung by rung: validate every rung (test vectors, edge cases, "
      "poisoned outputs, exact), then GPU_COMPUTE of every rung on the max case side by side (x previous, x g01), "
      "the sweeps (--sweep) and the four scopes of `solve --solver gpu-direct` measured together. Rungs:" +
          rung_list);
  auto* in = cmd->add_option("--input", o->input, "time on this input file (official format) instead of --case");
  auto* cs = cmd->add_option("--case", o->bcase, "built-in case: max (N = 7e6, K = 2300, M = 1e5; default) or small");
  in->excludes(cs);
  cmd->add_option("--rungs", o->rungs, "comma-separated rungs (ids such as g01,g13, or all)")->capture_default_str();
  cmd->add_flag("--sweep", o->sweep,
                "also run the declared sweeps (g02 chunk, g08 block x chunk, g13 and g15 block) before the ladder; the tie "
                "rule's choices of g02 and g08 become the geometry of their rows (and of g03, g04, g09)");
  cmd->add_flag("--validate-only", o->validate_only,
                "only validate (with --case/--input: only that case; else the test vectors and edge cases)");
  cmd->add_flag("--no-scopes", o->no_scopes, "skip the four-scope measurement of the final rung");
  cmd->add_option("--mode", o->mode, "cold (L2 flushed before every sample) or hot")->capture_default_str();
  add_rule_options(cmd, o->rule);
  cmd->callback([&ctx, o] { run_ladder(ctx, *o); });
}

JOSEKI_REGISTER_COMMAND(41, add_ladder_command);  // after `abc471g` itself (cmd_abc471g.cpp, order 40)

std::vector<measure::Record> tour_abc471g_gpu(Context& ctx, const TourOptions& opt) {
  LadderOpts o;
  o.rule = opt.rule;
  o.sweep = !opt.quick;
  if (opt.quick) o.rungs = L::baseline_rung().id + "," + L::final_rung().id;
  const std::size_t before = ctx.records.size();
  run_ladder(ctx, o);
  // run_ladder added the records to ctx; the tour adds what a step returns, so hand them back once.
  std::vector<measure::Record> mine(ctx.records.begin() + static_cast<std::ptrdiff_t>(before), ctx.records.end());
  ctx.records.resize(before);
  return mine;
}

// Estimates from the H200 run of 2026-11-29 (its 75 timed points took 6007 samples, 6.9 s of kernel
// time; plus the validation, the CPU reference of the max case and ~16 spawned solves of ~0.2 s):
// quick ~8 s (validation of g01 and g13, g01 at 0.29 s a sample, g13, six solves); full ~30 s.
JOSEKI_REGISTER_TOUR_STEP(abc471g_gpu, "abc471g-gpu",
                          "ABC471G on the GPU: the direct ladder g01..g15 (validated), sweeps, four scopes", 42, 6, 16,
                          tour_abc471g_gpu, true);

}  // namespace
}  // namespace joseki::app
