// `joseki run`: the tour. Device facts and ceilings, then every registered step (each
// experiment's ladder, the probes) in order, with progress on stderr (report/progress),
// tables on stdout, a summary at the end (report/summary), all records in one timestamped
// folder and the report made from them (report/report). Without a GPU the CPU paths run
// and each GPU step says why it was skipped. A step that fails does not stop the tour: it
// is recorded as failed and the exit code is 1. docs/REPORT.md.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/context.hpp"
#include "backend/gpu.hpp"
#include "measure/errors.hpp"
#include "measure/table.hpp"
#include "report/progress.hpp"
#include "report/report.hpp"
#include "report/summary.hpp"

namespace joseki::app {
namespace {

std::string default_out_dir() {
  std::string ts = measure::utc_now_iso8601();
  std::replace(ts.begin(), ts.end(), ':', '-');
  return "joseki-runs/" + ts;
}

struct RunArgs {
  TourOptions tour;
  std::vector<std::string> only;
  std::string progress = "auto";
  bool list = false;
  bool no_report = false;
};

std::vector<TourStep> sorted_steps() {
  auto steps = TourRegistry::all();
  std::stable_sort(steps.begin(), steps.end(), [](const auto& a, const auto& b) { return a.order < b.order; });
  return steps;
}

// --only NAME: a step's name, or an experiment's name that prefixes steps ("abc471g" selects
// abc471g-cpu and abc471g-gpu).
std::vector<TourStep> select_steps(std::vector<TourStep> steps, const std::vector<std::string>& only) {
  if (only.empty()) return steps;
  std::vector<bool> keep(steps.size(), false);
  for (const std::string& o : only) {
    bool found = false;
    for (std::size_t i = 0; i < steps.size(); ++i)
      if (steps[i].name == o || steps[i].name.rfind(o + "-", 0) == 0) keep[i] = found = true;
    if (!found) {
      std::string names;
      for (const auto& s : steps) names += (names.empty() ? "" : ", ") + s.name;
      throw InputError(fmt::format("--only {}: no such step (steps: {})", o, names));
    }
  }
  std::vector<TourStep> out;
  for (std::size_t i = 0; i < steps.size(); ++i)
    if (keep[i]) out.push_back(steps[i]);
  return out;
}

measure::Record step_record(const TourStep& s, const std::string& why, bool failed) {
  measure::Record r;
  r.experiment = s.name;
  r.variant = s.name;
  r.technique = s.description;
  r.backend = s.gpu_only ? "cuda" : "cpu";
  r.scope = to_string(s.gpu_only ? measure::Scope::GpuCompute : measure::Scope::CpuCompute);
  r.skipped = why;
  if (failed) r.validation = "failed: " + why;
  Context::stamp(r, {});
  return r;
}

void print_steps(const std::vector<TourStep>& steps) {
  measure::Table t({"step", "what", "needs a GPU", "quick (GPU host)", "full (GPU host)"});
  for (const auto& s : steps)
    t.add_row({s.name, s.description, s.gpu_only ? "yes" : "no", fmt::format("~{:.0f} s", s.est_seconds_quick),
               fmt::format("~{:.0f} s", s.est_seconds_full)});
  std::cout << t.markdown();
}

void run_tour(Context& ctx, RunArgs& args) {
  TourOptions& opt = args.tour;
  const std::vector<TourStep> steps = select_steps(sorted_steps(), args.only);
  if (args.list) {
    print_steps(steps);
    return;
  }
  const gpu::Availability a = gpu::availability();
  opt.gpu = a.ok && ctx.device < a.device_count;
  if (a.ok && !opt.gpu)
    throw InputError(fmt::format("--device {}: out of range (this machine has {} GPUs)", ctx.device, a.device_count));
  opt.gpu_reason = a.reason;
  if (opt.quick) {
    opt.rule.min_samples = 5;
    opt.rule.timeout_s = 1.0;
  }
  if (opt.out_dir.empty()) opt.out_dir = default_out_dir();
  std::error_code ec;
  std::filesystem::create_directories(opt.out_dir, ec);
  if (ec) throw InputError(fmt::format("--out {}: cannot create the folder: {}", opt.out_dir, ec.message()));
  const std::string records_path = opt.out_dir + "/records.json";

  measure::DeviceFacts dev;
  if (opt.gpu) {
    dev = gpu::device_facts(ctx.device);
    std::cout << fmt::format("joseki run{}: GPU {} ({}), {} steps, records in {}\n\n", opt.quick ? " --quick" : "",
                             ctx.device, dev.name, steps.size(), opt.out_dir)
              << std::flush;
  } else {
    std::cout << "No GPU: " << a.reason << ". Running the CPU paths only; GPU steps are listed as skipped.\n"
              << std::endl;
  }

  std::vector<std::string> names;
  std::vector<double> est;
  for (const auto& s : steps) {
    names.push_back(s.name);
    est.push_back(s.gpu_only && !opt.gpu ? 0.0 : opt.quick ? s.est_seconds_quick : s.est_seconds_full);
  }
  std::vector<std::string> failures;
  report::TourProgress progress(report::TourProgress::choose(args.progress, ctx.quiet), names, est);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const TourStep& s = steps[i];
    progress.begin_step(i, s.description);
    std::string outcome;
    if (s.gpu_only && !opt.gpu) {
      measure::Record r = step_record(s, "no GPU: " + opt.gpu_reason, false);
      std::cout << "- " << s.name << ": skipped (" << *r.skipped << ")\n" << std::flush;
      outcome = "skipped (" + *r.skipped + ")";
      ctx.add(std::move(r));
    } else {
      try {
        std::vector<measure::Record> recs = s.run(ctx, opt);
        for (auto& r : recs)
          if (r.timestamp.empty()) Context::stamp(r, dev);
        const auto skipped = std::count_if(recs.begin(), recs.end(), [](const auto& r) { return r.skipped.has_value(); });
        outcome = fmt::format("done, {} records{}", recs.size(), skipped ? fmt::format(" ({} skipped)", skipped) : "");
        if (recs.size() == 1 && recs.front().skipped) outcome = "skipped (" + *recs.front().skipped + ")";  // e.g. no Vulkan
        ctx.add(std::move(recs));
      } catch (const GpuUnavailable& e) {
        ctx.add(step_record(s, std::string("no GPU: ") + e.what(), false));
        outcome = std::string("skipped (no GPU: ") + e.what() + ")";
      } catch (const std::exception& e) {
        ctx.add(step_record(s, e.what(), true));
        failures.push_back(s.name);
        outcome = std::string("FAILED: ") + e.what();
        std::cerr << "joseki run: step " << s.name << " failed: " << e.what() << std::endl;
      }
    }
    // Written after every step, so a tour cut short keeps what it measured.
    measure::write_records(records_path, {ctx.command_line, measure::utc_now_iso8601(), ctx.records});
    progress.end_step(i, outcome);
  }
  const double tour_s = progress.elapsed_s();
  progress.stop();

  std::cout << "\n## Summary\n\n" << report::summary_markdown(ctx.records) << std::flush;
  if (!args.no_report) {
    try {
      const report::ReportResult r = report::generate_report({records_path}, opt.out_dir, ctx.self_exe);
      ctx.note("report: " + r.markdown_path + (r.html_path.empty() ? "" : " and " + r.html_path) + "; " + r.plots_note);
    } catch (const std::exception& e) {
      ctx.note(std::string("joseki run: the report could not be made: ") + e.what());
      failures.push_back("report");  // a failure, not a success with a note (issue 21)
    }
  }
  ctx.note(fmt::format("joseki run: done in {:.1f} s; {} records in {}", tour_s, ctx.records.size(), records_path));
  if (!failures.empty())
    throw RunError(fmt::format("{} step(s) failed: {} (records and report are in {})", failures.size(),
                               fmt::join(failures, ", "), opt.out_dir));
}

void add_run_command(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("run", "the whole tour: device facts and ceilings, every experiment's ladder "
                                        "and the probes, with progress and tables; records and report in one folder");
  auto args = std::make_shared<RunArgs>();
  cmd->add_flag("--quick", args->tour.quick, "a first look (under a minute on an H200 host): fewer sizes and samples");
  cmd->add_option("--only", args->only, "run only these steps (names or experiment prefixes; repeatable or a,b)")
      ->delimiter(',');
  cmd->add_option("--out", args->tour.out_dir, "folder for this run's records and report (default joseki-runs/<UTC time>)");
  cmd->add_option("--progress", args->progress, "progress display on stderr: auto (a bar on a terminal, else lines), "
                                                "bar, lines, none")
      ->check(CLI::IsMember({"auto", "bar", "lines", "none"}))
      ->capture_default_str();
  cmd->add_flag("--list", args->list, "list the steps with their estimated times and exit");
  cmd->add_flag("--no-report", args->no_report, "write the records only (make the report later: joseki report DIR)");
  cmd->callback([&ctx, args] { run_tour(ctx, *args); });
}

JOSEKI_REGISTER_COMMAND(1, add_run_command);

}  // namespace
}  // namespace joseki::app
