// The Vulkan backend's commands (issue 16):
//   joseki reduce --backend vulkan ...   the reduction ladder in Vulkan compute (run_vulkan_reduce)
//   joseki vulkan devices                the Vulkan devices and their facts, or why there are none
//   joseki vulkan probes [--n N]         the cost probes, the cost-ratio profile, predicted vs measured ranking
// Without Vulkan (no loader, no device, or a build without it) every rung and probe is a skipped
// record saying why, exit 0; a wrong result exits 1.
#include <iostream>
#include <random>

#include <fmt/format.h>

#include "app/context.hpp"
#include "app/reduce_vulkan.hpp"
#include "experiments/reduce/workload.hpp"
#include "experiments/reduce_vulkan/ladder.hpp"
#include "experiments/reduce_vulkan/probes.hpp"
#include "measure/errors.hpp"
#include "measure/table.hpp"

namespace joseki::app {

namespace {

using measure::Record;

// The probes' table (the ladder prints through print_ladder_tables).
std::string median_cell(const Record& r) {
  if (r.validation.rfind("failed", 0) == 0) return "FAILED: " + r.validation.substr(8);
  if (r.skipped) return "skipped: " + *r.skipped;
  return r.summary ? measure::format_time(r.summary->median) : "-";
}

std::string gbs(const Record& r) {
  return r.throughput && r.throughput->bytes_per_s > 0 && !r.skipped ? fmt::format("{:.2f}", r.throughput->bytes_per_s / 1e9)
                                                                     : "";
}

std::string vk_header(const reduce_vk::VkRunResult& res) {
  if (!res.skip_reason.empty()) return "Vulkan device: none (" + res.skip_reason + ")";
  const auto& v = res.vulkan;
  return fmt::format("Vulkan device {}: {} ({}), Vulkan {}, driver {} {} {}, subgroup size {}, timestampPeriod {} ns",
                     v.value("index", 0), v.value("name", ""), v.value("device_type", ""), v.value("api_version", ""),
                     v.value("driver_name", ""), v.value("driver_version", ""), v.value("driver_info", ""),
                     v.value("subgroup_size", 0), v.value("timestamp_period_ns", 0.0));
}

void print_tables(const reduce_vk::VkRunOptions& o, const reduce_vk::VkRunResult& res) {
  std::cout << vk_header(res) << "\n\n";
  print_ladder_tables(res.records, o.sizes, o.offsets, o.modes, "reduce (Vulkan)");
  for (std::size_t n : o.sizes)
    for (std::size_t off : o.offsets)
      for (measure::Mode mode : o.modes) {  // the seed's question: which rung wins here
        std::vector<std::pair<std::string, double>> times;
        for (const Record& r : res.records)
          if (r.mode == measure::to_string(mode) && r.axes.get_int("n") == static_cast<std::int64_t>(n) &&
              r.axes.get_int("offset") == static_cast<std::int64_t>(off) && r.is_ladder_row() && r.rung >= 0)
            times.emplace_back(r.extra.value("seed_name", r.variant), r.summary->median);
        if (!times.empty())
          std::cout << fmt::format("ranking (fastest first), n = {}, offset {}, {}: {}\n\n", reduce::size_label(n), off,
                                   measure::to_string(mode), reduce_vk::ranking_text(times));
      }
}

void print_validations(const reduce_vk::VkRunResult& res) {
  std::cout << vk_header(res) << "\n\n";
  print_validation_table(res.validations, "reduce (Vulkan)");
}

void print_list() {
  measure::Table t({"Rung", "seed", "Technique", "Previous", "Backend", "Needs"});
  for (const auto& r : reduce_vk::vk_rungs())
    t.add_row({r.slug, r.seed_name, r.technique, r.predecessor.empty() ? "-" : r.predecessor, "vulkan",
               r.needs_subgroup_arithmetic ? "subgroup arithmetic in compute" : "none"});
  std::cout << t.markdown() << "\n";
  const reduce_vk::VkDevices d = reduce_vk::list_devices();
  if (!d.ok) {
    std::cout << "Vulkan devices: none (" << d.reason << ")\n";
    return;
  }
  for (const auto& l : d.devices)
    std::cout << fmt::format("Vulkan device {}: {} ({}), Vulkan {}, subgroup size {}\n", l.index,
                             l.facts.value("name", ""), l.facts.value("device_type", ""),
                             l.facts.value("api_version", ""), l.facts.value("subgroup_size", 0));
}


void add_vulkan_command(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("vulkan", "the Vulkan backend: its devices, and the cost probes of the reduction "
                                           "ladder in Vulkan compute (the ladder itself: joseki reduce --backend vulkan)");
  cmd->require_subcommand(1);
  auto* dev = cmd->add_subcommand("devices", "list the Vulkan devices and their facts, or say why there are none");
  dev->callback([] {
    const reduce_vk::VkDevices d = reduce_vk::list_devices();
    if (!d.ok) {
      std::cout << "Vulkan devices: none (" << d.reason << ")\n";
      return;
    }
    std::cout << d.loader << "\n";
    for (const auto& l : d.devices) std::cout << "device " << l.index << ": " << l.facts.dump() << "\n";
  });
  struct ProbeArgs {
    std::string n = "2^24";
    std::uint64_t seed = 0;
    bool sweep = false;
    measure::StoppingRule rule;
  };
  auto pa = std::make_shared<ProbeArgs>();
  auto* pr = cmd->add_subcommand("probes", "same-address atomics (uniform and opaque address per element, one lone "
                                           "atomic per subgroup), workgroup-barrier cost, coalesced vs strided reads, "
                                           "the fixed head of a timed dispatch; the cost-ratio profile and the "
                                           "v1/v2/v3 ranking it predicts, against the measured ranking");
  pr->add_option("--n", pa->n, "elements for the atomic and read probes and the ladder (default 2^24)");
  pr->add_option("--seed", pa->seed, "random seed of the input (default: fresh each run)");
  pr->add_flag("--sweep", pa->sweep, "sweep v3 in the measured ladder (the seed's sweep and tie rule)");
  add_rule_options(pr, pa->rule);
  pr->callback([&ctx, pa] {
    reduce_vk::VkProbeOptions o;
    o.n = reduce::parse_size(pa->n);
    o.rule = pa->rule;
    o.rule.validate();
    o.device = ctx.device;
    o.seed = pa->seed ? pa->seed : (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
    o.sweep = pa->sweep;
    o.progress = [&ctx](const std::string& l) { ctx.note(l); };
    reduce_vk::VkProbeResult res = reduce_vk::run_probes(o);
    for (Record& r : res.records) Context::stamp(r, res.device);
    if (!res.skip_reason.empty()) {
      std::cout << "Vulkan probes: skipped (" << res.skip_reason << ")\n";
    } else {
      std::cout << fmt::format("Vulkan device {}: {}\n\n## Vulkan cost probes (hot)\n\n", res.device.index, res.device.name);
      measure::Table t({"Probe", "median", "GB/s", "status", "what"});
      for (const Record& r : res.records)
        if (r.experiment == reduce_vk::PROBE_EXPERIMENT && r.scope_is(measure::Scope::GpuCompute))
          t.add_row({r.variant, median_cell(r), gbs(r), r.validation, r.technique});
      std::cout << t.markdown() << "\n## cost-ratio profile\n\n";
      measure::Table p({"Cost / ratio", "value", "what"});
      for (const auto& row : res.rows)
        p.add_row({row.name,
                   row.unit == "s" ? (row.value < 1e-8 ? fmt::format("{:.3g} ns", row.value * 1e9) : measure::format_time(row.value))
                                   : fmt::format("{:.3g} {}", row.value, row.unit),
                   row.what});
      std::cout << p.markdown() << "\n";
      for (const auto& l : res.predictions) std::cout << "- " << l << "\n";
      std::cout << "\npredicted ranking (fastest first): " << res.predicted_ranking
                << "\nmeasured ranking  (fastest first): "
                << (res.measured_ranking.empty() ? "unavailable" : res.measured_ranking) << "\nverdict: "
                << (res.measured_ranking.empty() ? "unknown"
                                                 : res.measured_ranking == res.predicted_ranking ? "holds (the cost ratios explain the ranking)"
                                                                                                 : "does not hold")
                << "\n";
    }
    ctx.add(std::move(res.records));
    if (!res.failures.empty())
      throw ValidationError(fmt::format("vulkan probes: {} failure(s); first: {}", res.failures.size(), res.failures.front()));
  });
}

JOSEKI_REGISTER_COMMAND(21, add_vulkan_command);

}  // namespace

void run_vulkan_reduce(Context& ctx, const VulkanReduceArgs& a) {
  if (a.list) return print_list();
  reduce_vk::VkRunOptions o;
  o.sizes = a.sizes;
  o.offsets = a.offsets;
  o.modes = a.modes;
  for (const auto& s : a.rungs) o.rungs.push_back(&reduce_vk::find_vk_rung(s));
  o.sweep = a.sweep;
  o.validate_only = a.validate_only;
  o.rule = a.rule;
  o.device = ctx.device;
  o.seed = a.seed;
  o.progress = [&ctx](const std::string& l) { ctx.note(l); };
  reduce_vk::VkRunResult res = reduce_vk::run_ladder(o);
  record_ladder_run(ctx, res.records, res.device, [&] { o.validate_only ? print_validations(res) : print_tables(o, res); });
  if (!res.failures.empty())
    throw ValidationError(fmt::format("reduce (Vulkan): {} failure(s); first: {}", res.failures.size(), res.failures.front()));
}

}  // namespace joseki::app
