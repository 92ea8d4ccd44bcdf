// gpu-pairs at N = 10^8, 10^9, 10^10, ... (bench.hpp): GPU_COMPUTE in process (cold), validated
// against a CPU solver up to validate_max_n and cross-checked against the NTT combiner beyond;
// EXTERNAL (with PROGRAM, GPU_PIPELINE, GPU_COMPUTE and the pre/post-main split) of
// `joseki abc471g solve --solver gpu-pairs FILE` and of the start-up-optimised child.
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_pairs/bench.hpp"
#include "experiments/abc471g/gpu_pairs/bench_util.hpp"
#include "experiments/abc471g/gpu_pairs/ladder.hpp"
#include "experiments/abc471g/inputs.hpp"
#include "experiments/abc471g/io.hpp"
#include "measure/errors.hpp"
#include "measure/sweep.hpp"
#include "measure/throughput.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "backend/cuda/timing.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline_cuda.hpp"
#endif

namespace joseki::abc471g::pairs {

using bench::base_record;
using measure::Record;
using measure::Scope;

std::vector<Record> bench_sizes(const SizesOptions& so, const BenchOptions& o) {
#ifndef JOSEKI_HAVE_CUDA
  (void)so;
  (void)o;
  throw GpuUnavailable("this joseki was built without CUDA (abc471g scale sizes needs a GPU)");
#else
  gpu::require_device(o.device);
  std::vector<Record> out;
  bench::TempDir dir;
  cuda::GpuTimer timer(o.device);
  const cudaStream_t s = timer.stream();
  for (const std::uint64_t n : so.ns) {
    InstanceSpec spec;
    spec.n = n;
    spec.k = so.k;
    spec.m = std::min<std::uint64_t>(n, 100'000);
    spec.seed = 20261129;
    spec.rng = 6;
    const Problem p = make_problem(spec);
    const std::string set_id = "pairs-size " + bench::fmt_n(n) + " " + bench::now_id();
    measure::Point axes;
    axes.set("n", static_cast<std::int64_t>(p.n)).set("k", static_cast<std::int64_t>(p.k)).set("m", static_cast<std::int64_t>(p.m()));
    o.say(fmt::format("gpu-pairs at N = {} (K = {}, M = {})", bench::fmt_n(n), p.k, p.m()));

    std::optional<Reference> ref;
    if (n <= so.validate_max_n) {
      ref = reference_answer(p);
      o.say(fmt::format("  reference {}: {:.3f} s", ref->name, ref->seconds));
    }
    // In process, each counter side by side (r02: one L2 atomic per pair; r03: partition, the
    // shipped default): validate, cross-check with the NTT combiner, then time (cold).
    std::vector<const PairsRung*> rungs;  // the ladder's rungs that `scale sizes` times in process
    for (const PairsRung& lr : pairs_ladder())
      if (!lr.sizes_technique.empty()) rungs.push_back(&lr);
    std::string cross = "not run (K above the NTT limit, or the NTT combiner does not run on this GPU)";
    std::optional<Answer> ntt;
    if (pairs_precondition(p, Combiner::Ntt).empty() &&
        !measure::unmet(combiner_needs(Combiner::Ntt, p.k), gpu::needs_facts(o.device))) {
      PairsConfig nc;
      nc.progress = false;
      nc.combiner = Combiner::Ntt;
      PairsDevice nd(p, nc, o.device);
      nd.poison(s);
      nd.enqueue_solve(s);
      ntt = nd.download(s);
    }
    Record r;
    bool any_failed = false;
    for (const PairsRung* lr : rungs) {
      const PairsRung& rg = *lr;
      PairsConfig cfg = rg.config();  // combiner, counter, the rung's kinds and knobs
      cfg.progress = false;
      if (effective_counter(p, cfg) != rg.counter) continue;
      if (auto why = measure::unmet(combiner_needs(*rg.combiner, p.k), gpu::needs_facts(o.device))) {
        o.say(fmt::format("  {}: skipped: {}", rg.variant(), *why));
        continue;
      }
      r = base_record(rg.variant(), rg.sizes_technique, "cuda", Scope::GpuCompute, "cold");
      r.rung = rg.position;
      r.axes = axes;
      r.ladder.scope_set = set_id + " in-process";
      r.ladder.sweep = "n";
      r.extra["counter"] = rg.counter_label();
      PairsDevice dev(p, cfg, o.device);
      dev.poison(s);
      dev.enqueue_solve(s);
      const Answer got = dev.download(s);
      if (ntt) {
        const std::string d = compare_answers(*ntt, got);
        cross = d.empty() ? "gpu-pairs-ntt: identical" : "gpu-pairs-ntt differs: " + d;
      }
      r.extra["cross_check"] = cross;
      if (ref) {
        const std::string d = compare_answers(got, ref->answer);
        r.validation = d.empty() ? "exact" : "failed: " + d;
        r.extra["reference"] = ref->name;
        r.extra["reference_s"] = ref->seconds;
      } else {
        r.validation = cross == "gpu-pairs-ntt: identical" ? "not-checked" : "failed: " + cross;
      }
      if (r.validation.rfind("failed", 0) != 0) {
        measure::StoppingRule rule = o.rule;
        if (n >= 5'000'000'000ULL) {  // 50 ms and more per run: a few samples say enough
          rule.min_samples = std::min(rule.min_samples, 3);
          rule.min_time_s = 0;
        }
        r.set_measurement(timer.measure([&](cudaStream_t st) { dev.enqueue_solve(st); }, measure::Mode::Cold, rule));
        r.throughput = measure::throughput({static_cast<double>(dev.pairs()), 0}, r.summary->median);
        r.extra["rounds"] = dev.rounds();
        r.extra["chunks_per_round"] = dev.chunks();
        r.extra["counters"] = dev.wide() ? "64-bit (rounds of < 2^32 pairs)" : "32-bit";
        r.extra["combine"] = dev.combine_description();
        r.extra["fused"] = dev.fused();
        if (const std::string again = compare_answers(dev.download(s), got); !again.empty())
          r.validation = "failed after the timed runs: " + again;
        o.say(fmt::format("  {:<26} GPU_COMPUTE {:.3f} ms ({:.3g} pairs/s)", rg.variant(), r.summary->median * 1e3,
                          r.throughput->elements_per_s));
      } else {
        any_failed = true;
        o.say(fmt::format("  {:<26} {}", rg.variant(), r.validation));
      }
      out.push_back(r);
    }
    const Answer got = ntt ? *ntt : Answer{};
    // Sweeps (N >= 10^9, partition count), full solve: pairs per chunk (tie rule: within 2%, the
    // smaller chunk: the buckets take ~2 bytes per pair of a chunk) and threads per partition
    // block (within 2%, the larger block: fewer bucket reservations per pair).
    struct Knob {
      const char* axis;
      const char* technique;
      bool prefer_larger;
      std::vector<std::int64_t> values;
    };
    const Knob knobs[] = {
        {"chunk_pairs", "full gpu-pairs solve (partition count), pairs per chunk", false,
         {1LL << 26, 1LL << 27, 1LL << 28, 1LL << 29}},
        {"partition_threads", "full gpu-pairs solve (partition count), threads per partition block", true, {256, 512}},
    };
    for (const Knob& kn : knobs) {
      if (!(n >= 1'000'000'000ULL && n <= 10'000'000'000ULL && !any_failed && ref &&
            effective_counter(p, PairsConfig{}) == Counter::Partition))
        break;
      std::vector<Record> pts;
      for (const std::int64_t v : kn.values) {
        PairsConfig cfg;
        cfg.progress = false;
        const bool chunk = std::string(kn.axis) == "chunk_pairs";
        if (chunk)
          cfg.chunk_pairs = static_cast<std::uint64_t>(v);
        else
          cfg.partition_threads = static_cast<int>(v);
        Record q = base_record(std::string("pairs.sweep.") + kn.axis, kn.technique, "cuda", Scope::GpuCompute, "cold");
        q.axes = axes;
        q.axes.set(kn.axis, v);
        q.ladder.sweep = kn.axis;
        q.ladder.scope_set = set_id + " " + kn.axis + " sweep";
        q.extra["auto"] = chunk ? cfg.chunk_pairs == PairsConfig{}.chunk_pairs
                                : cfg.partition_threads == PairsConfig{}.partition_threads;
        q = bench::time_solve(p, cfg, ref->answer, timer, o, q);
        if (q.summary) o.say(fmt::format("  {} {}: GPU_COMPUTE {:.3f} ms", kn.axis, v, q.summary->median * 1e3));
        pts.push_back(q);
      }
      bench::mark_choice(pts, kn.prefer_larger ? measure::TieRule::prefer_larger(kn.axis)
                                               : measure::TieRule::prefer_smaller(kn.axis));
      out.insert(out.end(), pts.begin(), pts.end());
    }
    if (!so.external || any_failed) continue;

    // EXTERNAL: the solve command as users run it, and the start-up-optimised child.
    const std::string file = dir.write("n_" + bench::fmt_n(n) + ".in", to_text(p));
    if (!ref && !ntt) continue;  // nothing to check the command's output against
    const std::string expected = format_answer(ref ? ref->answer : got);
    const int runs = n >= 5'000'000'000ULL ? std::min(so.external_runs, 2) : so.external_runs;
    const std::string dev_s = std::to_string(o.device);
    const struct {
      const char* variant;
      const char* technique;
      std::vector<std::string> argv;
    } cmds[] = {
        {"pairs.external.solve", "joseki abc471g solve --solver gpu-pairs FILE (as shipped)",
         {o.self_exe, "--device", dev_s, "abc471g", "solve", "--solver", "gpu-pairs", file}},
        {"pairs.external.fast", "start-up cut: context on a 2nd thread while parsing, exit without CUDA teardown",
         {o.self_exe, "--device", dev_s, "abc471g", "scale", "child", "--phase", "solve", "--fast", "--input", file}},
    };
    for (const auto& c : cmds) {
      const bench::ExternalSet es = bench::sample_external(c.argv, {}, runs, expected, 600);
      if (!es.failure.empty()) {
        Record f = base_record(c.variant, c.technique, "process", Scope::External, "");
        f.axes = axes;
        f.validation = "failed: " + es.failure;
        out.push_back(f);
        o.say(fmt::format("  {}: FAILED: {}", c.variant, es.failure));
        continue;
      }
      auto recs = bench::external_records(es, c.variant, c.technique, set_id + " " + c.variant, axes);
      if (!recs.empty())
        o.say(fmt::format("  {:<22} EXTERNAL {:.1f} ms", c.variant, recs.front().summary->median * 1e3));
      out.insert(out.end(), recs.begin(), recs.end());
    }
  }
  return out;
#endif
}

}  // namespace joseki::abc471g::pairs
