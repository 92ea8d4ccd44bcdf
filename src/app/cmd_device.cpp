// `joseki device`: the GPU's facts and its measured ceilings.
#include <iostream>

#include <fmt/format.h>

#include "app/context.hpp"
#include "backend/gpu.hpp"
#include "measure/build_info.hpp"
#include "measure/errors.hpp"
#include "measure/needs.hpp"
#include "measure/program_scope.hpp"
#include "measure/spawn.hpp"
#include "measure/table.hpp"
#include "report/tables.hpp"

namespace joseki::app {

namespace {

// The costs `abc471g --solver auto` decides with (fixed GPU costs, per-element rates) are calibrated
// here too, in a child process (`joseki abc471g calibrate`), so that `joseki device` stays
// independent of the experiment and a failure there does not spoil the ceilings.
void calibrate_solvers(CLI::App& app, Context& ctx, bool skip) {
  bool have = false;
  for (const CLI::App* sub : app.get_subcommands({})) have = have || sub->get_name() == "abc471g";
  if (skip || !have) return;
  ctx.note("calibrating the ABC471G solvers' costs for --solver auto (joseki abc471g calibrate, ~30 s) ...");
  measure::SpawnOptions so;
  so.argv = {ctx.self_exe, "--quiet", "--device", std::to_string(ctx.device), "abc471g", "calibrate"};
  so.timeout_s = 300;
  so.want_report = false;
  const measure::ExternalResult r = measure::run_external(so);
  if (r.exit_code == 0)
    std::cout << "Calibrated the ABC471G solver costs (`joseki abc471g calibrate`; used by --solver auto) in "
              << measure::format_time(r.external_s) << ".\n" << std::endl;
  else
    std::cout << "Calibration of the ABC471G solver costs failed (exit " << r.exit_code
              << "); `--solver auto` keeps its built-in estimates. Run `joseki abc471g calibrate` to see why.\n"
              << std::endl;
}

void add_device_command(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("device", "print the GPU's facts and measure its ceilings "
                                           "(copy and read bandwidth, launch latency, host<->device copies, "
                                           "context creation); also calibrates the costs `abc471g --solver auto` "
                                           "decides with");
  struct Opts {
    bool facts_only = false;
    bool context_child = false;
    bool no_calibrate = false;
    measure::StoppingRule rule;
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_flag("--facts-only", opts->facts_only, "print the facts, measure nothing");
  cmd->add_flag("--context-child", opts->context_child, "(internal) create a CUDA context and exit")
      ->group("");
  cmd->add_flag("--no-calibrate", opts->no_calibrate,
                "skip the cost calibration that `abc471g --solver auto` uses (`joseki abc471g calibrate`)");
  add_rule_options(cmd, opts->rule);
  cmd->callback([&ctx, &app, opts] {
    if (opts->context_child) {
      const double t0 = measure::ProgramScope::elapsed_s();
      const gpu::Availability a = gpu::availability();
      const double t1 = measure::ProgramScope::elapsed_s();
      measure::ProgramScope::add("device_count", t1 - t0);
      if (!a.ok) throw GpuUnavailable(a.reason);
      gpu::create_context_only(ctx.device);
      measure::ProgramScope::add("context_create", measure::ProgramScope::elapsed_s() - t1);
      return;
    }
    // The calibration first: its child measures the GPU's fixed cost idle only while no process
    // holds a context, and this process creates one as soon as it reads the device facts.
    if (!opts->facts_only) calibrate_solvers(app, ctx, opts->no_calibrate);
    const measure::DeviceFacts d = gpu::device_facts(ctx.device);
    std::cout << "## Device " << ctx.device << "\n\n" << report::facts_table(d) << std::endl;
    if (opts->facts_only) return;
    ctx.note("measuring ceilings (about 20 s) ...");
    gpu::CeilingOptions co;
    co.rule = opts->rule;
    co.self_exe = ctx.self_exe;
    auto recs = gpu::measure_ceilings(ctx.device, co);
    std::cout << "## Measured ceilings\n\n" << report::ceilings_table(recs) << std::endl;
    ctx.add(std::move(recs));
  });
}

JOSEKI_REGISTER_COMMAND(10, add_device_command);

std::vector<measure::Record> tour_device(Context& ctx, const TourOptions& opt) {
  if (!opt.gpu) return {};
  const measure::DeviceFacts d = gpu::device_facts(ctx.device);
  std::cout << "## Device " << ctx.device << "\n\n" << report::facts_table(d) << std::endl;
  gpu::CeilingOptions co;
  co.rule = opt.rule;
  co.self_exe = ctx.self_exe;
  co.include_context_creation = true;
  auto recs = gpu::measure_ceilings(ctx.device, co);
  std::cout << "## Measured ceilings\n\n" << report::ceilings_table(recs) << std::endl;
  return recs;
}

JOSEKI_REGISTER_TOUR_STEP(device, "device", "device facts and measured ceilings", 10, 5, 9, tour_device, true);

}  // namespace
}  // namespace joseki::app
