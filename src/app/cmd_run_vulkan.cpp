// The tour's Vulkan step (issue 16): the reduction ladder in Vulkan compute and its cost probes,
// beside the CUDA steps, so that one `joseki run` on a GPU host measures both APIs and its report
// gets the "Rankings across devices and APIs" section from the records alone. Where no Vulkan
// device exists (no loader, no device, a build without the backend) the step is one skipped
// record saying why, listed under "Skipped" like the other skipped steps.
//
// Device: the first Vulkan device that is not a CPU (on the H200 host: the H200); else a CPU
// device (lavapipe), at 2^20 only -- CI's own lavapipe run covers the rest.
// Plan (GPU): full = 2^24 and 2^28 cold with the seed's v3 sweep (the sizes of the CUDA reduce
// step, so the rankings table has matching columns) + probes at 2^24; quick = 2^24 cold with the
// default knobs + probes at 2^24. Measured as a tour step on the H200 in device call 2 of 2026-12-01
// (`joseki run --quick --only check,device,reduce,vulkan`: 22.4 s, 29 Vulkan records, every rung exact).
#include <iostream>
#include <random>

#include <fmt/format.h>

#include "app/context.hpp"
#include "app/reduce_vulkan.hpp"
#include "experiments/reduce_vulkan/ladder.hpp"
#include "experiments/reduce_vulkan/probes.hpp"
#include "measure/errors.hpp"

namespace joseki::app {
namespace {

using measure::Record;

Record skipped_record(const std::string& why) {
  Record r;
  r.experiment = "vulkan";
  r.variant = "vulkan";
  r.technique = "the reduction ladder and its cost probes in Vulkan compute";
  r.backend = "vulkan";
  r.scope = to_string(measure::Scope::GpuCompute);
  r.skipped = why;
  Context::stamp(r, {});
  return r;
}

std::vector<Record> tour_vulkan(Context& ctx, const TourOptions& t) {
  const reduce_vk::VkDevices d = reduce_vk::list_devices();
  if (!d.ok || d.devices.empty())
    return {skipped_record("no Vulkan device: " + (d.reason.empty() ? std::string("none listed") : d.reason))};
  const reduce_vk::VkDeviceLine* pick = nullptr;
  for (const auto& l : d.devices)
    if (!pick && l.facts.value("device_type", "") != "cpu") pick = &l;
  const bool cpu = pick == nullptr;
  if (cpu) pick = &d.devices.front();
  const std::size_t n24 = std::size_t{1} << 24;
  VulkanReduceArgs a;
  a.sizes = cpu ? std::vector<std::size_t>{std::size_t{1} << 20}
                : t.quick ? std::vector<std::size_t>{n24} : std::vector<std::size_t>{n24, std::size_t{1} << 28};
  a.offsets = {0};
  a.modes = {measure::Mode::Cold};
  a.sweep = !cpu && !t.quick;
  a.rule = t.rule;
  a.seed = (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  ctx.note(fmt::format("vulkan: device {} ({}, {}){}", pick->index, pick->facts.value("name", ""),
                       pick->facts.value("device_type", ""), cpu ? ": a CPU device, so 2^20 only" : ""));
  const std::size_t before = ctx.records.size();
  const int saved_device = ctx.device;
  ctx.device = pick->index;  // run_vulkan_reduce takes the Vulkan device from ctx
  std::vector<std::string> failures;
  try {
    run_vulkan_reduce(ctx, a);  // prints the tables, adds the records to ctx
  } catch (const ValidationError& e) {
    failures.push_back(e.what());
  } catch (...) {
    ctx.device = saved_device;
    throw;
  }
  ctx.device = saved_device;

  reduce_vk::VkProbeOptions p;
  p.n = cpu ? std::size_t{1} << 20 : n24;
  p.rule = t.rule;
  p.device = pick->index;
  p.seed = a.seed ^ 0x9e3779b97f4a7c15ull;
  p.progress = [&ctx](const std::string& l) { ctx.note(l); };
  reduce_vk::VkProbeResult pr = reduce_vk::run_probes(p);
  for (Record& r : pr.records) Context::stamp(r, pr.device);
  if (!pr.skip_reason.empty())
    std::cout << "Vulkan probes: skipped (" << pr.skip_reason << ")\n\n";
  else
    std::cout << fmt::format("Vulkan cost probes ({}): predicted ranking {}, measured {}: {}\n\n", pr.device.name,
                             pr.predicted_ranking, pr.measured_ranking.empty() ? "unavailable" : pr.measured_ranking,
                             pr.measured_ranking.empty() ? "unknown"
                             : pr.measured_ranking == pr.predicted_ranking ? "the cost ratios explain the ranking"
                                                                           : "the prediction does not hold");
  failures.insert(failures.end(), pr.failures.begin(), pr.failures.end());
  std::vector<Record> out(ctx.records.begin() + static_cast<std::ptrdiff_t>(before), ctx.records.end());
  ctx.records.resize(before);
  out.insert(out.end(), pr.records.begin(), pr.records.end());
  if (!failures.empty()) {
    ctx.add(std::move(out));  // the records stay (the tour writes them); the step fails
    throw ValidationError(fmt::format("vulkan: {} failure(s); first: {}", failures.size(), failures.front()));
  }
  return out;
}

}  // namespace

// After the CUDA reduce step (20), before the probes (100). Seconds on the H200 (estimates).
JOSEKI_REGISTER_TOUR_STEP(vulkan, "vulkan",
                          "the reduction ladder and its cost probes in Vulkan compute (skipped without a Vulkan device)",
                          25, 8, 45, tour_vulkan, false);

}  // namespace joseki::app
