// `joseki check`: the seed's WORK1 sanity run on the GPU.
#include <iostream>

#include "app/context.hpp"
#include "backend/gpu.hpp"
#include "measure/errors.hpp"

namespace joseki::app {
namespace {

void add_check_command(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("check", "sanity run: detect the GPU, copy in, run a small kernel, synchronize, "
                                          "copy out, verify (exit 1 when there is no GPU or driver)");
  cmd->callback([&ctx] {
    const gpu::Availability a = gpu::availability();
    if (!a.ok) throw GpuUnavailable(a.reason);
    gpu::CheckReport rep = gpu::run_check(ctx.device);
    std::cout << rep.summary << "\ncheck: OK" << std::endl;
    ctx.add(std::move(rep.records));
  });
}

JOSEKI_REGISTER_COMMAND(20, add_check_command);

std::vector<measure::Record> tour_check(Context& ctx, const TourOptions& opt) {
  if (!opt.gpu) return {};
  gpu::CheckReport rep = gpu::run_check(ctx.device);
  std::cout << rep.summary << "\n" << std::endl;
  return rep.records;
}

JOSEKI_REGISTER_TOUR_STEP(check, "check", "WORK1 sanity run", 5, 2, 2, tour_check, true);

}  // namespace
}  // namespace joseki::app
