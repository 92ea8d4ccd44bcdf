// Probe "atomics": the guide's "all threads atomic to one counter serializes; reduce per
// block first". n elements added with atomicAdd in five ways, side by side: to one address
// nvcc can prove uniform (it aggregates per warp), to one address through a loaded index
// (32 atomics per warp, the un-aggregated cost), to distinct addresses, after an explicit
// warp sum (one lane's atomic per warp) and after a block sum (one atomic per block).
// Publishes the profile's unit cost of one same-address atomic.
#include <fmt/format.h>

#include "experiments/probes/probe.hpp"
#include "measure/errors.hpp"
#include "measure/table.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "experiments/probes/atomics_kernels.hpp"
#include "experiments/probes/common_kernels.hpp"
#include "experiments/probes/device_common.hpp"
#include "experiments/probes/gpu_util.hpp"
#include "experiments/probes/mirrors.hpp"
#endif

namespace joseki::probes {
namespace {

JOSEKI_REGISTER_GPU_PROBE(atomics, "atomics: one address (aggregated / not), distinct, hierarchical",
                          "contended atomics serialize; reduce per block first", 60, 3);

#ifdef JOSEKI_HAVE_CUDA
std::vector<Record> run_atomics(const ProbeOptions& o) {
  auto [g, s, d] = GpuProbeRun(o.device);
  const std::size_t n = (o.quick ? std::size_t{1} << 22 : std::size_t{1} << 24) + 3;
  cuda::DeviceBuffer<std::uint32_t> in(n), slot(n), out(n);
  launch_fill_mix32(in.data(), n, run_seed(), s);
  JOSEKI_CUDA_CHECK(cudaMemsetAsync(slot.data(), 0, slot.bytes(), s));
  const std::uint32_t total = mirror::total(n, run_seed());
  const double warps = std::ceil(n / 32.0), blocks = std::ceil(static_cast<double>(n) / ATOM_BLOCK);
  const double count[ATOM_MODES] = {warps, static_cast<double>(n), static_cast<double>(n), warps, blocks};
  const char* tech[ATOM_MODES] = {
      "atomicAdd(&sum, x): one address nvcc proves uniform (warp-aggregated: one atomic per warp)",
      "atomicAdd(&sum[slot[i]], x), slot[i] == 0: one address, 32 atomics per warp",
      "atomicAdd(&out[i], x): distinct addresses",
      "__reduce_add_sync (butterfly shuffles below sm_80), then one lane's atomicAdd per warp",
      "block sum (shuffles + shared), then one atomicAdd per block"};
  std::vector<Record> recs;
  double t[ATOM_MODES] = {};
  for (int mode = 0; mode < ATOM_MODES; ++mode) {
    Record r = make_record("atomics", atomic_mode_name(mode), tech[mode], Scope::GpuCompute, "cold");
    r.axes.set("n", static_cast<std::int64_t>(n));
    out.poison(s);
    launch_atomics(mode, in.data(), slot.data(), n, out.data(), s);
    Checker chk("sums after poison");
    if (mode == 2) {
      const auto h = to_host(out, n, s);
      for (std::size_t i = 0; i < n; ++i) chk.expect(h[i], POISON_U32 + mix32(i, run_seed()), fmt::format("out[{}]", i));
    } else {
      chk.expect(to_host(out, 1, s)[0], POISON_U32 + total, "sum");
    }
    if (!chk.stamp(r)) {
      recs.push_back(r);
      continue;
    }
    const auto m = g.timer().measure([&](cudaStream_t st) { launch_atomics(mode, in.data(), slot.data(), n, out.data(), st); },
                                     measure::Mode::Cold, o.rule);
    r.set_measurement(m);
    r.throughput = measure::throughput({static_cast<double>(n), 4.0 * n}, m.stats.median, g.facts().datasheet_bw_Bps());
    t[mode] = m.stats.median;
    r.extra["atomics"] = count[mode];
    r.extra["ns_per_element"] = m.stats.median / n * 1e9;
    r.extra["ns_per_atomic"] = m.stats.median / count[mode] * 1e9;
    r.extra["display"] = fmt::format("{:.3f} ns per element, {:.3f} ns per atomic ({} atomics)", m.stats.median / n * 1e9,
                                     m.stats.median / count[mode] * 1e9, measure::format_count(count[mode]));
    if (mode == 3) add_unit_cost(r, "atomic_same_op_s", m.stats.median / count[mode]);
    if (mode == 0) add_unit_cost(r, "atomic_uniform_elem_s", m.stats.median / n);
    recs.push_back(r);
  }
  for (double x : t)
    if (x <= 0) return recs;

  using measure::format_time;
  const double r1 = t[0] / t[4];
  recs.push_back(verdict_record(
      "atomics", "one_counter",
      "all threads atomically adding to one counter is slow (serialized); a per-block reduction with one atomic per "
      "block is better",
      r1 >= 1.5 ? Verdict::Holds : (r1 < 1.1 ? Verdict::DoesNotHold : Verdict::Depends),
      fmt::format("one counter {} (nvcc's warp aggregation: n/32 atomics) vs block-then-global {}: {:.2f} x; "
                  "un-aggregated one counter {} ({:.1f} x block-then-global)",
                  format_time(t[0]), format_time(t[4]), r1, format_time(t[1]), t[1] / t[4]),
      r1, "x"));
  const double r2 = t[1] / t[2];
  recs.push_back(verdict_record(
      "atomics", "contention",
      "contended atomics (one address) serialize: far slower than the same number on distinct addresses",
      r2 >= 2 ? Verdict::Holds : (r2 < 1.2 ? Verdict::DoesNotHold : Verdict::Depends),
      fmt::format("{} atomics on one address {} ({:.2f} ns each) vs on distinct addresses {} ({:.3f} ns each): {:.1f} x",
                  measure::format_count(static_cast<double>(n)), format_time(t[1]), t[1] / n * 1e9, format_time(t[2]),
                  t[2] / n * 1e9, r2),
      r2, "x"));
  return recs;
}
#endif

}  // namespace

}  // namespace joseki::probes
