// Probe "divergence": the guide's cost model "divergence cost = sum of the executed paths
// (not the max)". Path A is ka dependent FMAs, path B kb = ka/2 (different constants), so
// sum and max differ. Measured side by side: all threads A, all B, half of each warp on
// each path, predication (both paths then ?:), and branching on block- or warp-level data.
#include <fmt/format.h>

#include "experiments/probes/probe.hpp"
#include "measure/errors.hpp"
#include "measure/table.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "experiments/probes/common_kernels.hpp"
#include "experiments/probes/device_common.hpp"
#include "experiments/probes/divergence_kernels.hpp"
#include "experiments/probes/gpu_util.hpp"
#include "experiments/probes/mirrors.hpp"
#endif

namespace joseki::probes {
namespace {

JOSEKI_REGISTER_GPU_PROBE(divergence, "warp divergence: two paths in one warp vs uniform vs predicated",
                          "divergence costs the sum of the paths; uniform branches do not diverge", 20, 3);

#ifdef JOSEKI_HAVE_CUDA
// Runs `mode` on n inputs and compares every output (or the first and last `edge`) with the CPU.
std::string check_mode(int mode, const float* d_in, cuda::DeviceBuffer<float>& out, std::size_t n, std::size_t edge,
                       int ka, int kb, cudaStream_t s, bool run) {
  if (run) {
    out.poison(s);
    launch_divergence(mode, d_in, out.data(), n, ka, kb, s);
  }
  const auto h = to_host(out, n, s);
  Checker chk(div_mode_name(mode));
  for (std::size_t i = 0; i < n; ++i) {
    if (edge && i == edge && n > 2 * edge) i = n - edge;
    const float want = mirror::divergence(mode, mix_unit(i, run_seed()), static_cast<unsigned>(i % DIV_BLOCK),
                                          static_cast<unsigned>(i / DIV_BLOCK), ka, kb);
    chk.expect_bits(h[i], want, fmt::format("out[{}]", i));
  }
  return chk.text();
}

std::vector<Record> run_divergence(const ProbeOptions& o) {
  auto [g, s, d] = GpuProbeRun(o.device);
  const std::size_t n = (o.quick ? 1u << 20 : 1u << 22) + 3, n_small = 4 * DIV_BLOCK + 3;
  const int ka = o.quick ? 256 : 1024, kb = ka / 2;
  cuda::DeviceBuffer<float> in(n), out(n), out_small(n_small);
  launch_fill_unit(in.data(), n, run_seed(), s);

  std::vector<Record> recs;
  double t[DIV_MODES] = {};
  for (int mode = 0; mode < DIV_MODES; ++mode) {
    Record r = make_record("divergence", div_mode_name(mode), "", Scope::GpuCompute, "hot");
    r.axes.set("n", static_cast<std::int64_t>(n)).set("ka", std::int64_t{ka}).set("kb", std::int64_t{kb});
    // Correct first: every output of a small run (tail block partial), then the big run's edges.
    std::string v = check_mode(mode, in.data(), out_small, n_small, 0, ka, kb, s, true);
    if (v == "exact") {
      out.poison(s);
      auto m = g.timer().measure([&](cudaStream_t st) { launch_divergence(mode, in.data(), out.data(), n, ka, kb, st); },
                                 measure::Mode::Hot, o.rule);
      r.set_measurement(m);
      v = check_mode(mode, in.data(), out, n, 2048, ka, kb, s, false);
      t[mode] = m.stats.median;
      r.throughput = measure::throughput({static_cast<double>(n), 8.0 * n}, m.stats.median);
    }
    r.validation = v;
    if (!r.summary) r.skipped = "not timed: validation failed";
    recs.push_back(r);
  }
  const char* techniques[] = {"all threads: path A (ka FMAs)", "all threads: path B (kb FMAs)",
                              "even lanes A, odd lanes B (every warp diverges)",
                              "both paths for every thread, then ?: select", "even blocks A, odd blocks B",
                              "even warps A, odd warps B"};
  for (int mode = 0; mode < DIV_MODES; ++mode) {
    recs[mode].technique = techniques[mode];
    if (t[mode] > 0 && t[0] > 0 && t[1] > 0)
      recs[mode].extra["display"] = fmt::format("{:.2f} x (A + B)", t[mode] / (t[0] + t[1]));
  }
  for (const auto& r : recs)
    if (!r.summary) return recs;  // no verdicts from unvalidated kernels

  using measure::format_time;
  const double sum = t[0] + t[1], avg = sum / 2;
  recs.push_back(verdict_record(
      "divergence", "sum", "a warp whose lanes take two paths pays the sum of the paths (not the max)",
      sum_of_paths_verdict(t[DIV_LANE_PARITY], t[0], t[1]),
      fmt::format("half/half {} = {:.2f} x (A {} + B {}); the max would be {:.2f} x", format_time(t[DIV_LANE_PARITY]),
                  t[DIV_LANE_PARITY] / sum, format_time(t[0]), format_time(t[1]), std::max(t[0], t[1]) / sum),
      t[DIV_LANE_PARITY] / sum, "x (A+B)"));
  const double rp = t[DIV_PREDICATED] / sum;
  recs.push_back(verdict_record(
      "divergence", "predicated", "predication (compute both, select with ?:) buys uniformity with work: it also costs A + B",
      std::fabs(rp - 1) <= 0.15 ? Verdict::Holds : (rp < 0.85 ? Verdict::DoesNotHold : Verdict::Depends),
      fmt::format("predicated {} = {:.2f} x (A + B), vs divergent {:.2f} x", format_time(t[DIV_PREDICATED]), rp,
                  t[DIV_LANE_PARITY] / sum),
      rp, "x (A+B)"));
  const double rb = t[DIV_BLOCK_UNIFORM] / avg, rw = t[DIV_WARP_UNIFORM] / avg;
  const bool uni = std::fabs(rb - 1) <= 0.15 && std::fabs(rw - 1) <= 0.15;
  recs.push_back(verdict_record(
      "divergence", "uniform", "branching on block-level (warp-uniform) data does not diverge: it costs the average of the paths",
      uni ? Verdict::Holds : (rb > 1.5 || rw > 1.5 ? Verdict::DoesNotHold : Verdict::Depends),
      fmt::format("block-uniform {} = {:.2f} x, warp-uniform {} = {:.2f} x the average of A and B ({})",
                  format_time(t[DIV_BLOCK_UNIFORM]), rb, format_time(t[DIV_WARP_UNIFORM]), rw, format_time(avg)),
      rb, "x avg(A,B)"));
  return recs;
}
#endif

}  // namespace

}  // namespace joseki::probes
