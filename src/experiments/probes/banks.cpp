// Probe "banks": shared-memory bank conflicts. Lanes reading 4-byte words `stride` apart
// (1..32) hit gcd(stride, 32) words per bank; the guide says those serialize. Measured in
// cycles per warp-wide shared load at the SM (32 warps of loads in flight, one block per
// SM), beside the conflict degree; then the guide's tile: column reads of [32][32] (32-way)
// vs [32][33] (padded), with row reads as the conflict-free reference.
#include <algorithm>

#include <fmt/format.h>

#include "experiments/probes/probe.hpp"
#include "measure/errors.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "experiments/probes/banks_kernels.hpp"
#include "experiments/probes/common_kernels.hpp"
#include "experiments/probes/gpu_util.hpp"
#include "experiments/probes/mirrors.hpp"
#endif

namespace joseki::probes {
namespace {

JOSEKI_REGISTER_GPU_PROBE(banks, "shared-memory bank conflicts: strides 1..32, [32][32] vs [32][33]",
                          "same-bank accesses serialize; padding removes the conflict", 40, 2);

#ifdef JOSEKI_HAVE_CUDA
std::vector<Record> run_banks(const ProbeOptions& o) {
  auto [g, s, d] = GpuProbeRun(o.device);
  const int blocks = d.sm_count, threads = 1024, warps = threads / 32;
  const int reps = o.quick ? 16 : 64;
  // More than half an SM's shared memory per block: exactly one block per SM.
  const std::size_t smem = static_cast<std::size_t>(std::min<std::int64_t>(d.smem_per_sm / 2 + 1024, d.smem_per_block_optin - 8192));
  const std::size_t words = static_cast<std::size_t>(blocks) * BANK_WORDS;
  cuda::DeviceBuffer<std::uint32_t> in(words), out(static_cast<std::size_t>(blocks) * threads);
  cuda::DeviceBuffer<long long> cycles(static_cast<std::size_t>(blocks));
  launch_fill_mix32(in.data(), words, run_seed(), s);
  const double per_block_loads = static_cast<double>(warps) * 32 * reps;

  // Runs one kernel, checks every thread's sum, then samples cycles per warp-wide access.
  auto probe = [&](const std::string& variant, const std::string& tech, const std::function<void()>& launch,
                   const std::function<std::uint32_t(std::size_t, int)>& want, Record& r) -> double {
    r = make_record("banks", variant, tech, Scope::GpuCompute, "hot", "cycles");
    out.poison(s);
    launch();
    const auto h = to_host(out, out.size(), s);
    std::vector<std::uint32_t> expect(static_cast<std::size_t>(blocks) * 32);  // every warp of a block sums alike
    for (std::size_t i = 0; i < expect.size(); ++i) expect[i] = want(i / 32, static_cast<int>(i % 32));
    Checker chk("thread sums");
    for (std::size_t t = 0; t < h.size(); ++t)
      chk.expect(h[t], expect[t / threads * 32 + t % 32], fmt::format("block {} thread {}", t / threads, t % threads));
    if (!chk.stamp(r)) return -1;
    auto m = measure_values([&] {
      launch();
      auto c = to_host(cycles, cycles.size(), s);
      std::vector<double> v(c.begin(), c.end());
      return measure::median_of(v) / per_block_loads;
    }, light_rule(o.rule, o.quick));
    r.set_measurement(m);
    r.extra["ns_per_access"] = g.cycles_to_s(m.stats.median) * 1e9;
    return m.stats.median;
  };

  std::vector<Record> recs;
  std::vector<std::int64_t> strides;
  std::vector<double> cyc;
  const std::vector<int> list = o.quick ? std::vector<int>{1, 2, 3, 4, 8, 16, 32}
                                        : std::vector<int>{1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
                                                           17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
  for (int st : list) {
    Record r;
    const double c = probe(
        fmt::format("stride_{}", st), fmt::format("lane l reads shared word l x {} (+ 32 k)", st),
        [&] { launch_bank_stride(in.data(), out.data(), cycles.data(), st, reps, blocks, threads, smem, s); },
        [&](std::size_t b, int lane) { return mirror::bank_stride_sum(run_seed(), b, lane, st, reps, BANK_WORDS); }, r);
    r.axes.set("stride_words", std::int64_t{st});
    r.extra["conflict_degree"] = bank_conflict_degree(st);
    if (c > 0) {
      strides.push_back(st);
      cyc.push_back(c);
      r.extra["display"] = fmt::format("{} per access; {}-way conflict", cycles_text(c, g.clock_hz()), bank_conflict_degree(st));
      if (st == 1) {
        add_unit_cost(r, "shared_load_warp_s", g.cycles_to_s(c));
        add_unit_cost(r, "shared_load_elem_s", g.cycles_to_s(c) / 32 / d.sm_count);
      }
    }
    recs.push_back(r);
  }
  struct Tile {
    const char* variant;
    const char* tech;
    int pitch;
    bool column;
  };
  const Tile tiles[] = {{"tile32_column", "__shared__ tile[32][32], lane reads tile[lane][c] (column)", 32, true},
                        {"tile33_column", "__shared__ tile[32][33] (padded), lane reads tile[lane][c]", 33, true},
                        {"tile32_row", "__shared__ tile[32][32], lane reads tile[c][lane] (row)", 32, false}};
  double tc[3] = {};
  for (int i = 0; i < 3; ++i) {
    const Tile& t = tiles[i];
    Record r;
    tc[i] = probe(
        t.variant, t.tech,
        [&] { launch_tile_reads(t.pitch, t.column, in.data(), out.data(), cycles.data(), reps, blocks, threads, smem, s); },
        [&](std::size_t b, int lane) { return mirror::tile_sum(run_seed(), b, lane, t.column, reps); }, r);
    r.axes.set("pitch", std::int64_t{t.pitch});
    if (tc[i] > 0) r.extra["display"] = cycles_text(tc[i], g.clock_hz()) + " per access";
    recs.push_back(r);
  }

  if (std::find(strides.begin(), strides.end(), 1) != strides.end() && strides.size() > 2) {
    const double dev = bank_model_deviation(strides, cyc);
    std::string fig;
    for (std::size_t i = 0; i < strides.size(); ++i)
      if (strides[i] == 1 || strides[i] == 2 || strides[i] == 3 || strides[i] == 8 || strides[i] == 32)
        fig += fmt::format("{}stride {}: {:.1f} cycles ({:.1f} x, degree {})", fig.empty() ? "" : "; ", strides[i], cyc[i],
                           cyc[i] / cyc[0], bank_conflict_degree(strides[i]));
    fig += fmt::format("; worst deviation from the gcd model {:.0f} %", 100 * dev);
    recs.push_back(verdict_record("banks", "stride",
                                  "32 banks of 4-byte words: lanes reading different words of one bank serialize "
                                  "(cost = conflict degree gcd(stride, 32))",
                                  dev <= 0.3 ? Verdict::Holds : (dev <= 0.6 ? Verdict::Depends : Verdict::DoesNotHold),
                                  fig, dev, "max deviation"));
  }
  if (tc[0] > 0 && tc[1] > 0 && tc[2] > 0) {
    const double ratio = tc[0] / tc[1];
    recs.push_back(verdict_record(
        "banks", "padding", "padding tile[32][32] to tile[32][33] removes the column-read bank conflict",
        ratio >= 8 && tc[1] <= 1.5 * tc[2] ? Verdict::Holds : (ratio < 2 ? Verdict::DoesNotHold : Verdict::Depends),
        fmt::format("column reads: [32][32] {:.1f} cycles per access vs [32][33] {:.2f} ({:.1f} x faster); row reads "
                    "{:.2f}",
                    tc[0], tc[1], ratio, tc[2]),
        ratio, "x"));
  }
  return recs;
}
#endif

}  // namespace

}  // namespace joseki::probes
