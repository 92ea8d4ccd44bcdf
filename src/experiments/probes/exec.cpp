// Probe "exec": the execution model read from the device (warp size, SMs, registers and
// shared memory per SM, threads per SM, the SM clock as configured and as measured), and a
// reduction tree that adapts to the warp size (16 -> 8 -> 4 -> 2 -> 1 on a 32-wide warp;
// 32 -> ... -> 1 on a 64-wide wavefront), checked against the CPU.
#include <cmath>

#include <fmt/format.h>

#include "experiments/probes/probe.hpp"
#include "measure/errors.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "experiments/probes/common_kernels.hpp"
#include "experiments/probes/device_common.hpp"
#include "experiments/probes/exec_kernels.hpp"
#include "experiments/probes/gpu_util.hpp"
#endif

namespace joseki::probes {
namespace {

JOSEKI_REGISTER_GPU_PROBE(exec, "execution model: warp size, SMs, registers, shared memory, clock",
                          "warp = 32 threads; the reduction tree adapts to the warp size", 10, 1);

#ifdef JOSEKI_HAVE_CUDA
std::vector<Record> run_exec(const ProbeOptions& o) {
  auto [g, s, d] = GpuProbeRun(o.device);
  std::vector<Record> recs;
  auto fact = [&](const char* variant, const char* what, double v, const char* unit) {
    recs.push_back(value_record("exec", variant, what, v, unit));
    recs.back().extra["display"] = fmt::format("{:g} {}", v, unit);
  };
  fact("warp_size", "threads per warp (device attribute)", d.warp_size, "threads");
  fact("sm_count", "streaming multiprocessors", d.sm_count, "SMs");
  fact("regs_per_sm", "32-bit registers per SM", d.regs_per_sm, "registers");
  fact("smem_per_sm", "shared memory per SM", static_cast<double>(d.smem_per_sm), "bytes");
  fact("smem_per_block_optin", "shared memory per block (opt-in)", static_cast<double>(d.smem_per_block_optin), "bytes");
  fact("max_threads_per_sm", "resident threads per SM", d.max_threads_per_sm, "threads");
  fact("max_warps_per_sm", "resident warps per SM", d.max_threads_per_sm / std::max(1, d.warp_size), "warps");
  fact("l2_bytes", "L2 cache", static_cast<double>(d.l2_bytes), "bytes");
  fact("sm_clock_attr", "SM clock, device attribute (max)", d.sm_clock_khz * 1e3, "Hz");
  fact("sm_clock_measured", "SM clock measured: clock64 cycles per second of event time", g.clock_hz(), "Hz");

  // The tree, on a size that is not a multiple of the warp or block.
  const std::size_t n = (o.quick ? 1u << 16 : 1u << 20) + 5;
  cuda::DeviceBuffer<std::uint32_t> in(n), sums((n + 31) / 32);
  cuda::DeviceBuffer<int> info(2);
  launch_fill_mix32(in.data(), n, run_seed(), s);
  sums.poison(s);
  info.poison(s);
  launch_warp_tree(in.data(), n, sums.data(), info.data(), s);
  const auto h_info = to_host(info, 2, s);
  const int ws = h_info[1] > 0 ? h_info[1] : 1;
  const std::size_t warps = (n + ws - 1) / ws;
  const auto h_sums = to_host(sums, std::min(warps, sums.size()), s);
  Checker chk("warp sums");
  for (std::size_t w = 0; w < h_sums.size(); ++w) {
    std::uint32_t want = 0;
    for (std::size_t i = w * ws; i < std::min(n, (w + 1) * ws); ++i) want += mix32(i, run_seed());
    chk.expect(h_sums[w], want, fmt::format("warp {}", w));
  }
  const int want_levels = static_cast<int>(std::lround(std::log2(ws)));
  chk.expect(h_info[0], want_levels, "tree levels");
  chk.expect(h_info[1], d.warp_size, "in-kernel warpSize vs attribute");
  Record tree = value_record("exec", "warp_tree_levels", "shuffle tree from warpSize/2 down to 1", h_info[0], "levels");
  tree.validation = chk.text();
  tree.axes.set("n", static_cast<std::int64_t>(n));
  std::string halvings;
  for (int off = ws / 2; off > 0; off /= 2) halvings += (halvings.empty() ? "" : "->") + std::to_string(off);
  tree.extra["display"] = fmt::format("{} levels: {}", h_info[0], halvings);
  recs.push_back(tree);

  const bool nvidia32 = d.warp_size == 32 && h_info[0] == 5 && chk.ok();
  const Verdict v = nvidia32 ? Verdict::Holds : (chk.ok() ? Verdict::Depends : Verdict::DoesNotHold);
  recs.push_back(verdict_record(
      "exec", "warp", "NVIDIA executes warps of 32 threads in lockstep (AMD: wavefronts of 64); a reduction tree halves 16->8->4->2->1",
      v,
      fmt::format("warp {} (attribute and in-kernel warpSize), tree {} ({} levels, sums exact: {}); {} SMs x {} warps, "
                  "{} registers and {} KiB shared memory per SM; SM clock {:.0f} MHz measured ({} MHz attribute)",
                  d.warp_size, halvings, h_info[0], chk.ok() ? "yes" : "NO", d.sm_count,
                  d.max_threads_per_sm / std::max(1, d.warp_size), d.regs_per_sm, d.smem_per_sm / 1024,
                  g.clock_hz() / 1e6, d.sm_clock_khz / 1000),
      d.warp_size, "threads"));
  return recs;
}
#endif

}  // namespace

}  // namespace joseki::probes
