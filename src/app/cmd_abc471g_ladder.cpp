// `joseki abc471g ladder`: the seed's direct method on the GPU, rung by rung (g01..g13): every rung
// validated (test vectors, edge cases, poisoned outputs, exact), then GPU_COMPUTE of every rung on
// the max case side by side (x previous, x g01), the sweeps with their tie rules (--sweep), and
// the four scopes of `solve --solver gpu-direct` measured together. Also the tour step
// "abc471g-gpu". The ladder itself: src/experiments/abc471g/gpu_direct/ (docs/ABC471G_GPU.md).
#include <cstdio>
#include <iostream>

#include <fmt/format.h>

#include "app/context.hpp"
#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_direct/ladder.hpp"
#include "experiments/abc471g/io.hpp"
#include "measure/errors.hpp"
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

std::string cell_time(const measure::Record& r) { return r.summary ? measure::format_time(r.summary->median) : "-"; }
std::string cell_noise(const measure::Record& r) {
  return r.summary ? measure::format_pct(100.0 * r.summary->rel_stdev) : "-";
}
std::string cell_ratio(const std::optional<double>& x) {
  return x ? measure::format_ratio(*x) : "-";
}
std::string cell_axis(const measure::Record& r, const char* name) {
  return r.axes.has(name) ? r.axes.get_str(name) : "-";
}

std::string ladder_table(const std::vector<measure::Record>& recs) {
  measure::Table t({"rung", "technique", "A", "block", "chunk", "GPU_COMPUTE", "noise", "x previous", "x g01",
                    "seed (RTX 3060 Laptop)", "validation"});
  for (const measure::Record& r : recs) {
    const L::RungInfo& info = L::find_rung(r.variant);
    const std::string seed = info.seed_ms > 0 ? fmt::format("{:.2f} ms", info.seed_ms) : "-";
    const std::string a = info.a_on_device ? "GPU" : "host";
    if (r.skipped) {
      t.add_row({r.variant, info.technique, a, cell_axis(r, "block"), cell_axis(r, "chunk"), "skipped: " + *r.skipped,
                 "", "", "", seed, r.validation});
      continue;
    }
    t.add_row({r.variant, info.technique, a, cell_axis(r, "block"), cell_axis(r, "chunk"), cell_time(r),
               cell_noise(r), cell_ratio(r.ladder.x_previous), cell_ratio(r.ladder.x_baseline), seed, r.validation});
  }
  return t.markdown();
}

// Where the block and chunk of a row come from, for the rows not at their own defaults.
std::string geometry_notes(const std::vector<measure::Record>& recs) {
  std::string s;
  for (const measure::Record& r : recs) {
    const std::string g = r.extra.value("geometry", "defaults");
    if (g == "defaults") continue;
    s += fmt::format("- {}: block {}, chunk {}: {}\n", r.variant, cell_axis(r, "block"), cell_axis(r, "chunk"), g);
  }
  return s.empty() ? "" : "\nGeometry:\n" + s;
}

std::string sweep_table(const std::vector<measure::Record>& recs) {
  measure::Table t({"block", "chunk", "GPU_COMPUTE", "noise", "vs fastest", "chosen"});
  std::string rule;
  for (const measure::Record& r : recs) {
    if (r.skipped) {
      t.add_row({cell_axis(r, "block"), cell_axis(r, "chunk"), "skipped: " + *r.skipped, "", "", ""});
      continue;
    }
    const bool chosen = r.ladder.chosen;
    if (chosen) rule = r.ladder.tie_rule;
    t.add_row({cell_axis(r, "block"), cell_axis(r, "chunk"), cell_time(r), cell_noise(r),
               r.extra.contains("vs_fastest") ? fmt::format("+{:.1f}%", (r.extra["vs_fastest"].get<double>() - 1) * 100)
                                              : "-",
               chosen ? "**chosen**" : ""});
  }
  return t.markdown() + (rule.empty() ? "" : "\nTie rule: " + rule + "\n");
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

std::string validation_table(const L::ValidationReport& rep, const std::vector<const L::RungInfo*>& rs) {
  measure::Table t({"rung", "runs (cases x configurations)", "result"});
  for (const L::RungInfo* r : rs) {
    const int runs = rep.runs_per_rung.count(r->id) ? rep.runs_per_rung.at(r->id) : 0;
    const auto f = rep.failures.find(r->id);
    t.add_row({r->variant(), std::to_string(runs),
               f != rep.failures.end() ? "FAILED: " + f->second : (runs ? "exact" : "not run (no applicable case)")});
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
  auto keep = [&ctx, &dev](std::vector<measure::Record> recs) {
    for (auto& r : recs) Context::stamp(r, dev);
    ctx.add(recs);
    return recs;
  };

  // 1. Validation: the suite (vectors + edge cases), or only the given case with --validate-only.
  std::vector<std::string> notes;
  std::vector<C::Case> cases;
  if (o.validate_only && (!o.input.empty() || !o.bcase.empty()))
    cases.push_back(timed);
  else
    cases = L::validation_suite(notes);
  for (const auto& n : notes) note(n);
  const L::ValidationReport rep = L::validate(rs, cases, ctx.device, note);
  if (print_header)
    std::cout << fmt::format("## ABC471G on the GPU: validation ({} cases, {} runs; {})\n\n", rep.cases, rep.runs,
                             notes.empty() ? "given case only" : notes.front())
              << validation_table(rep, rs) << std::endl;
  for (const auto& [id, f] : rep.failures) failures.push_back(f);
  if (o.validate_only) {
    if (!failures.empty()) throw ValidationError("abc471g ladder: " + failures.front());
    return;
  }

  // 2. The sweeps first (--sweep): a tuned rung's ladder row (g02, g08, and the rungs that run at
  // their geometry) uses the tie rule's choice of this run; without --sweep, the recorded choice.
  note(fmt::format("case {}: N = {}, K = {}, M = {}; computing the CPU reference ...", timed.name, timed.problem.n,
                   timed.problem.k, timed.problem.m()));
  const std::vector<std::uint32_t> a = C::generate_all(timed.problem);
  const abc471g::Answer reference = timed.expected ? *timed.expected : C::reference_answer(timed.problem, a);
  L::DeviceCase dc(timed.problem, ctx.device, &a);
  L::TimingOptions topt{ctx.device, mode, o.rule};
  L::Tuned tuned;
  std::string sweep_tables;
  if (o.sweep)
    for (const L::RungInfo* r : rs) {
      if (!L::has_sweep(*r)) continue;
      const auto sw = keep(L::sweep_rung(*r, dc, timed.name, reference, topt, note));
      if (sw.empty()) continue;
      sweep_tables += fmt::format("## Sweep {} ({})\n\n", sw.front().ladder.sweep.empty() ? r->id : sw.front().ladder.sweep, r->variant()) +
                      sweep_table(sw) + "\n";
      for (const auto& s : sw)
        if (s.validation.rfind("failed", 0) == 0) failures.push_back(s.validation);
      if (!r->tuned_by.empty())
        if (const auto c = L::chosen_config(*r, sw)) tuned[r->id] = *c;
    }

  // 3. GPU_COMPUTE of every rung on the timed case.
  auto timed_recs = L::time_rungs(rs, dc, timed.name, reference, rep, topt, note, tuned);
  const std::string suite = fmt::format("{} cases, {} runs ({})", rep.cases, rep.runs,
                                        notes.empty() ? "given case only" : notes.front());
  for (auto& r : timed_recs) r.extra["validation_suite"] = suite;
  const auto ladder = keep(std::move(timed_recs));
  std::cout << fmt::format("## ABC471G direct ladder on {} (case {}: N = {}, K = {}, M = {}; GPU_COMPUTE, {})\n\n",
                           dev.name, timed.name, timed.problem.n, timed.problem.k, timed.problem.m(), o.mode)
            << ladder_table(ladder) << geometry_notes(ladder) << std::endl;
  for (const auto& r : ladder)
    if (r.validation.rfind("failed", 0) == 0 && !rep.failures.count(L::find_rung(r.variant).id))
      failures.push_back(r.validation);
  std::cout << sweep_tables << std::flush;

  // 4. The four scopes of the final rung, together, in one run.
  const bool final_selected = std::any_of(rs.begin(), rs.end(), [](const L::RungInfo* r) { return r == &L::final_rung(); });
  if (!o.no_scopes && final_selected && !rep.failures.count(L::final_rung().id)) {
    const std::string path = o.input.empty() ? L::write_case_file(timed.problem) : o.input;
    std::vector<measure::Record> sc;
    try {
      sc = keep(L::four_scopes(ctx.self_exe, path, timed, reference, ctx.device, o.rule, note));
    } catch (...) {
      if (o.input.empty()) std::remove(path.c_str());
      throw;
    }
    if (o.input.empty()) std::remove(path.c_str());
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
