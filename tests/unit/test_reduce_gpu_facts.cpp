// Nothing tuned for the H200 alone: every planner fed the facts of six real GPUs, from a T4 to a
// B200 (NVIDIA's published figures: SMs, L2, shared memory per SM and per block (opt-in),
// registers and threads per SM), and every launch it plans checked for legality there: threads
// per block and per SM, shared memory per block and per SM, registers per SM. What a GPU lacks
// (measure::Needs) is a skip whose reason names the need, never a launch.
//
// Registers: the reduction's one-wave kernels are compiled with JOSEKI_FULL_WAVE (reduce/common.cuh),
// a per-architecture register limit that ptxas enforces: 32 per thread where an SM holds 2048
// threads, 40 where it holds 1536, 64 where it holds 1024; that bound is what is checked here.
// `nvcc --resource-usage` of r06 (nvcc 13.0, unroll 1/2/4/8) gave sm_75 26/27/40/54, sm_80 and sm_90
// 24/25/32/32, sm_86 and sm_89 28/27/40/40, sm_100 26/25/32/32, sm_120 20/34/38/40 registers; before
// the per-architecture limit, __launch_bounds__(1024, 2) was out of range on the 1536-thread SMs and
// ignored: 58 registers at unroll 8 on sm_86/89/120, not one wave. (This machine's toolkit has no
// cuobjdump to read the figures back from the binary; on a GPU a launch that does not fit fails loudly.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "experiments/reduce/registry.hpp"
#include "gpu_facts.hpp"
#include "measure/needs.hpp"

using namespace joseki;

using joseki::test::facts;
using joseki::test::Gpu;
using joseki::test::gpus;

namespace {

reduce::DeviceShape shape(const Gpu& g) {
  return {g.sms, g.max_threads_per_sm, g.smem_per_sm, g.smem_optin};
}

// JOSEKI_FULL_WAVE's register limit on this GPU's architecture.
int full_wave_regs(const Gpu& g) { return g.max_threads_per_sm >= 2048 ? 32 : g.max_threads_per_sm >= 1536 ? 40 : 64; }
constexpr std::int64_t kStaticSmem = 256;       // the block sum's slots (32 words), rounded up
constexpr std::int64_t kMaxGrid = 0x7fffffff;

// One planned launch of a reduction rung, checked against the GPU.
void expect_legal(const Gpu& g, const reduce::Rung& r, const reduce::Knobs& k, const reduce::LaunchPlan& p,
                  const std::string& where) {
  SCOPED_TRACE(std::string(g.name) + " " + r.slug + " " + where);
  EXPECT_GE(p.block, 32);
  EXPECT_LE(p.block, 1024);
  EXPECT_EQ(p.block % 32, 0);
  EXPECT_LE(p.block, g.max_threads_per_sm);
  EXPECT_GE(p.grid, 1);
  EXPECT_LE(p.grid, kMaxGrid);
  const std::int64_t smem = static_cast<std::int64_t>(p.dynamic_smem) + kStaticSmem;
  EXPECT_LE(smem, g.smem_optin) << "shared memory per block";
  if (r.grid == reduce::GridPolicy::WaveVector || r.grid == reduce::GridPolicy::WaveBulk) {
    // One wave: the planned blocks per SM must all be resident at once.
    const std::int64_t threads = std::int64_t{k.block} * k.blocks_per_sm;
    EXPECT_LE(threads, g.max_threads_per_sm) << "threads per SM";
    EXPECT_LE(threads * full_wave_regs(g), g.regs_per_sm) << "registers per SM";
    EXPECT_LE(std::int64_t{k.blocks_per_sm} * (smem + g.reserved_per_block), g.smem_per_sm) << "shared memory per SM";
    EXPECT_LE(p.grid, static_cast<std::int64_t>(g.sms) * k.blocks_per_sm) << "more than one wave";
  }
}

}  // namespace

TEST(ReduceGpuFacts, TheSixGpusAreWhatTheirDatasheetsSay) {
  ASSERT_EQ(gpus().size(), 6u);
  for (const Gpu& g : gpus()) {
    EXPECT_GT(g.sms, 0) << g.name;
    EXPECT_LE(g.smem_optin, g.smem_per_sm) << g.name;
    EXPECT_GE(g.max_threads_per_sm, 1024) << g.name;
  }
}

// Every GPU rung of the reduction at its defaults and at every sweep point, at small and large n.
TEST(ReduceGpuFacts, ReducePlansAreLegalOnEveryGpuAndUnmetNeedsAreSkips) {
  for (const Gpu& g : gpus()) {
    const measure::DeviceFacts d = facts(g);
    const reduce::DeviceShape s = shape(g);
    int runnable = 0;
    for (const reduce::Rung& r : reduce::rungs()) {
      if (!r.is_gpu()) continue;
      if (const auto why = measure::unmet(r.needs, d)) {
        EXPECT_EQ(why->rfind("needs sm_", 0), 0u) << g.name << " " << r.slug << ": " << *why;
        continue;
      }
      ++runnable;
      for (std::size_t n : {std::size_t{1}, std::size_t{4099}, std::size_t{1} << 24, std::size_t{1} << 28}) {
        const reduce::Knobs k = reduce::resolve_knobs(r.defaults, s);
        if (const auto why = reduce::check_knobs(r, k, s)) {
          ADD_FAILURE() << g.name << " " << r.slug << ": the defaults do not run: " << *why;
          continue;
        }
        expect_legal(g, r, k, reduce::plan_launch(r, k, n, s), "defaults n=" + std::to_string(n));
        if (!r.swept) continue;
        int points = 0;
        for (const measure::SweepPoint& sp : reduce::sweep_for(r, n, s).points()) {
          if (sp.skip_reason) {
            EXPECT_FALSE(sp.skip_reason->empty());
            continue;
          }
          ++points;
          const reduce::Knobs kp = reduce::resolve_knobs(reduce::knobs_from_point(r, sp.point), s);
          ASSERT_FALSE(reduce::check_knobs(r, kp, s).has_value()) << g.name << " " << r.slug << " " << sp.point.label();
          expect_legal(g, r, kp, reduce::plan_launch(r, kp, n, s), sp.point.label() + " n=" + std::to_string(n));
        }
        if (n >= (std::size_t{1} << 24)) {  // at small n a sweep may skip every point (the harness keeps the defaults)
          EXPECT_GT(points, 0) << g.name << " " << r.slug << " n=" << n << ": every sweep point skipped";
        }
      }
    }
    EXPECT_GE(runnable, 10) << g.name;
  }
}

// What each GPU skips, by name: the Hopper rungs below sm_90, the Ampere ones on Turing.
TEST(ReduceGpuFacts, ReduceSkipsOnOlderGpusAreTheExpectedRungs) {
  auto skipped = [](const Gpu& g) {
    std::vector<std::string> v;
    for (const reduce::Rung& r : reduce::rungs())
      if (r.is_gpu() && measure::unmet(r.needs, facts(g))) v.push_back(r.id);
    return v;
  };
  const std::vector<std::string> turing = {"r01c", "r04b", "r07", "r08", "r11"}, ampere = {"r08", "r11"}, none = {};
  EXPECT_EQ(skipped(gpus()[0]), turing);
  for (int i : {1, 2, 3}) EXPECT_EQ(skipped(gpus()[i]), ampere) << gpus()[i].name;
  for (int i : {4, 5}) EXPECT_EQ(skipped(gpus()[i]), none) << gpus()[i].name;
  // A compute_80 PTX build on the H200 runs sm_80 code: the Hopper rungs are skipped there too.
  measure::DeviceFacts h200_ptx80 = facts(gpus()[4]);
  h200_ptx80.code_arch = 80;
  h200_ptx80.code_jit = true;
  EXPECT_EQ(measure::unmet(reduce::find_rung("r08").needs, h200_ptx80).value(),
            "needs sm_90: cp.async.bulk (this GPU is sm_90, but runs this build's compute_80 PTX)");
}
