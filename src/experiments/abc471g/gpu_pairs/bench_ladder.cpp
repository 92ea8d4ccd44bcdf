// The gpu-pairs ladder at one problem (bench.hpp): every rung validated, then timed side by side;
// the count phase alone, the generator alone and the L2 atomic ceiling (what bounds the count);
// each combiner alone; sweeps of the tensor-core tile and of pairs per thread (tie rule).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "measure/clock.hpp"
#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_pairs/bench.hpp"
#include "experiments/abc471g/gpu_pairs/bench_hopper.hpp"
#include "experiments/abc471g/gpu_pairs/bench_util.hpp"
#include "experiments/abc471g/gpu_pairs/ladder.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "experiments/abc471g/gpu_pairs/reference.hpp"
#include "measure/errors.hpp"
#include "measure/table.hpp"
#include "measure/sweep.hpp"
#include "measure/ladder.hpp"
#include "measure/throughput.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "backend/cuda/check.hpp"
#include "backend/cuda/timing.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline_cuda.hpp"
#endif

namespace joseki::abc471g::pairs {

using bench::base_record;
using bench::mark_choice;
#ifdef JOSEKI_HAVE_CUDA
using bench::time_solve;
#endif
using measure::Record;
using measure::Scope;

namespace {

using measure::now_s;


#ifdef JOSEKI_HAVE_CUDA

// The GPU rungs: one solve on one device (PairsDevice) with the rung's counter and combiner;
// poisoned, compared exactly, timed with GPU events (cold: the L2 flushed), and compared again
// after the timed runs (they reuse the device's state: a fused count keeps its table zero).
class GpuSolveRunner : public measure::Runner {
 public:
  GpuSolveRunner(const Problem& p, const Answer& want, const BenchOptions& o)
      : m_p(p), m_want(want), m_device(o.device) {}
  std::string backend() const override { return "cuda"; }
  measure::Scope scope() const override { return measure::Scope::GpuCompute; }
  // Without a usable GPU: no device (present = false), so every GPU rung is skipped with "no GPU".
  measure::DeviceFacts device() const override {
    return gpu::availability().ok ? gpu::needs_facts(m_device) : measure::DeviceFacts{};
  }
  std::optional<std::string> setup(const measure::RungSpec& s, const measure::Point&) override {
    const PairsRung& r = *std::any_cast<const PairsRung*>(s.impl);
    if (std::string why = r.precondition(m_p); !why.empty()) return why;
    if (!m_timer) m_timer = std::make_unique<cuda::GpuTimer>(m_device);
    if (m_rung != &r || !m_dev) {
      const PairsConfig cfg = r.config();  // combiner, counter, the rung's kinds and knobs
      m_cfg = cfg;
      m_dev.reset();
      m_dev = std::make_unique<PairsDevice>(m_p, cfg, m_device);
      m_rung = &r;
    }
    return std::nullopt;
  }
  void poison_output() override { m_dev->poison(m_timer->stream()); }
  void run() override { m_dev->enqueue_solve(m_timer->stream()); }
  std::string compare() override { return compare_answers(m_dev->download(m_timer->stream()), m_want); }
  double timed_run() override {
    cuda::EventPair ev;
    ev.start(m_timer->stream());
    m_dev->enqueue_solve(m_timer->stream());
    ev.stop(m_timer->stream());
    return ev.seconds();
  }
  void flush() override { m_timer->flush_l2(); }
  std::optional<measure::Measurement> measure(measure::Mode mode, const measure::StoppingRule& rule,
                                              const measure::WarmUp& warmup) override {
    return m_timer->measure([this](cudaStream_t st) { m_dev->enqueue_solve(st); }, mode, rule, 0, warmup);
  }
  // The timed solves reuse the device's state (a fused count keeps its table zero): the last one is
  // checked too; the record says how the solve was configured.
  std::string after_timing(measure::Record& rec) override {
    if (std::string again = compare(); !again.empty()) return again;
    rec.extra.update(bench::solve_extras(*m_dev, m_cfg));
    return "";
  }
  measure::Work work() const override { return {static_cast<double>(m_dev ? m_dev->pairs() : 0), 0}; }

 private:
  const Problem& m_p;
  const Answer& m_want;
  int m_device;
  std::unique_ptr<cuda::GpuTimer> m_timer;  // made at the first setup (a GPU is there by then)
  const PairsRung* m_rung = nullptr;
  PairsConfig m_cfg;
  std::unique_ptr<PairsDevice> m_dev;
};

const char* tile_name(int t) {
  switch (t) {
    case 0: return "128x128";
    case 1: return "64x128";
    default: return "64x64";
  }
}
std::int64_t tile_area(int t) { return t == 0 ? 128 * 128 : t == 1 ? 64 * 128 : 64 * 64; }

#endif

}  // namespace

std::unique_ptr<measure::Runner> make_gpu_runner(const Problem& p, const Answer& want, int device) {
#ifdef JOSEKI_HAVE_CUDA
  BenchOptions o;
  o.device = device;
  return std::make_unique<GpuSolveRunner>(p, want, o);
#else
  (void)p;
  (void)want;
  (void)device;
  return nullptr;
#endif
}

std::vector<Record> bench_ladder(const Problem& p, const std::string& case_name, const BenchOptions& o) {
  std::vector<Record> ladder, extra;
  const std::string set_id = "pairs-ladder " + case_name + " " + bench::now_id();
  o.say(fmt::format("gpu-pairs ladder, {}: N = {}, K = {}, M = {}; reference ...", case_name, p.n, p.k, p.m()));
  const Reference ref = reference_answer(p);
  o.say(fmt::format("  reference: {} ({:.3f} s)", ref.name, ref.seconds));
  [[maybe_unused]] const std::uint64_t pairs = p.n > 0 ? p.n - 1 : 0;
  auto stamp = [&](Record& r) {
    bench::set_problem_axes(r, p);
    r.axes.set("case", case_name);
    r.ladder.scope_set = set_id;
    r.extra["reference"] = ref.name;
    r.ladder.baseline = "pairs.r00_cpu_pairs";
  };

  // The rungs: the one list through the measurement core's protocol (validate, time, ratios by
  // declared predecessor, x the CPU baseline), a CPU runner for the baseline and a CUDA runner for
  // the GPU rungs.
  measure::LadderOptions lo;
  lo.rule = o.rule;
  lo.workload = bench::problem_point(p);
  lo.workload.set("case", case_name);
  lo.progress = [&o](const std::string& s) { o.say(s); };
  const std::unique_ptr<measure::Runner> cpu = make_cpu_runner(p, ref.answer);
  std::vector<measure::Runner*> runners{cpu.get()};
  [[maybe_unused]] const gpu::Availability av = gpu::availability();
#ifdef JOSEKI_HAVE_CUDA
  std::optional<GpuSolveRunner> gpu_runner;
  runners.push_back(&gpu_runner.emplace(p, ref.answer, o));
#endif
  measure::LadderResult res = measure::run_ladder(core_ladder(p, pairs_ladder()), runners, lo);
  ladder = std::move(res.records);
  for (Record& r : ladder) {
    stamp(r);
    if (r.backend == "cpu") r.mode = "";  // a CPU solve has no cold or hot (the records' meaning since 2026-11)
    if (r.skipped && r.validation.empty()) r.validation = "not-checked";
    o.say(fmt::format("  {:<28} {}", r.variant, r.summary ? measure::format_time(r.summary->median)
                                                          : r.skipped.value_or(r.validation)));
  }
  // The generation floor (issue 19): every GPU figure below also as a multiple of it (extra.floor_x).
  Record gen_floor = bench_generation_floor(p, o);
  stamp(gen_floor);

#ifdef JOSEKI_HAVE_CUDA
  // The phases of the count and the tensor-core combine: where that combiner runs.
  if (av.ok && pairs_precondition(p, Combiner::TensorCore).empty() &&
      !measure::unmet(combiner_needs(Combiner::TensorCore, p.k), gpu::needs_facts(o.device))) {
    cuda::GpuTimer timer(o.device);
    const cudaStream_t s = timer.stream();
    PairsConfig cfg;
    cfg.counter = Counter::Atomic;
    PairsDevice dev(p, cfg, o.device);
    const std::vector<std::uint64_t> want_table = cpu_pair_table(p, dev.kp());
    // The count alone (each counter): validated against the CPU table (every cell, exact).
    auto count_phase = [&](PairsDevice& d, const char* variant, const char* technique, const char* phase_of) {
      Record r = base_record(variant, technique, "cuda", Scope::GpuCompute, "cold");
      stamp(r);
      r.extra["phase_of"] = phase_of;
      d.poison(s);
      d.enqueue_count(s);
      const std::vector<std::uint64_t> got = d.download_table(s);
      std::size_t bad = 0, first = 0;
      for (std::size_t i = 0; i < got.size(); ++i)
        if (got[i] != want_table[i] && bad++ == 0) first = i;
      r.validation = bad ? fmt::format("failed: {} table cells differ, first C[{}][{}] = {} (expected {})", bad,
                                       first / d.kp(), first % d.kp(), got[first], want_table[first])
                         : "exact";
      if (!bad) {
        r.set_measurement(timer.measure([&](cudaStream_t st) { d.enqueue_count(st); }, measure::Mode::Cold, o.rule));
        r.throughput = measure::throughput({static_cast<double>(pairs), 0}, r.summary->median);
        r.extra["pairs_per_s"] = r.throughput->elements_per_s;
      }
      r.extra["pairs_per_thread"] = d.pairs_per_thread();
      extra.push_back(r);
    };
    count_phase(dev, "pairs.phase.count", "the count phase alone: zero the table, generate, RED.ADD per pair",
                "pairs.r02_atomic_tc_int8");
    if (effective_counter(p, PairsConfig{}) == Counter::Partition) {
      PairsDevice part(p, PairsConfig{}, o.device);
      count_phase(part, "pairs.phase.count_partition",
                  "the count phase alone: zero the table, generate + partition by slice, shared-memory histograms",
                  "pairs.r03_partition_tc");
      // r04 split in two: its count (fused when the solve is one chunk) and its combine, each
      // timed alone on one device; validated through the whole solve's answer.
      PairsConfig gc;
      gc.combiner = Combiner::Gemm;
      PairsDevice fd(p, gc, o.device);
      const char* count_what = fd.fused() ? "the fused count alone: generate + partition, histograms write the planes"
                                          : "the count alone (several chunks: into the table)";
      fd.poison(s);
      fd.enqueue_solve(s);
      const std::string diff = compare_answers(fd.download(s), ref.answer);
      for (int phase = 0; phase < 2; ++phase) {
        Record r = base_record(phase == 0 ? "pairs.phase.count_r04" : "pairs.phase.combine_gemm",
                               phase == 0 ? count_what : "r04's combine alone: prep (circ(V)), cuBLASLt GEMM, masked column sum, upper planes",
                               "cuda", Scope::GpuCompute, "cold");
        stamp(r);
        r.extra["phase_of"] = "pairs.r04_partition_gemm";
        r.extra["fused"] = fd.fused();
        r.extra["combine"] = fd.combine_description();
        r.validation = diff.empty() ? "exact" : "failed: " + diff;
        if (diff.empty()) {
          if (phase == 0) {
            r.set_measurement(timer.measure([&](cudaStream_t st) { fd.enqueue_count(st); }, measure::Mode::Cold, o.rule));
            r.throughput = measure::throughput({static_cast<double>(pairs), 0}, r.summary->median);
          } else {
            fd.enqueue_count(s);
            r.set_measurement(timer.measure([&](cudaStream_t st) { fd.enqueue_combine(st); }, measure::Mode::Cold, o.rule));
          }
        }
        extra.push_back(r);
      }
      fd.enqueue_count(s);
      fd.enqueue_combine(s);
      if (const std::string again = compare_answers(fd.download(s), ref.answer); !again.empty() && diff.empty())
        extra.back().validation = extra[extra.size() - 2].validation = "failed after the timed runs: " + again;
    }
    // The generator alone (no atomics): what the count would cost if atomics were free.
    {
      Record r = base_record("pairs.phase.generate_only", "the count kernel without its atomics (values XORed)",
                             "cuda", Scope::GpuCompute, "cold");
      stamp(r);
      r.validation = "not-applicable";
      r.set_measurement(timer.measure(
          [&](cudaStream_t st) {
            for (std::size_t i = 0; i < dev.rounds(); ++i) dev.enqueue_round(i, st, true);
          },
          measure::Mode::Cold, o.rule));
      r.throughput = measure::throughput({static_cast<double>(pairs), 0}, r.summary->median);
      extra.push_back(r);
    }
    // The L2 atomic ceiling: the same number of uniformly random RED.ADD.U32 into a table of the same size.
    {
      Record r = base_record("pairs.ceiling.l2_atomics",
                             "random RED.ADD.U32 into kp^2 counters (same footprint), LCG addresses, no PCG",
                             "cuda", Scope::GpuCompute, "cold");
      stamp(r);
      r.validation = "not-applicable";
      const std::uint32_t cells = dev.kp() * dev.kp();
      r.set_measurement(timer.measure(
          [&](cudaStream_t st) {
            JOSEKI_CUDA_CHECK(cudaMemsetAsync(dev.t32(), 0, std::size_t{cells} * 4, st));
            launch_atomic_probe(dev.t32(), cells, pairs, 0x5EEDULL, st);
          },
          measure::Mode::Cold, o.rule));
      r.throughput = measure::throughput({static_cast<double>(pairs), 0}, r.summary->median);
      r.extra["atomics_per_s"] = r.throughput->elements_per_s;
      extra.push_back(r);
    }
    // Each combiner alone, on the table counted above.
    dev.enqueue_count(s);
    JOSEKI_CUDA_CHECK(cudaStreamSynchronize(s));
    // A combiner alone on a counted table: validated through the whole answer, then timed.
    auto combine_phase = [&](PairsDevice& d, const char* variant, const char* technique, const char* phase_of) {
      Record r = base_record(variant, technique, "cuda", Scope::GpuCompute, "cold");
      stamp(r);
      r.extra["phase_of"] = phase_of;
      d.enqueue_combine(s);
      const std::string diff = compare_answers(d.download(s), ref.answer);
      r.validation = diff.empty() ? "exact" : "failed: " + diff;
      if (diff.empty())
        r.set_measurement(timer.measure([&](cudaStream_t st) { d.enqueue_combine(st); }, measure::Mode::Cold, o.rule));
      extra.push_back(r);
    };
    combine_phase(dev, "pairs.phase.combine_tc", "slice the table into byte planes + tensor-core product",
                  "pairs.r02_atomic_tc_int8");
    if (pairs_precondition(p, Combiner::Ntt).empty() &&
        !measure::unmet(combiner_needs(Combiner::Ntt, p.k), gpu::needs_facts(o.device))) {
      PairsConfig nc;
      nc.combiner = Combiner::Ntt;
      PairsDevice nd(p, nc, o.device);
      nd.enqueue_count(s);
      combine_phase(nd, "pairs.phase.combine_ntt", "NTT correlations: 2K forward, one inverse (Goldilocks)",
                    "pairs.r01_atomic_ntt");
    }
    // Sweep: tensor-core tile (full solve); tie rule: within 2%, the larger tile (fewer re-reads of C).
    {
      std::vector<Record> pts;
      for (int t = 0; t < TC_TILE_COUNT; ++t) {
        Record r = base_record("pairs.sweep.tc_tile", "full gpu-pairs solve, tensor-core tile shape", "cuda",
                               Scope::GpuCompute, "cold");
        stamp(r);
        r.axes.set("tile", std::string(tile_name(t))).set("tile_area", tile_area(t));
        r.ladder.sweep = "tc_tile";
        PairsConfig c;
        c.tile = t;
        pts.push_back(time_solve(p, c, ref.answer, timer, o, r));
      }
      mark_choice(pts, measure::TieRule::prefer_larger("tile_area"));
      extra.insert(extra.end(), pts.begin(), pts.end());
    }
    // r04's knobs, full solve, one integer axis each: `points` values, `set` applies one to the config.
    PairsConfig gemm_cfg;
    gemm_cfg.combiner = Combiner::Gemm;
    auto knob_sweep = [&](const char* axis, const char* technique, int points, int chosen_by_default,
                          const std::function<void(PairsConfig&, int)>& set, const measure::TieRule& tie) {
      std::vector<Record> pts;
      for (int v = 0; v < points; ++v) {
        Record r = base_record(std::string("pairs.sweep.") + axis, technique, "cuda", Scope::GpuCompute, "cold");
        stamp(r);
        r.axes.set(axis, static_cast<std::int64_t>(v));
        r.ladder.sweep = axis;
        r.extra["auto"] = v == chosen_by_default;
        PairsConfig c = gemm_cfg;
        set(c, v);
        pts.push_back(time_solve(p, c, ref.answer, timer, o, r));
      }
      mark_choice(pts, tie);
      extra.insert(extra.end(), pts.begin(), pts.end());
    };
    // cuBLASLt's suggestions for the GEMM; tie rule: within 2%, the heuristic's earlier suggestion.
    if (const int n_algos = PairsDevice(p, gemm_cfg, o.device).gemm_algos(); n_algos > 1)
      knob_sweep("gemm_algo", "full gpu-pairs solve (r04), cuBLASLt heuristic suggestion", n_algos, 0,
                 [](PairsConfig& c, int v) { c.gemm_algo = v; }, measure::TieRule::prefer_smaller("gemm_algo"));
    // A/B: G kept in the L2's persisting part or not; tie rule: within 2%, off (no set-aside).
    knob_sweep("persist_g", "full gpu-pairs solve (r04), G in the L2's persisting part", 2, 0,
               [](PairsConfig& c, int v) { c.persist_g = v == 1; }, measure::TieRule::prefer_smaller("persist_g"));
    // Sweep: pairs per thread (count only); tie rule: within 2%, more pairs per thread (fewer jump-aheads).
    {
      std::vector<std::uint32_t> ppts{dev.pairs_per_thread(), 16, 64, 256, 1024};
      std::sort(ppts.begin(), ppts.end());
      ppts.erase(std::unique(ppts.begin(), ppts.end()), ppts.end());
      std::vector<Record> pts;
      for (const std::uint32_t ppt : ppts) {
        Record r = base_record("pairs.sweep.pairs_per_thread", "the count phase, pairs per thread", "cuda",
                               Scope::GpuCompute, "cold");
        stamp(r);
        r.axes.set("pairs_per_thread", static_cast<std::int64_t>(ppt));
        r.ladder.sweep = "pairs_per_thread";
        r.extra["auto"] = ppt == dev.pairs_per_thread();
        PairsConfig c;
        c.counter = Counter::Atomic;
        c.pairs_per_thread = ppt;
        PairsDevice d(p, c, o.device);
        d.poison(s);
        d.enqueue_count(s);
        r.validation = d.download_table(s) == want_table ? "exact" : "failed: the table differs from the CPU's";
        if (r.validation == "exact") {
          r.set_measurement(timer.measure([&](cudaStream_t st) { d.enqueue_count(st); }, measure::Mode::Cold, o.rule));
          r.throughput = measure::throughput({static_cast<double>(pairs), 0}, r.summary->median);
        }
        pts.push_back(r);
      }
      mark_choice(pts, measure::TieRule::prefer_larger("pairs_per_thread"));
      extra.insert(extra.end(), pts.begin(), pts.end());
    }
  }
#endif
  ladder.insert(ladder.end(), extra.begin(), extra.end());
  add_floor_ratios(ladder, gen_floor);
  ladder.push_back(gen_floor);
  return ladder;
}

}  // namespace joseki::abc471g::pairs
