// The Vulkan cost probes and the cost-ratio profile. See probes.hpp.
#include "experiments/reduce_vulkan/probes.hpp"

#include <algorithm>
#include <cmath>
#include <span>

#include <fmt/format.h>

#include "experiments/reduce/cpu_sum.hpp"
#include "experiments/reduce/workload.hpp"
#include "experiments/reduce_vulkan/ladder.hpp"
#include "measure/errors.hpp"
#include "measure/table.hpp"

#ifdef JOSEKI_HAVE_VULKAN
#include "backend/vulkan/context.hpp"
#include "experiments/reduce_vulkan/shaders.hpp"
#endif

namespace joseki::reduce_vk {

std::string ranking_text(std::vector<std::pair<std::string, double>> t) {
  std::stable_sort(t.begin(), t.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  std::string s;
  for (const auto& [name, v] : t) s += (s.empty() ? "" : " < ") + name;
  return s;
}

VkPrediction predict_ladder(const VkUnitCosts& c, double n, double g3) {
  // Additive: on a device that runs workgroups one after another per core (lavapipe) the costs
  // add; on a GPU they overlap, so the sum over-predicts the slower rungs but keeps their order
  // whenever one term dominates (docs/VULKAN.md).
  constexpr double WG = 256, LEVELS = 8;  // log2(256)
  VkPrediction p;
  const double groups2 = std::ceil(n / WG);
  const double t1 = n * c.atomic_elem_s;
  const double t2 = n * c.load_elem_s + groups2 * ((LEVELS + 1) * c.barrier_s + c.atomic_lone_s);
  const double t3 = n * c.load_elem_s + g3 * ((LEVELS + 1) * c.barrier_s + c.atomic_lone_s);
  const auto f = [](double s) { return measure::format_time(s); };
  p.times = {{"v1", t1}, {"v2", t2}, {"v3", t3}};
  p.arithmetic = {
      fmt::format("v1 = n x atomic/elem = {:.0f} x {:.3g} ns = {}", n, c.atomic_elem_s * 1e9, f(t1)),
      fmt::format("v2 = n x load {:.3g} ns + {:.0f} groups x (9 barriers x {:.3g} ns + 1 lone atomic {:.3g} ns) = {}",
                  c.load_elem_s * 1e9, groups2, c.barrier_s * 1e9, c.atomic_lone_s * 1e9, f(t2)),
      fmt::format("v3 = n x load + {:.0f} groups x (9 barriers + 1 lone atomic) = {}", g3, f(t3))};
  p.ranking = ranking_text(p.times);
  return p;
}

namespace {
// A record of the Vulkan probes: experiment, variant, technique, backend and scope.
measure::Record vk_record(const std::string& variant, const std::string& technique, measure::Scope scope) {
  measure::Record r;
  r.experiment = PROBE_EXPERIMENT;
  r.variant = variant;
  r.technique = technique;
  r.backend = "vulkan";
  r.scope = measure::to_string(scope);
  return r;
}

// No probe can run: one skipped record of the profile saying why.
VkProbeResult skipped_probes(const std::string& why) {
  VkProbeResult out;
  out.skip_reason = why;
  measure::Record r = vk_record("profile", "", measure::Scope::Value);
  r.skipped = why;
  out.records.push_back(r);
  return out;
}
}  // namespace

#ifndef JOSEKI_HAVE_VULKAN

VkProbeResult run_probes(const VkProbeOptions&) {
  return skipped_probes("no Vulkan: this joseki was built without the Vulkan backend");
}

#else

namespace {

measure::Record probe_record(const std::string& variant, const std::string& technique, std::size_t n) {
  measure::Record r = vk_record(variant, technique, measure::Scope::GpuCompute);
  r.mode = "hot";
  r.axes.set("n", static_cast<std::int64_t>(n));
  return r;
}

measure::Record value_record(const std::string& variant, const std::string& what, double v, const std::string& unit) {
  measure::Record r = vk_record(variant, what, measure::Scope::Value);
  r.unit = unit;
  r.samples = {v};
  r.summary = measure::summarize(r.samples);
  r.validation = "not-applicable";
  r.extra["value"] = v;
  r.extra["value_unit"] = unit;
  return r;
}

void add_value(VkProbeResult& out, const std::string& name, const std::string& what, double v, const std::string& unit) {
  out.records.push_back(value_record(name, what, v, unit));
  out.rows.push_back({name, v, unit, what});
}

// After the probes' context is closed (one Vulkan device open at a time): the ladder's v1..v3 at
// the same n, the prediction from the unit costs, and the verdict.
void measure_and_predict(const VkProbeOptions& o, const VkUnitCosts& c, std::size_t n, VkProbeResult& out) {
    // The measured ladder v1..v3 at the same n (hot, like the probes).
    VkRunOptions lo;
    lo.sizes = {n};
    lo.modes = {measure::Mode::Hot};
    lo.rungs = {&find_vk_rung("v1"), &find_vk_rung("v2"), &find_vk_rung("v3")};
    lo.sweep = o.sweep;
    lo.rule = o.rule;
    lo.device = o.device;
    lo.seed = o.seed;
    lo.progress = o.progress;
    VkRunResult lr = run_ladder(lo);
    out.failures.insert(out.failures.end(), lr.failures.begin(), lr.failures.end());
    std::vector<std::pair<std::string, double>> measured;
    double g3 = 1024;
    for (const measure::Record& r : lr.records)
      if (r.rung >= 1 && r.summary && !r.skipped && r.ladder.sweep.empty()) {
        measured.emplace_back(r.extra.value("seed_name", r.variant), r.summary->median);
        if (r.rung == 3) g3 = static_cast<double>(r.axes.get_int("groups"));
      }
    for (measure::Record& r : lr.records) out.records.push_back(std::move(r));
    const VkPrediction pred = predict_ladder(c, static_cast<double>(n), g3);
    for (std::size_t i = 0; i < pred.times.size(); ++i) {
      add_value(out, "predicted_" + pred.times[i].first, pred.arithmetic[i], pred.times[i].second, "s");
      out.predictions.push_back(pred.arithmetic[i]);
    }
    out.predicted_ranking = pred.ranking;
    const std::string rule = "the unit-cost ratios predict the ranking of v1 / v2 / v3 on this (device, API)";
    measure::Record v;
    v.experiment = PROBE_EXPERIMENT;
    v.variant = "verdict:prediction";
    v.technique = rule;
    v.backend = "vulkan";
    v.scope = measure::to_string(measure::Scope::Value);
    v.extra["predicted_ranking"] = pred.ranking;
    v.extra["rule"] = rule;  // the tour's summary lists verdicts by extra.rule and extra.figure
    if (measured.size() != 3) {
      v.skipped = "measured ranking unavailable: a rung of v1..v3 was not timed";
    } else {
      out.measured_ranking = ranking_text(measured);
      const bool holds = out.measured_ranking == pred.ranking;
      v.samples = {holds ? 1.0 : 0.0};
      v.summary = measure::summarize(v.samples);
      v.unit = "match";
      v.validation = "not-applicable";
      v.extra["measured_ranking"] = out.measured_ranking;
      v.extra["verdict"] = holds ? "holds" : "does not hold";
      v.extra["figure"] = "predicted " + pred.ranking + ", measured " + out.measured_ranking;
      for (const auto& [name, t] : measured) v.extra["measured_" + name + "_s"] = t;
    }
    out.records.push_back(std::move(v));
}

class Probes {
 public:
  Probes(const VkProbeOptions& o, vk::Context& ctx, VkProbeResult& out) : m_o(o), m_ctx(ctx), m_out(out) {}

  void run() {
    const std::size_t n = std::max<std::size_t>(32, m_o.n / 32 * 32);  // the strided read needs a multiple of 32
    note(fmt::format("probes (Vulkan): n = {}", reduce::size_label(n)));
    const reduce::HostData data = reduce::generate(n, m_o.seed ^ 0x5EEDull);
    const std::uint32_t expected = reduce::reference_sum(data.data(), n);
    vk::Buffer in(m_ctx, n * 4, vk::Memory::Device), out(m_ctx, 8, vk::Memory::Device),
        idx(m_ctx, n * 4, vk::Memory::Device);
    in.upload(data.data(), n * 4);
    idx.fill(0);  // the opaque address: all zero at run time, unknown to the compiler
    const auto& f = m_ctx.facts();
    const std::uint32_t total = static_cast<std::uint32_t>((n + 255) / 256);
    const std::uint32_t gx = std::min(total, f.max_workgroup_count[0]), gy = (total + gx - 1) / gx;
    const std::uint32_t pc_n[2] = {static_cast<std::uint32_t>(n), 0};

    // Same-address atomics.
    double t_atomic[2] = {0, 0};
    for (std::uint32_t mode : {0u, 1u}) {
      vk::Pipeline p(m_ctx, spirv("probe_atomic"), {256, mode}, 4, "probe_atomic");
      const vk::Record body = zeroed_dispatch(p, out, {&in, &out, &idx, &out}, pc_n, gx, gy);
      const std::string v = mode == 0 ? "atomic_uniform" : "atomic_opaque";
      t_atomic[mode] = timed(probe_record(v, mode == 0 ? "one atomicAdd per element, address the constant 0"
                                                       : "one atomicAdd per element, address read from memory (0)",
                                          n),
                             body, out, expected, n);
    }
    // The lone atomic (one per subgroup, from one lane: nothing any compiler or driver could merge),
    // where subgroup arithmetic exists; elsewhere the opaque per-element probe stands in for it.
    // Its baseline is the same shader without the atomic (MODE 1), which also reports the subgroup size the pipeline
    // ran with (word 1): the atomics are ceil(n / that size), one per (full) subgroup.
    double t_lone = 0, t_lone_base = 0;
    std::uint32_t subgroup = 0;
    if (f.subgroup_arithmetic) {
      double t[2] = {0, 0};
      for (std::uint32_t mode : {1u, 0u}) {
        vk::Pipeline p(m_ctx, spirv("probe_atomic_lone"), {256, mode}, 4, "probe_atomic_lone");
        const vk::Record body = zeroed_dispatch(p, out, {&in, &out, &in, &out}, pc_n, gx, gy);
        measure::Record r = mode == 0 ? probe_record("atomic_lone", "subgroupAdd, then one atomicAdd per subgroup from one lane", n)
                                      : probe_record("atomic_lone_base", "atomic_lone without its atomic (the baseline)", n);
        t[mode] = timed(std::move(r), body, out, mode == 0 ? expected : 0u, n);
        if (mode == 1) {
          std::uint32_t got[2] = {0, 0};
          out.download(got, sizeof got);
          subgroup = got[1];
          if (t[1] > 0 && (subgroup == 0 || subgroup > 256 || (subgroup & (subgroup - 1)) != 0)) {
            m_out.failures.push_back(fmt::format("probe atomic_lone_base (Vulkan): gl_SubgroupSize read back as {}", subgroup));
            return;
          }
        }
      }
      t_lone = t[0];
      t_lone_base = t[1];
      for (measure::Record& r : m_out.records)
        if (r.variant == "atomic_lone" || r.variant == "atomic_lone_base") r.axes.set("subgroup_size", std::int64_t{subgroup});
    }
    // Coalesced vs strided reads: K words per invocation, 16 on a GPU (enough invocations to fill
    // it), 256 on a CPU device (lavapipe), where each workgroup's tree costs microseconds and
    // would otherwise dominate the load cost.
    double t_read[2] = {0, 0};
    const std::uint32_t K = f.is_cpu() ? 256 : 16;
    for (std::uint32_t mode : {0u, 1u}) {
      vk::Pipeline p(m_ctx, spirv("probe_strided"), {256, mode, K}, 4, "probe_strided");
      const std::size_t per_group = std::size_t{256} * K;
      const std::uint32_t groups =
          static_cast<std::uint32_t>(std::min<std::size_t>((n + per_group - 1) / per_group, f.max_workgroup_count[0]));
      const std::uint32_t pc[2] = {static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(n / 32)};
      if (std::size_t{groups} * per_group < n) throw InputError(fmt::format("--n {}: too large for the read probe here", n));
      const vk::Record body = zeroed_dispatch(p, out, {&in, &out, &in, &out}, pc, groups);
      const std::string v = mode == 0 ? "read_coalesced" : "read_strided";
      measure::Record r = probe_record(v, mode == 0 ? fmt::format("{} words per invocation, neighbours read neighbouring words", K)
                                                    : fmt::format("{} words per invocation, neighbours 128 bytes apart", K),
                                       n);
      r.axes.set("words_per_invocation", std::int64_t{K});
      t_read[mode] = timed(std::move(r), body, out, expected, n);
    }
    // Barriers: workgroups of 256 (1024 on a CPU device, 16384 on a GPU, so that the difference
    // is well above the timer's noise), ITERS steps, with and without a barrier per step.
    constexpr std::uint32_t ITERS = 256;
    const std::uint32_t GROUPS = f.is_cpu() ? 1024 : 16384;
    std::uint32_t bexp = 0;
    {
      for (std::uint32_t lid = 0; lid < 256; ++lid) {
        std::uint32_t x = lid;
        for (std::uint32_t k = 0; k < ITERS; ++k) x = x * 1664525u + (data.data()[(lid + k) & 255u] ^ 0x1234u);
        bexp += x;
      }
      bexp *= GROUPS;
    }
    double t_bar[2] = {0, 0};
    for (std::uint32_t mode : {0u, 1u}) {
      vk::Pipeline p(m_ctx, spirv("probe_barrier"), {256, mode}, 4, "probe_barrier");
      const std::uint32_t pc[2] = {ITERS, 0x1234u};
      const vk::Record body = zeroed_dispatch(p, out, {&in, &out, &in, &out}, pc, GROUPS);
      measure::Record r = probe_record(mode == 1 ? "barrier" : "barrier_none",
                                       mode == 1 ? "256 steps of shared-memory arithmetic, a barrier after each"
                                                 : "the same 256 steps without barriers",
                                       std::size_t{GROUPS} * 256);
      r.axes.set("iters", std::int64_t{ITERS});
      r.axes.set("groups", std::int64_t{GROUPS});
      t_bar[mode] = timed(std::move(r), body, out, bexp, 0);
    }
    // The head: the fill, the barrier and a one-workgroup dispatch that stores one word, timed like every figure.
    double t_head = 0;
    {
      vk::Pipeline p(m_ctx, spirv("probe_head"), {256}, 4, "probe_head");
      const std::uint32_t marker = 0x600DC0DEu, pc[2] = {marker, 0};
      const vk::Record body = zeroed_dispatch(p, out, {&in, &out, &in, &out}, pc, 1);
      t_head = timed(probe_record("head", "the output filled, a barrier, one workgroup storing one word", 1), body, out,
                     marker, 0);
    }
    if (!m_out.failures.empty()) return;

    VkUnitCosts c;
    const double N = static_cast<double>(n);
    c.load_elem_s = t_read[0] / N;
    c.atomic_elem_s = t_atomic[0] / N;
    c.atomic_opaque_s = t_atomic[1] / N;
    // One lone atomic: the lone probe's time less its baseline's (the same loads and subgroup sums), over its
    // ceil(n / subgroup) atomics; 0 where the probe is not slower than its baseline (within the noise: it happened on
    // a loaded lavapipe). Without the lone probe: the opaque per-element atomic.
    const std::string lone_what =
        t_lone > 0 ? fmt::format("one same-address atomicAdd from one lane (probe atomic_lone less its baseline, over "
                                 "one atomic per subgroup of {}{})",
                                 subgroup, t_lone > t_lone_base ? "" : "; not slower than its baseline: 0")
                   : std::string("one same-address atomicAdd per element, opaque address (no subgroup arithmetic "
                                 "here for the lone probe; where a driver merges a subgroup's atomics at run time "
                                 "this under-counts a lone one)");
    if (t_lone > 0) {
      c.atomic_lone_s = std::max(0.0, (t_lone - t_lone_base) / std::ceil(N / subgroup));
    } else {
      c.atomic_lone_s = c.atomic_opaque_s;
    }
    c.barrier_s = std::max(0.0, (t_bar[1] - t_bar[0]) / (double{ITERS} * static_cast<double>(GROUPS)));
    add_value("cost:load_elem_s", "coalesced 4-byte load, device-wide time per element", c.load_elem_s, "s");
    add_value("cost:atomic_elem_s", "same-address atomicAdd per element, uniform address (v1's inner loop)",
              c.atomic_elem_s, "s");
    add_value("cost:atomic_opaque_s", "same-address atomicAdd per element, an address the compiler cannot prove uniform",
              c.atomic_opaque_s, "s");
    add_value("cost:atomic_lone_s", lone_what, c.atomic_lone_s, "s");
    add_value("cost:head_s", "what every timed figure here holds besides its shader's work (probe head)", t_head, "s");
    add_value("cost:barrier_s", "one barrier of a 256-invocation workgroup, device-wide ((with - without) / count)",
              c.barrier_s, "s");
    add_value("ratio:atomic_over_load", "same-address atomic per element / coalesced load per element",
              c.atomic_elem_s / c.load_elem_s, "x");
    add_value("ratio:opaque_over_uniform", "opaque-address atomic / uniform-address atomic (per element)",
              c.atomic_opaque_s / c.atomic_elem_s, "x");
    if (t_lone > 0)  // only from the lone probe itself: the opaque stand-in is what a driver may merge
      add_value("ratio:lone_over_uniform", "one lone atomic / one uniform-address atomic per element (what merging saves)",
                c.atomic_lone_s / c.atomic_elem_s, "x");
    add_value("ratio:barrier_over_load", "one workgroup barrier / one coalesced load (device-wide)",
              c.barrier_s / c.load_elem_s, "x");
    add_value("ratio:strided_over_coalesced", "strided (128 B apart) / coalesced reads of the same words",
              t_read[1] / t_read[0], "x");

    m_costs = c;
    m_n = n;
    m_ok = true;
  }

  bool ok() const { return m_ok; }
  const VkUnitCosts& costs() const { return m_costs; }
  std::size_t n() const { return m_n; }

 private:
  void note(const std::string& s) const {
    if (m_o.progress) m_o.progress(s);
  }
  void add_value(const std::string& name, const std::string& what, double v, const std::string& unit) {
    reduce_vk::add_value(m_out, name, what, v, unit);
  }
  // What every probe times: its two output words zeroed, a barrier, then its dispatch (the buffers, the push
  // constants and the workgroup counts are the probe's; they outlive the returned commands' use).
  static vk::Record zeroed_dispatch(vk::Pipeline& p, vk::Buffer& out, std::vector<const vk::Buffer*> bufs,
                                    std::span<const std::uint32_t> pc, std::uint32_t gx, std::uint32_t gy = 1) {
    return [&p, &out, bufs = std::move(bufs), pc, gx, gy](VkCommandBuffer cb) {
      vkCmdFillBuffer(cb, out.handle(), 0, 8, 0);
      vk::barrier(cb);
      p.dispatch(cb, bufs, pc, gx, gy);
    };
  }
  // Validates (poisoned output, twice), then times; returns the median (0 on failure).
  double timed(measure::Record r, const vk::Record& body, vk::Buffer& out, std::uint32_t expected, std::size_t n) {
    note(fmt::format("  probe {}", r.variant));
    for (int run = 1; run <= 2; ++run) {
      const std::uint32_t poison[2] = {0xA5A5A5A5u, 0xA5A5A5A5u};
      out.upload(poison, sizeof poison);
      m_ctx.run([&](VkCommandBuffer cb) {
        vk::barrier(cb);
        body(cb);
      });
      std::uint32_t got[2];
      out.download(got, sizeof got);
      if (got[0] != expected) {
        const std::string msg = fmt::format("probe {} (Vulkan, run {}): {}", r.variant, run, reduce::mismatch_text(got[0], expected));
        m_out.failures.push_back(msg);
        r.validation = "failed: " + msg;
        r.skipped = "not timed: failed validation";
        m_out.records.push_back(std::move(r));
        return 0;
      }
    }
    const measure::Measurement m = measure::measure([&] { return m_ctx.time(body); }, {}, m_o.rule);
    r.set_measurement(m);
    r.validation = "exact";
    if (n) r.throughput = measure::throughput({static_cast<double>(n), 4.0 * static_cast<double>(n)}, m.stats.median);
    m_out.records.push_back(std::move(r));
    return m.stats.median;
  }

  const VkProbeOptions& m_o;
  vk::Context& m_ctx;
  VkProbeResult& m_out;
  VkUnitCosts m_costs;
  std::size_t m_n = 0;
  bool m_ok = false;
};

}  // namespace

VkProbeResult run_probes(const VkProbeOptions& opt) {
  const vk::Availability a = vk::availability();
  if (!a.ok) return skipped_probes("no Vulkan device: " + a.reason);
  VkProbeResult out;
  reduce::require_host_memory(opt.n, 0);
  nlohmann::json facts;
  VkUnitCosts costs;
  std::size_t n = 0;
  {
    vk::Context ctx(opt.device);
    if (ctx.facts().timestamp_valid_bits == 0) throw RunError(ctx.facts().name + ": no timestamps on its compute queue");
    if (opt.n * 4 > ctx.facts().max_storage_range)
      throw InputError(fmt::format("--n {}: larger than the largest buffer a shader may bind on {} ({} bytes)", opt.n,
                                   ctx.facts().name, ctx.facts().max_storage_range));
    out.device.present = true;
    out.device.index = ctx.facts().index;
    out.device.name = ctx.facts().name;
    out.device.warp_size = static_cast<int>(ctx.facts().subgroup_size);
    Probes p(opt, ctx, out);
    p.run();
    facts = vk::to_json(ctx.facts());
    if (p.ok()) {
      costs = p.costs();
      n = p.n();
    }
  }
  if (n) measure_and_predict(opt, costs, n, out);
  for (auto& r : out.records)
    if (!r.extra.contains("vulkan")) r.extra["vulkan"] = facts;
  return out;
}

#endif

}  // namespace joseki::reduce_vk
