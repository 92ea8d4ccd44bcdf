// The harness's CPU half and its frame: data, reference, CPU rungs, skipped GPU rungs
// without a GPU, and the ratios. The GPU rungs run in harness_gpu.cpp.
#include "experiments/reduce/harness.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>

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

int slow_factor(const RunOptions& opt, const Rung& r) {
  const auto it = opt.slow.find(r.slug);
  return it == opt.slow.end() ? 1 : it->second;
}

// The CPU rungs through the one ladder protocol (measure/ladder.hpp): this runner owns one
// size's input at one offset and its reference; `slow` repeats the sum k times (JOSEKI_SLOW_VARIANT).
class CpuSumRunner final : public measure::Runner {
 public:
  CpuSumRunner(const std::uint32_t* p, std::size_t n, std::uint32_t expected, int slow, CpuCacheFlusher* flusher)
      : m_p(p), m_n(n), m_expected(expected), m_k(slow), m_flusher(flusher) {}
  std::string backend() const override { return "cpu"; }
  measure::Scope scope() const override { return measure::Scope::CpuCompute; }
  std::optional<std::string> setup(const measure::RungSpec& r, const measure::Point&) override {
    m_fn = std::any_cast<CpuSumFn>(r.impl);
    if (!m_fn) return "no CPU function";
    return std::nullopt;
  }
  void poison_output() override { m_out = 0xA5A5A5A5u; }
  void run() override {
    for (int i = 0; i < m_k; ++i) m_out = m_fn(m_p, m_n, m_level);
  }
  std::string compare() override {
    got = m_out;
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
  measure::Work work() const override { return {static_cast<double>(m_n), 4.0 * static_cast<double>(m_n)}; }

  std::uint32_t got = 0;  // the last result compared

 private:
  const std::uint32_t* m_p;
  std::size_t m_n;
  std::uint32_t m_expected;
  int m_k;
  CpuCacheFlusher* m_flusher;
  cpu::SimdLevel m_level = cpu::simd_level();
  CpuSumFn m_fn = nullptr;
  std::uint32_t m_out = 0;
};

void run_cpu_rung(const RunOptions& opt, const Rung& r, const detail::SizeInput& in, RunResult& out,
                  CpuCacheFlusher* flusher) {
  const cpu::SimdLevel level = cpu::simd_level();
  const int threads = r.slug == "cpu_all_cores" ? cpu::ThreadPool::global().size() : 1;
  const int k = slow_factor(opt, r);
  measure::RungSpec spec = spec_of(r);
  spec.defaults.set("threads", std::int64_t{threads}).set("simd", std::string(cpu::to_string(level)));
  const measure::Ladder lad{EXPERIMENT, {spec}};
  for (std::size_t oi = 0; oi < in.offsets.size(); ++oi) {
    const std::size_t off = in.offsets[oi];
    CpuSumRunner runner(in.data->data() + off, in.n, in.expected[oi], k, flusher);
    measure::LadderOptions lo;
    lo.modes = opt.modes;
    lo.rule = opt.rule;
    lo.validate_only = opt.validate_only;
    lo.workload.set("n", static_cast<std::int64_t>(in.n)).set("offset", static_cast<std::int64_t>(off));
    lo.progress = opt.progress;
    measure::LadderResult res = measure::run_ladder(lad, {&runner}, lo);
    for (const measure::ValidationResult& v : res.validations) {
      ValidationRow row;
      row.variant = v.variant;
      row.n = in.n;
      row.offset = off;
      row.config = v.config;
      row.got = runner.got;
      row.expected = in.expected[oi];
      row.ok = v.ok;
      if (!v.ok) row.message = fmt::format("n={} offset={}: {}", in.n, off, v.message);
      out.validations.push_back(row);
      if (!row.ok) out.failures.push_back(row.message);
    }
    for (measure::Record& rec : res.records) {
      if (k > 1) rec.extra["slow_factor"] = k;
      if (rec.summary)
        rec.extra["cold_means"] = rec.mode == "cold" ? "CPU caches evicted (buffer written) before each sample"
                                                     : "samples back to back";
      out.records.push_back(std::move(rec));
    }
  }
}

void add_skipped_gpu(const RunOptions& opt, const std::vector<const Rung*>& gpu, const detail::SizeInput& in,
                     const std::string& why, RunResult& out) {
  for (const Rung* r : gpu)
    for (std::size_t off : in.offsets) {
      if (opt.validate_only) {
        ValidationRow row;
        row.variant = r->slug;
        row.n = in.n;
        row.offset = off;
        row.message = "skipped: " + why;
        row.ok = true;
        out.validations.push_back(row);
        continue;
      }
      for (measure::Mode mode : opt.modes) {
        measure::Record rec = detail::base_record(*r, in.n, off, measure::to_string(mode));
        rec.skipped = why;
        out.records.push_back(std::move(rec));
      }
    }
}

}  // namespace

std::unique_ptr<measure::Runner> cpu_sum_runner(const std::uint32_t* p, std::size_t n, std::uint32_t expected,
                                                int slow) {
  return std::make_unique<CpuSumRunner>(p, n, expected, slow, nullptr);
}

std::string mismatch_text(std::uint32_t got, std::uint32_t expected) {
  std::string s = fmt::format("got {:#010x}, expected {:#010x}", got, expected);
  if (got == 0xA5A5A5A5u) s += " (the poison: the result was never written)";
  return s;
}

namespace detail {

measure::Record base_record(const Rung& r, std::size_t n, std::size_t offset, const std::string& mode) {
  measure::Record rec;
  rec.experiment = EXPERIMENT;
  rec.variant = r.slug;
  rec.rung = r.rung;
  rec.technique = r.technique;
  rec.backend = r.is_gpu() ? "cuda" : "cpu";
  rec.scope = r.is_gpu() ? "GPU_COMPUTE" : "CPU_COMPUTE";
  rec.mode = mode;
  rec.axes.set("n", static_cast<std::int64_t>(n));
  rec.axes.set("offset", static_cast<std::int64_t>(offset));
  if (!r.predecessor.empty()) rec.ladder.previous = r.predecessor;
  return rec;
}

ValidationRow check_result(const Rung& r, const SizeInput& in, std::size_t oi, const std::string& config,
                           std::uint32_t got, int run) {
  ValidationRow row;
  row.variant = r.slug;
  row.n = in.n;
  row.offset = in.offsets[oi];
  row.config = config;
  row.got = got;
  row.expected = in.expected[oi];
  row.ok = got == row.expected;
  if (!row.ok)
    row.message = fmt::format("{} n={} offset={} {} (run {}): {}", r.slug, in.n, row.offset, config, run,
                              mismatch_text(got, row.expected));
  return row;
}

}  // namespace detail

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
  std::unique_ptr<CpuCacheFlusher> flusher;
  if (!cpu_rungs.empty() && !opt.validate_only) flusher = std::make_unique<CpuCacheFlusher>();

  for (std::size_t n : opt.sizes) {
    if (opt.progress) opt.progress(fmt::format("reduce: n = {}: random data and the reference", size_label(n)));
    const HostData data = generate(n + max_off, opt.seed ^ (n * 0x9E3779B97F4A7C15ull));
    detail::SizeInput in;
    in.n = n;
    in.offsets = opt.offsets;
    in.data = &data;
    for (std::size_t off : opt.offsets) in.expected.push_back(reference_sum(data.data() + off, n));
    for (const Rung* r : cpu_rungs) run_cpu_rung(opt, *r, in, out, flusher.get());
    if (gpu) {
      // A rung whose needs this GPU (or the code this build runs on it) lacks is skipped with
      // the reason ("needs sm_90: cp.async.bulk"), never launched.
      std::vector<const Rung*> runnable;
      for (const Rung* r : gpu_rungs) {
        if (auto why = measure::unmet(r->needs, out.device))
          add_skipped_gpu(opt, {r}, in, *why, out);
        else
          runnable.push_back(r);
      }
      if (!runnable.empty()) gpu->run_size(opt, runnable, in, out);
    } else if (!gpu_rungs.empty()) {
      add_skipped_gpu(opt, gpu_rungs, in, out.gpu_skip_reason, out);
    }
  }
  for (auto& r : out.records)
    if (!r.extra.contains("seed")) r.extra["seed"] = opt.seed;
  add_ratios(out.records);
  return out;
}

}  // namespace joseki::reduce
