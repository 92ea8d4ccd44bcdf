// Probe "occupancy": latency hiding vs occupancy. A memory-bound read (1 or 4 loads in
// flight per thread) and a compute-bound FMA kernel (1, 2 or 4 independent chains) are run
// at theoretical occupancies set by dynamic shared memory per block (blocks of 128 threads,
// 1..16 blocks per SM), by the block size, and by registers per thread (extra live
// registers). Occupancy comes from cudaOccupancyMaxActiveBlocksPerMultiprocessor; the grid
// is one full wave. Tests "memory-bound needs >= 50 % occupancy" and "compute-bound can do
// with 25 % given ILP": the occupancy needed is the smallest one within 10 % of the best rate
// (the tie rule: prefer the smaller occupancy), recorded as the chosen sweep point.
#include <map>

#include <fmt/format.h>

#include "experiments/probes/probe.hpp"
#include "measure/errors.hpp"
#include "measure/sweep.hpp"
#include "measure/table.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "experiments/probes/common_kernels.hpp"
#include "experiments/probes/device_common.hpp"
#include "experiments/probes/gpu_util.hpp"
#include "experiments/probes/mirrors.hpp"
#include "experiments/probes/occupancy_kernels.hpp"
#endif

namespace joseki::probes {
namespace {

JOSEKI_REGISTER_GPU_PROBE(occupancy, "occupancy and latency hiding: memory- and compute-bound, swept",
                          "memory-bound needs >= 50 %; compute-bound can do with 25 % given ILP", 80, 15);

#ifdef JOSEKI_HAVE_CUDA
float fma_mirror(int kernel, float x, int k) {
  switch (occ_ilp(kernel)) {
    case 1: return fma_chains<1>(x, k);
    case 2: return fma_chains<2>(x, k);
    default: return fma_chains<4>(x, k);
  }
}

struct Point {
  int kernel, threads;
  std::int64_t smem;
  std::string sweep;
  int target_blocks = 0;  // smem sweeps: the blocks per SM the shared memory is sized for
};

std::vector<Record> run_occupancy(const ProbeOptions& o) {
  auto [g, s, d] = GpuProbeRun(o.device);
  const std::size_t n16 = (o.quick ? std::size_t{16} << 20 : std::size_t{64} << 20) + 3;  // 256 MiB / 1 GiB
  const std::size_t n_in = 4099;
  const int k = o.quick ? 512 : 2048;
  cuda::DeviceBuffer<std::uint32_t> data(n16 * 4), partials(static_cast<std::size_t>(d.sm_count) * 32), sink(1);
  cuda::DeviceBuffer<float> fin(n_in), fout(static_cast<std::size_t>(d.sm_count) * d.max_threads_per_sm);
  launch_fill_mix32(data.data(), data.size(), run_seed(), s);
  launch_fill_unit(fin.data(), n_in, run_seed(), s);
  const std::uint32_t total = mirror::total(data.size(), run_seed());
  const auto h_in = to_host(fin, n_in, s);

  std::vector<Point> points;
  const std::vector<int> targets = o.quick ? std::vector<int>{1, 2, 4, 8, 16} : std::vector<int>{1, 2, 3, 4, 6, 8, 12, 16};
  for (int kern : {OCC_MEM_ILP1, OCC_MEM_ILP4, OCC_FMA_ILP1, OCC_FMA_ILP2, OCC_FMA_ILP4}) {
    // The kernel's own static shared memory and the device's limits decide the dynamic size
    // that leaves room for b blocks (the opt-in maximum is per block, static included).
    const OccInfo q0 = occ_query(kern, 128, 0);
    const SmemLimits lim{static_cast<std::int64_t>(q0.smem_per_sm), static_cast<std::int64_t>(q0.optin_smem),
                         static_cast<std::int64_t>(q0.reserved_smem), static_cast<std::int64_t>(q0.static_smem), 128};
    for (int b : targets)
      points.push_back({kern, 128, smem_for_blocks(lim, b), fmt::format("smem:{}", occ_kernel_name(kern)), b});
  }
  for (int t : o.quick ? std::vector<int>{32, 128, 1024} : std::vector<int>{32, 64, 128, 256, 512, 1024})
    points.push_back({OCC_MEM_ILP1, t, 0, "block:mem_ilp1"});
  for (int kern : {OCC_MEM_ILP1, OCC_MEM_PAD64, OCC_MEM_PAD160}) points.push_back({kern, 128, 0, "registers:mem_ilp1"});

  std::vector<Record> recs;
  std::map<std::string, std::vector<std::size_t>> by_sweep;  // sweep -> indices into recs
  std::map<std::string, std::vector<measure::Candidate>> cands;
  for (const Point& p : points) {
    const OccInfo q = occ_query(p.kernel, p.threads, static_cast<std::size_t>(p.smem));
    const double occ = static_cast<double>(q.blocks_per_sm) * p.threads / d.max_threads_per_sm;
    Record r = make_record("occupancy", occ_kernel_name(p.kernel),
                           occ_is_memory(p.kernel) ? "grid-stride 16-byte reads, one wave" : "FMA chains, one wave",
                           Scope::GpuCompute, "hot");
    r.axes.set("block", std::int64_t{p.threads}).set("smem_bytes", p.smem).set("regs", std::int64_t{q.regs})
        .set("blocks_per_sm", std::int64_t{q.blocks_per_sm}).set("occupancy_pct", 100 * occ);
    r.ladder.sweep = p.sweep;
    r.extra["spill_bytes"] = q.spill_bytes;
    r.extra["static_smem_bytes"] = q.static_smem;
    if (p.target_blocks > 0) r.extra["target_blocks_per_sm"] = p.target_blocks;
    if (q.blocks_per_sm == 0) {
      r.skipped = fmt::format("0 blocks per SM fit ({} threads, {} B dynamic + {} B static shared (at most {} B "
                              "dynamic), {} registers, at most {} threads per block)",
                              p.threads, p.smem, q.static_smem, q.max_dynamic_smem(), q.regs, q.max_threads);
      recs.push_back(r);
      continue;
    }
    const int blocks = q.blocks_per_sm * d.sm_count;
    OccArgs a;
    a.d16 = reinterpret_cast<const uint4*>(data.data());
    a.n16 = n16;
    a.d_partials = partials.data();
    a.d_sink = sink.data();
    a.d_fin = fin.data();
    a.n_in = n_in;
    a.d_fout = fout.data();
    a.k = k;
    Checker chk(occ_is_memory(p.kernel) ? "sum of block sums" : "thread results");
    if (occ_is_memory(p.kernel)) {
      partials.poison(s);
      launch_occ(p.kernel, a, blocks, p.threads, static_cast<std::size_t>(p.smem), s);
      const auto h = to_host(partials, static_cast<std::size_t>(blocks), s);
      std::uint32_t sum = 0;
      for (auto v : h) sum += v;
      chk.expect(sum, total, "total");
    } else {
      fout.poison(s);
      launch_occ(p.kernel, a, blocks, p.threads, static_cast<std::size_t>(p.smem), s);
      const std::size_t nt = static_cast<std::size_t>(blocks) * p.threads;
      const auto h = to_host(fout, nt, s);
      for (std::size_t t = 0; t < nt; t += (t < 512 || t + 512 >= nt) ? 1 : 97)
        chk.expect_bits(h[t], fma_mirror(p.kernel, h_in[t % n_in], k), fmt::format("thread {}", t));
    }
    if (!chk.stamp(r)) {
      recs.push_back(r);
      continue;
    }
    const auto m = g.timer().measure(
        [&](cudaStream_t st) { launch_occ(p.kernel, a, blocks, p.threads, static_cast<std::size_t>(p.smem), st); },
        measure::Mode::Hot, o.rule);
    r.set_measurement(m);
    double rate;
    if (occ_is_memory(p.kernel)) {
      r.throughput = measure::throughput({n16 * 4.0, n16 * 16.0}, m.stats.median, d.datasheet_bw_Bps());
      rate = r.throughput->bytes_per_s;
      r.extra["display"] = fmt::format("occupancy {:.1f} %: {}", 100 * occ, measure::format_rate(rate));
    } else {
      const double fmas = static_cast<double>(blocks) * p.threads * k * occ_ilp(p.kernel);
      rate = fmas / m.stats.median;
      r.extra["fma_per_s"] = rate;
      r.extra["display"] = fmt::format("occupancy {:.1f} %: {:.2f} T FMA/s", 100 * occ, rate / 1e12);
    }
    r.extra["rate"] = rate;
    r.extra["occupancy"] = occ;
    by_sweep[p.sweep].push_back(recs.size());
    cands[p.sweep].push_back({r.axes, 1.0 / rate});
    recs.push_back(r);
  }

  // Tie rule per sweep: the smallest occupancy within 10 % of the best rate.
  const measure::TieRule rule = measure::TieRule::prefer_smaller("occupancy_pct", 0.10);
  std::map<std::string, double> needed, best_rate;
  for (auto& [sweep, idx] : by_sweep) {
    const measure::TieChoice c = measure::choose(rule, cands[sweep]);
    for (std::size_t i = 0; i < idx.size(); ++i) recs[idx[i]].ladder.chosen = i == c.chosen;
    recs[idx[c.chosen]].ladder.tie_rule = c.explanation;
    needed[sweep] = recs[idx[c.chosen]].extra["occupancy"].get<double>();
    best_rate[sweep] = recs[idx[c.fastest]].extra["rate"].get<double>();
  }
  auto need = [&](const char* sweep) { return needed.count(sweep) ? needed.at(sweep) : -1.0; };
  const double m1 = need("smem:mem_ilp1"), m4 = need("smem:mem_ilp4");
  if (m1 >= 0 && m4 >= 0)
    recs.push_back(verdict_record(
        "occupancy", "memory",
        "memory-bound kernels need >= 50 % occupancy (more warps hide memory latency)",
        memory_occupancy_verdict(m1, m4),
        fmt::format("within 10 % of the best bandwidth from occupancy {:.1f} % with 1 load in flight per thread ({}), "
                    "{:.1f} % with 4 ({})",
                    100 * m1, measure::format_rate(best_rate["smem:mem_ilp1"]), 100 * m4,
                    measure::format_rate(best_rate["smem:mem_ilp4"])),
        m1, "occupancy"));
  const double f1 = need("smem:fma_ilp1"), f2 = need("smem:fma_ilp2"), f4 = need("smem:fma_ilp4");
  if (f1 >= 0 && f4 >= 0)
    recs.push_back(verdict_record(
        "occupancy", "compute", "compute-bound kernels can do with 25 % occupancy given enough ILP",
        compute_occupancy_verdict(f4),
        fmt::format("within 10 % of each ILP's own best FMA rate from occupancy {:.1f} % with ILP 4 (best {:.1f} T "
                    "FMA/s), {:.1f} % with ILP 2 (best {:.1f}), {:.1f} % with ILP 1 (best {:.1f})",
                    100 * f4, best_rate["smem:fma_ilp4"] / 1e12, 100 * f2, best_rate["smem:fma_ilp2"] / 1e12,
                    100 * f1, best_rate["smem:fma_ilp1"] / 1e12),
        f4, "occupancy"));
  return recs;
}
#endif

}  // namespace

}  // namespace joseki::probes
