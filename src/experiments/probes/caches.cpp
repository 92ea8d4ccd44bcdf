// Probe "caches": dependent-load latency (a one-thread pointer chase through a random
// cyclic permutation, clock64) and read bandwidth (every block reads its share of the
// working set from a staggered start, so one SM's data are re-read by others only after
// the whole set has streamed by) over working sets from 16 KiB to 4 GiB. Latency nodes sit
// 128 bytes apart (one per line) up to 256 MiB; beyond, 2^21 nodes spread over the set.
// Each launch continues the ring where the previous stopped, so a timed load never revisits
// a node within one turn of the ring (the first H200 run restarted at node 0 and re-read the
// same 16 Ki nodes from the L2 at every size: no HBM plateau). The plateaus (L1, L2 and its
// halves if visible, HBM, HBM + TLB misses) are named by analysis.hpp's name_latency_levels.
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "experiments/probes/probe.hpp"
#include "measure/errors.hpp"
#include "measure/table.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "experiments/probes/caches_kernels.hpp"
#include "experiments/probes/common_kernels.hpp"
#include "experiments/probes/gpu_util.hpp"
#include "experiments/probes/mirrors.hpp"
#include "experiments/probes/references.hpp"
#endif

namespace joseki::probes {
namespace {

JOSEKI_REGISTER_GPU_PROBE(caches, "caches: pointer-chase latency and read bandwidth, 16 KiB .. 4 GiB",
                          "L1 / L2 / HBM plateaus of latency and bandwidth", 50, 20);

using measure::Record;

#ifdef JOSEKI_HAVE_CUDA
std::string bytes_text(double b) {
  if (b >= 1073741824.0) return fmt::format("{:g} GiB", b / 1073741824.0);
  if (b >= 1048576.0) return fmt::format("{:g} MiB", std::round(b / 104857.6) / 10);
  return fmt::format("{:g} KiB", std::round(b / 102.4) / 10);
}

// One chase measured between two checks of where it ends: `once` (a launch that continues the
// ring) run and `got() == want()` checked, then timed (a sample: one launch's cycles per step,
// read back from `cyc`), then the end checked again after the last sample. r's validation is set;
// nothing (r skipped, with the reason) when either check fails.
template <class Got, class Want>
std::optional<measure::Measurement> checked_chase(Record& r, const std::string& what, const std::function<void()>& once,
                                                  Got got, Want want, const cuda::DeviceBuffer<long long>& cyc,
                                                  int steps, const measure::StoppingRule& rule, cudaStream_t s) {
  Checker chk("chase end");
  once();
  chk.expect(got(), want(), what + " (first run)");
  if (!chk.stamp(r)) return std::nullopt;
  auto m = measure_values([&] {
    once();
    return static_cast<double>(to_host(cyc, 1, s)[0]) / steps;
  }, rule);
  chk.expect(got(), want(), what + " (last sample)");
  r.validation = chk.text();
  if (!chk.ok()) {
    r.skipped = "validation failed after timing";
    return std::nullopt;
  }
  return m;
}

std::vector<Record> run_caches(const ProbeOptions& o) {
  auto [g, s, d] = GpuProbeRun(o.device);
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
                           Scope::GpuCompute, "hot");
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
    if (!chk.stamp(r)) {
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
                           Scope::GpuCompute, "hot", "cycles");
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
    // Every launch continues the ring where the previous one stopped: the timed loads visit
    // nodes not visited since a whole turn of the ring (a working set beyond the L2 is not
    // re-read from the L2 sample after sample, as a restart from node 0 would).
    std::size_t pos = 0;  // index into order[] of the next start node
    auto chase_once = [&] {
      launch_chase(buf.data(), order[pos] * spacing, warm, steps, cyc_d.data(), end_d.data(), s);
      pos = (pos + static_cast<std::size_t>(warm) + static_cast<std::size_t>(steps)) % nodes;
    };
    end_d.poison(s);
    const auto checked = checked_chase(
        r, "end node", chase_once, [&] { return to_host(end_d, 1, s)[0]; }, [&] { return order[pos] * spacing; },
        cyc_d, steps, light_rule(o.rule, o.quick), s);
    if (!checked) {
      recs.push_back(r);
      continue;
    }
    const measure::Measurement& m = *checked;
    r.set_measurement(m);
    r.extra["nodes_visited"] = static_cast<double>(m.samples_s.size() + m.warmup_runs + 1) * (warm + steps);
    r.extra["ns_per_load"] = g.cycles_to_s(m.stats.median) * 1e9;
    r.extra["display"] = cycles_text(m.stats.median, g.clock_hz()) + " at " + bytes_text(static_cast<double>(w));
    lat_ws.push_back(static_cast<double>(w));
    lat.push_back(m.stats.median);
    recs.push_back(r);
  }

  // ---- L1 by a pure pointer chase, and shared memory (issue 17, item 6) ----
  // The chase above loads next[x] with x a word index, so its L1 figure includes the
  // index-to-address arithmetic on the dependent path. Here each 8-byte slot holds the next
  // slot's address (a load's address is the previous load's value); the ring is walked once
  // before timing, so every timed load hits the L1.
  {
    auto* slots = reinterpret_cast<unsigned long long*>(buf.data());
    cuda::DeviceBuffer<unsigned long long> end64(1);
    for (const std::size_t w : {std::size_t{16384}, std::size_t{65536}, std::size_t{131072}}) {
      Record r = make_record("caches", "pure_chase_latency",
                             "one thread, ld.global whose address is the previous load's value (8-byte slots holding "
                             "global addresses, 128 bytes apart); L1-resident",
                             Scope::GpuCompute, "hot", "cycles");
      const std::uint32_t nodes = static_cast<std::uint32_t>(w / 128), spacing = 16;  // slots of 8 bytes
      r.axes.set("working_set_bytes", static_cast<std::int64_t>(w))
          .set("nodes", std::int64_t{nodes})
          .set("spacing_bytes", std::int64_t{spacing} * 8);
      const auto order = chase_order(nodes, run_seed() ^ static_cast<std::uint64_t>(w) ^ 0x5075726543686173ULL);
      order_d.copy_from_host(order.data(), nodes, s);
      launch_ptr_chase_build(slots, order_d.data(), nodes, spacing, s);
      const int warm = static_cast<int>(nodes);
      std::size_t pos = 0;
      auto slot_of = [&](std::size_t k) { return static_cast<unsigned long long>(order[k]) * spacing; };
      auto once = [&] {
        launch_ptr_chase(slots, slot_of(pos), warm, steps, cyc_d.data(), end64.data(), s);
        pos = (pos + static_cast<std::size_t>(warm) + static_cast<std::size_t>(steps)) % nodes;
      };
      end64.poison(s);
      const auto checked = checked_chase(
          r, "end slot", once, [&] { return to_host(end64, 1, s)[0]; }, [&] { return slot_of(pos); }, cyc_d, steps,
          light_rule(o.rule, o.quick), s);
      if (!checked) {
        recs.push_back(r);
        continue;
      }
      const measure::Measurement& m = *checked;
      r.set_measurement(m);
      r.extra["ns_per_load"] = g.cycles_to_s(m.stats.median) * 1e9;
      std::string display = cycles_text(m.stats.median, g.clock_hz()) + " at " + bytes_text(static_cast<double>(w));
      for (std::size_t i = 0; i < lat_ws.size(); ++i)
        if (lat_ws[i] == static_cast<double>(w)) {
          r.extra["index_chase_cycles"] = lat[i];
          display += fmt::format("; the index chase {:.1f} cycles ({:+.1f})", lat[i], lat[i] - m.stats.median);
        }
      r.extra["display"] = display;
      add_reference(r, Published{"L1 hit latency, pointer chase", 34.2, "cycles",
                                 "RRZE-HPC gpu-benches, gpu-latency/h100_pcie.txt (H100 PCIe, 1755 MHz: 34.0-34.8 "
                                 "cycles at 1-216 kB)"},
                    m.stats.median, "a different chase and another Hopper part (H100 PCIe)");
      recs.push_back(r);
    }

    // Shared memory: 1024 nodes 32 bytes apart (32 KiB), the same random ring, chased with ld.shared.
    Record r = make_record("caches", "shared_chase_latency",
                           "one thread, ld.shared whose address is the previous load's value (1024 nodes, 32 bytes "
                           "apart, 32 KiB of one block's shared memory)",
                           Scope::GpuCompute, "hot", "cycles");
    const std::uint32_t nodes = 1024, spacing = 8, words = nodes * spacing;  // 4-byte words
    r.axes.set("nodes", std::int64_t{nodes}).set("spacing_bytes", std::int64_t{spacing} * 4);
    const auto order = chase_order(nodes, run_seed() ^ 0x5368617265644368ULL);
    order_d.copy_from_host(order.data(), nodes, s);
    launch_chase_build(buf.data(), order_d.data(), nodes, spacing, s);
    const int warm = static_cast<int>(nodes);
    std::size_t pos = 0;
    auto once = [&] {
      launch_shared_chase(buf.data(), words, order[pos] * spacing, warm, steps, cyc_d.data(), end_d.data(), s);
      pos = (pos + static_cast<std::size_t>(warm) + static_cast<std::size_t>(steps)) % nodes;
    };
    end_d.poison(s);
    const auto m = checked_chase(
        r, "end word", once, [&] { return to_host(end_d, 1, s)[0]; }, [&] { return order[pos] * spacing; }, cyc_d,
        steps, light_rule(o.rule, o.quick), s);
    if (m) {
      r.set_measurement(*m);
      r.extra["ns_per_load"] = g.cycles_to_s(m->stats.median) * 1e9;
      r.extra["display"] = cycles_text(m->stats.median, g.clock_hz()) + " per shared load";
      add_reference(r, Published{"shared-memory load latency", 29.0, "cycles",
                                 std::string(LUO_2024) + "; quoted second-hand (FINDINGS.md, R2)"},
                    m->stats.median, "a different chase");
    }
    recs.push_back(r);
  }

  if (lat.size() < 3) return recs;

  // ---- plateaus ----
  const double l2 = static_cast<double>(d.l2_bytes);
  const std::vector<NamedLevel> levels = name_latency_levels(lat_ws, lat, 128 * 1024.0, l2);
  std::string fig;
  std::map<std::string, double> value_of;
  bool rising = true;
  double prev = 0;
  for (const NamedLevel& lv : levels) {
    fig += fmt::format("{}{} {:.0f} cycles ({:.0f} ns) for {}..{}", fig.empty() ? "" : "; ", lv.name, lv.level.value,
                       g.cycles_to_s(lv.level.value) * 1e9, bytes_text(lv.from_ws), bytes_text(lv.to_ws));
    if (!value_of.count(lv.name)) value_of[lv.name] = lv.level.value;
    rising = rising && lv.level.value > prev;
    prev = lv.level.value;
  }
  const bool three = value_of.count("L1") && value_of.count("L2") && value_of.count("HBM");
  fig += value_of.count("L2 (second plateau)") ? "; two L2 plateaus (near/far halves visible?)"
                                               : "; L2 halves not visible as separate plateaus";
  if (three)
    fig += fmt::format("; HBM / L2 {:.1f} x, L2 / L1 {:.1f} x", value_of["HBM"] / value_of["L2"],
                       value_of["L2"] / value_of["L1"]);
  Record lv_rec = verdict_record("caches", "latency",
                                 "L1 per SM, L2 device-wide, then HBM: dependent-load latency steps up at each capacity",
                                 three && rising ? Verdict::Holds : Verdict::Depends, fig,
                                 static_cast<double>(levels.size()), "plateaus");
  for (const NamedLevel& lv : levels) {
    nlohmann::json j;
    j["name"] = lv.name;
    j["cycles"] = lv.level.value;
    j["ns"] = g.cycles_to_s(lv.level.value) * 1e9;
    j["from_bytes"] = lv.from_ws;
    j["to_bytes"] = lv.to_ws;
    lv_rec.extra["plateaus"].push_back(j);
  }
  recs.push_back(lv_rec);
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
#endif

}  // namespace

}  // namespace joseki::probes
