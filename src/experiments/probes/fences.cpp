// Probe "fences": the cost of __threadfence_block / __threadfence / __threadfence_system after
// a store, per call, for one warp alone and for a full GPU of fencing warps (clock64 per
// block, minus the same loop without a fence).
#include <fmt/format.h>

#include "experiments/probes/probe.hpp"
#include "measure/errors.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "experiments/probes/atomics_kernels.hpp"
#include "experiments/probes/gpu_util.hpp"
#endif

namespace joseki::probes {
namespace {

JOSEKI_REGISTER_GPU_PROBE(fences, "memory fences: block / device / system, per call",
                          "fence cost grows with its scope (system is expensive)", 65, 1);

#ifdef JOSEKI_HAVE_CUDA
std::vector<Record> run_fences(const ProbeOptions& o) {
  auto [g, s, d] = GpuProbeRun(o.device);
  const int sms = g.facts().sm_count;
  const int iters = o.quick ? 256 : 1024;
  const char* kinds[] = {"no_fence", "threadfence_block", "threadfence", "threadfence_system"};
  struct Shape {
    const char* name;
    int blocks, threads;
  };
  const Shape shapes[] = {{"one_warp", 1, 32}, {"full_gpu", sms * 4, 256}};
  std::vector<Record> recs;
  double c[2][4] = {};
  for (int si = 0; si < 2; ++si) {
    const Shape& sh = shapes[si];
    const std::size_t threads = static_cast<std::size_t>(sh.blocks) * sh.threads;
    cuda::DeviceBuffer<std::uint32_t> buf(threads);
    cuda::DeviceBuffer<long long> cyc(static_cast<std::size_t>(sh.blocks));
    for (int k = 0; k < 4; ++k) {
      Record r = make_record("fences", std::string(kinds[k]) + "/" + sh.name,
                             k ? fmt::format("store, then {}()", kinds[k]) : "store only (baseline)",
                             Scope::GpuCompute, "hot", "cycles");
      r.axes.set("blocks", std::int64_t{sh.blocks}).set("threads", std::int64_t{sh.threads}).set("iters", std::int64_t{iters});
      buf.poison(s);
      launch_fences(k, buf.data(), iters, cyc.data(), sh.blocks, sh.threads, s);
      Checker chk("last stores");
      const auto h = to_host(buf, threads, s);
      for (std::size_t i = 0; i < threads; ++i) chk.expect(h[i], static_cast<std::uint32_t>(iters), fmt::format("word {}", i));
      if (!chk.stamp(r)) {
        recs.push_back(r);
        continue;
      }
      auto m = measure_values([&] {
        launch_fences(k, buf.data(), iters, cyc.data(), sh.blocks, sh.threads, s);
        const auto h_c = to_host(cyc, cyc.size(), s);
        return measure::median_of(std::vector<double>(h_c.begin(), h_c.end())) / iters;
      }, light_rule(o.rule, o.quick));
      r.set_measurement(m);
      c[si][k] = m.stats.median;
      r.extra["ns_per_iteration"] = g.cycles_to_s(m.stats.median) * 1e9;
      if (k > 0 && c[si][0] > 0) {
        r.extra["fence_cycles"] = m.stats.median - c[si][0];
        r.extra["display"] = "fence: " + cycles_text(m.stats.median - c[si][0], g.clock_hz());
      } else {
        r.extra["display"] = cycles_text(m.stats.median, g.clock_hz()) + " per store";
      }
      recs.push_back(r);
    }
  }
  if (c[0][0] > 0 && c[0][1] > 0 && c[0][2] > 0 && c[0][3] > 0) {
    const double fb = c[0][1] - c[0][0], fd = c[0][2] - c[0][0], fs = c[0][3] - c[0][0];
    const bool ordered = fb <= fd * 1.1 && fd < fs && fs > 2 * std::max(fd, 1.0);
    std::string fig = fmt::format("per fence after a store, one warp: block {}, device {}, system {}",
                                  cycles_text(fb, g.clock_hz()), cycles_text(fd, g.clock_hz()), cycles_text(fs, g.clock_hz()));
    if (c[1][3] > 0)
      fig += fmt::format("; every warp of the GPU fencing: block {:.0f}, device {:.0f}, system {:.0f} cycles",
                         c[1][1] - c[1][0], c[1][2] - c[1][0], c[1][3] - c[1][0]);
    recs.push_back(verdict_record("fences", "cost",
                                  "__threadfence_block is cheap, __threadfence (device) costs more, "
                                  "__threadfence_system (visible to the host) is expensive",
                                  ordered ? Verdict::Holds : Verdict::Depends, fig, fs, "cycles"));
  }
  return recs;
}
#endif

}  // namespace

}  // namespace joseki::probes
