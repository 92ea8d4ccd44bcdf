// The harness's CUDA half: device buffers, the CUDA runner of the one ladder protocol
// (measure/ladder.hpp validates, sweeps and times through it) and the stream-read ceiling
// measured in the same run. Host code (g++); the kernels are behind the registry's launchers.
#include "experiments/reduce/harness_internal.hpp"
#include "measure/errors.hpp"

#ifdef JOSEKI_HAVE_CUDA

#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "backend/cuda/buffer.hpp"
#include "backend/cuda/check.hpp"
#include "backend/cuda/kernels.hpp"
#include "backend/cuda/timing.hpp"
#include "backend/gpu.hpp"

namespace joseki::reduce::detail {

namespace {

using cuda::DeviceBuffer;

std::string plan_label(const measure::Point& knobs, const LaunchPlan& p) {
  std::string s = knobs.label();
  return s.empty() ? fmt::format("grid={}", p.grid) : fmt::format("{} grid={}", s, p.grid);
}

// The CUDA rungs through the one ladder protocol: one size's words on the device at one offset.
// setup() resolves the knobs to a launch, zeroes the rung's workspace and its output words;
// timing is GpuTimer's (events, L2 flush in cold mode, hot batches, the GPU's environment).
class CudaRunner final : public SumRunner {
 public:
  struct Shared {  // the session's buffers and facts
    const RunOptions* opt = nullptr;
    const measure::DeviceFacts* facts = nullptr;
    DeviceShape shape;
    cuda::Stream* stream = nullptr;
    cuda::GpuTimer* timer = nullptr;  // null when validating only
    DeviceBuffer<std::uint32_t>* data = nullptr;
    std::map<std::string, DeviceBuffer<unsigned char>>* work = nullptr;
  };
  explicit CudaRunner(Shared sh) : m(sh) {}
  void at(const SizeInput& in, std::size_t oi) {
    m_in = &in;
    m_oi = oi;
  }

  std::string backend() const override { return "cuda"; }
  measure::Scope scope() const override { return measure::Scope::GpuCompute; }
  measure::DeviceFacts device() const override { return *m.facts; }

  std::optional<std::string> setup(const measure::RungSpec& spec, const measure::Point& config) override {
    m_rung = std::any_cast<const Rung*>(spec.impl);
    const Knobs k = resolve_knobs(knobs_from_point(*m_rung, config), m.shape);
    if (auto why = check_knobs(*m_rung, k, m.shape)) throw std::runtime_error("precondition: " + *why);
    m_label = config_label(config);
    m_args = GpuArgs{};
    m_args.d_in = m.data->data() + m_in->offsets[m_oi];
    m_args.n = m_in->n;
    m_args.d_out = m_out.data();
    if (const auto it = m.work->find(m_rung->slug); it != m.work->end()) {
      m_args.d_work = it->second.data();
      m_args.work_bytes = it->second.bytes();
    }
    m_args.plan = plan_launch(*m_rung, k, m_in->n, m.shape);
    m_reps = 1;
    if (const auto it = m.opt->slow.find(m_rung->slug); it != m.opt->slow.end()) m_reps = it->second;
    if (m_args.d_work) JOSEKI_CUDA_CHECK(cudaMemsetAsync(m_args.d_work, 0, m_args.work_bytes, *m.stream));
    // Output::TwoSlot: both slots zeroed once before a rung's first launch (rung.hpp).
    m_next_slot = 0;
    if (m_rung->output == Output::TwoSlot)
      JOSEKI_CUDA_CHECK(cudaMemsetAsync(m_out.data(), 0, 2 * sizeof(std::uint32_t), *m.stream));
    m.stream->sync();
    return std::nullopt;
  }

  // Output::Word: d_out[0]. Output::TwoSlot: the slot the next launch must zero for its successor.
  void poison_output() override {
    if (m_rung->output == Output::TwoSlot)
      JOSEKI_CUDA_CHECK(cudaMemsetAsync(m_out.data() + (m_next_slot ^ 1u), 0xA5, sizeof(std::uint32_t), *m.stream));
    else
      m_out.poison(*m.stream);
  }
  void run() override { launch(*m.stream); }
  std::string compare() override { return check_output(); }
  double timed_run() override {
    cuda::EventPair ev;
    ev.start(*m.stream);
    launch(*m.stream);
    ev.stop(*m.stream);
    return ev.seconds();
  }
  void flush() override { m.timer->flush_l2(); }
  std::optional<measure::Measurement> measure(measure::Mode mode, const measure::StoppingRule& rule,
                                              const measure::WarmUp& warmup) override {
    return m.timer->measure([this](cudaStream_t s) { launch(s); }, mode, rule, 0, warmup);
  }
  // The result of the last timed launch must still be exact (state kept across launches).
  std::string after_timing(measure::Record& rec) override {
    if (std::string bad = check_output(); !bad.empty()) return bad;
    if (rec.mode == "hot") rec.extra["launches_per_sample"] = m.timer->last_batch();
    if (m_reps > 1) rec.extra["slow_factor"] = m_reps;
    if (m_args.work_bytes) rec.extra["workspace_bytes"] = m_args.work_bytes;
    return "";
  }
  measure::Work work() const override {
    return {static_cast<double>(m_in->n), 4.0 * static_cast<double>(m_in->n)};
  }
  // The knobs and the grid they make at this size ("block=256 blocks_per_sm=8 unroll=4 grid=1056").
  std::string config_label(const measure::Point& config) const override {
    if (!m_rung || !m_in) return config.label();  // nothing set up yet
    const Rung& r = *m_rung;
    const Knobs k = resolve_knobs(knobs_from_point(r, config), m.shape);
    return plan_label(knobs_point(r, k), plan_launch(r, k, m_in->n, m.shape));
  }

 private:
  void launch(cudaStream_t s) {
    for (int i = 0; i < m_reps; ++i) {
      if (m_rung->output != Output::TwoSlot) {
        m_rung->launch(m_args, s);
        continue;
      }
      GpuArgs b = m_args;
      b.slot = m_next_slot;
      m_next_slot ^= 1u;
      m_rung->launch(b, s);
    }
  }

  std::string check_output() {
    std::uint32_t w[2] = {0, 0};
    m_out.copy_to_host(w, 2, *m.stream);
    m.stream->sync();
    const std::uint32_t expected = m_in->expected[m_oi];
    if (m_rung->output != Output::TwoSlot) {
      got[m_rung->slug + "|" + m_label] = w[0];
      return w[0] == expected ? "" : mismatch_text(w[0], expected);
    }
    const unsigned last = m_next_slot ^ 1u;
    got[m_rung->slug + "|" + m_label] = w[last];
    if (w[last] != expected) return mismatch_text(w[last], expected);
    if (w[last ^ 1u] != 0)
      return fmt::format("the next launch's slot d_out[{}] holds {:#010x}, not 0 (the launch must zero it)", last ^ 1u,
                         w[last ^ 1u]);
    return "";
  }

  Shared m;
  const SizeInput* m_in = nullptr;
  std::size_t m_oi = 0;
  const Rung* m_rung = nullptr;
  std::string m_label;
  GpuArgs m_args;
  int m_reps = 1;
  DeviceBuffer<std::uint32_t> m_out{2};  // the result word(s): Output::Word uses d_out[0]
  unsigned m_next_slot = 0;
};

class CudaSession final : public GpuSession {
 public:
  CudaSession(const RunOptions& opt, const std::vector<const Rung*>& rungs)
      : m_opt(opt), m_rungs(rungs), m_facts(gpu::device_facts(opt.device)) {
    m_shape = {m_facts.sm_count, m_facts.max_threads_per_sm, m_facts.smem_per_sm, m_facts.smem_per_block_optin};
    if (!opt.validate_only) m_timer = std::make_unique<cuda::GpuTimer>(opt.device);
    const std::size_t max_off = *std::max_element(opt.offsets.begin(), opt.offsets.end());
    std::size_t free_b = 0, total_b = 0;
    JOSEKI_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    for (std::size_t n : opt.sizes) {
      std::size_t need = (n + max_off) * sizeof(std::uint32_t) + (std::size_t{64} << 20);
      for (const Rung* r : rungs)
        if (r->workspace) need += r->workspace(n);
      if (need > free_b)
        throw InputError(fmt::format("--n {}: the input needs {:.2f} GB of device memory; {:.2f} GB are free on {}",
                                     n, need / 1e9, free_b / 1e9, m_facts.name));
    }
    m_runner = std::make_unique<CudaRunner>(
        CudaRunner::Shared{&m_opt, &m_facts, m_shape, &m_stream, m_timer.get(), &m_data, &m_work});
  }

  const measure::DeviceFacts& facts() const override { return m_facts; }
  DeviceShape shape() const override { return m_shape; }

  void load(const SizeInput& in) override {
    m_in = &in;
    m_data = DeviceBuffer<std::uint32_t>();
    m_work.clear();
    const std::size_t words = in.data->size;
    m_data = DeviceBuffer<std::uint32_t>(words);
    m_data.copy_from_host(in.data->data(), words, m_stream);
    for (const Rung* r : m_rungs)
      if (r->workspace) m_work[r->slug] = DeviceBuffer<unsigned char>(r->workspace(in.n));
    m_stream.sync();
  }

  SumRunner& runner(std::size_t oi) override {
    m_runner->at(*m_in, oi);
    return *m_runner;
  }

  measure::Record ceiling(measure::Mode mode, std::size_t offset) override {
    measure::Record rec = ceiling_record(
        CEILING, "cuda", "ceiling: backend stream-read kernel (16-byte loads, 4 in flight, full occupancy), same bytes",
        m_in->n, offset, mode);
    const std::size_t vec = m_in->n / 4;
    if (vec == 0) {
      rec.skipped = "fewer than 16 bytes: nothing to stream";
      return rec;
    }
    const auto* p = reinterpret_cast<const uint4*>(m_data.data());
    const int blocks = m_facts.sm_count * std::max(1, m_facts.max_threads_per_sm / 256);
    if (m_opt.progress) m_opt.progress(fmt::format("  {} {}", CEILING, measure::to_string(mode)));
    const measure::Measurement m = m_timer->measure(
        [&](cudaStream_t s) { cuda::launch_stream_read(p, vec, m_sink.data(), blocks, 256, s); }, mode, m_opt.rule);
    set_ceiling(rec, m, 16.0 * static_cast<double>(vec), m_facts.datasheet_bw_Bps());
    return rec;
  }

 private:
  const RunOptions& m_opt;
  std::vector<const Rung*> m_rungs;
  measure::DeviceFacts m_facts;
  DeviceShape m_shape;
  cuda::Stream m_stream;
  std::unique_ptr<cuda::GpuTimer> m_timer;
  DeviceBuffer<unsigned int> m_sink{1};
  DeviceBuffer<std::uint32_t> m_data;
  std::map<std::string, DeviceBuffer<unsigned char>> m_work;
  const SizeInput* m_in = nullptr;
  std::unique_ptr<CudaRunner> m_runner;
};

}  // namespace

std::unique_ptr<GpuSession> open_gpu_session(const RunOptions& opt, const std::vector<const Rung*>& rungs) {
  return std::make_unique<CudaSession>(opt, rungs);
}

}  // namespace joseki::reduce::detail

#else  // a CPU-only build: availability() is never ok, so this is never reached

namespace joseki::reduce::detail {
std::unique_ptr<GpuSession> open_gpu_session(const RunOptions&, const std::vector<const Rung*>&) {
  throw GpuUnavailable("this joseki was built without CUDA");
}
}  // namespace joseki::reduce::detail

#endif
