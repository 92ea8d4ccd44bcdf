// 1 GPU against all GPUs of the host at N = 10^10 (multi.hpp): identical answers, GPU_COMPUTE on
// the first device's events (all ranks start after its start event; its end event follows the
// reduction and the combine), speedup. Cold: every GPU's L2 is evicted before each sample.
// H200 (2026-11-29 dev run 5, results/h200/2026-11-29-dev/run5-pairs-multi): 2 GPUs 1.95x at
// N = 10^10 (49.053 vs 95.562 ms), 1.90x at 10^9 (5.228 vs 9.937 ms), answers identical.
#include <algorithm>

#include <fmt/format.h>

#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_multi/multi.hpp"
#include "experiments/abc471g/gpu_pairs/bench_util.hpp"
#include "experiments/abc471g/inputs.hpp"
#include "measure/errors.hpp"
#include "measure/throughput.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "experiments/abc471g/gpu_multi/multi_cuda.hpp"
#endif

namespace joseki::abc471g::multi {

using measure::Record;
using measure::Scope;
using pairs::bench::base_record;

std::vector<Record> bench_multi(const MultiBenchOptions& mb, const pairs::BenchOptions& o) {
#ifndef JOSEKI_HAVE_CUDA
  (void)mb;
  (void)o;
  throw GpuUnavailable("this joseki was built without CUDA (abc471g scale multi needs GPUs)");
#else
  const gpu::Availability av = gpu::availability();
  if (!av.ok) throw GpuUnavailable(av.reason);
  InstanceSpec spec;
  spec.n = mb.n;
  spec.k = mb.k;
  spec.m = std::min<std::uint64_t>(mb.n, 100'000);
  spec.seed = 20261130;
  spec.rng = 11;
  const Problem p = make_problem(spec);
  const std::string set_id = "multi " + pairs::bench::now_id();
  o.say(fmt::format("multi-GPU: N = {}, K = {}, {} GPU(s) on this host", pairs::bench::fmt_n(p.n), p.k, av.device_count));

  // The answer every configuration must reproduce.
  Answer want;
  std::string want_from;
  if (p.n <= mb.validate_max_n) {
    const pairs::Reference ref = pairs::reference_answer(p);
    want = ref.answer;
    want_from = ref.name;
  } else {
    MultiConfig one;
    one.devices = {0};
    want = solve_multi(p, one).answer;
    MultiConfig ntt = one;
    ntt.pairs.combiner = pairs::Combiner::Ntt;
    const std::string d = pairs::compare_answers(solve_multi(p, ntt).answer, want);
    if (!d.empty()) throw ValidationError("gpu-pairs and gpu-pairs-ntt disagree on one GPU: " + d);
    want_from = "one GPU, tensor-core and NTT combiners identical";
  }
  o.say("  answers checked against: " + want_from);

  struct Config {
    std::string variant, technique;
    MultiConfig cfg;
  };
  std::vector<Config> configs;
  {
    MultiConfig c;
    c.devices = {0};
    configs.push_back({"multi.gpus_1", "one GPU: count + combine", c});
  }
  if (av.device_count >= 2) {
    MultiConfig c;  // every GPU, NCCL
    configs.push_back({fmt::format("multi.gpus_{}_nccl", av.device_count), "pair range split over every GPU, NCCL all-reduce", c});
    c.nccl = false;
    configs.push_back({fmt::format("multi.gpus_{}_peer", av.device_count), "same split, peer copies + adds on GPU 0", c});
  } else {
    MultiConfig c;
    c.devices = {0};
    c.ranks = 2;
    configs.push_back({"multi.ranks_2_on_1gpu", "the split logic on one GPU: 2 ranges, 2 tables, added on the GPU", c});
  }
  std::vector<Record> out;
  double one_gpu = 0;
  for (const Config& c : configs) {
    Record r = base_record(c.variant, c.technique, "cuda", Scope::GpuCompute, "cold");
    pairs::bench::set_problem_axes(r, p);
    r.ladder.scope_set = set_id;
    r.extra["reference"] = want_from;
    MultiRunner run(p, c.cfg);
    r.axes.set("ranks", static_cast<std::int64_t>(run.ranks()));
    r.extra["devices"] = run.rank_devices();
    r.extra["reduction"] = run.reduction();
    run.poison();
    run.enqueue();
    (void)run.wait();
    const std::string d = pairs::compare_answers(run.download(), want);
    r.validation = d.empty() ? "exact" : "failed: " + d;
    if (d.empty()) {
      measure::StoppingRule rule = o.rule;
      if (p.n >= 5'000'000'000ULL) {
        rule.min_samples = std::min(rule.min_samples, 3);
        rule.min_time_s = 0;
      }
      const measure::Measurement m = measure::measure(
          [&] {
            run.enqueue();
            return run.wait();
          },
          [&] { run.flush_l2(); }, rule, measure::WarmUp{1, 0.0});
      r.set_measurement(m);
      r.throughput = measure::throughput({static_cast<double>(p.n - 1), 0}, r.summary->median);
      if (c.variant == "multi.gpus_1") one_gpu = r.summary->median;
      else if (one_gpu > 0) r.extra["x_one_gpu"] = one_gpu / r.summary->median;
      o.say(fmt::format("  {:<22} {:.3f} ms{}  [{}]", c.variant, r.summary->median * 1e3,
                        one_gpu > 0 && c.variant != "multi.gpus_1" ? fmt::format("  x{:.2f} vs one GPU", one_gpu / r.summary->median) : "",
                        run.reduction()));
    }
    out.push_back(r);
  }
  return out;
#endif
}

}  // namespace joseki::abc471g::multi
