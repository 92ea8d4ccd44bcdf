// The harness's frame: data and reference per size, the ladder per size (ladder_at), the CPU
// runner, and for every offset and mode one run of the one ladder protocol (measure/ladder.hpp)
// per backend; then the ratios. The CUDA runner and the ceiling are in harness_gpu.cpp.
#include "experiments/reduce/harness.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include <fmt/format.h>

#include "backend/cpu/parallel.hpp"
#include "backend/gpu.hpp"
#include "experiments/reduce/cpu_sum.hpp"
#include "experiments/reduce/harness_internal.hpp"
#include "measure/errors.hpp"
#include "measure/ladder.hpp"

namespace joseki::reduce {

namespace {

volatile std::uint32_t g_sink = 0;  // keeps timed CPU sums alive

// Cold mode for CPU rungs: before each sample every thread writes its share of a buffer of
// max(64 MiB, 2 x L3), so the input is not in the CPU's caches.
class CpuCacheFlusher {
 public:
  CpuCacheFlusher() {
    const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    m_bytes = std::max<std::size_t>(std::size_t{64} << 20, l3 > 0 ? 2 * static_cast<std::size_t>(l3) : 0);
    m_buf.reset(new unsigned char[m_bytes]);
  }
  void flush() {
    constexpr std::size_t CHUNK = std::size_t{4} << 20;
    const std::size_t tasks = (m_bytes + CHUNK - 1) / CHUNK;
    ++m_round;
    cpu::ThreadPool::global().parallel_for(static_cast<std::int64_t>(tasks), [&](std::int64_t t) {
      const std::size_t b = static_cast<std::size_t>(t) * CHUNK;
      std::memset(m_buf.get() + b, m_round, std::min(CHUNK, m_bytes - b));
    });
  }

 private:
  std::unique_ptr<unsigned char[]> m_buf;
  std::size_t m_bytes = 0;
  unsigned char m_round = 0;
};

// The CPU rungs through the one ladder protocol (measure/ladder.hpp): this runner owns one
// size's input at one offset and its reference; `slow` repeats a rung's sum k times
// (JOSEKI_SLOW_VARIANT: slug -> k; `slow_all` for every rung).
class CpuSumRunner final : public SumRunner {
 public:
  CpuSumRunner(const std::uint32_t* p, std::size_t n, std::uint32_t expected, const SlowVariants* slow, int slow_all,
               CpuCacheFlusher* flusher)
      : m_p(p), m_n(n), m_expected(expected), m_slow(slow), m_slow_all(slow_all), m_flusher(flusher) {}
  std::string backend() const override { return "cpu"; }
  measure::Scope scope() const override { return measure::Scope::CpuCompute; }
  std::optional<std::string> setup(const measure::RungSpec& r, const measure::Point& config) override {
    m_fn = std::any_cast<CpuSumFn>(r.impl);
    if (!m_fn) return "no CPU function";
    m_key = r.slug + "|" + config.label();
    m_k = m_slow_all;
    if (m_slow)
      if (const auto it = m_slow->find(r.slug); it != m_slow->end()) m_k = it->second;
    return std::nullopt;
  }
  void poison_output() override { m_out = 0xA5A5A5A5u; }
  void run() override {
    for (int i = 0; i < m_k; ++i) m_out = m_fn(m_p, m_n, m_level);
  }
  std::string compare() override {
    got[m_key] = m_out;
    return m_out == m_expected ? "" : mismatch_text(m_out, m_expected);
  }
  double timed_run() override {
    const double t0 = measure::steady_seconds();
    std::uint32_t s = 0;
    for (int i = 0; i < m_k; ++i) s += m_fn(m_p, m_n, m_level);
    const double t = measure::steady_seconds() - t0;
    g_sink = s;
    return t;
  }
  void flush() override {
    if (m_flusher) m_flusher->flush();
  }
  std::string after_timing(measure::Record& rec) override {
    if (m_k > 1) rec.extra["slow_factor"] = m_k;
    rec.extra["cold_means"] =
        rec.mode == "cold" ? "CPU caches evicted (buffer written) before each sample" : "samples back to back";
    return "";
  }
  measure::Work work() const override { return {static_cast<double>(m_n), 4.0 * static_cast<double>(m_n)}; }

 private:
  const std::uint32_t* m_p;
  std::size_t m_n;
  std::uint32_t m_expected;
  const SlowVariants* m_slow;
  int m_slow_all;
  CpuCacheFlusher* m_flusher;
  cpu::SimdLevel m_level = cpu::simd_level();
  CpuSumFn m_fn = nullptr;
  std::string m_key;
  int m_k = 1;
  std::uint32_t m_out = 0;
};

// "r05_vector_loads block=256 ...: run 1: got ..." -> "r05_vector_loads n=N offset=O block=256 ...".
std::string with_size(const std::string& msg, std::size_t n, std::size_t off) {
  const std::size_t sp = msg.find_first_of(" :");
  const std::string at = fmt::format(" n={} offset={}", n, off);
  return sp == std::string::npos ? msg + at : msg.substr(0, sp) + at + msg.substr(sp);
}

// Where a CUDA ladder row's configuration came from, and its grid (the knobs and the size decide it).
void add_cuda_facts(measure::Record& rec, const RunOptions& opt, const measure::Ladder& lad, const DeviceShape& shape) {
  const measure::RungSpec* spec = lad.find(rec.variant);
  if (!spec) return;
  const Rung& r = *std::any_cast<const Rung*>(spec->impl);
  const std::size_t n = static_cast<std::size_t>(rec.axes.get_int("n"));
  const bool ran = rec.summary || rec.validation.rfind("failed", 0) == 0;  // timed, or failed validation
  if (r.grid != GridPolicy::None && rec.axes.has("block") && ran) {
    const Knobs k = resolve_knobs(knobs_from_point(r, rec.axes), shape);
    rec.axes.set("grid", std::int64_t{plan_launch(r, k, n, shape).grid});
  }
  if (!rec.ladder.sweep.empty() || rec.rung < 0 || !ran) return;
  const std::string& src = r.config_from.empty() ? r.slug : r.config_from;
  bool swept = false;
  if (opt.sweep)
    if (const measure::RungSpec* s = lad.find(src); s && s->sweep)
      swept = opt.sweep_rungs.empty() || std::count(opt.sweep_rungs.begin(), opt.sweep_rungs.end(), src);
  rec.extra["config"] = swept ? (src == r.slug ? "sweep choice (tie rule)" : "sweep choice of " + src)
                              : (src == r.slug ? "default" : "default of " + src);
}

}  // namespace

std::unique_ptr<measure::Runner> cpu_sum_runner(const std::uint32_t* p, std::size_t n, std::uint32_t expected,
                                                int slow) {
  return std::make_unique<CpuSumRunner>(p, n, expected, nullptr, slow, nullptr);
}

std::size_t merge_ladder_run(measure::LadderResult& res, const SumRunner* runner, std::size_t n, std::size_t off,
                             std::uint32_t expected, LadderOut& out) {
  for (const measure::ValidationResult& v : res.validations) {
    ValidationRow row;
    row.variant = v.variant;
    row.n = n;
    row.offset = off;
    row.config = v.config;
    row.expected = expected;
    if (runner)  // the word its compare() read at this configuration (the runner's label)
      if (const auto it = runner->got.find(v.variant + "|" + v.config); it != runner->got.end()) row.got = it->second;
    row.ok = v.ok;
    row.message = v.ok ? v.message : with_size(v.message, n, off);
    if (out.logged.insert(fmt::format("{}|{}|{}|{}|{}", row.variant, row.config, n, off, row.message)).second)
      out.validations.push_back(row);
  }
  for (const std::string& f : res.failures) out.failures.push_back(with_size(f, n, off));
  const std::size_t first = out.records.size();
  for (measure::Record& rec : res.records) {
    if (!rec.ladder.sweep.empty()) {  // one sweep per rung, size, offset and mode: the name says which
      rec.rung = -1;
      rec.ladder.sweep = fmt::format("{}_n{}_{}{}", rec.variant, n, rec.mode, off ? fmt::format("_offset{}", off) : "");
    }
    out.records.push_back(std::move(rec));
  }
  return first;
}

measure::Ladder ladder_at(const std::vector<const Rung*>& rungs, std::size_t n, const DeviceShape& shape) {
  measure::Ladder lad{EXPERIMENT, {}};
  for (const Rung* r : rungs) {
    measure::RungSpec s = spec_of(*r);
    if (r->is_gpu()) {
      s.defaults = knobs_point(*r, resolve_knobs(r->defaults, shape));
      if (r->swept) {
        s.sweep = sweep_for(*r, n, shape);
        s.tie_rule = tie_rule_for(*r);
      }
    } else {
      const int threads = r->slug == "cpu_all_cores" ? cpu::ThreadPool::global().size() : 1;
      s.defaults.set("threads", std::int64_t{threads}).set("simd", std::string(cpu::to_string(cpu::simd_level())));
    }
    lad.rungs.push_back(std::move(s));
  }
  return lad;
}

measure::Record ceiling_record(const std::string& variant, const std::string& backend, const std::string& technique,
                               std::size_t n, std::size_t offset, measure::Mode mode) {
  measure::RungSpec c;
  c.id = c.slug = variant;
  c.technique = technique;
  c.position = -1;
  measure::Point w;
  w.set("n", static_cast<std::int64_t>(n)).set("offset", static_cast<std::int64_t>(offset));
  return measure::rung_record(EXPERIMENT, c, backend, measure::Scope::GpuCompute, measure::to_string(mode), w, {}, "");
}

double set_ceiling(measure::Record& rec, const measure::Measurement& m, double bytes, double datasheet_Bps) {
  rec.set_measurement(m);
  rec.validation = "not-applicable";
  const double bps = bytes / m.stats.median;
  rec.throughput = measure::throughput({bytes / 4, bytes}, m.stats.median, datasheet_Bps, rec.variant, bps);
  rec.extra["value"] = bps;
  rec.extra["value_unit"] = "B/s";
  return bps;
}

std::string mismatch_text(std::uint32_t got, std::uint32_t expected) {
  std::string s = fmt::format("got {:#010x}, expected {:#010x}", got, expected);
  if (got == 0xA5A5A5A5u) s += " (the poison: the result was never written)";
  return s;
}


void add_ratios(std::vector<measure::Record>& records) {
  measure::add_ladder_ratios(records, BASELINE, measure::group_by_axes({"n", "offset"}));
}

RunResult run(const RunOptions& opt) {
  RunResult out;
  if (opt.sizes.empty()) throw InputError("--n: no size given");
  if (opt.offsets.empty()) throw InputError("--offset: no offset given");
  std::vector<const Rung*> cpu_rungs, gpu_rungs;
  for (const Rung* r : opt.rungs) (r->is_gpu() ? gpu_rungs : cpu_rungs).push_back(r);
  const std::size_t max_off = *std::max_element(opt.offsets.begin(), opt.offsets.end());
  for (std::size_t n : opt.sizes) require_host_memory(n, max_off);

  std::unique_ptr<detail::GpuSession> gpu;
  if (!gpu_rungs.empty()) {
    const gpu::Availability a = gpu::availability();
    if (a.ok) {
      gpu = detail::open_gpu_session(opt, gpu_rungs);
      out.device = gpu->facts();
    } else {
      out.gpu_skip_reason = "no GPU: " + a.reason;
    }
  }
  const DeviceShape shape = gpu ? gpu->shape() : DeviceShape{};
  std::unique_ptr<CpuCacheFlusher> flusher;
  if (!cpu_rungs.empty() && !opt.validate_only) flusher = std::make_unique<CpuCacheFlusher>();
  // Validation alone: once (the mode does not change what a rung computes).
  const std::vector<measure::Mode> modes =
      opt.validate_only ? std::vector<measure::Mode>{opt.modes.empty() ? measure::Mode::Cold : opt.modes.front()}
                        : opt.modes;
  LadderOut sink{out.records, out.validations, out.failures, {}};

  for (std::size_t n : opt.sizes) {
    if (opt.progress) opt.progress(fmt::format("reduce: n = {}: random data and the reference", size_label(n)));
    const HostData data = generate(n + max_off, opt.seed ^ (n * 0x9E3779B97F4A7C15ull));
    detail::SizeInput in;
    in.n = n;
    in.offsets = opt.offsets;
    in.data = &data;
    for (std::size_t off : opt.offsets) in.expected.push_back(reference_sum(data.data() + off, n));
    const measure::Ladder cpu_lad = ladder_at(cpu_rungs, n, shape), gpu_lad = ladder_at(gpu_rungs, n, shape);
    std::map<measure::Mode, measure::Ceiling> ceiling;
    if (gpu) {
      gpu->load(in);
      if (!opt.validate_only)
        for (measure::Mode mode : modes) {
          measure::Record rec = gpu->ceiling(mode, opt.offsets.front());
          const double bps = rec.extra.value("value", 0.0);
          ceiling[mode] = {CEILING, bps > 0 ? 4.0 * static_cast<double>(n) / bps : 0.0, bps};
          out.records.push_back(std::move(rec));
        }
    }
    for (std::size_t oi = 0; oi < in.offsets.size(); ++oi) {
      const std::size_t off = in.offsets[oi];
      const std::uint32_t expected = in.expected[oi];
      CpuSumRunner cpu(data.data() + off, n, in.expected[oi], &opt.slow, 1, flusher.get());
      for (measure::Mode mode : modes) {
        measure::LadderOptions lo;
        lo.modes = {mode};
        lo.rule = opt.rule;
        lo.validate_only = opt.validate_only;
        lo.sweep = opt.sweep;
        lo.sweep_only = opt.sweep_rungs;
        lo.workload.set("n", static_cast<std::int64_t>(n)).set("offset", static_cast<std::int64_t>(off));
        lo.progress = opt.progress;
        if (!cpu_lad.rungs.empty()) {
          measure::LadderResult res = measure::run_ladder(cpu_lad, {&cpu}, lo);
          merge_ladder_run(res, &cpu, n, off, expected, sink);
        }
        if (gpu_lad.rungs.empty()) continue;
        lo.no_runner_because["cuda"] = out.gpu_skip_reason;
        if (const auto it = ceiling.find(mode); it != ceiling.end()) lo.ceiling = it->second;
        lo.datasheet_Bps = out.device.datasheet_bw_Bps();
        SumRunner* runner = gpu ? &gpu->runner(oi) : nullptr;
        measure::LadderResult res = measure::run_ladder(gpu_lad, {runner}, lo);
        for (std::size_t i = merge_ladder_run(res, runner, n, off, expected, sink); i < out.records.size(); ++i)
          add_cuda_facts(out.records[i], opt, gpu_lad, shape);
      }
    }
  }
  for (auto& r : out.records)
    if (!r.extra.contains("seed")) r.extra["seed"] = opt.seed;
  add_ratios(out.records);
  return out;
}

}  // namespace joseki::reduce
