// `joseki probe NAME...|all|list`: the GPU memory model, measured (issue 7). Each probe
// tests rules of the guide (shared/seeds/002) and returns raw records plus one summary
// record per rule with a verdict; this file runs them, stamps and prints them, and
// registers the tour step "probes".
#include <algorithm>
#include <iostream>
#include <set>

#include <fmt/format.h>

#include "app/context.hpp"
#include "backend/gpu.hpp"
#include "experiments/probes/probe.hpp"
#include "measure/errors.hpp"
#include "measure/table.hpp"

namespace joseki::app {
namespace {

using probes::ProbeInfo;
using probes::ProbeRegistry;

std::string names_list() {
  std::string s;
  for (const auto& n : ProbeRegistry::names()) s += (s.empty() ? "" : ", ") + n;
  return s;
}

std::vector<const ProbeInfo*> resolve(const std::vector<std::string>& names) {
  std::vector<const ProbeInfo*> out;
  std::set<std::string> seen;
  for (const std::string& n : names) {
    if (n == "all") {
      for (const auto& p : ProbeRegistry::all())
        if (seen.insert(p.name).second) out.push_back(&p);
      continue;
    }
    const ProbeInfo* p = ProbeRegistry::find(n);
    if (!p) throw InputError(fmt::format("probe '{}': no such probe (probes: {}; or all, list)", n, names_list()));
    if (seen.insert(p->name).second) out.push_back(p);
  }
  return out;
}

std::string list_table() {
  measure::Table t({"probe", "needs GPU", "what it measures", "rules tested"});
  for (const auto& p : ProbeRegistry::all()) t.add_row({p.name, p.needs_gpu ? "yes" : "no", p.title, p.rules});
  return t.markdown();
}

std::string median_cell(const measure::Record& r) {
  if (!r.summary) return "-";
  if (r.unit == "s") return measure::format_time(r.summary->median);
  return fmt::format("{:.4g} {}", r.summary->median, r.unit);
}

bool is_verdict(const measure::Record& r) { return r.extra.contains("verdict"); }

std::string raw_table(const std::vector<measure::Record>& recs) {
  measure::Table t({"variant", "axes", "scope", "mode", "median", "noise", "figure", "validation"});
  for (const auto& r : recs) {
    if (is_verdict(r)) continue;
    if (r.skipped) {
      t.add_row({r.variant, r.axes.label(), r.scope, r.mode, "skipped: " + *r.skipped, "", "", ""});
      continue;
    }
    std::string fig = r.extra.value("display", "");
    if (fig.empty() && r.throughput && r.throughput->bytes_per_s > 0) fig = measure::format_rate(r.throughput->bytes_per_s);
    std::string val = r.validation;
    if (val.size() > 90) val = val.substr(0, 87) + "...";
    t.add_row({r.variant, r.axes.label(), r.scope, r.mode, median_cell(r),
               r.summary && r.summary->n > 1 ? measure::format_pct(100 * r.summary->rel_stdev) : "-", fig, val});
  }
  return t.rows() ? t.markdown() : "";
}

std::string verdict_table(const std::vector<measure::Record>& recs, bool with_probe) {
  std::vector<std::string> head = {"rule", "verdict", "figure"};
  if (with_probe) head.insert(head.begin(), "probe");
  measure::Table t(head);
  for (const auto& r : recs) {
    if (!is_verdict(r)) continue;
    std::vector<std::string> row = {r.extra.value("rule", ""), r.extra.value("verdict", ""),
                                    r.extra.value("figure", "")};
    if (with_probe) row.insert(row.begin(), r.experiment.substr(r.experiment.find('.') + 1));
    t.add_row(row);
  }
  return t.rows() ? t.markdown() : "";
}

struct RunResult {
  std::vector<measure::Record> records;
  std::vector<std::string> failures;  // "probe: why"
};

RunResult run_probes(Context& ctx, const std::vector<const ProbeInfo*>& selected, bool quick,
                     const measure::StoppingRule& rule) {
  const gpu::Availability a = gpu::availability();
  const bool gpu_ok = a.ok && ctx.device < a.device_count;
  if (a.ok && !gpu_ok)
    throw InputError(fmt::format("--device {}: out of range (this machine has {} GPUs)", ctx.device, a.device_count));
  const bool any_cpu = std::any_of(selected.begin(), selected.end(), [](const ProbeInfo* p) { return !p->needs_gpu; });
  if (!gpu_ok && !any_cpu) throw GpuUnavailable(a.reason);
  const measure::DeviceFacts facts = gpu_ok ? gpu::device_facts(ctx.device) : measure::DeviceFacts{};
  if (!gpu_ok) std::cout << "No GPU: " << a.reason << ". GPU probes are recorded as skipped.\n" << std::endl;

  RunResult res;
  probes::ProbeOptions po;
  po.device = ctx.device;
  po.rule = rule;
  po.quick = quick;
  po.self_exe = ctx.self_exe;
  po.earlier = &res.records;
  for (std::size_t i = 0; i < selected.size(); ++i) {
    const ProbeInfo& p = *selected[i];
    ctx.note(fmt::format("[probe {}/{}] {}: {}", i + 1, selected.size(), p.name, p.title));
    std::vector<measure::Record> recs;
    const std::optional<std::string> unmet = p.needs_gpu && gpu_ok ? measure::unmet(p.needs, facts) : std::nullopt;
    if (p.needs_gpu && !gpu_ok) {
      recs.push_back(probes::skipped_record(p.name, p.name, p.title, "no GPU: " + a.reason));
    } else if (unmet) {
      recs.push_back(probes::skipped_record(p.name, p.name, p.title, *unmet));
    } else {
      try {
        recs = p.run(po);
      } catch (const InputError&) {
        throw;
      } catch (const std::exception& e) {
        res.failures.push_back(fmt::format("{}: {}", p.name, e.what()));
        recs.push_back(probes::skipped_record(p.name, p.name, p.title, std::string("failed: ") + e.what()));
      }
    }
    for (auto& r : recs) {
      Context::stamp(r, facts);
      if (r.validation.rfind("failed", 0) == 0) res.failures.push_back(fmt::format("{} {}: {}", p.name, r.variant, r.validation));
    }
    std::cout << "## probe." << p.name << ": " << p.title << "\n\n" << raw_table(recs);
    const std::string v = verdict_table(recs, false);
    if (!v.empty()) std::cout << "\n" << v;
    std::cout << std::endl;
    for (auto& r : recs) res.records.push_back(std::move(r));
  }
  if (selected.size() > 1) {
    const std::string v = verdict_table(res.records, true);
    std::cout << "## Verdicts\n\n" << (v.empty() ? "No rule could be measured here (see the skipped records).\n" : v)
              << std::endl;
  }
  return res;
}

void add_probe_command(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("probe", "the GPU memory model, measured: one probe per rule of the guide "
                                          "(warps, divergence, coalescing, banks, caches, atomics, fences, barriers, "
                                          "occupancy, launch, start-up), a cost-ratio profile, an ncu diagnosis table and "
                                          "Hopper's distributed shared memory, bulk copies and tensor cores, "
                                          "each with a verdict");
  struct Opts {
    std::vector<std::string> names;
    bool quick = false;
    bool run_kernels = false;
    measure::StoppingRule rule;
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_option("names", opts->names, "probes to run (NAME..., all), or list")->required();
  cmd->add_flag("--quick", opts->quick, "fewer sizes and points (a first look)");
  cmd->add_flag("--run-kernels", opts->run_kernels, "(internal, for ncu) run the diagnose kernels once")->group("");
  add_rule_options(cmd, opts->rule);
  cmd->footer("Probes: " + names_list() + ".\nWithout a GPU the CPU-side probes (startup) still run and the GPU "
              "probes are recorded as skipped; asking only for GPU probes then exits 1.");
  cmd->callback([&ctx, opts] {
    if (opts->names.size() == 1 && opts->names[0] == "list") {
      std::cout << list_table() << std::endl;
      return;
    }
    const auto selected = resolve(opts->names);
    if (opts->run_kernels) {
      if (selected.size() != 1 || selected[0]->name != "diagnose")
        throw InputError("--run-kernels: only with the probe 'diagnose'");
      probes::run_diagnose_kernels(ctx.device);
      return;
    }
    RunResult res = run_probes(ctx, selected, opts->quick, opts->rule);
    ctx.add(std::move(res.records));
    if (!res.failures.empty()) {
      std::string msg = fmt::format("{} probe result(s) failed:", res.failures.size());
      for (const auto& f : res.failures) msg += "\n  " + f;
      throw ValidationError(msg);
    }
  });
}

JOSEKI_REGISTER_COMMAND(60, add_probe_command);

// The tour: quick = the cheap probes (about 20 s on the H200); full = all of them, with the
// tour's stopping rule: the complete set of probe records (the committed H200 records come
// from `joseki run`). Full takes about 2 minutes on the H200; ncu (diagnose) is time-boxed
// to 100 s at most (metric query 20 s, profiles 80 s).
std::vector<measure::Record> tour_probes(Context& ctx, const TourOptions& opt) {
  static const std::vector<std::string> QUICK = {"exec", "divergence", "banks", "barriers", "atomics",
                                                 "fences", "launch", "startup"};
  std::vector<std::string> names;
  if (opt.quick) {
    for (const auto& n : QUICK)
      if (ProbeRegistry::find(n)) names.push_back(n);
  } else {
    names = {"all"};
  }
  RunResult res = run_probes(ctx, resolve(names), opt.quick, opt.rule);
  for (const auto& f : res.failures) ctx.note("probes: FAILED " + f);
  return std::move(res.records);
}

JOSEKI_REGISTER_TOUR_STEP(probes, "probes", "the GPU memory model, measured: one probe per rule, with verdicts", 100,
                          8, 46, tour_probes, false);

}  // namespace
}  // namespace joseki::app
