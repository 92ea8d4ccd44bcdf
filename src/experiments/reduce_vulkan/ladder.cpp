// The Vulkan reduction ladder: rung table, the runner (validate / time one configuration), the
// v3 sweep with the seed's tie rule, the stream-read ceiling, records. See ladder.hpp.
//
// Rungs v1..v3 are seed 000's (wgpu/WGSL on an Apple M4: 16.7 M u32, v1 ~ 2-4 ms, v2 ~ 5-15 ms,
// v3 ~ 1-2 ms, 50-65 GB/s); v4..v6 continue the CUDA ladder's r04..r06 in Vulkan. Predictions
// and outcomes: docs/VULKAN.md (H200: not yet measured on the H200 at the time of writing).
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

measure::Record base_record(const VkRung& r, std::size_t n, std::size_t off, const std::string& mode) {
  measure::Record rec;
  rec.experiment = reduce::EXPERIMENT;
  rec.variant = r.slug;
  rec.rung = r.rung;
  rec.technique = r.technique;
  rec.backend = "vulkan";
  rec.scope = "GPU_COMPUTE";
  rec.mode = mode;
  rec.axes.set("n", static_cast<std::int64_t>(n));
  rec.axes.set("offset", static_cast<std::int64_t>(off));
  if (!r.predecessor.empty()) rec.ladder.previous = r.predecessor;
  rec.extra["seed_name"] = r.seed_name;
  return rec;
}

std::vector<const VkRung*> selected(const VkRunOptions& opt) {
  if (!opt.rungs.empty()) return opt.rungs;
  std::vector<const VkRung*> v;
  for (const VkRung& r : vk_rungs()) v.push_back(&r);
  return v;
}

void add_skipped(const VkRunOptions& opt, const std::string& why, VkRunResult& out) {
  out.skip_reason = why;
  for (std::size_t n : opt.sizes)
    for (std::size_t off : opt.offsets)
      for (const VkRung* r : selected(opt)) {
        if (opt.validate_only) {
          reduce::ValidationRow row;
          row.variant = r->slug;
          row.n = n;
          row.offset = off;
          row.ok = true;
          row.message = "skipped: " + why;
          out.validations.push_back(row);
          continue;
        }
        for (measure::Mode m : opt.modes) {
          measure::Record rec = base_record(*r, n, off, measure::to_string(m));
          rec.skipped = why;
          out.records.push_back(std::move(rec));
        }
      }
}

}  // namespace

#ifndef JOSEKI_HAVE_VULKAN

VkRunResult run_ladder(const VkRunOptions& opt) {
  VkRunResult out;
  add_skipped(opt, "no Vulkan: this joseki was built without the Vulkan backend (JOSEKI_VULKAN=OFF, or the headers, "
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

std::string Config::label() const {
  return unroll ? fmt::format("block={} groups={} unroll={}", block, groups, unroll)
                : fmt::format("block={} groups={}", block, groups);
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

reduce::ValidationRow VkRunner::validate(const VkRung& r, const Config& c, std::size_t n, std::size_t off,
                                         std::uint32_t expected) {
  reduce::ValidationRow row;
  row.variant = r.slug;
  row.n = n;
  row.offset = off;
  row.config = c.label();
  row.expected = expected;
  const std::string key = fmt::format("{}|{}|{}|{}", r.slug, row.config, n, off);
  if (const auto it = m_validated.find(key); it != m_validated.end()) return it->second;
  if (auto why = unmet(r, c)) {
    row.ok = true;
    row.message = "skipped: " + *why;
    return m_validated[key] = row;
  }
  const vk::Record b = body(r, c, n, off);
  for (int run = 1; run <= 2; ++run) {
    const std::uint32_t poison[2] = {0xA5A5A5A5u, 0xA5A5A5A5u};
    m_out.upload(poison, sizeof poison);
    m_ctx.run([&](VkCommandBuffer cb) {
      vk::barrier(cb);
      b(cb);
    });
    row.got = read_result();
    row.ok = row.got == expected;
    if (!row.ok) {
      row.message = fmt::format("{} n={} offset={} {} (run {}, Vulkan): {}", r.slug, n, off, row.config, run,
                                reduce::mismatch_text(row.got, expected));
      break;
    }
  }
  return m_validated[key] = row;
}

measure::PrepareFn VkRunner::prepare(measure::Mode mode) {
  if (mode != measure::Mode::Cold) return {};
  return [this] {
    ++m_round;
    m_ctx.run([&](VkCommandBuffer cb) {
      vk::barrier(cb);
      vkCmdFillBuffer(cb, m_flush.handle(), 0, VK_WHOLE_SIZE, m_round * 0x01010101u);
      vk::barrier(cb);
    });
  };
}

measure::Measurement VkRunner::time(const VkRung& r, const Config& c, std::size_t n, std::size_t off,
                                    measure::Mode mode) {
  const vk::Record b = body(r, c, n, off);
  return measure::measure([&] { return m_ctx.time(b); }, prepare(mode), m_opt.rule);
}

measure::Measurement VkRunner::time_stream_read(std::size_t nvec, std::uint32_t groups, measure::Mode mode) {
  vk::Pipeline& p = pipeline("stream_read", {256});
  const std::uint32_t pc[2] = {static_cast<std::uint32_t>(nvec), 0u};
  auto b = [&](VkCommandBuffer cb) { p.dispatch(cb, {&m_data, &m_out, &m_data, &m_work}, pc, groups); };
  return measure::measure([&] { return m_ctx.time(b); }, prepare(mode), m_opt.rule);
}

// ---- the ladder ----

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

Config default_config(const VkRung& r, std::size_t n) {
  Config c;
  c.block = 256;
  c.groups = static_cast<std::uint32_t>(std::clamp<std::size_t>((n + 255) / 256, 1, 1024));
  if (r.vec4) c.unroll = 4;
  return c;
}

// The seed's sweep: workgroup count (and block), every point timed; its tie rule: within 2 % of
// the fastest, prefer fewer invocations (more work per invocation, fewer partial sums). v5's
// sweep uses 1 % (as the CUDA ladder's bandwidth rungs: the goals there are 1-2 % effects).
measure::TieRule seed_tie_rule(double tolerance) {
  measure::TieRule t;
  t.tolerance = tolerance;
  t.preference = "fewer invocations (block x groups): more work per invocation, fewer partial sums";
  t.prefer = [](const measure::Point& a, const measure::Point& b) {
    return a.get_int("block") * a.get_int("groups") < b.get_int("block") * b.get_int("groups");
  };
  return t;
}

class Ladder {
 public:
  Ladder(const VkRunOptions& opt, vk::Context& ctx, VkRunResult& out) : m_opt(opt), m_ctx(ctx), m_out(out) {}

  void run_size(std::size_t n) {
    const std::size_t max_off = *std::max_element(m_opt.offsets.begin(), m_opt.offsets.end());
    note(fmt::format("reduce (Vulkan): n = {}: random data and the reference", reduce::size_label(n)));
    const reduce::HostData data = reduce::generate(n + max_off, m_opt.seed ^ (n * 0x9E3779B97F4A7C15ull));
    VkRunner runner(m_ctx, m_opt, n + max_off);
    runner.upload(data.data());
    m_runner = &runner;
    std::map<std::string, double> ceiling;
    if (!m_opt.validate_only)
      for (measure::Mode m : m_opt.modes) ceiling[measure::to_string(m)] = measure_ceiling(n, m);
    for (std::size_t off : m_opt.offsets) {
      const std::uint32_t expected = reduce::reference_sum(data.data() + off, n);
      if (m_opt.validate_only) {
        for (const VkRung* r : selected(m_opt)) log(runner.validate(*r, default_config(*r, n), n, off, expected));
        continue;
      }
      for (measure::Mode mode : m_opt.modes) {
        const std::string ms = measure::to_string(mode);
        std::map<std::string, Config> chosen;  // swept rung -> the tie rule's choice
        for (const VkRung* r : selected(m_opt))
          if (r->swept && m_opt.sweep) chosen[r->slug] = sweep(*r, n, off, mode, expected, ceiling[ms]);
        for (const VkRung* r : selected(m_opt)) {
          const std::string src = r->config_from.empty() ? r->slug : r->config_from;
          const auto it = chosen.find(src);
          Config c = it != chosen.end() ? it->second : default_config(*r, n);
          if (r->vec4 && !c.unroll) c.unroll = 4;
          if (!r->vec4) c.unroll = 0;
          measure::Record rec = base_record(*r, n, off, ms);
          rec.extra["config"] = it != chosen.end() ? "sweep choice of " + src + " (tie rule)" : "default";
          if (r->per_element) {  // the seed's @workgroup_size(256), one invocation per element
            c.block = 256;
            c.groups = static_cast<std::uint32_t>((n + c.block - 1) / c.block);
            rec.extra["config"] = "one invocation per element";
          }
          measure_into(rec, *r, c, n, off, mode, expected, ceiling[ms]);
          m_out.records.push_back(std::move(rec));
        }
      }
    }
    m_runner = nullptr;
  }

 private:
  void note(const std::string& s) const {
    if (m_opt.progress) m_opt.progress(s);
  }
  void log(const reduce::ValidationRow& row) {
    const std::string key = fmt::format("{}|{}|{}|{}", row.variant, row.config, row.n, row.offset);
    if (!m_logged.insert(key).second) return;
    m_out.validations.push_back(row);
    if (!row.ok) m_out.failures.push_back(row.message);
  }

  bool measure_into(measure::Record& rec, const VkRung& r, const Config& c, std::size_t n, std::size_t off,
                    measure::Mode mode, std::uint32_t expected, double ceiling_Bps) {
    rec.axes.set("block", std::int64_t{c.block});
    rec.axes.set("groups", std::int64_t{c.groups});
    if (c.unroll) rec.axes.set("unroll", std::int64_t{c.unroll});
    const reduce::ValidationRow row = m_runner->validate(r, c, n, off, expected);
    log(row);
    if (row.message.rfind("skipped: ", 0) == 0) {
      rec.skipped = row.message.substr(9);
      return false;
    }
    if (!row.ok) {
      rec.validation = "failed: " + row.message;
      rec.skipped = "not timed: failed validation";
      return false;
    }
    note(fmt::format("  {} {} {}", r.slug, measure::to_string(mode), c.label()));
    const measure::Measurement m = m_runner->time(r, c, n, off, mode);
    const std::uint32_t after = m_runner->read_result();
    if (after != expected) {
      const std::string msg = fmt::format("{} n={} offset={} {} (Vulkan): after timing: {}", r.slug, n, off, c.label(),
                                          reduce::mismatch_text(after, expected));
      m_out.failures.push_back(msg);
      rec.validation = "failed: " + msg;
      rec.skipped = "timing discarded: wrong result after timing";
      return false;
    }
    rec.set_measurement(m);
    rec.validation = "exact";
    rec.throughput = measure::throughput({static_cast<double>(n), 4.0 * static_cast<double>(n)}, m.stats.median,
                                         m_out.device.datasheet_bw_Bps(), CEILING, ceiling_Bps);
    return true;
  }

  Config sweep(const VkRung& r, std::size_t n, std::size_t off, measure::Mode mode, std::uint32_t expected,
               double ceiling_Bps) {
    const std::string ms = measure::to_string(mode);
    note(fmt::format("  sweep {} {} n={}", r.slug, ms, n));
    measure::Sweep s;
    if (r.vec4)  // v5: the bandwidth rung, workgroups x loads in flight at block 256
      s.add_int_axis("block", {256}).add_int_axis("groups", {16, 64, 256, 1024, 2048, 4096}).add_int_axis("unroll", {2, 4, 8});
    else  // v3: the seed's sweep over the workgroup count (and the block)
      s.add_int_axis("block", {128, 256, 512}).add_int_axis("groups", {16, 64, 256, 1024, 4096, 16384});
    const std::size_t per_inv = r.vec4 ? 4 : 1;  // elements per invocation per iteration
    s.skip_if([n, per_inv](const measure::Point& p) -> std::optional<std::string> {
      const std::int64_t inv = p.get_int("block") * p.get_int("groups");
      if (inv * static_cast<std::int64_t>(per_inv) > static_cast<std::int64_t>(std::max<std::size_t>(n, 1)))
        return fmt::format("more invocations ({}) than {} ({})", inv, per_inv > 1 ? "uvec4 words" : "elements",
                           n / per_inv);
      return std::nullopt;
    });
    std::vector<measure::Candidate> cands;
    std::vector<std::size_t> index;
    for (const measure::SweepPoint& sp : s.points()) {
      measure::Record rec = base_record(r, n, off, ms);
      rec.rung = -1;
      rec.ladder.sweep = fmt::format("{}_n{}_{}{}", r.slug, n, ms, off ? fmt::format("_offset{}", off) : "");
      rec.ladder.chosen = false;
      Config c;
      c.block = static_cast<std::uint32_t>(sp.point.get_int("block"));
      c.groups = static_cast<std::uint32_t>(sp.point.get_int("groups"));
      c.unroll = sp.point.has("unroll") ? static_cast<std::uint32_t>(sp.point.get_int("unroll")) : 0;
      if (sp.skip_reason) {
        rec.axes.set("block", std::int64_t{c.block});
        rec.axes.set("groups", std::int64_t{c.groups});
        rec.skipped = *sp.skip_reason;
      } else if (measure_into(rec, r, c, n, off, mode, expected, ceiling_Bps)) {
        cands.push_back({sp.point, rec.summary->median});
        index.push_back(m_out.records.size());
      }
      m_out.records.push_back(std::move(rec));
    }
    if (cands.empty()) return default_config(r, n);
    const measure::TieChoice ch = measure::choose(seed_tie_rule(r.vec4 ? 0.01 : 0.02), cands);
    measure::Record& win = m_out.records[index[ch.chosen]];
    win.ladder.chosen = true;
    win.ladder.tie_rule = ch.explanation;
    Config c;
    c.block = static_cast<std::uint32_t>(cands[ch.chosen].point.get_int("block"));
    c.groups = static_cast<std::uint32_t>(cands[ch.chosen].point.get_int("groups"));
    if (cands[ch.chosen].point.has("unroll")) c.unroll = static_cast<std::uint32_t>(cands[ch.chosen].point.get_int("unroll"));
    return c;
  }

  // The Vulkan stream-read ceiling: uvec4 loads, 4 in flight, at five workgroup counts; the
  // fastest is the ceiling (all three are recorded in extra["tried"]).
  double measure_ceiling(std::size_t n, measure::Mode mode) {
    const std::string ms = measure::to_string(mode);
    measure::Record rec;
    rec.experiment = reduce::EXPERIMENT;
    rec.variant = CEILING;
    rec.rung = -1;
    rec.technique = "ceiling: Vulkan stream-read shader (uvec4 loads, 4 in flight), same bytes, best of 5 grid sizes";
    rec.backend = "vulkan";
    rec.scope = "GPU_COMPUTE";
    rec.mode = ms;
    rec.axes.set("n", static_cast<std::int64_t>(n));
    rec.axes.set("offset", std::int64_t{0});
    const std::size_t nvec = n / 4;
    double best = 0;
    if (nvec == 0) {
      rec.skipped = "fewer than 16 bytes: nothing to stream";
    } else {
      note(fmt::format("  {} {}", CEILING, ms));
      std::optional<measure::Measurement> best_m;
      std::uint32_t best_g = 0;
      nlohmann::json tried = nlohmann::json::array();
      std::set<std::uint32_t> seen;
      for (std::uint32_t g : {16u, 64u, 256u, 1024u, 4096u}) {
        g = static_cast<std::uint32_t>(std::min<std::size_t>({g, (nvec + 255) / 256, m_ctx.facts().max_workgroup_count[0]}));
        if (!seen.insert(g).second) continue;
        const measure::Measurement m = m_runner->time_stream_read(nvec, g, mode);
        tried.push_back({{"groups", g}, {"median_s", m.stats.median}});
        if (!best_m || m.stats.median < best_m->stats.median) {
          best_m = m;
          best_g = g;
        }
      }
      rec.set_measurement(*best_m);
      rec.validation = "not-applicable";
      const double bytes = 16.0 * static_cast<double>(nvec);
      best = bytes / best_m->stats.median;
      rec.axes.set("groups", std::int64_t{best_g});
      rec.throughput = measure::throughput({bytes / 4, bytes}, best_m->stats.median, m_out.device.datasheet_bw_Bps(),
                                           CEILING, best);
      rec.extra["value"] = best;
      rec.extra["value_unit"] = "B/s";
      rec.extra["tried"] = tried;
    }
    m_out.records.push_back(std::move(rec));
    return best;
  }

  const VkRunOptions& m_opt;
  vk::Context& m_ctx;
  VkRunResult& m_out;
  VkRunner* m_runner = nullptr;
  std::set<std::string> m_logged;
};

}  // namespace

VkRunResult run_ladder(const VkRunOptions& opt) {
  VkRunResult out;
  if (opt.sizes.empty()) throw InputError("--n: no size given");
  if (opt.offsets.empty()) throw InputError("--offset: no offset given");
  const std::size_t max_off = *std::max_element(opt.offsets.begin(), opt.offsets.end());
  for (std::size_t n : opt.sizes) reduce::require_host_memory(n, max_off);
  const vk::Availability a = vk::availability();
  if (!a.ok) {
    add_skipped(opt, "no Vulkan device: " + a.reason, out);
    return out;
  }
  vk::Context ctx(opt.device);
  const vk::Facts& f = ctx.facts();
  out.device = device_facts_of(f);
  out.vulkan = vk::to_json(f);
  if (!opt.validate_only && f.timestamp_valid_bits == 0) {
    add_skipped(opt, fmt::format("{}: no timestamps on its compute queue (timestampValidBits 0)", f.name), out);
    return out;
  }
  Ladder ladder(opt, ctx, out);
  for (std::size_t n : opt.sizes) ladder.run_size(n);
  for (auto& r : out.records) {
    r.extra["vulkan"] = out.vulkan;
    if (!r.extra.contains("seed")) r.extra["seed"] = opt.seed;
  }
  reduce::add_ratios(out.records);
  return out;
}

#endif

}  // namespace joseki::reduce_vk
