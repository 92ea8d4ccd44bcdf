// `joseki run`: the tour. Device facts and ceilings, then every registered experiment
// step in order, with progress on stderr, tables on stdout, and all records in one
// timestamped folder. Without a GPU the CPU paths run and each GPU step says why it
// was skipped.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "app/context.hpp"
#include "backend/gpu.hpp"
#include "measure/errors.hpp"
#include "measure/table.hpp"

namespace joseki::app {
namespace {

double now_s() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

std::string default_out_dir() {
  std::string ts = measure::utc_now_iso8601();
  std::replace(ts.begin(), ts.end(), ':', '-');
  return "joseki-runs/" + ts;
}

void add_run_command(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("run", "the whole tour: device facts and ceilings, every experiment's ladder "
                                        "and the probes, with progress and tables; records to one folder");
  auto opt = std::make_shared<TourOptions>();
  auto only = std::make_shared<std::vector<std::string>>();
  cmd->add_flag("--quick", opt->quick, "a first look: fewer sizes and samples");
  cmd->add_option("--only", *only, "run only these steps (repeatable)");
  cmd->add_option("--out", opt->out_dir, "folder for this run's records (default joseki-runs/<UTC time>)");
  cmd->callback([&ctx, opt, only] {
    auto steps = TourRegistry::all();
    std::stable_sort(steps.begin(), steps.end(), [](const auto& a, const auto& b) { return a.order < b.order; });
    for (const std::string& o : *only)
      if (std::none_of(steps.begin(), steps.end(), [&](const TourStep& s) { return s.name == o; })) {
        std::string names;
        for (const auto& s : steps) names += (names.empty() ? "" : ", ") + s.name;
        throw InputError(fmt::format("--only {}: no such step (steps: {})", o, names));
      }
    if (!only->empty())
      std::erase_if(steps, [&](const TourStep& s) {
        return std::find(only->begin(), only->end(), s.name) == only->end();
      });

    const gpu::Availability a = gpu::availability();
    opt->gpu = a.ok && ctx.device < a.device_count;
    if (a.ok && !opt->gpu)
      throw InputError(fmt::format("--device {}: out of range (this machine has {} GPUs)", ctx.device, a.device_count));
    opt->gpu_reason = a.reason;
    if (opt->quick) {
      opt->rule.min_samples = 5;
      opt->rule.timeout_s = 1.0;
    }
    if (opt->out_dir.empty()) opt->out_dir = default_out_dir();
    std::filesystem::create_directories(opt->out_dir);

    if (opt->gpu)
      ctx.note(fmt::format("joseki run: GPU {} ({}); {} steps; records in {}", ctx.device,
                           gpu::device_facts(ctx.device).name, steps.size(), opt->out_dir));
    else
      std::cout << "No GPU: " << a.reason << ". Running the CPU paths only; GPU steps are listed as skipped.\n"
                << std::endl;

    double est_total = 0;
    for (const auto& s : steps) est_total += opt->quick ? s.est_seconds_quick : s.est_seconds_full;
    double est_done = 0;
    const double t_start = now_s();
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const TourStep& s = steps[i];
      const double elapsed = now_s() - t_start;
      const double left = std::max(0.0, est_total - est_done) * (est_done > 0 ? elapsed / est_done : 1.0);
      ctx.note(fmt::format("[{}/{}] {}: {} (elapsed {:.0f} s, about {:.0f} s left)", i + 1, steps.size(), s.name,
                           s.description, elapsed, left));
      est_done += opt->quick ? s.est_seconds_quick : s.est_seconds_full;
      if (s.gpu_only && !opt->gpu) {
        measure::Record r;
        r.experiment = s.name;
        r.variant = s.name;
        r.technique = s.description;
        r.backend = "cuda";
        r.scope = "GPU_COMPUTE";
        r.skipped = "no GPU: " + opt->gpu_reason;
        Context::stamp(r, {});
        std::cout << "- " << s.name << ": skipped (" << *r.skipped << ")\n";
        ctx.add(std::move(r));
        continue;
      }
      ctx.add(s.run(ctx, *opt));
    }
    const std::string path = opt->out_dir + "/records.json";
    measure::RecordSet set{ctx.command_line, measure::utc_now_iso8601(), ctx.records};
    measure::write_records(path, set);
    ctx.note(fmt::format("joseki run: done in {:.1f} s; {} records in {}", now_s() - t_start, ctx.records.size(),
                         path));
  });
}

JOSEKI_REGISTER_COMMAND(1, add_run_command);

}  // namespace
}  // namespace joseki::app
