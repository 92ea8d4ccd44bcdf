// The harness's GPU half: device buffers, validation (poison, run, compare, run again),
// the sweeps with the tie rule, the timed ladder and the stream-read ceiling measured in
// the same run. Host code (g++); the kernels are behind the registry's launchers.
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

class CudaSession final : public GpuSession {
 public:
  CudaSession(const RunOptions& opt, const std::vector<const Rung*>& rungs) : m_facts(gpu::device_facts(opt.device)) {
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
  }

  const measure::DeviceFacts& facts() const override { return m_facts; }

  void run_size(const RunOptions& opt, const std::vector<const Rung*>& rungs, const SizeInput& in,
                RunResult& out) override {
    m_opt = &opt;
    m_in = &in;
    m_out = &out;
    m_validated.clear();
    const std::size_t words = in.data->size;
    m_data = DeviceBuffer<std::uint32_t>(words);
    m_data.copy_from_host(in.data->data(), words, m_stream);
    m_work.clear();
    for (const Rung* r : rungs)
      if (r->workspace) m_work[r->slug] = DeviceBuffer<unsigned char>(r->workspace(in.n));
    m_stream.sync();

    std::map<std::string, double> ceiling;  // mode -> B/s
    if (!opt.validate_only)
      for (measure::Mode mode : opt.modes) ceiling[measure::to_string(mode)] = measure_ceiling(mode);

    for (std::size_t oi = 0; oi < in.offsets.size(); ++oi) {
      m_oi = oi;
      if (opt.validate_only) {
        for (const Rung* r : rungs) validate_checked(*r, knobs_for(*r, {}));
        continue;
      }
      for (measure::Mode mode : opt.modes) {
        std::map<std::string, Knobs> chosen;
        if (opt.sweep)
          for (const Rung* r : rungs)
            if (r->swept && (opt.sweep_rungs.empty() || std::count(opt.sweep_rungs.begin(), opt.sweep_rungs.end(), r->slug)))
              chosen[r->slug] = sweep(*r, mode, ceiling[measure::to_string(mode)]);
        for (const Rung* r : rungs) time_rung(*r, mode, knobs_for(*r, chosen), chosen, ceiling);
      }
    }
    m_data = DeviceBuffer<std::uint32_t>();
    m_work.clear();
  }

 private:
  const std::uint32_t* d_in() const { return m_data.data() + m_in->offsets[m_oi]; }
  std::size_t offset() const { return m_in->offsets[m_oi]; }
  int slow(const Rung& r) const {
    const auto it = m_opt->slow.find(r.slug);
    return it == m_opt->slow.end() ? 1 : it->second;
  }

  Knobs knobs_for(const Rung& r, const std::map<std::string, Knobs>& chosen) const {
    const std::string& src = r.config_from.empty() ? r.slug : r.config_from;
    const auto it = chosen.find(src);
    return resolve_knobs(it != chosen.end() ? it->second : r.defaults, m_shape);
  }

  GpuArgs args_for(const Rung& r, const LaunchPlan& plan) {
    GpuArgs a;
    a.d_in = d_in();
    a.n = m_in->n;
    a.d_out = m_d_out.data();
    if (const auto it = m_work.find(r.slug); it != m_work.end()) {
      a.d_work = it->second.data();
      a.work_bytes = it->second.bytes();
    }
    a.plan = plan;
    return a;
  }

  void zero_workspace(const GpuArgs& a) {
    if (a.d_work) JOSEKI_CUDA_CHECK(cudaMemsetAsync(a.d_work, 0, a.work_bytes, m_stream));
  }

  // The output words. Output::Word: d_out[0], poisoned before a validation run. Output::TwoSlot:
  // launches alternate between d_out[0] and d_out[1] (m_next_slot is the next launch's slot);
  // both are zeroed once before a rung's first launch, and a validation run poisons the slot
  // that the launch must zero for its successor.
  void reset_output(const Rung& r) {
    m_next_slot = 0;
    if (r.output == Output::TwoSlot) JOSEKI_CUDA_CHECK(cudaMemsetAsync(m_d_out.data(), 0, 2 * sizeof(std::uint32_t), m_stream));
  }
  void poison_output(const Rung& r) {
    if (r.output == Output::TwoSlot)
      JOSEKI_CUDA_CHECK(cudaMemsetAsync(m_d_out.data() + (m_next_slot ^ 1u), 0xA5, sizeof(std::uint32_t), m_stream));
    else
      m_d_out.poison(m_stream);
  }
  void launch_once(const Rung& r, const GpuArgs& a, cudaStream_t s) {
    if (r.output != Output::TwoSlot) return r.launch(a, s);
    GpuArgs b = a;
    b.slot = m_next_slot;
    m_next_slot ^= 1u;
    r.launch(b, s);
  }
  struct OutputWords {
    std::uint32_t result = 0;
    std::string problem;  // TwoSlot: the other slot was not left at zero
  };
  OutputWords read_output(const Rung& r) {
    std::uint32_t w[2] = {0, 0};
    m_d_out.copy_to_host(w, 2, m_stream);
    m_stream.sync();
    if (r.output != Output::TwoSlot) return {w[0], ""};
    const unsigned last = m_next_slot ^ 1u;
    OutputWords o{w[last], ""};
    if (w[last ^ 1u] != 0)
      o.problem = fmt::format("the next launch's slot d_out[{}] holds {:#010x}, not 0 (the launch must zero it)",
                              last ^ 1u, w[last ^ 1u]);
    return o;
  }

  // Poison, run (k times under JOSEKI_SLOW_VARIANT), compare; twice, so that state a launch
  // leaves behind (a counter not reset, a slot not zeroed) shows in the second run. Cached per
  // configuration.
  ValidationRow validate(const Rung& r, const Knobs& k) {
    const measure::Point kp = knobs_point(r, k);
    const LaunchPlan plan = plan_launch(r, k, m_in->n, m_shape);
    const std::string config = plan_label(kp, plan);
    ValidationRow row;
    if (auto why = check_knobs(r, k, m_shape)) {
      row = check_result(r, *m_in, m_oi, config, 0, 1);
      row.ok = false;
      row.message = fmt::format("{} n={} offset={} {}: precondition: {}", r.slug, m_in->n, offset(), config, *why);
      return row;
    }
    const std::string key = r.slug + "|" + config + "|" + std::to_string(m_oi);
    if (const auto it = m_validated.find(key); it != m_validated.end()) return it->second;
    const GpuArgs a = args_for(r, plan);
    zero_workspace(a);
    reset_output(r);
    for (int run = 1; run <= 2; ++run) {
      poison_output(r);
      for (int i = 0; i < slow(r); ++i) launch_once(r, a, m_stream);
      const OutputWords o = read_output(r);
      row = check_result(r, *m_in, m_oi, config, o.result, run);
      if (row.ok && !o.problem.empty()) {
        row.ok = false;
        row.message = fmt::format("{} n={} offset={} {} (run {}): {}", r.slug, m_in->n, offset(), config, run, o.problem);
      }
      if (!row.ok) break;
    }
    m_validated[key] = row;
    return row;
  }

  // validate() that records the row, and turns an exception in a rung into a failed row,
  // unless the CUDA context is no longer usable (then nothing after it can run).
  ValidationRow validate_checked(const Rung& r, const Knobs& k) {
    ValidationRow row;
    try {
      row = validate(r, k);
    } catch (const std::exception& e) {
      row.variant = r.slug;
      row.n = m_in->n;
      row.offset = offset();
      row.ok = false;
      row.message = fmt::format("{} n={} offset={}: error: {}", r.slug, m_in->n, offset(), e.what());
      const cudaError_t sticky = cudaDeviceSynchronize();
      if (sticky != cudaSuccess)
        throw RunError(fmt::format("{}; the CUDA context is unusable after it ({})", row.message,
                                   cudaGetErrorString(sticky)));
    }
    if (m_logged.insert(row.variant + "|" + row.config + "|" + std::to_string(m_oi) + "|" + std::to_string(m_in->n)).second) {
      m_out->validations.push_back(row);
      if (!row.ok) m_out->failures.push_back(row.message);
    }
    return row;
  }

  // Times one configuration; fills rec (samples, throughput, validation). False if it failed.
  bool measure_into(measure::Record& rec, const Rung& r, const Knobs& k, measure::Mode mode, double ceiling_Bps) {
    const LaunchPlan plan = plan_launch(r, k, m_in->n, m_shape);
    const measure::Point kp = knobs_point(r, k);
    for (const auto& [name, v] : kp.values()) rec.axes.set(name, v);
    if (r.grid != GridPolicy::None) rec.axes.set("grid", std::int64_t{plan.grid});
    const ValidationRow row = validate_checked(r, k);
    if (!row.ok) {
      rec.validation = "failed: " + row.message;
      rec.skipped = "not timed: failed validation";
      return false;
    }
    const GpuArgs a = args_for(r, plan);
    zero_workspace(a);
    reset_output(r);
    m_stream.sync();
    const int reps = slow(r);
    auto launch = [&](cudaStream_t s) {
      for (int i = 0; i < reps; ++i) launch_once(r, a, s);
    };
    const measure::Measurement m = m_timer->measure(launch, mode, m_opt->rule);
    // The result of the last timed launch must still be exact (state kept across launches).
    const OutputWords after = read_output(r);
    if (after.result != m_in->expected[m_oi] || !after.problem.empty()) {
      const std::string msg = fmt::format(
          "{} n={} offset={} {}: after timing: {}", r.slug, m_in->n, offset(), plan_label(kp, plan),
          after.problem.empty() ? mismatch_text(after.result, m_in->expected[m_oi]) : after.problem);
      m_out->failures.push_back(msg);
      rec.validation = "failed: " + msg;
      rec.skipped = "timing discarded: wrong result after timing";
      return false;
    }
    rec.set_measurement(m);
    rec.validation = "exact";
    rec.throughput = measure::throughput({static_cast<double>(m_in->n), 4.0 * static_cast<double>(m_in->n)},
                                         m.stats.median, m_facts.datasheet_bw_Bps(), CEILING, ceiling_Bps);
    if (mode == measure::Mode::Hot) rec.extra["launches_per_sample"] = m_timer->last_batch();
    if (reps > 1) rec.extra["slow_factor"] = reps;
    if (a.work_bytes) rec.extra["workspace_bytes"] = a.work_bytes;
    return true;
  }

  void note(const std::string& line) const {
    if (m_opt->progress) m_opt->progress(line);
  }

  Knobs sweep(const Rung& r, measure::Mode mode, double ceiling_Bps) {
    const std::string mode_s = measure::to_string(mode);
    note(fmt::format("  sweep {} {} n={}", r.slug, mode_s, m_in->n));
    std::vector<measure::Candidate> cands;
    std::vector<std::size_t> index;             // candidate -> record
    std::map<std::string, std::string> launches;  // launch -> the first point that makes it
    for (const measure::SweepPoint& sp : sweep_for(r, m_in->n, m_shape).points()) {
      measure::Record rec = base_record(r, m_in->n, offset(), mode_s);
      rec.rung = -1;
      // One sweep per rung, size, offset and mode: the name says which (reports group by it).
      rec.ladder.sweep = fmt::format("{}_n{}_{}{}", r.slug, m_in->n, mode_s, offset() ? fmt::format("_offset{}", offset()) : "");
      rec.ladder.chosen = false;
      const Knobs k = resolve_knobs(knobs_from_point(r, sp.point), m_shape);
      std::optional<std::string> skip = sp.skip_reason;
      if (!skip) {  // at small n several points make the same launch (the grid is capped by the work)
        const LaunchPlan p = plan_launch(r, k, m_in->n, m_shape);
        const std::string key = fmt::format("{} {} {} {} {} {}", p.block, p.grid, p.unroll, p.stages, p.chunk_bytes, p.hint);
        const auto [it, fresh] = launches.emplace(key, sp.point.label());
        if (!fresh) skip = fmt::format("the same launch (grid {}) as {}", p.grid, it->second);
      }
      if (skip) {
        for (const auto& [name, v] : sp.point.values()) rec.axes.set(name, v);
        rec.skipped = *skip;
      } else if (measure_into(rec, r, k, mode, ceiling_Bps)) {
        cands.push_back({sp.point, rec.summary->median});
        index.push_back(m_out->records.size());
      }
      m_out->records.push_back(std::move(rec));
    }
    if (cands.empty()) return r.defaults;
    const measure::TieChoice c = measure::choose(tie_rule_for(r), cands);
    measure::Record& win = m_out->records[index[c.chosen]];
    win.ladder.chosen = true;
    win.ladder.tie_rule = c.explanation;
    return knobs_from_point(r, cands[c.chosen].point);
  }

  void time_rung(const Rung& r, measure::Mode mode, const Knobs& k, const std::map<std::string, Knobs>& chosen,
                 const std::map<std::string, double>& ceiling) {
    const std::string mode_s = measure::to_string(mode);
    note(fmt::format("  {} {}", r.slug, mode_s));
    measure::Record rec = base_record(r, m_in->n, offset(), mode_s);
    const std::string& src = r.config_from.empty() ? r.slug : r.config_from;
    rec.extra["config"] = chosen.count(src) ? (src == r.slug ? "sweep choice (tie rule)" : "sweep choice of " + src)
                                            : (src == r.slug ? "default" : "default of " + src);
    measure_into(rec, r, k, mode, ceiling.at(mode_s));
    m_out->records.push_back(std::move(rec));
  }

  double measure_ceiling(measure::Mode mode) {
    const std::string mode_s = measure::to_string(mode);
    measure::Record rec;
    rec.experiment = EXPERIMENT;
    rec.variant = CEILING;
    rec.rung = -1;
    rec.technique = "ceiling: backend stream-read kernel (16-byte loads, 4 in flight, full occupancy), same bytes";
    rec.backend = "cuda";
    rec.scope = "GPU_COMPUTE";
    rec.mode = mode_s;
    rec.axes.set("n", static_cast<std::int64_t>(m_in->n));
    // The ladder this ceiling belongs to (it always reads the aligned buffer).
    rec.axes.set("offset", static_cast<std::int64_t>(offset()));
    const std::size_t vec = m_in->n / 4;
    double bps = 0;
    if (vec == 0) {
      rec.skipped = "fewer than 16 bytes: nothing to stream";
    } else {
      const auto* p = reinterpret_cast<const uint4*>(m_data.data());
      const int blocks = m_facts.sm_count * std::max(1, m_facts.max_threads_per_sm / 256);
      note(fmt::format("  {} {}", CEILING, mode_s));
      const measure::Measurement m = m_timer->measure(
          [&](cudaStream_t s) { cuda::launch_stream_read(p, vec, m_sink.data(), blocks, 256, s); }, mode,
          m_opt->rule);
      rec.set_measurement(m);
      rec.validation = "not-applicable";
      const double bytes = 16.0 * static_cast<double>(vec);
      bps = bytes / m.stats.median;
      rec.throughput = measure::throughput({bytes / 4, bytes}, m.stats.median, m_facts.datasheet_bw_Bps(), CEILING, bps);
      rec.extra["value"] = bps;
      rec.extra["value_unit"] = "B/s";
    }
    m_out->records.push_back(std::move(rec));
    return bps;
  }

  measure::DeviceFacts m_facts;
  DeviceShape m_shape;
  cuda::Stream m_stream;
  std::unique_ptr<cuda::GpuTimer> m_timer;
  DeviceBuffer<std::uint32_t> m_d_out{2};  // the result word(s): see reset_output()
  unsigned m_next_slot = 0;
  DeviceBuffer<unsigned int> m_sink{1};
  DeviceBuffer<std::uint32_t> m_data;
  std::map<std::string, DeviceBuffer<unsigned char>> m_work;
  std::map<std::string, ValidationRow> m_validated;
  std::set<std::string> m_logged;
  const RunOptions* m_opt = nullptr;
  const SizeInput* m_in = nullptr;
  RunResult* m_out = nullptr;
  std::size_t m_oi = 0;
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
