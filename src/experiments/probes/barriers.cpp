// Probe "barriers": the cost of one __syncthreads by block size (32 .. 1024 threads), one
// block per SM, in cycles (clock64) and ns: a loop of one cheap step + barrier, minus the
// same loop without the barrier. Publishes the profile's barrier cost (256 threads).
#include <fmt/format.h>

#include "experiments/probes/probe.hpp"
#include "measure/errors.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "experiments/probes/barriers_kernels.hpp"
#include "experiments/probes/gpu_util.hpp"
#include "experiments/probes/mirrors.hpp"
#endif

namespace joseki::probes {
namespace {

JOSEKI_REGISTER_GPU_PROBE(barriers, "__syncthreads cost by block size (32..1024), cycles and ns",
                          "a barrier costs tens of cycles, more for bigger blocks", 70, 1);

#ifdef JOSEKI_HAVE_CUDA
std::vector<Record> run_barriers(const ProbeOptions& o) {
  auto [g, s, d] = GpuProbeRun(o.device);
  const int blocks = d.sm_count, iters = o.quick ? 512 : 4096;
  const std::size_t smem = static_cast<std::size_t>(std::min<std::int64_t>(d.smem_per_sm / 2 + 1024, d.smem_per_block_optin - 8192));
  cuda::DeviceBuffer<std::uint32_t> out(static_cast<std::size_t>(blocks) * 1024);
  cuda::DeviceBuffer<long long> cyc(static_cast<std::size_t>(blocks));
  std::vector<Record> recs;
  std::vector<std::pair<int, double>> cost;
  for (int threads : {32, 64, 128, 256, 512, 1024}) {
    double c[2] = {};
    for (int with : {0, 1}) {
      Record r = make_record("barriers", with ? "syncthreads" : "no_barrier",
                             with ? "lcg step + __syncthreads, one block per SM" : "lcg step only (baseline)",
                             Scope::GpuCompute, "hot", "cycles");
      r.axes.set("block", std::int64_t{threads}).set("iters", std::int64_t{iters});
      out.poison(s);
      launch_barrier_loop(with, out.data(), iters, cyc.data(), blocks, threads, smem, s);
      const auto h = to_host(out, static_cast<std::size_t>(blocks) * threads, s);
      Checker chk("thread results");
      for (std::size_t i = 0; i < h.size(); ++i)
        chk.expect(h[i], mirror::lcg_iterate(static_cast<std::uint32_t>(i % threads), iters), fmt::format("thread {}", i));
      if (!chk.stamp(r)) {
        recs.push_back(r);
        continue;
      }
      auto m = measure_values([&] {
        launch_barrier_loop(with, out.data(), iters, cyc.data(), blocks, threads, smem, s);
        const auto h_c = to_host(cyc, cyc.size(), s);
        return measure::median_of(std::vector<double>(h_c.begin(), h_c.end())) / iters;
      }, light_rule(o.rule, o.quick));
      r.set_measurement(m);
      c[with] = m.stats.median;
      if (with && c[0] > 0) {
        const double per = c[1] - c[0];
        r.extra["barrier_cycles"] = per;
        r.extra["barrier_ns"] = g.cycles_to_s(per) * 1e9;
        r.extra["display"] = "barrier: " + cycles_text(per, g.clock_hz());
        cost.emplace_back(threads, per);
        if (threads == 256) add_unit_cost(r, "barrier_s", g.cycles_to_s(per));
      } else {
        r.extra["display"] = cycles_text(m.stats.median, g.clock_hz()) + " per iteration";
      }
      recs.push_back(r);
    }
  }
  if (cost.size() >= 2) {
    std::string fig;
    for (const auto& [t, c] : cost)
      fig += fmt::format("{}{}: {:.0f} cycles ({:.1f} ns)", fig.empty() ? "per __syncthreads, block " : ", ", t, c,
                         g.cycles_to_s(c) * 1e9);
    const double grow = cost.back().second / std::max(cost.front().second, 1e-9);
    fig += fmt::format(" ({:.1f} x from {} to {} threads)", grow, cost.front().first, cost.back().first);
    recs.push_back(verdict_record("barriers", "cost",
                                  "a __syncthreads costs tens of cycles and grows with the number of warps it waits for",
                                  grow >= 1.5 ? Verdict::Holds : Verdict::Depends, fig, cost.back().second, "cycles"));
  }
  return recs;
}
#endif

}  // namespace

}  // namespace joseki::probes
