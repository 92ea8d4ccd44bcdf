// The Vulkan reduction ladder: rung table, the rungs as the one protocol's descriptors (their
// sweeps with the seed's tie rule), the runner (measure::Runner: set up, poison, run, compare,
// time one configuration), the stream-read ceiling, records. See ladder.hpp.
//
// Rungs v1..v3 are seed 000's (wgpu/WGSL on an Apple M4: 16.7 M u32, v1 ~ 2-4 ms, v2 ~ 5-15 ms,
// v3 ~ 1-2 ms, 50-65 GB/s); v4..v6 continue the CUDA ladder's r04..r06 in Vulkan. Predictions
// and outcomes: docs/VULKAN.md (the H200's figures: device call 1 of 2026-12-01).
#include "experiments/reduce_vulkan/ladder.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "experiments/reduce/cpu_sum.hpp"
#include "experiments/reduce/workload.hpp"
#include "measure/errors.hpp"
#include "measure/needs.hpp"
#include "measure/sweep.hpp"

#ifdef JOSEKI_HAVE_VULKAN
#include "backend/vulkan/context.hpp"
#include "experiments/reduce_vulkan/shaders.hpp"
#include "experiments/reduce_vulkan/vk_runner.hpp"
#endif

namespace joseki::reduce_vk {

const std::vector<VkRung>& vk_rungs() {
  static const std::vector<VkRung> v = [] {
    std::vector<VkRung> r;
    r.push_back({"vk_v1_atomic", 1, "v1", "one atomicAdd per element (one invocation per element)", "", "v1_atomic",
                 true, false, true, false, false, ""});
    r.push_back({"vk_v2_tree", 2, "v2", "workgroup-memory tree, 1 element per invocation, 1 atomic per workgroup",
                 "vk_v1_atomic", "v2_tree", true, false, true, false, false, ""});
    r.push_back({"vk_v3_coarsen", 3, "v3", "grid-stride register sums + workgroup tree (swept: block x workgroups)",
                 "vk_v2_tree", "v3_coarsen", false, false, true, false, true, ""});
    r.push_back({"vk_v4_subgroup", 4, "v4", "grid-stride + subgroupAdd, one partial per subgroup", "vk_v3_coarsen",
                 "v4_subgroup", false, true, true, false, false, "vk_v3_coarsen"});
    r.push_back({"vk_v5_vec4", 5, "v5", "uvec4 loads, unroll in flight + subgroupAdd (+ output fill; swept: workgroups x unroll)",
                 "vk_v4_subgroup", "v5_vec4", false, true, true, true, true, ""});
    r.push_back({"vk_v6_single_pass", 6, "v6", "v5 + last-workgroup-done ticket: one dispatch, no fill, no spinning",
                 "vk_v5_vec4", "v6_single_pass", false, true, false, true, false, "vk_v5_vec4"});
    return r;
  }();
  return v;
}

const VkRung& find_vk_rung(const std::string& name) {
  for (const VkRung& r : vk_rungs())
    if (r.slug == name || r.seed_name == name || std::to_string(r.rung) == name || "vk_" + r.seed_name == name)
      return r;
  std::string known;
  for (const VkRung& r : vk_rungs()) known += (known.empty() ? "" : ", ") + r.slug;
  throw InputError(fmt::format("--rungs: '{}' is not a Vulkan rung (known: {})", name, known));
}

#ifdef JOSEKI_HAVE_VULKAN
bool built_with_vulkan() { return true; }
#else
bool built_with_vulkan() { return false; }
#endif

namespace {

std::vector<const VkRung*> selected(const VkRunOptions& opt) {
  if (!opt.rungs.empty()) return opt.rungs;
  std::vector<const VkRung*> v;
  for (const VkRung& r : vk_rungs()) v.push_back(&r);
  return v;
}

// The seed's configuration: block 256; one invocation per element (v1, v2: the seed's
// @workgroup_size(256)), else up to 1024 workgroups; v5, v6 4 loads in flight.
measure::Point default_config(const VkRung& r, std::size_t n) {
  measure::Point p;
  p.set("block", std::int64_t{256});
  const std::size_t groups = (n + 255) / 256;
  p.set("groups", static_cast<std::int64_t>(r.per_element ? groups : std::clamp<std::size_t>(groups, 1, 1024)));
  if (r.vec4) p.set("unroll", std::int64_t{4});
  return p;
}

// The seed's tie rule: within 2 % of the fastest, prefer fewer invocations (more work per
// invocation, fewer partial sums). v5's sweep uses 1 % (as the CUDA ladder's bandwidth rungs: the
// goals there are 1-2 % effects).
measure::TieRule seed_tie_rule(double tolerance) {
  measure::TieRule t;
  t.tolerance = tolerance;
  t.preference = "fewer invocations (block x groups): more work per invocation, fewer partial sums";
  t.prefer = [](const measure::Point& a, const measure::Point& b) {
    return a.get_int("block") * a.get_int("groups") < b.get_int("block") * b.get_int("groups");
  };
  return t;
}

// v3: the seed's sweep over the workgroup count (and the block); v5: workgroups x loads in flight.
measure::Sweep sweep_of(const VkRung& r, std::size_t n) {
  measure::Sweep s;
  if (r.vec4)
    s.add_int_axis("block", {256}).add_int_axis("groups", {16, 64, 256, 1024, 2048, 4096}).add_int_axis("unroll", {2, 4, 8});
  else
    s.add_int_axis("block", {128, 256, 512}).add_int_axis("groups", {16, 64, 256, 1024, 4096, 16384});
  const std::size_t per_inv = r.vec4 ? 4 : 1;  // elements per invocation per iteration
  s.skip_if([n, per_inv](const measure::Point& p) -> std::optional<std::string> {
    const std::int64_t inv = p.get_int("block") * p.get_int("groups");
    if (inv * static_cast<std::int64_t>(per_inv) > static_cast<std::int64_t>(std::max<std::size_t>(n, 1)))
      return fmt::format("more invocations ({}) than {} ({})", inv, per_inv > 1 ? "uvec4 words" : "elements",
                         n / per_inv);
    return std::nullopt;
  });
  return s;
}

// The Vulkan rungs at size n as the one protocol's descriptors (impl: the VkRung).
measure::Ladder ladder_at(const std::vector<const VkRung*>& rungs, std::size_t n) {
  measure::Ladder lad{reduce::EXPERIMENT, {}};
  for (const VkRung* r : rungs) {
    measure::RungSpec s;
    s.id = r->seed_name;
    s.slug = r->slug;
    s.technique = r->technique;
    s.predecessor = r->predecessor;
    s.position = r->rung;
    s.backend = "vulkan";
    s.defaults = default_config(*r, n);
    if (r->swept) {
      s.sweep = sweep_of(*r, n);
      s.tie_rule = seed_tie_rule(r->vec4 ? 0.01 : 0.02);
    }
    s.config_from = r->config_from;
    s.output = r->fills_output ? "out[0] = the sum (zeroed by the command first)" : "out[0] = the sum, written whole";
    s.impl = r;
    lad.rungs.push_back(std::move(s));
  }
  return lad;
}

// What the report reads of a Vulkan record: the seed's name, and where a row's configuration came from.
void annotate(measure::Record& rec, const measure::Ladder& lad, const VkRunOptions& opt) {
  const measure::RungSpec* s = lad.find(rec.variant);
  if (!s) return;
  const VkRung& r = *std::any_cast<const VkRung*>(s->impl);
  rec.extra["seed_name"] = r.seed_name;
  if (!rec.ladder.sweep.empty() || rec.rung < 0) return;
  const std::string src = r.config_from.empty() ? r.slug : r.config_from;
  const measure::RungSpec* from = lad.find(src);
  rec.extra["config"] = r.per_element                        ? "one invocation per element"
                        : opt.sweep && from && from->sweep ? "sweep choice of " + src + " (tie rule)"
                                                             : "default";
}

// Every rung a skipped record (and a skipped validation) saying why there is no Vulkan runner.
void add_skipped(const VkRunOptions& opt, const std::vector<measure::Mode>& modes, const std::string& why,
                 VkRunResult& out) {
  out.skip_reason = why;
  reduce::LadderOut sink{out.records, out.validations, out.failures, {}};
  for (std::size_t n : opt.sizes) {
    const measure::Ladder lad = ladder_at(selected(opt), n);
    for (std::size_t off : opt.offsets)
      for (measure::Mode mode : modes) {
        measure::LadderOptions lo;
        lo.modes = {mode};
        lo.validate_only = opt.validate_only;
        lo.workload.set("n", static_cast<std::int64_t>(n)).set("offset", static_cast<std::int64_t>(off));
        lo.no_runner_because["vulkan"] = why;
        measure::LadderResult res = measure::run_ladder(lad, {}, lo);
        for (std::size_t i = reduce::merge_ladder_run(res, nullptr, n, off, 0, sink); i < out.records.size(); ++i)
          annotate(out.records[i], lad, opt);
      }
  }
}

std::vector<measure::Mode> modes_of(const VkRunOptions& opt) {  // validation alone: once
  if (!opt.validate_only) return opt.modes;
  return {opt.modes.empty() ? measure::Mode::Cold : opt.modes.front()};
}

}  // namespace

#ifndef JOSEKI_HAVE_VULKAN

VkRunResult run_ladder(const VkRunOptions& opt) {
  VkRunResult out;
  add_skipped(opt, modes_of(opt),
              "no Vulkan: this joseki was built without the Vulkan backend (JOSEKI_VULKAN=OFF, or the headers, "
              "volk or glslc were missing at build time)",
              out);
  return out;
}

VkDevices list_devices() {
  VkDevices d;
  d.reason = "this joseki was built without the Vulkan backend";
  return d;
}

#else

VkDevices list_devices() {
  VkDevices d;
  const vk::Availability a = vk::availability();
  d.ok = a.ok;
  d.reason = a.reason;
  d.loader = a.loader;
  for (const vk::Facts& f : a.devices) d.devices.push_back({f.index, vk::to_json(f)});
  return d;
}

// ---- VkRunner ----

std::string Config::label() const { return point().label(); }

measure::Point Config::point() const {
  measure::Point p;
  p.set("block", std::int64_t{block}).set("groups", std::int64_t{groups});
  if (unroll) p.set("unroll", std::int64_t{unroll});
  return p;
}

Config Config::of(const measure::Point& p) {
  Config c;
  c.block = static_cast<std::uint32_t>(p.get_int("block"));
  c.groups = static_cast<std::uint32_t>(p.get_int("groups"));
  c.unroll = p.has("unroll") ? static_cast<std::uint32_t>(p.get_int("unroll")) : 0;
  return c;
}

constexpr std::uint32_t MAX_SINGLE_PASS_GROUPS = 65536;

std::size_t auto_flush_bytes(const vk::Facts& f) {
  if (f.is_cpu()) {  // a CPU device: its caches are the host's
    const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    return std::max<std::size_t>(std::size_t{64} << 20, l3 > 0 ? 2 * static_cast<std::size_t>(l3) : 0);
  }
  // A GPU: Vulkan does not say how large its L2 is; 256 MiB is over 2x any L2 of today
  // (H200: 60 MiB), capped at a quarter of device memory.
  return std::min<std::size_t>(std::size_t{256} << 20, f.device_local_bytes / 4);
}

VkRunner::VkRunner(vk::Context& ctx, const VkRunOptions& opt, std::size_t words)
    : m_ctx(ctx), m_opt(opt), m_words(words) {
  const vk::Facts& f = ctx.facts();
  const std::size_t bytes = words * sizeof(std::uint32_t);
  if (bytes > f.max_storage_range)
    throw InputError(fmt::format("--n: {} words ({} bytes) exceed the largest buffer a shader may bind on {} "
                                 "(maxStorageBufferRange {} bytes)",
                                 words, bytes, f.name, f.max_storage_range));
  if (words >= (std::size_t{1} << 32)) throw InputError("--n: the Vulkan rungs index with 32 bits (n + offset < 2^32)");
  m_data = vk::Buffer(ctx, bytes, vk::Memory::Device);
  m_out = vk::Buffer(ctx, 2 * sizeof(std::uint32_t), vk::Memory::Device);
  m_work = vk::Buffer(ctx, 16 + 4 * std::size_t{MAX_SINGLE_PASS_GROUPS}, vk::Memory::Device);
  m_work.fill(0);
  if (!opt.validate_only && std::count(opt.modes.begin(), opt.modes.end(), measure::Mode::Cold)) {
    m_flush_bytes = opt.flush_bytes ? opt.flush_bytes : auto_flush_bytes(f);
    m_flush = vk::Buffer(ctx, m_flush_bytes, vk::Memory::Device);
  }
}

void VkRunner::upload(const std::uint32_t* host) { m_data.upload(host, m_words * sizeof(std::uint32_t)); }

vk::Pipeline& VkRunner::pipeline(const std::string& shader, const std::vector<std::uint32_t>& spec) {
  std::string key = shader;
  for (std::uint32_t s : spec) key += "|" + std::to_string(s);
  auto& p = m_pipes[key];
  if (!p) p = std::make_unique<vk::Pipeline>(m_ctx, spirv(shader), spec, 4, shader);
  return *p;
}

std::optional<std::string> VkRunner::unmet(const VkRung& r, const Config& c) const {
  const vk::Facts& f = m_ctx.facts();
  if (r.needs_subgroup_arithmetic && !f.subgroup_arithmetic)
    return fmt::format("{} has no subgroup arithmetic in compute shaders (subgroup ops: {})", f.name,
                       fmt::join(f.subgroup_ops, ", "));
  if (c.block > f.max_workgroup_invocations)
    return fmt::format("block {} > maxComputeWorkGroupInvocations {}", c.block, f.max_workgroup_invocations);
  // Shared memory through the one declaration of needs (measure/needs.hpp); subgroup arithmetic is
  // a Vulkan capability, not a compute capability, so it is checked from the Vulkan facts above.
  measure::DeviceFacts d;
  d.present = true;
  d.smem_per_block_optin = static_cast<std::int64_t>(f.max_shared_bytes);
  measure::Needs needs;
  needs.smem_per_block = 4 * std::int64_t{c.block} + 8;  // s_part[block] + s_total (+ s_last)
  if (auto why = measure::unmet(needs, d)) return *why;
  if ((c.block & (c.block - 1)) != 0 || c.block < 32) return fmt::format("block {} is not a power of two >= 32", c.block);
  if (!r.fills_output && c.groups > MAX_SINGLE_PASS_GROUPS)
    return fmt::format("groups {} > {} (the single pass's partials buffer)", c.groups, MAX_SINGLE_PASS_GROUPS);
  if (!r.per_element && c.groups > f.max_workgroup_count[0])
    return fmt::format("groups {} > maxComputeWorkGroupCount[0] {}", c.groups, f.max_workgroup_count[0]);
  return std::nullopt;
}

vk::Record VkRunner::body(const VkRung& r, const Config& c, std::size_t n, std::size_t off) {
  vk::Pipeline& p = pipeline(r.shader, r.vec4 ? std::vector<std::uint32_t>{c.block, std::max(1u, c.unroll)}
                                              : std::vector<std::uint32_t>{c.block});
  std::uint32_t gx = c.groups, gy = 1;
  if (r.per_element) {
    const std::size_t total = (n + c.block - 1) / c.block;
    gx = static_cast<std::uint32_t>(std::min<std::size_t>(total, m_ctx.facts().max_workgroup_count[0]));
    gy = static_cast<std::uint32_t>((total + gx - 1) / gx);
  }
  const std::uint32_t push[2] = {static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(off)};
  const bool fill = r.fills_output;
  return [this, &p, gx, gy, push0 = push[0], push1 = push[1], fill](VkCommandBuffer cb) {
    if (fill) {
      vkCmdFillBuffer(cb, m_out.handle(), 0, 4, 0);
      vk::barrier(cb);
    }
    const std::uint32_t pc[2] = {push0, push1};
    p.dispatch(cb, {&m_data, &m_out, &m_data, &m_work}, pc, gx, gy);
  };
}

std::uint32_t VkRunner::read_result() {
  std::uint32_t w[2] = {0, 0};
  m_out.download(w, sizeof w);
  return w[0];
}

void VkRunner::at(std::size_t n, std::size_t off, std::uint32_t expected) {
  m_n = n;
  m_off = off;
  m_expected = expected;
}

std::optional<std::string> VkRunner::setup(const measure::RungSpec& spec, const measure::Point& config) {
  const VkRung& r = *std::any_cast<const VkRung*>(spec.impl);
  const Config c = Config::of(config);
  if (auto why = unmet(r, c)) return why;
  m_key = r.slug + "|" + config.label();
  m_body = body(r, c, m_n, m_off);
  return std::nullopt;
}

void VkRunner::poison_output() {
  const std::uint32_t poison[2] = {0xA5A5A5A5u, 0xA5A5A5A5u};
  m_out.upload(poison, sizeof poison);
}

void VkRunner::run() {
  m_ctx.run([&](VkCommandBuffer cb) {
    vk::barrier(cb);
    m_body(cb);
  });
}

std::string VkRunner::compare() {
  const std::uint32_t w = read_result();
  got[m_key] = w;
  return w == m_expected ? "" : reduce::mismatch_text(w, m_expected);
}

// The result of the last timed dispatch must still be exact (state kept across dispatches: v6's ticket).
std::string VkRunner::after_timing(measure::Record&) {
  const std::uint32_t w = read_result();
  return w == m_expected ? "" : reduce::mismatch_text(w, m_expected);
}

void VkRunner::flush() {
  if (!m_flush_bytes) return;
  ++m_round;
  m_ctx.run([&](VkCommandBuffer cb) {
    vk::barrier(cb);
    vkCmdFillBuffer(cb, m_flush.handle(), 0, VK_WHOLE_SIZE, m_round * 0x01010101u);
    vk::barrier(cb);
  });
}

measure::Measurement VkRunner::time_stream_read(std::size_t nvec, std::uint32_t groups, measure::Mode mode) {
  vk::Pipeline& p = pipeline("stream_read", {256});
  const std::uint32_t pc[2] = {static_cast<std::uint32_t>(nvec), 0u};
  auto b = [&](VkCommandBuffer cb) { p.dispatch(cb, {&m_data, &m_out, &m_data, &m_work}, pc, groups); };
  measure::PrepareFn prepare;
  if (mode == measure::Mode::Cold) prepare = [this] { flush(); };
  return measure::measure([&] { return m_ctx.time(b); }, prepare, m_opt.rule);
}

namespace {
measure::DeviceFacts device_facts_of(const vk::Facts& f) {
  measure::DeviceFacts d;
  d.present = true;
  d.index = f.index;
  d.name = f.name;
  d.warp_size = static_cast<int>(f.subgroup_size);
  d.global_mem_bytes = static_cast<std::int64_t>(f.device_local_bytes);
  d.smem_per_block_optin = static_cast<std::int64_t>(f.max_shared_bytes);
  return d;
}
}  // namespace

measure::DeviceFacts VkRunner::device() const { return device_facts_of(m_ctx.facts()); }

// ---- the ladder ----

namespace {

// The Vulkan stream-read ceiling: uvec4 loads, 4 in flight, at five workgroup counts; the
// fastest is the ceiling (every one tried is in extra["tried"]).
measure::Record measure_ceiling(VkRunner& runner, const vk::Facts& f, std::size_t n, measure::Mode mode,
                                const VkRunOptions& opt, double datasheet_Bps) {
  measure::Record rec = reduce::ceiling_record(
      CEILING, "vulkan", "ceiling: Vulkan stream-read shader (uvec4 loads, 4 in flight), same bytes, best of 5 grid sizes",
      n, 0, mode);
  const std::size_t nvec = n / 4;
  if (nvec == 0) {
    rec.skipped = "fewer than 16 bytes: nothing to stream";
    return rec;
  }
  if (opt.progress) opt.progress(fmt::format("  {} {}", CEILING, measure::to_string(mode)));
  std::optional<measure::Measurement> best;
  std::uint32_t best_g = 0;
  nlohmann::json tried = nlohmann::json::array();
  std::set<std::uint32_t> seen;
  for (std::uint32_t g : {16u, 64u, 256u, 1024u, 4096u}) {
    g = static_cast<std::uint32_t>(std::min<std::size_t>({g, (nvec + 255) / 256, f.max_workgroup_count[0]}));
    if (!seen.insert(g).second) continue;
    const measure::Measurement m = runner.time_stream_read(nvec, g, mode);
    tried.push_back({{"groups", g}, {"median_s", m.stats.median}});
    if (!best || m.stats.median < best->stats.median) {
      best = m;
      best_g = g;
    }
  }
  rec.axes.set("groups", std::int64_t{best_g});
  reduce::set_ceiling(rec, *best, 16.0 * static_cast<double>(nvec), datasheet_Bps);
  rec.extra["tried"] = tried;
  return rec;
}

// One size: the words, the runner, the ceilings, then for every offset and mode one run of the
// one ladder protocol.
void run_size(const VkRunOptions& opt, vk::Context& ctx, std::size_t n, VkRunResult& out, reduce::LadderOut& sink) {
  const std::size_t max_off = *std::max_element(opt.offsets.begin(), opt.offsets.end());
  if (opt.progress)
    opt.progress(fmt::format("reduce (Vulkan): n = {}: random data and the reference", reduce::size_label(n)));
  const reduce::HostData data = reduce::generate(n + max_off, opt.seed ^ (n * 0x9E3779B97F4A7C15ull));
  VkRunner runner(ctx, opt, n + max_off);
  runner.upload(data.data());
  const measure::Ladder lad = ladder_at(selected(opt), n);
  std::map<measure::Mode, measure::Ceiling> ceiling;
  if (!opt.validate_only)
    for (measure::Mode m : opt.modes) {
      measure::Record rec = measure_ceiling(runner, ctx.facts(), n, m, opt, out.device.datasheet_bw_Bps());
      const double bps = rec.extra.value("value", 0.0);
      ceiling[m] = {CEILING, bps > 0 ? 4.0 * static_cast<double>(n) / bps : 0.0, bps};
      out.records.push_back(std::move(rec));
    }
  for (std::size_t off : opt.offsets) {
    const std::uint32_t expected = reduce::reference_sum(data.data() + off, n);
    runner.at(n, off, expected);
    for (measure::Mode mode : modes_of(opt)) {
      measure::LadderOptions lo;
      lo.modes = {mode};
      lo.rule = opt.rule;
      lo.validate_only = opt.validate_only;
      lo.sweep = opt.sweep;
      lo.workload.set("n", static_cast<std::int64_t>(n)).set("offset", static_cast<std::int64_t>(off));
      if (const auto it = ceiling.find(mode); it != ceiling.end()) lo.ceiling = it->second;
      lo.datasheet_Bps = out.device.datasheet_bw_Bps();
      lo.progress = opt.progress;
      measure::LadderResult res = measure::run_ladder(lad, {&runner}, lo);
      for (std::size_t i = reduce::merge_ladder_run(res, &runner, n, off, expected, sink); i < out.records.size(); ++i)
        annotate(out.records[i], lad, opt);
    }
  }
}

}  // namespace

VkRunResult run_ladder(const VkRunOptions& opt) {
  VkRunResult out;
  if (opt.sizes.empty()) throw InputError("--n: no size given");
  if (opt.offsets.empty()) throw InputError("--offset: no offset given");
  const std::size_t max_off = *std::max_element(opt.offsets.begin(), opt.offsets.end());
  for (std::size_t n : opt.sizes) reduce::require_host_memory(n, max_off);
  const vk::Availability a = vk::availability();
  if (!a.ok) {
    add_skipped(opt, modes_of(opt), "no Vulkan device: " + a.reason, out);
    return out;
  }
  vk::Context ctx(opt.device);
  const vk::Facts& f = ctx.facts();
  out.device = device_facts_of(f);
  out.vulkan = vk::to_json(f);
  if (!opt.validate_only && f.timestamp_valid_bits == 0) {
    add_skipped(opt, modes_of(opt), fmt::format("{}: no timestamps on its compute queue (timestampValidBits 0)", f.name),
                out);
  } else {
    reduce::LadderOut sink{out.records, out.validations, out.failures, {}};
    for (std::size_t n : opt.sizes) run_size(opt, ctx, n, out, sink);
  }
  for (auto& r : out.records) {
    r.extra["vulkan"] = out.vulkan;
    if (!r.extra.contains("seed")) r.extra["seed"] = opt.seed;
  }
  reduce::add_ratios(out.records);
  return out;
}

#endif

}  // namespace joseki::reduce_vk
