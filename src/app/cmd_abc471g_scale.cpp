// `joseki abc471g calibrate` and `joseki abc471g scale ...`: ABC471G at scale (issue 6).
//   calibrate [--quick] [--out PATH] [--solvers LIST]   measure auto's costs, write the cost file
//   scale ladder  [--n N --k K --m M --seed S]          the gpu-pairs ladder (default: the max case)
//   scale hopper  [--n N --k K --m M --seed S]          issue 19: the generation floor, r04 split, r04 and the Hopper rungs
//   scale sizes   [--n LIST] [--validate-max N]         N = 10^8, 10^9, 10^10: GPU_COMPUTE and EXTERNAL
//   scale startup [--runs R]                            where a GPU solve's start-up goes; the cuts' saving
//   scale auto    [--n LIST]                            auto's choice vs the better EXTERNAL at every N
//   scale multi   [--n N]                               1 GPU vs every GPU of the host (NCCL)
//   scale child   --phase P ...                         (internal) the measured child process
// Registered after `abc471g` itself (order 40): adds to it, or creates it when absent.
#include <cmath>
#include <functional>
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "app/context.hpp"
#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_multi/multi.hpp"
#include "experiments/abc471g/gpu_pairs/bench.hpp"
#include "experiments/abc471g/gpu_pairs/bench_util.hpp"
#include "experiments/abc471g/cost/costs.hpp"
#include "experiments/abc471g/gpu_pairs/bench_hopper.hpp"
#include "experiments/abc471g/gpu_pairs/bench_wgmma.hpp"
#include "experiments/abc471g/gpu_pairs/ladder.hpp"
#include "experiments/abc471g/inputs.hpp"
#include "measure/errors.hpp"
#include "measure/ladder.hpp"
#include "measure/table.hpp"

namespace joseki::app {
namespace {

namespace g = joseki::abc471g;
namespace gp = joseki::abc471g::pairs;
using measure::Scope;

// "7000000", "7e6", "10^9" -> the integer; InputError naming the option otherwise.
std::uint64_t parse_count(const std::string& opt, const std::string& s) {
  double v = 0;
  std::size_t used = 0;
  const auto caret = s.find('^');
  try {
    if (caret != std::string::npos) {
      v = std::pow(std::stod(s.substr(0, caret), &used), std::stod(s.substr(caret + 1)));
    } else {
      v = std::stod(s, &used);
      if (used != s.size()) throw std::invalid_argument(s);
    }
  } catch (const std::exception&) {
    throw InputError(fmt::format("{} {}: not a count (write 1000000, 1e6 or 10^6)", opt, s));
  }
  if (!(v >= 1) || v > 1e15 || v != std::floor(v))
    throw InputError(fmt::format("{} {}: must be a whole number in 1..10^15", opt, s));
  return static_cast<std::uint64_t>(v);
}

std::vector<std::uint64_t> parse_counts(const std::string& opt, const std::string& list) {
  std::vector<std::uint64_t> v;
  std::size_t b = 0;
  while (b <= list.size()) {
    const std::size_t e = std::min(list.find(',', b), list.size());
    if (e > b) v.push_back(parse_count(opt, list.substr(b, e - b)));
    b = e + 1;
  }
  if (v.empty()) throw InputError(opt + " '" + list + "': empty list");
  return v;
}

measure::DeviceFacts facts(const Context& ctx) {
  return gpu::availability().ok ? gpu::device_facts(ctx.device) : measure::DeviceFacts{};
}

// Stamp, keep, and fail (exit 1) after keeping them when any record failed validation.
void keep(Context& ctx, std::vector<measure::Record> recs) {
  const measure::DeviceFacts d = facts(ctx);
  std::string failed;
  int bad = 0;
  for (auto& r : recs) {
    Context::stamp(r, d);
    if (r.validation.rfind("failed", 0) == 0 && bad++ == 0) failed = r.variant + ": " + r.validation;
  }
  ctx.add(std::move(recs));
  if (bad) throw ValidationError(fmt::format("{} record(s) failed validation; first: {}", bad, failed));
}

gp::BenchOptions bench_options(Context& ctx, const measure::StoppingRule& rule) {
  gp::BenchOptions o;
  o.rule = rule;
  o.device = ctx.device;
  o.self_exe = ctx.self_exe;
  o.note = [&ctx](const std::string& s) { ctx.note(s); };
  return o;
}

std::string ms(double s) { return measure::format_time(s); }

// One row per N: GPU_COMPUTE of the atomic count (r02), of the partition count (r03, the shipped
// default) and of r04 (its GEMM combine) side by side, then the shipped solve's EXTERNAL figures.
std::string sizes_table(const std::vector<measure::Record>& recs) {
  // The ladder's rungs that `scale sizes` times in process (their variants come from the one list).
  const std::string gpu = std::string("/") + measure::to_string(Scope::GpuCompute);
  const std::string r02 = gp::find_rung("p02").variant() + gpu, r03 = gp::find_rung("p03").variant() + gpu,
                    r04 = gp::find_rung("p04").variant() + gpu;
  std::map<std::int64_t, std::map<std::string, const measure::Record*>> by_n;
  for (const auto& r : recs)
    if (r.axes.has("n") && (r.scope_is(Scope::GpuCompute) || r.scope_is(Scope::External)) &&
        (r.variant + "/" + r.scope == r02 || r.variant + "/" + r.scope == r03 || r.variant + "/" + r.scope == r04 ||
         r.scope_is(Scope::External)))
      by_n[r.axes.get_int("n")][r.variant + "/" + r.scope] = &r;
  measure::Table t({"N", "r02 atomic count", "r03 partition count", "r03 pairs/s", "r04 GEMM combine", "validation",
                    "EXTERNAL solve", "post-main", "EXTERNAL fast", "post-main (fast)"});
  for (const auto& [n, m_of_n] : by_n) {
    const auto& m = m_of_n;  // lambdas cannot capture a structured binding in clang 14 (the fuzz build)
    auto cell = [&](const std::string& key) {
      auto it = m.find(key);
      return it != m.end() && it->second->summary ? ms(it->second->summary->median) : std::string("-");
    };
    auto extra = [&](const std::string& key, const char* f) {
      auto it = m.find(key);
      return it != m.end() && it->second->extra.contains(f) ? ms(it->second->extra[f].get<double>()) : std::string("-");
    };
    auto valid = [&](const std::string& key) { auto it = m.find(key); return it != m.end() ? it->second->validation : std::string("-"); };
    const auto gc = m.find(r03);
    std::string v = valid(r02);
    for (const std::string* key : {&r03, &r04})
      if (valid(*key) != "-" && valid(*key) != v) v += " / " + valid(*key);
    t.add_row({gp::bench::fmt_n(static_cast<std::uint64_t>(n)), cell(r02), cell(r03),
               gc != m.end() && gc->second->throughput ? fmt::format("{:.3g}", gc->second->throughput->elements_per_s) : "-",
               cell(r04), v, cell("pairs.external.solve/EXTERNAL"), extra("pairs.external.solve/EXTERNAL", "post_main_s"),
               cell("pairs.external.fast/EXTERNAL"), extra("pairs.external.fast/EXTERNAL", "post_main_s")});
  }
  return t.markdown();
}

std::string startup_table(const std::vector<measure::Record>& recs) {
  measure::Table t({"configuration", "EXTERNAL", "pre-main", "PROGRAM", "post-main", "driver init", "context",
                    "module load", "parse"});
  std::map<std::string, const measure::Record*> prog;
  for (const auto& r : recs)
    if (r.scope_is(Scope::Program)) prog[r.variant] = &r;
  for (const auto& r : recs) {
    if (!r.scope_is(Scope::External) || r.variant.rfind("startup.", 0) != 0) continue;
    if (!r.summary) {
      t.add_row({r.variant, r.validation, "", "", "", "", "", "", ""});
      continue;
    }
    auto x = [&](const char* k) { return r.extra.contains(k) ? ms(r.extra[k].get<double>()) : std::string("-"); };
    auto ph = [&](const char* k) {
      return r.extra.contains("phases_s") && r.extra["phases_s"].contains(k) ? ms(r.extra["phases_s"][k].get<double>())
                                                                             : std::string("-");
    };
    t.add_row({r.variant, ms(r.summary->median), x("pre_main_s"),
               prog.count(r.variant) ? ms(prog[r.variant]->summary->median) : "-", x("post_main_s"), ph("driver_init"),
               ph("context_create"), ph("module_load"), ph("parse")});
  }
  measure::Table s({"split / saving", "how", "value"});
  for (const auto& r : recs)
    if (r.scope_is(Scope::Value) && r.summary) s.add_row({r.variant, r.technique, ms(r.summary->median)});
  return t.markdown() + "\n" + s.markdown();
}

std::string auto_table(const std::vector<measure::Record>& recs) {
  measure::Table t({"N", "variant", "choice", "EXTERNAL", "best", "choice / best", "auto process / best", "within 10%"});
  for (const auto& r : recs) {
    if (!r.scope_is(Scope::External) && r.variant != "auto.verdict") continue;
    if (r.variant == "auto.verdict") {
      t.add_row({"all", r.variant, "", "", "", "", "", r.extra.value("figure", "") + ": " + r.extra.value("verdict", "")});
      continue;
    }
    const std::string n = r.axes.has("n") ? gp::bench::fmt_n(static_cast<std::uint64_t>(r.axes.get_int("n"))) : "";
    if (r.skipped) {
      t.add_row({n, r.variant, "", "> " + ms(r.extra.value("lower_bound_s", 0.0)), "", "", "", ""});
      continue;
    }
    t.add_row({n, r.variant, r.extra.value("choice", ""), r.summary ? ms(r.summary->median) : r.validation,
               r.extra.contains("best") ? r.extra["best"].get<std::string>() + " " + ms(r.extra["best_s"].get<double>()) : "",
               r.extra.contains("ratio_to_best") ? fmt::format("{:.3f}", r.extra["ratio_to_best"].get<double>()) : "",
               r.extra.contains("ratio_auto_process") ? fmt::format("{:.3f}", r.extra["ratio_auto_process"].get<double>()) : "",
               r.extra.contains("within_10pct") ? (r.extra["within_10pct"].get<bool>() ? "yes" : "NO") : ""});
  }
  return t.markdown();
}

void add_calibrate(CLI::App* parent, Context& ctx) {
  struct Opts {
    bool quick = false;
    std::string out;
    std::string solvers;
    int threads = 0;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent->add_subcommand(
      "calibrate", "measure what `--solver auto` weighs: the GPU's fixed costs (driver, context, teardown, module "
                   "load; child processes) and each solver's time t(N, K) on this machine; writes the cost file "
                   "($JOSEKI_COSTS, else $XDG_CACHE_HOME or ~/.cache: joseki/abc471g_costs.json)");
  cmd->add_flag("--quick", o->quick, "fewer and smaller points (a smoke test, not a calibration)");
  cmd->add_option("--out", o->out, "write the cost file here instead");
  cmd->add_option("--solvers", o->solvers, "comma-separated solvers (default: all but auto, brute, editorial)");
  cmd->add_option("--threads", o->threads, "CPU threads for the CPU solvers (0 = all)")->check(CLI::Range(0, 4096));
  cmd->callback([&ctx, o] {
    g::CalibrateOptions co;
    co.self_exe = ctx.self_exe;
    co.device = ctx.device;
    co.threads = o->threads;
    co.quick = o->quick;
    co.note = [&ctx](const std::string& s) { ctx.note(s); };
    for (std::size_t b = 0; b < o->solvers.size();) {
      const std::size_t e = std::min(o->solvers.find(',', b), o->solvers.size());
      if (e > b) co.solvers.push_back(g::find_solver(o->solvers.substr(b, e - b)).name);
      b = e + 1;
    }
    std::vector<measure::Record> recs;
    const g::CostModel m = g::calibrate(co, &recs);
    const std::string path = o->out.empty() ? g::costs_path() : o->out;
    g::save_costs(m, path);
    measure::Table t({"solver", "t(N, K) fit", "at the max case", "worst fit error"});
    for (const auto& [name, f] : m.solvers)
      t.add_row({name, f.formula(), ms(f.seconds(7e6, 2300)), fmt::format("{:.0f}%", 100 * f.max_rel_err)});
    std::cout << "## abc471g cost model (" << path << ")\n\nGPU fixed costs (driver init + context + teardown, "
              << "EXTERNAL, by device state): " << m.fixed_costs_text()
              << (m.idle_note.empty() ? "" : "; idle: " + m.idle_note) << "\n\n"
              << t.markdown() << std::endl;
    if (const std::string busy = m.busy_text(); !busy.empty())
      std::cout << "Note: " << busy << "; run it again on an idle machine.\n";
    else if (const std::string load = m.load_text(); !load.empty())
      std::cout << "Note: " << load << ".\n";
    keep(ctx, std::move(recs));
  });
}

// `scale NAME` at one problem: --n (default the max case), --k, --m, --seed and the stopping rule's
// options; `run` gets the problem (M at most N) and its name ("max" or "N=...").
CLI::App* add_one_problem(CLI::App* scale, const std::string& name, const std::string& about,
                          measure::StoppingRule& rule,
                          std::function<void(const g::Problem&, const std::string&)> run) {
  struct Opts {
    g::InstanceSpec spec;
    std::string n = "7e6";
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = scale->add_subcommand(name, about);
  cmd->add_option("--n", o->n, "N (default: the max case, 7e6)")->capture_default_str();
  cmd->add_option("--k", o->spec.k, "K")->capture_default_str();
  cmd->add_option("--m", o->spec.m, "M (given values)")->capture_default_str();
  cmd->add_option("--seed", o->spec.seed, "the problem's LCG seed")->capture_default_str();
  add_rule_options(cmd, rule);
  cmd->callback([o, run = std::move(run)] {
    g::InstanceSpec& spec = o->spec;
    spec.n = parse_count("--n", o->n);
    spec.m = std::min(spec.m, spec.n);
    run(g::make_problem(spec), spec.n == 7'000'000 && spec.k == 2300 ? "max" : "N=" + gp::bench::fmt_n(spec.n));
  });
  return cmd;
}

void add_scale(CLI::App* parent, Context& ctx) {
  auto* scale = parent->add_subcommand("scale", "ABC471G at scale: the gpu-pairs ladder, N up to 10^11, start-up "
                                                "cost, auto dispatch, several GPUs (records; docs/ABC471G_SCALE.md)");
  scale->require_subcommand(1);
  auto rule = std::make_shared<measure::StoppingRule>();

  {  // ladder
    const std::string about = "the gpu-pairs ladder (" + [] {
      std::string s;
      for (const auto& r : gp::pairs_ladder()) s += (s.empty() ? "" : ", ") + r.slug;
      return s;
    }() + ") at one problem, validated then timed; each count alone and the atomic count's bound (generator "
          "alone, L2 atomic ceiling); the combiners alone; tile, pairs-per-thread, cuBLASLt-algorithm and "
          "L2-persistence sweeps";
    add_one_problem(scale, "ladder", about, *rule, [&ctx, rule](const g::Problem& p, const std::string& name) {
      auto recs = gp::bench_ladder(p, name, bench_options(ctx, *rule));
      std::cout << "## gpu-pairs ladder, " << name << " (N = " << p.n << ", K = " << p.k << ", M = " << p.m() << ")\n\n"
                << measure::ladder_table(recs) << "\n" << measure::sweep_table(recs) << std::flush;
      keep(ctx, std::move(recs));
    });
  }
  {  // hopper (issue 19)
    const std::string about = "issue 19 at one problem: the generation floor (A generated and summed, nothing "
                              "counted), r04 split into count and combine, r04 and the Hopper rungs after it; every "
                              "figure validated, then shown as a multiple of the floor";
    auto rungs = std::make_shared<std::vector<std::string>>();
    auto trace_csv = std::make_shared<std::string>();
    auto* hopper = add_one_problem(scale, "hopper", about, *rule, [&ctx, rule, rungs, trace_csv](const g::Problem& p, const std::string& name) {
      gp::BenchOptions bo = bench_options(ctx, *rule);
      bo.rungs = *rungs;
      bo.trace_csv = *trace_csv;
      auto recs = gp::bench_hopper(p, name, bo);
      measure::Table t({"variant", "GPU_COMPUTE median", "x floor", "validation", "notes"});
      for (const measure::Record& r : recs) {
        std::string notes;
        if (r.extra.contains("graph_kernel_nodes"))
          notes = fmt::format("graph: {} kernel nodes of {}", r.extra["graph_kernel_nodes"].dump(), r.extra["graph_nodes"].dump());
        if (r.extra.contains("graph_unavailable")) notes = "graph: " + r.extra["graph_unavailable"].get<std::string>();
        if (r.extra.contains("gemm_panel_rows"))
          notes += (notes.empty() ? "" : "; ") + fmt::format("panels of {} rows", r.extra["gemm_panel_rows"].dump());
        if (r.extra.contains("elements_per_thread"))
          notes = fmt::format("{} elements per thread", r.extra["elements_per_thread"].dump());
        t.add_row({r.variant, r.summary ? fmt::format("{:.2f} us", r.summary->median * 1e6) : std::string("-"),
                   r.extra.contains("floor_x") ? fmt::format("{:.2f}", r.extra["floor_x"].get<double>()) : std::string("-"),
                   r.skipped ? "skipped: " + *r.skipped : r.validation, notes});
      }
      std::cout << "## gpu-pairs, issue 19, " << name << " (N = " << p.n << ", K = " << p.k << ", M = " << p.m() << ")\n\n"
                << t.markdown() << std::endl;
      keep(ctx, std::move(recs));
    });
    hopper->add_option("--rungs", *rungs,
                       "only these rungs (ids p41, slugs r41_rotated_tiles_26; comma-separated) and their count / "
                       "combine splits, no sweeps (default: every rung and sweep)")
        ->delimiter(',');
    hopper->add_option("--trace-csv", *trace_csv,
                       "after each rung on joseki's wgmma combine is timed, one more solve, cold like the timed ones (L2 "
                       "flushed first), with the combine kernel's trace: a summary under the rung (block starts, "
                       "releases and ends, a stage's and an epilogue's time, the first entry and last end from the "
                       "solve's start) and each block's row in this CSV file; on the lean partition kernel also the "
                       "count's blocks (each partition and histogram block's entry, end and SM) in FILE.count.csv "
                       "(FILE.csv's name with .count before .csv)");
  }
  {  // wgmma (issue 19, r09): the wgmma combine alone, beside "r04's combine alone" of `scale hopper`
    auto spec = std::make_shared<g::InstanceSpec>();
    auto n = std::make_shared<std::string>("7e6");
    auto* cmd = scale->add_subcommand("wgmma", "issue 19, r09: the combine on wgmma (sm_90a) with the masked column "
                                               "sum in its epilogue, alone, on the problem's pair table and a random "
                                               "three-plane table; each validated against the CPU, then timed");
    cmd->add_option("--n", *n, "N (default: the max case, 7e6)")->capture_default_str();
    cmd->add_option("--k", spec->k, "K")->capture_default_str();
    cmd->add_option("--m", spec->m, "M (given values)")->capture_default_str();
    cmd->add_option("--seed", spec->seed, "the problem's LCG seed")->capture_default_str();
    auto shapes = std::make_shared<std::vector<std::string>>();
    cmd->add_option("--shapes", *shapes,
                    "only these kernel shapes (rs|ss.wg2|wg4.bk64|bk128 with .if1 .pad .st6|st8 .tma as r10-r15 add "
                    "them, e.g. rs.wg2.bk64 or rs.wg4.bk64.if1.pad.st8.tma); default: every shape")
        ->delimiter(',');
    add_rule_options(cmd, *rule);
    cmd->callback([&ctx, spec, n, rule, shapes] {
      spec->n = parse_count("--n", *n);
      spec->m = std::min(spec->m, spec->n);
      const g::Problem p = g::make_problem(*spec);
      const std::string name = spec->n == 7'000'000 && spec->k == 2300 ? "max" : "N=" + gp::bench::fmt_n(spec->n);
      auto recs = gp::bench_wgmma_combine(p, name, bench_options(ctx, *rule), *shapes);
      measure::Table t({"variant", "table", "planes", "GPU_COMPUTE median", "int8 TOPS", "validation"});
      for (const measure::Record& r : recs) {
        auto ex = [&](const char* key) { return r.extra.contains(key) ? r.extra[key].dump() : std::string("-"); };
        t.add_row({r.variant, (r.axes.has("table") ? r.axes.get_str("table") : std::string("-")), ex("planes"),
                   r.summary ? fmt::format("{:.2f} us", r.summary->median * 1e6) : std::string("-"),
                   r.extra.contains("int8_tops") ? fmt::format("{:.0f}", r.extra["int8_tops"].get<double>()) : std::string("-"),
                   r.skipped ? "skipped: " + *r.skipped : r.validation});
      }
      std::cout << "## gpu-pairs r09 (wgmma combine), " << name << " (N = " << p.n << ", K = " << p.k << ")\n\n"
                << t.markdown() << std::endl;
      keep(ctx, std::move(recs));
    });
  }
  {  // sizes
    auto so = std::make_shared<gp::SizesOptions>();
    auto n = std::make_shared<std::string>("1e8,1e9,1e10");
    auto vmax = std::make_shared<std::string>("1e9");
    auto no_ext = std::make_shared<bool>(false);
    auto* cmd = scale->add_subcommand("sizes", "gpu-pairs at large N: GPU_COMPUTE (in process, cold) of the atomic "
                                               "(r02) and partition (r03) counts and r04's GEMM combine side by "
                                               "side, chunk and block-size "
                                               "sweeps at 10^9..10^10, and EXTERNAL (the solve command, and the "
                                               "start-up-optimised child), exact answers");
    cmd->add_option("--n", *n, "comma-separated N values")->capture_default_str();
    cmd->add_option("--k", so->k, "K")->capture_default_str();
    cmd->add_option("--validate-max", *vmax, "cross-check with a CPU solver up to this N")->capture_default_str();
    cmd->add_option("--runs", so->external_runs, "EXTERNAL samples per configuration")->check(CLI::Range(1, 100))->capture_default_str();
    cmd->add_flag("--no-external", *no_ext, "GPU_COMPUTE only");
    add_rule_options(cmd, *rule);
    cmd->callback([&ctx, so, n, vmax, no_ext, rule] {
      so->ns = parse_counts("--n", *n);
      so->validate_max_n = parse_count("--validate-max", *vmax);
      so->external = !*no_ext;
      auto recs = gp::bench_sizes(*so, bench_options(ctx, *rule));
      std::cout << "## gpu-pairs at scale (K = " << so->k << ")\n\n" << sizes_table(recs) << std::endl;
      keep(ctx, std::move(recs));
    });
  }
  {  // startup
    auto so = std::make_shared<gp::StartupOptions>();
    auto* cmd = scale->add_subcommand("startup", "where a GPU solve's start-up time goes (pre-main, driver init, "
                                                 "context, module load, teardown) and what the cuts save (EXTERNAL)");
    cmd->add_option("--runs", so->runs, "samples per configuration")->check(CLI::Range(1, 100))->capture_default_str();
    cmd->callback([&ctx, so, rule] {
      auto recs = gp::bench_startup(*so, bench_options(ctx, *rule));
      std::cout << "## GPU solve start-up (max case, gpu-pairs)\n\n" << startup_table(recs) << std::endl;
      keep(ctx, std::move(recs));
    });
  }
  {  // auto
    auto so = std::make_shared<gp::AutoSweepOptions>();
    auto n = std::make_shared<std::string>("1e3,1e4,1e5,1e6,1e7,1e8,1e9");
    auto* cmd = scale->add_subcommand("auto", "auto's choice against the better EXTERNAL at every N (run "
                                              "`joseki abc471g calibrate` first)");
    cmd->add_option("--n", *n, "comma-separated N values")->capture_default_str();
    cmd->add_option("--runs", so->runs, "EXTERNAL samples per configuration")->check(CLI::Range(1, 100))->capture_default_str();
    cmd->add_option("--budget", so->budget_s, "seconds; sizes not started by then are recorded as skipped (0: none)")
        ->check(finite_range(0.0, 1e6))
        ->capture_default_str();
    cmd->callback([&ctx, so, n, rule] {
      so->ns = parse_counts("--n", *n);
      auto recs = gp::bench_auto(*so, bench_options(ctx, *rule));
      std::cout << "## auto dispatch against the better EXTERNAL (K = " << so->k << ")\n\n" << auto_table(recs) << std::endl;
      keep(ctx, std::move(recs));
    });
  }
  {  // multi
    auto mo = std::make_shared<g::multi::MultiBenchOptions>();
    auto n = std::make_shared<std::string>("1e10");
    auto* cmd = scale->add_subcommand("multi", "1 GPU against every GPU of this host (NCCL all-reduce), same answers");
    cmd->add_option("--n", *n, "N")->capture_default_str();
    cmd->add_option("--k", mo->k, "K")->capture_default_str();
    add_rule_options(cmd, *rule);
    cmd->callback([&ctx, mo, n, rule] {
      mo->n = parse_count("--n", *n);
      auto recs = g::multi::bench_multi(*mo, bench_options(ctx, *rule));
      std::cout << "## gpu-pairs on several GPUs\n\n" << measure::records_table(recs) << std::endl;
      keep(ctx, std::move(recs));
    });
  }
  {  // child (internal)
    auto co = std::make_shared<gp::ChildOptions>();
    auto* cmd = scale->add_subcommand("child", "(internal) a measured child process for the start-up split");
    cmd->group("");
    cmd->add_option("--phase", co->phase, "none | count | context | module | solve | solve-async | solve-exit")->required();
    cmd->add_option("--input", co->input, "input file (solve)");
    cmd->add_option("--solver", co->solver, "solver (solve), or auto-calibrated")->capture_default_str();
    cmd->add_flag("--fast", co->fast, "solve: context on a second thread while parsing, exit without CUDA teardown");
    cmd->callback([&ctx, co] {
      co->device = ctx.device;
      gp::run_child(*co);
    });
  }
}

void add_scale_commands(CLI::App& app, Context& ctx) {
  CLI::App* parent = abc471g_app(app);
  add_calibrate(parent, ctx);
  add_scale(parent, ctx);
}

JOSEKI_REGISTER_COMMAND(44, add_scale_commands);

// `joseki run`: the gpu-pairs ladder at the max case; in full mode also N = 10^8 and 10^9 (EXTERNAL too).
std::vector<measure::Record> tour_abc471g_pairs(Context& ctx, const TourOptions& opt) {
  const gp::BenchOptions o = bench_options(ctx, opt.rule);
  g::InstanceSpec spec;  // the max case
  std::vector<measure::Record> all = gp::bench_ladder(g::make_problem(spec), "max", o);
  if (!opt.quick) {
    gp::SizesOptions so;
    so.ns = {100'000'000ULL, 1'000'000'000ULL};
    so.external_runs = 2;
    auto more = gp::bench_sizes(so, o);
    all.insert(all.end(), more.begin(), more.end());
  }
  const measure::DeviceFacts d = facts(ctx);
  std::string failed;
  for (auto& r : all) {
    Context::stamp(r, d);
    if (r.validation.rfind("failed", 0) == 0 && failed.empty()) failed = r.variant + ": " + r.validation;
  }
  if (!failed.empty()) throw ValidationError("abc471g-pairs: " + failed);
  std::cout << "## gpu-pairs ladder, max case\n\n" << measure::ladder_table(all) << "\n" << measure::sweep_table(all)
            << std::flush;
  return all;
}

JOSEKI_REGISTER_TOUR_STEP(abc471g_pairs, "abc471g-pairs",
                          "ABC471G pair counts on the GPU: NTT and tensor-core combiners, atomic and partition "
                          "counts (validated), the count's atomic bound, sweeps; full: N = 10^8, 10^9 with EXTERNAL",
                          44, 3, 10, tour_abc471g_pairs, true);

}  // namespace
}  // namespace joseki::app
