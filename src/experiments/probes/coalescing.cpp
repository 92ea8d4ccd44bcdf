// Probe "coalescing": read bandwidth of 4-byte loads when the lanes of a warp read words
// `stride` apart (1..32, 64, 128), when the first word is misaligned, and for one field of
// an array of structs vs a separate array (AoS vs SoA). Useful bytes / time, cold L2; the
// 32-byte-sector model (sectors per warp request) is recorded beside each figure, and ncu's
// measured sectors per request are in the diagnose probe.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "experiments/probes/probe.hpp"
#include "measure/errors.hpp"
#include "measure/table.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "experiments/probes/coalescing_kernels.hpp"
#include "experiments/probes/common_kernels.hpp"
#include "experiments/probes/gpu_util.hpp"
#include "experiments/probes/mirrors.hpp"
#endif

namespace joseki::probes {
namespace {

JOSEKI_REGISTER_GPU_PROBE(coalescing, "global-memory coalescing: strides, misaligned starts, AoS vs SoA",
                          "consecutive threads -> one transaction; strides and AoS waste bandwidth", 30, 15);

#ifdef JOSEKI_HAVE_CUDA
struct Config {
  std::string variant;
  std::size_t stride, offset;
  bool aos;
};

std::vector<Record> run_coalescing(const ProbeOptions& o) {
  auto [g, s, d] = GpuProbeRun(o.device);
  // Useful words: 256 MiB in the full run. The first H200 run read 64 MiB (2^24 words) and
  // got 3.2 TB/s at stride 1: a 21 us kernel, where launch ramp-up and tail weigh ~25 %.
  const std::size_t n = (o.quick ? std::size_t{1} << 22 : std::size_t{1} << 26) + 3;
  const int blocks = d.sm_count * (d.max_threads_per_sm / COAL_BLOCK);

  std::vector<std::size_t> strides = o.quick ? std::vector<std::size_t>{1, 2, 4, 8, 16, 32}
                                             : std::vector<std::size_t>{};
  if (!o.quick) {
    for (std::size_t st = 1; st <= 32; ++st) strides.push_back(st);
    strides.push_back(64);
    strides.push_back(128);
  }
  const std::vector<std::size_t> offsets = o.quick ? std::vector<std::size_t>{1, 16}
                                                   : std::vector<std::size_t>{1, 2, 4, 8, 16, 31};
  // One buffer for every configuration: the largest stride that fits in half the free memory.
  const std::size_t budget = g.free_bytes() / 2;
  std::size_t max_stride = 1;
  for (std::size_t st : strides)
    if ((n * st + 64) * 4 <= budget) max_stride = std::max(max_stride, st);
  const std::size_t words = n * max_stride + 64;
  cuda::DeviceBuffer<std::uint32_t> data(words), partials(static_cast<std::size_t>(blocks));
  launch_fill_mix32(data.data(), words, run_seed(), s);

  std::vector<Config> configs;
  for (std::size_t st : strides) configs.push_back({fmt::format("stride_{}", st), st, 0, false});
  for (std::size_t off : offsets) configs.push_back({fmt::format("misaligned_{}", off), 1, off, false});
  configs.push_back({"aos_xyz_read_x", 3, 0, true});

  std::vector<Record> recs;
  double bw1 = 0;
  std::map<std::string, double> bw;
  for (const Config& c : configs) {
    const std::string tech = c.aos ? "struct {float x, y, z;}[n], read .x only (12-byte stride)"
                                   : fmt::format("lane i reads word (i x {}) + {}", c.stride, c.offset);
    if (n * c.stride + c.offset + 1 > words) {
      recs.push_back(skipped_record("coalescing", c.variant, tech,
                                    fmt::format("needs {:.1f} GB of device memory, {:.1f} GB free",
                                                (n * c.stride + c.offset) * 4e-9, 2 * budget * 1e-9)));
      continue;
    }
    auto launch = [&](cudaStream_t st) {
      if (c.aos)
        launch_aos_x_sum(data.data(), n, partials.data(), blocks, st);
      else
        launch_strided_sum(data.data(), n, c.stride, c.offset, partials.data(), blocks, st);
    };
    Record r = make_record("coalescing", c.variant, tech, Scope::GpuCompute, "cold");
    r.axes.set("stride_words", static_cast<std::int64_t>(c.stride))
        .set("offset_words", static_cast<std::int64_t>(c.offset))
        .set("n", static_cast<std::int64_t>(n));
    partials.poison(s);
    launch(s);
    const auto got = to_host(partials, partials.size(), s);
    const auto want = mirror::strided_partials(n, c.stride, c.offset, run_seed(), blocks, COAL_BLOCK);
    Checker chk("block sums");
    for (std::size_t b = 0; b < got.size(); ++b) chk.expect(got[b], want[b], fmt::format("block {}", b));
    if (!chk.stamp(r)) {
      recs.push_back(r);
      continue;
    }
    const auto m = g.timer().measure(launch, measure::Mode::Cold, o.rule);
    r.set_measurement(m);
    r.throughput = measure::throughput({static_cast<double>(n), 4.0 * n}, m.stats.median, d.datasheet_bw_Bps());
    const double b = r.throughput->bytes_per_s;
    if (c.stride == 1 && c.offset == 0) {
      bw1 = b;
      add_unit_cost(r, "global_load_elem_s", m.stats.median / static_cast<double>(n));
    }
    bw[c.variant] = b;
    const int sectors = sectors_per_request(static_cast<std::int64_t>(c.stride), static_cast<std::int64_t>(c.offset));
    r.extra["sectors_per_request_model"] = sectors;
    // Bytes in flight device-wide: COAL_UNROLL independent 4-byte loads per thread (Little's
    // law: bandwidth = bytes in flight / latency).
    r.extra["bytes_in_flight"] = static_cast<double>(blocks) * COAL_BLOCK * COAL_UNROLL * 4.0;
    r.extra["useful_Bps"] = b;
    r.extra["display"] = fmt::format("{} useful, {} of stride 1 (model: {} sectors/request, {})",
                                     measure::format_rate(b), bw1 > 0 ? measure::format_pct(100 * b / bw1) : "-",
                                     sectors, measure::format_pct(100.0 * sectors_per_request(1) / sectors));
    recs.push_back(r);
  }
  auto pct = [&](const std::string& v) { return bw.count(v) && bw1 > 0 ? 100 * bw.at(v) / bw1 : -1.0; };
  if (bw1 <= 0) return recs;

  // Rule 1: strides waste bandwidth.
  const double p2 = pct("stride_2"), p4 = pct("stride_4"), p8 = pct("stride_8"), p32 = pct("stride_32");
  const Verdict vs = p32 >= 0 && p32 <= 25 && p2 < 80 ? Verdict::Holds : (p32 > 60 ? Verdict::DoesNotHold : Verdict::Depends);
  std::string fig = fmt::format("stride 2: {:.0f} %, 4: {:.0f} %, 8: {:.0f} %, 32: {:.1f} %", p2, p4, p8, p32);
  if (bw.count("stride_128")) fig += fmt::format(", 128: {:.1f} %", pct("stride_128"));
  fig += fmt::format(" of stride-1 bandwidth ({}); sector model 50 / 25 / 12.5 / 12.5 %", measure::format_rate(bw1));
  recs.push_back(verdict_record("coalescing", "stride",
                                "consecutive threads reading consecutive 4-byte words coalesce; a stride > 1 wastes "
                                "bandwidth (uncoalesced)",
                                vs, fig, p32 / 100, "of stride 1"));
  // Rule 2: a misaligned start is partially coalesced.
  double worst = 1e9;
  std::size_t worst_off = 0;
  for (std::size_t off : offsets)
    if (pct(fmt::format("misaligned_{}", off)) >= 0 && pct(fmt::format("misaligned_{}", off)) < worst) {
      worst = pct(fmt::format("misaligned_{}", off));
      worst_off = off;
    }
  if (worst < 1e9) {
    const Verdict vm = worst < 90 ? Verdict::Holds : (worst >= 97 ? Verdict::DoesNotHold : Verdict::Depends);
    recs.push_back(verdict_record("coalescing", "misaligned",
                                  "a misaligned start is only partially coalesced: it costs bandwidth", vm,
                                  fmt::format("worst start (offset {} words = {} bytes) reads at {:.1f} % of the "
                                              "aligned stride-1 bandwidth (a warp's 128 bytes then touch {} 32-byte "
                                              "sectors in {} 128-byte lines; aligned: 4 in 1)",
                                              worst_off, 4 * worst_off, worst, (4 * worst_off) % 32 ? 5 : 4,
                                              (4 * worst_off) % 128 ? 2 : 1),
                                  worst / 100, "of aligned"));
  }
  // Rule 3: AoS vs SoA.
  if (bw.count("aos_xyz_read_x")) {
    const double ratio = bw1 / bw.at("aos_xyz_read_x");
    const Verdict va = ratio >= 2 ? Verdict::Holds : (ratio < 1.2 ? Verdict::DoesNotHold : Verdict::Depends);
    recs.push_back(verdict_record(
        "coalescing", "aos",
        "reading one field of an array of structs is strided (poorly coalesced); a separate array (SoA) is coalesced",
        va,
        fmt::format("SoA x reads {:.2f} x faster than AoS {{x,y,z}}.x (sector model: 3 x); the guide's \"10 x slower\" "
                    "needs a struct of >= 40 bytes",
                    ratio),
        ratio, "x"));
  }
  return recs;
}
#endif

}  // namespace

}  // namespace joseki::probes
