// Probe "caches": dependent-load latency (a one-thread pointer chase through a random
// cyclic permutation, clock64) and read bandwidth (every block reads its share of the
// working set from a staggered start, so one SM's data are re-read by others only after
// the whole set has streamed by) over working sets from 16 KiB to 4 GiB. Latency nodes sit
// 128 bytes apart (one per line) up to 256 MiB; beyond, 2^21 nodes spread over the set.
// The plateaus (L1, L2 and its halves if visible, HBM, HBM + TLB misses) are found by
// analysis.hpp's find_levels.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "experiments/probes/probe.hpp"
#include "measure/errors.hpp"
#include "measure/table.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "experiments/probes/caches_kernels.hpp"
#include "experiments/probes/common_kernels.hpp"
#include "experiments/probes/gpu_util.hpp"
#include "experiments/probes/mirrors.hpp"
#endif

namespace joseki::probes {
namespace {

using measure::Record;

#ifdef JOSEKI_HAVE_CUDA
std::string bytes_text(double b) {
  if (b >= 1073741824.0) return fmt::format("{:g} GiB", b / 1073741824.0);
  if (b >= 1048576.0) return fmt::format("{:g} MiB", std::round(b / 104857.6) / 10);
  return fmt::format("{:g} KiB", std::round(b / 102.4) / 10);
}

std::vector<Record> run_caches(const ProbeOptions& o) {
  GpuContext g(o.device);
  const cudaStream_t s = g.stream();
  const measure::DeviceFacts& d = g.facts();
  const std::size_t max_ws = std::min<std::size_t>(o.quick ? std::size_t{1} << 30 : std::size_t{4} << 30,
                                                   g.free_bytes() / 2 / 4096 * 4096);
  // Working sets: x sqrt(2) steps (x 4 when quick) from 16 KiB, multiples of 4 KiB.
  std::vector<std::size_t> sizes;
  for (int k = 0;; k += o.quick ? 4 : 1) {
    const std::size_t w = static_cast<std::size_t>(16384.0 * std::pow(2.0, k / 2.0)) / 4096 * 4096;
    if (w > (std::size_t{4} << 30)) break;
    sizes.push_back(w);
  }
  cuda::DeviceBuffer<std::uint32_t> buf(max_ws / 4);
  const std::uint32_t max_nodes = o.quick ? 1u << 18 : 1u << 21;
  cuda::DeviceBuffer<std::uint32_t> order_d(max_nodes), end_d(1), sink(1), partials;
  cuda::DeviceBuffer<long long> cyc_d(1);
  std::vector<Record> recs;

  // ---- bandwidth (powers of two) ----
  const int threads = 256, blocks = d.sm_count * (d.max_threads_per_sm / threads);
  const std::size_t per_block = o.quick ? 16384 : 65536;  // 16-byte words per block per sample
  partials = cuda::DeviceBuffer<std::uint32_t>(static_cast<std::size_t>(blocks));
  launch_fill_mix32(buf.data(), buf.size(), run_seed(), s);
  std::vector<double> bw_ws, bw;
  for (std::size_t w : sizes) {
    if ((w & (w - 1)) != 0) continue;
    Record r = make_record("caches", "read_bandwidth", "every block reads its share from a staggered start (16-byte loads)",
                           "GPU_COMPUTE", "hot");
    r.axes.set("working_set_bytes", static_cast<std::int64_t>(w));
    if (w > max_ws) {
      r.skipped = fmt::format("needs {} of device memory (half the free memory is {})", bytes_text(w), bytes_text(max_ws));
      recs.push_back(r);
      continue;
    }
    const std::size_t n16 = w / 16;
    auto launch = [&](cudaStream_t st) { launch_ws_read(reinterpret_cast<const uint4*>(buf.data()), n16, per_block, partials.data(), blocks, threads, st); };
    partials.poison(s);
    launch(s);
    const auto got = to_host(partials, partials.size(), s);
    Checker chk("block sums");
    for (int b : {0, blocks / 2, blocks - 1})
      chk.expect(got[b], mirror::ws_read_partial(n16, per_block, blocks, b, run_seed()), fmt::format("block {}", b));
    r.validation = chk.text();
    if (!chk.ok()) {
      r.skipped = "not timed: validation failed";
      recs.push_back(r);
      continue;
    }
    const auto m = g.timer().measure(launch, measure::Mode::Hot, light_rule(o.rule, o.quick));
    r.set_measurement(m);
    const double bytes = static_cast<double>(blocks) * per_block * 16;
    r.throughput = measure::throughput({bytes / 4, bytes}, m.stats.median, d.datasheet_bw_Bps());
    r.extra["display"] = measure::format_rate(r.throughput->bytes_per_s) + " at " + bytes_text(static_cast<double>(w));
    bw_ws.push_back(static_cast<double>(w));
    bw.push_back(r.throughput->bytes_per_s);
    recs.push_back(r);
  }

  // ---- latency: pointer chase ----
  const int steps = o.quick ? 2048 : 8192;
  std::vector<double> lat_ws, lat;
  for (std::size_t w : sizes) {
    Record r = make_record("caches", "chase_latency", "one thread, dependent loads through a random cyclic permutation",
                           "GPU_COMPUTE", "hot", "cycles");
    r.axes.set("working_set_bytes", static_cast<std::int64_t>(w));
    if (w > max_ws) {
      r.skipped = fmt::format("needs {} of device memory (half the free memory is {})", bytes_text(w), bytes_text(max_ws));
      recs.push_back(r);
      continue;
    }
    const std::uint32_t nodes = static_cast<std::uint32_t>(std::min<std::size_t>(w / 128, max_nodes));
    const std::uint32_t spacing = static_cast<std::uint32_t>(w / 4 / nodes);
    const auto order = chase_order(nodes, run_seed() ^ static_cast<std::uint64_t>(w));
    order_d.copy_from_host(order.data(), nodes, s);
    launch_chase_build(buf.data(), order_d.data(), nodes, spacing, s);
    launch_chase_touch(buf.data(), nodes, spacing, sink.data(), s);
    const int warm = static_cast<int>(std::min<std::uint32_t>(nodes, static_cast<std::uint32_t>(steps)));
    r.axes.set("nodes", std::int64_t{nodes}).set("spacing_bytes", std::int64_t{spacing} * 4);
    end_d.poison(s);
    launch_chase(buf.data(), order[0] * spacing, warm, steps, cyc_d.data(), end_d.data(), s);
    Checker chk("chase end");
    chk.expect(to_host(end_d, 1, s)[0], order[static_cast<std::size_t>(warm + steps) % nodes] * spacing, "end node");
    r.validation = chk.text();
    if (!chk.ok()) {
      r.skipped = "not timed: validation failed";
      recs.push_back(r);
      continue;
    }
    auto m = measure_values([&] {
      launch_chase(buf.data(), order[0] * spacing, warm, steps, cyc_d.data(), end_d.data(), s);
      return static_cast<double>(to_host(cyc_d, 1, s)[0]) / steps;
    }, light_rule(o.rule, o.quick));
    r.set_measurement(m);
    r.extra["ns_per_load"] = g.cycles_to_s(m.stats.median) * 1e9;
    r.extra["display"] = cycles_text(m.stats.median, g.clock_hz()) + " at " + bytes_text(static_cast<double>(w));
    lat_ws.push_back(static_cast<double>(w));
    lat.push_back(m.stats.median);
    recs.push_back(r);
  }
  if (lat.size() < 3) return recs;

  // ---- plateaus ----
  const double l2 = static_cast<double>(d.l2_bytes);
  std::string fig;
  int plateaus = 0;
  bool edges_ok = true;
  double prev = 0;
  int l2_levels = 0, hbm_levels = 0;
  for (const Level& lv : find_levels(lat)) {
    const bool plateau = lv.last > lv.first || lv.last + 1 == lat.size();
    if (!plateau) continue;
    const double from = lat_ws[lv.first], to = lat_ws[lv.last];
    const char* name = from <= 128 * 1024.0 ? "L1" : (from <= l2 ? "L2" : (hbm_levels++ ? "HBM + TLB misses" : "HBM"));
    if (std::string(name) == "L2") ++l2_levels;
    if (std::string(name) == "L1" && to > 1024 * 1024.0) edges_ok = false;
    fig += fmt::format("{}{} {:.0f} cycles ({:.0f} ns) for {}..{}", fig.empty() ? "" : "; ", name, lv.value,
                       g.cycles_to_s(lv.value) * 1e9, bytes_text(from), bytes_text(to));
    if (lv.value <= prev) edges_ok = false;
    prev = lv.value;
    ++plateaus;
  }
  fig += l2_levels >= 2 ? "; two L2 plateaus (near/far halves visible)" : "; L2 halves not visible as separate plateaus";
  recs.push_back(verdict_record("caches", "latency",
                                "L1 per SM, L2 device-wide, then HBM: dependent-load latency steps up at each capacity",
                                plateaus >= 3 && edges_ok ? Verdict::Holds : Verdict::Depends, fig, plateaus, "plateaus"));
  if (bw.size() >= 3) {
    auto at = [&](double w) {
      std::size_t best = 0;
      for (std::size_t i = 0; i < bw_ws.size(); ++i)
        if (std::fabs(std::log(bw_ws[i] / w)) < std::fabs(std::log(bw_ws[best] / w))) best = i;
      return best;
    };
    const std::size_t i1 = 0, i2 = at(l2 / 4), i3 = bw.size() - 1;
    const bool ordered = bw[i1] > bw[i2] && bw[i2] > bw[i3] && bw_ws[i3] > 2 * l2;
    recs.push_back(verdict_record(
        "caches", "bandwidth", "cache-resident working sets read faster: L1 > L2 > HBM bandwidth",
        ordered ? Verdict::Holds : Verdict::Depends,
        fmt::format("{}: {}, {}: {}, {}: {}", bytes_text(bw_ws[i1]), measure::format_rate(bw[i1]), bytes_text(bw_ws[i2]),
                    measure::format_rate(bw[i2]), bytes_text(bw_ws[i3]), measure::format_rate(bw[i3])),
        bw[i1] / bw[i3], "x (L1 / HBM)"));
  }
  return recs;
}
#else
std::vector<Record> run_caches(const ProbeOptions&) { throw GpuUnavailable(NO_CUDA); }
#endif

}  // namespace

JOSEKI_REGISTER_PROBE(caches, ProbeInfo{"caches", "caches: pointer-chase latency and read bandwidth, 16 KiB .. 4 GiB",
                                        "L1 / L2 / HBM plateaus of latency and bandwidth", true, 50, 20, run_caches});

}  // namespace joseki::probes
