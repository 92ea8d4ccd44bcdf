// Probe "tma" (issue 19): streaming a buffer far larger than the L2 (1 GiB; 256 MiB quick) through
// Hopper's bulk-copy engine (cp.async.bulk global -> shared, completed on mbarriers: reduce r08's
// ring) by tile size and number of stages, against plain 16-byte loads (1 and 4 in flight per
// thread) and the stream-read ceiling (backend: 16-byte loads, 4 in flight, full occupancy) in the
// same run. Every variant's sum of the buffer's 32-bit words equals the CPU reference. The verdict
// says whether bulk copies can beat plain loads here and why (bytes in flight per SM against the
// DRAM ceiling), which is the question reduce r08 / r11 left open. Tensor-map copies
// (cp.async.bulk.tensor.2d, the buffer as rows of 1 KiB) through the same ring are measured beside
// them (verdict tensor_vs_loads).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "experiments/probes/probe.hpp"
#include "experiments/probes/references.hpp"
#include "measure/errors.hpp"
#include "measure/needs.hpp"
#include "measure/table.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "backend/cuda/kernels.hpp"
#include "experiments/probes/common_kernels.hpp"
#include "experiments/probes/gpu_util.hpp"
#include "experiments/probes/mirrors.hpp"
#include "experiments/probes/tma_kernels.hpp"
#endif

namespace joseki::probes {
namespace {

using measure::Record;

const measure::Needs TMA_NEEDS{0, {measure::Feature::BulkCopy}, 0};
const measure::Needs TENSOR_NEEDS{0, {measure::Feature::TensorMapCopy}, 0};

JOSEKI_REGISTER_GPU_PROBE(tma,
                          "bulk copies (cp.async.bulk + mbarrier) vs plain 16-byte loads streaming "
                          "1 GiB, by tile and stages (sm_90)",
                          "TMA streaming is DRAM-bound like plain loads", 121, 15, TMA_NEEDS);

#ifdef JOSEKI_HAVE_CUDA
std::vector<Record> run_tma(const ProbeOptions& o) {
  auto [g, s, d] = GpuProbeRun(o.device);
  // The registry's needs, checked again for callers that run the probe directly (the GPU tests).
  if (auto why = measure::unmet(TMA_NEEDS, d)) return {skipped_record("tma", "tma", "bulk copies", *why)};
  std::vector<Record> recs;
  std::size_t bytes = o.quick ? std::size_t{256} << 20 : std::size_t{1} << 30;
  bytes = std::min(bytes, g.free_bytes() / 2 / (1 << 20) * (1 << 20));
  const std::size_t words = bytes / 4;
  cuda::DeviceBuffer<std::uint32_t> buf(words);
  launch_fill_mix32(buf.data(), words, run_seed(), s);
  const std::uint32_t want = mirror::total(words, run_seed());
  const int sms = d.sm_count;
  const measure::StoppingRule lr = light_rule(o.rule, o.quick);
  cuda::DeviceBuffer<std::uint32_t> partials(static_cast<std::size_t>(sms) * 32), sink(1);
  const double datasheet = d.datasheet_bw_Bps();

  // One timed variant: validated (the sum of the block sums is the CPU total), then timed hot
  // (1 GiB >> the 60 MiB L2: every sample reads from HBM).
  auto timed = [&](Record r, int blocks, auto launch) -> double {
    partials.poison(s);
    launch(s);
    const auto got = to_host(partials, static_cast<std::size_t>(blocks), s);
    std::uint32_t total = 0;
    for (int b = 0; b < blocks; ++b) total += got[b];
    Checker chk("buffer sum");
    chk.expect(total, want, "sum of block sums");
    if (!chk.stamp(r)) {
      recs.push_back(r);
      return -1;
    }
    const auto m = g.timer().measure(launch, measure::Mode::Hot, lr);
    r.set_measurement(m);
    r.throughput = measure::throughput({static_cast<double>(words), static_cast<double>(bytes)}, m.stats.median, datasheet);
    r.axes.set("bytes", static_cast<std::int64_t>(bytes));
    recs.push_back(r);
    return r.throughput->bytes_per_s;
  };

  // ---- the ceiling and plain loads ----
  const int full_blocks = sms * std::max(1, d.max_threads_per_sm / 256);
  double ceiling = -1;
  {
    Record r = make_record("tma", "stream_read_ceiling", "backend stream read: 16-byte loads, 4 in flight, full occupancy",
                           Scope::GpuCompute, "hot");
    const auto m = g.timer().measure([&](cudaStream_t st) {
      cuda::launch_stream_read(reinterpret_cast<const uint4*>(buf.data()), bytes / 16, sink.data(), full_blocks, 256, st);
    }, measure::Mode::Hot, lr);
    r.set_measurement(m);
    r.throughput = measure::throughput({static_cast<double>(words), static_cast<double>(bytes)}, m.stats.median, datasheet);
    r.validation = "not-applicable";
    r.axes.set("bytes", static_cast<std::int64_t>(bytes));
    ceiling = r.throughput->bytes_per_s;
    r.extra["display"] = measure::format_rate(ceiling);
    recs.push_back(r);
  }
  double best_vec = -1;
  std::string best_vec_name;
  for (int unroll : {1, 4}) {
    Record r = make_record("tma", fmt::format("vector_loads_x{}", unroll),
                           fmt::format("grid-stride 16-byte loads, {} in flight per thread, 256 x {} blocks", unroll, full_blocks),
                           Scope::GpuCompute, "hot");
    r.axes.set("unroll", std::int64_t{unroll});
    const double bw = timed(r, full_blocks, [&](cudaStream_t st) {
      launch_vec_stream(reinterpret_cast<const uint4*>(buf.data()), bytes / 16, unroll, full_blocks, 256, partials.data(), st);
    });
    if (bw > 0) {
      recs.back().extra["pct_of_ceiling"] = 100 * bw / ceiling;
      recs.back().extra["display"] = fmt::format("{} ({:.1f} % of the stream-read ceiling)", measure::format_rate(bw), 100 * bw / ceiling);
    }
    if (bw > best_vec) {
      best_vec = bw;
      best_vec_name = recs.back().variant;
    }
  }

  // ---- bulk copies: tile x stages ----
  const std::vector<unsigned> tiles = o.quick ? std::vector<unsigned>{4096, 16384, 65536}
                                              : std::vector<unsigned>{2048, 4096, 8192, 16384, 32768, 65536};
  const std::vector<int> stage_counts = o.quick ? std::vector<int>{2, 4} : std::vector<int>{2, 3, 4, 8};
  const int threads = 256;
  struct Point {
    unsigned tile;
    int stages, per_sm;
    double bw, in_flight;
  };
  std::vector<Point> pts;
  const auto skip = [&recs](Record& r, const std::string& why) {  // a point that cannot run, with the reason
    r.skipped = why;
    recs.push_back(r);
  };
  for (unsigned tile : tiles)
    for (int st : stage_counts) {
      Record r = make_record("tma", "bulk_copy", "cp.async.bulk tiles into a ring of stages, mbarrier per stage (r08's ring)",
                             Scope::GpuCompute, "hot");
      r.axes.set("tile_bytes", std::int64_t{tile}).set("stages", std::int64_t{st});
      const int per_sm = std::min(tma_blocks_per_sm(tile, st, threads), 8);
      if (per_sm < 1) {
        skip(r, fmt::format("a ring of {} x {} KiB does not fit in a block's shared memory", st, tile / 1024));
        continue;
      }
      const int blocks = sms * per_sm;
      const double in_flight = static_cast<double>(per_sm) * st * tile;  // bytes requested per SM at most
      r.axes.set("blocks_per_sm", std::int64_t{per_sm});
      r.extra["bytes_in_flight_per_sm"] = in_flight;
      const double bw = timed(r, blocks, [&](cudaStream_t stm) {
        launch_tma_stream(buf.data(), bytes, tile, st, blocks, threads, partials.data(), stm);
      });
      if (bw > 0) {
        recs.back().extra["pct_of_ceiling"] = 100 * bw / ceiling;
        recs.back().extra["display"] = fmt::format("{} ({:.1f} % of the ceiling; {} blocks/SM, {:.0f} KiB in flight per SM)",
                                                   measure::format_rate(bw), 100 * bw / ceiling, per_sm, in_flight / 1024);
        pts.push_back({tile, st, per_sm, bw, in_flight});
      }
    }

  // ---- tensor-map copies (cp.async.bulk.tensor.2d): the same ring, the box walked by the copy engine ----
  struct TPoint {
    unsigned tile;
    int stages, per_sm;
    double bw;
  };
  std::vector<TPoint> tpts;
  const std::string tensor_why = measure::unmet(TENSOR_NEEDS, d).value_or(tma_tensor_unavailable());
  const std::vector<unsigned> ttiles = o.quick ? std::vector<unsigned>{16384} : std::vector<unsigned>{4096, 16384, 32768};
  const std::vector<int> tstages = o.quick ? std::vector<int>{2} : std::vector<int>{2, 4};
  for (unsigned tile : ttiles)
    for (int st : tstages) {
      Record r = make_record("tma", "tensor_copy",
                             "cp.async.bulk.tensor.2d boxes (rows of 1 KiB) into a ring of stages, mbarrier per stage",
                             Scope::GpuCompute, "hot");
      r.axes.set("tile_bytes", std::int64_t{tile}).set("stages", std::int64_t{st});
      if (!tensor_why.empty()) {
        skip(r, tensor_why);
        continue;
      }
      const int per_sm = std::min(tma_tensor_blocks_per_sm(tile, st, threads), 8);
      if (per_sm < 1) {
        skip(r, fmt::format("a ring of {} x {} KiB does not fit in a block's shared memory", st, tile / 1024));
        continue;
      }
      const int blocks = sms * per_sm;
      r.axes.set("blocks_per_sm", std::int64_t{per_sm});
      const double bw = timed(r, blocks, [&](cudaStream_t stm) {
        launch_tma_tensor_stream(buf.data(), bytes, tile, st, blocks, threads, partials.data(), stm);
      });
      if (bw > 0) {
        recs.back().extra["pct_of_ceiling"] = 100 * bw / ceiling;
        recs.back().extra["display"] = fmt::format("{} ({:.1f} % of the ceiling; {} blocks/SM)", measure::format_rate(bw),
                                                   100 * bw / ceiling, per_sm);
        tpts.push_back({tile, st, per_sm, bw});
      }
    }
  if (!tpts.empty() && best_vec > 0 && ceiling > 0) {
    const TPoint best =
        *std::max_element(tpts.begin(), tpts.end(), [](const TPoint& a, const TPoint& b) { return a.bw < b.bw; });
    double best_bulk = -1;
    for (const Point& p : pts) best_bulk = std::max(best_bulk, p.bw);
    const double gain = best.bw / best_vec;
    const std::string fig = fmt::format(
        "best tensor-map copy {} ({} KiB boxes x {} stages, {} blocks/SM: {:.1f} % of the stream-read ceiling {}); "
        "best bulk copy {}; best plain loads {}; tensor / plain {:.3f}",
        measure::format_rate(best.bw), best.tile / 1024, best.stages, best.per_sm, 100 * best.bw / ceiling,
        measure::format_rate(ceiling), best_bulk > 0 ? measure::format_rate(best_bulk) : std::string("-"),
        measure::format_rate(best_vec), gain);
    Record v = verdict_record("tma", "tensor_vs_loads",
                              "tensor-map copies stream from HBM no faster than plain 16-byte loads: both are bound by DRAM",
                              gain < 1.02 ? Verdict::Holds : Verdict::DoesNotHold, fig, gain,
                              "x (best tensor copy / best plain)");
    v.extra["ceiling_Bps"] = ceiling;
    v.extra["best_tensor"] = {{"tile_bytes", best.tile}, {"stages", best.stages}, {"blocks_per_sm", best.per_sm}, {"Bps", best.bw}};
    v.extra["best_bulk_Bps"] = best_bulk;
    v.extra["best_plain_Bps"] = best_vec;
    recs.push_back(v);
  }

  // ---- verdict ----
  if (!pts.empty() && best_vec > 0 && ceiling > 0) {
    const Point best = *std::max_element(pts.begin(), pts.end(), [](const Point& a, const Point& b) { return a.bw < b.bw; });
    // The least bytes in flight per SM that reach 95 % of the best bulk rate.
    double need = -1;
    for (const Point& p : pts)
      if (p.bw >= 0.95 * best.bw && (need < 0 || p.in_flight < need)) need = p.in_flight;
    const double gain = best.bw / best_vec;
    const bool no_gain = gain < 1.02;
    std::string fig = fmt::format(
        "{} GiB from HBM: best bulk copy {} ({} KiB tiles x {} stages, {} blocks/SM: {:.1f} % of the stream-read ceiling "
        "{}, {:.1f} % of the datasheet); best plain loads {} ({}: {:.1f} % of the ceiling); bulk / plain {:.3f}; "
        "bulk copies reach 95 % of their best from {:.0f} KiB in flight per SM",
        static_cast<double>(bytes) / (1 << 30), measure::format_rate(best.bw), best.tile / 1024, best.stages, best.per_sm,
        100 * best.bw / ceiling, measure::format_rate(ceiling), 100 * best.bw / datasheet, measure::format_rate(best_vec),
        best_vec_name, 100 * best_vec / ceiling, gain, need / 1024);
    fig += no_gain ? ". Why r08/r11 could not win: plain 16-byte loads already keep enough bytes in flight to hold "
                     "DRAM at its ceiling; a bulk copy moves the same bytes over the same DRAM, so the ring can only "
                     "match them once it holds as many bytes in flight, and pays its fill (the first tiles of every "
                     "block) and one block barrier per tile on top"
                   : ". Bulk copies beat plain loads here: the ring holds more bytes in flight per SM than the loads";
    Record v = verdict_record("tma", "bulk_vs_loads",
                              "bulk copies (TMA) stream from HBM no faster than plain 16-byte loads: both are bound by DRAM",
                              no_gain ? Verdict::Holds : Verdict::DoesNotHold, fig, gain, "x (best bulk / best plain)");
    add_reference(v, Published{"HBM3e read bandwidth (H200 SXM)", datasheet > 0 ? datasheet : 4.8e12, "B/s", H200_DATASHEET},
                  best.bw,
                  "no stream reaches the datasheet rate: the refresh and page overheads of HBM leave 90-95 % usable "
                  "(the same run's stream-read ceiling is the honest bound)");
    v.extra["ceiling_Bps"] = ceiling;
    v.extra["best_bulk"] = {{"tile_bytes", best.tile}, {"stages", best.stages}, {"blocks_per_sm", best.per_sm}, {"Bps", best.bw}};
    v.extra["best_plain_Bps"] = best_vec;
    recs.push_back(v);
  }
  return recs;
}
#endif

}  // namespace

}  // namespace joseki::probes
