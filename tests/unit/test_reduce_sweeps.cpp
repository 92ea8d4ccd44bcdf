// The reduction ladder's second round of rungs and sweeps, without a GPU: r11's balanced
// slabs (emulated over whole grids with the kernel's own index functions), the sweep spaces
// declared in the registry (r07's hint axis, r11's block axis, unroll 1 for r06), the 1 %
// tie band of the bandwidth rungs against the seed's 2 % for r03, and the new rungs' places
// in the registry (r09/r10 take r06's configuration; r10 has the two-slot output contract).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "experiments/reduce/registry.hpp"
#include "measure/sweep.hpp"

using namespace joseki;
using namespace joseki::reduce;

namespace {

DeviceShape h200() { return {132, 2048, 228 * 1024, 227 * 1024}; }

std::vector<measure::SweepPoint> timed_points(const char* rung, std::size_t n) {
  auto pts = sweep_for(find_rung(rung), n, h200()).points();
  std::erase_if(pts, [](const auto& p) { return p.skip_reason.has_value(); });
  return pts;
}

}  // namespace

// Every 16-byte word of the body in exactly one block's slab, the slabs contiguous and in block
// order, their lengths within one word of each other; and within a slab, r11's chunks cover it
// once, each a whole number of words and at most chunk_bytes long.
TEST(ReduceSlabWalk, EveryWordOnceAndBalanced) {
  for (unsigned grid : {1u, 3u, 132u, 528u})
    for (std::size_t nvec : {std::size_t{0}, std::size_t{1}, std::size_t{131}, std::size_t{1000},
                             std::size_t{65536 + 17}, std::size_t{1} << 22})
      for (unsigned chunk : {16u, 4096u, 16384u}) {
        std::size_t next = 0, lo = nvec, hi = 0;
        for (unsigned b = 0; b < grid; ++b) {
          const Slab s = slab_of_block(nvec, grid, b);
          ASSERT_EQ(s.begin, next) << "contiguous, in block order: b=" << b;
          ASSERT_LE(s.begin, s.end);
          next = s.end;
          lo = std::min(lo, s.end - s.begin);
          hi = std::max(hi, s.end - s.begin);
          const std::size_t bytes = (s.end - s.begin) * 16;
          std::size_t covered = 0;
          for (std::size_t k = 0; k * chunk < bytes; ++k) {
            const unsigned c = chunk_size(bytes, chunk, k);
            ASSERT_GT(c, 0u);
            ASSERT_LE(c, chunk);
            ASSERT_EQ(c % 16, 0u);
            covered += c;
          }
          ASSERT_EQ(covered, bytes);
        }
        EXPECT_EQ(next, nvec) << "grid=" << grid << " nvec=" << nvec;
        if (grid <= nvec) {
          EXPECT_LE(hi - lo, 1u) << "balanced to one word: grid=" << grid << " nvec=" << nvec;
        }
      }
}

TEST(ReduceSweeps, SpacesComeFromTheRegistry) {
  const DeviceShape d = h200();
  // r06: unroll 1 (one load per thread: all of a small input in flight at once) .. 8.
  std::set<std::int64_t> unrolls;
  for (const auto& p : timed_points("r06", 1u << 24)) unrolls.insert(p.point.get_int("unroll"));
  EXPECT_EQ(unrolls, (std::set<std::int64_t>{1, 2, 4, 8}));
  // r07: the hint is an axis; every hint appears; the records carry it.
  std::set<std::int64_t> hints;
  for (const auto& p : timed_points("r07", 1u << 24)) hints.insert(p.point.get_int("hint"));
  EXPECT_EQ(hints, (std::set<std::int64_t>{0, 1, 2}));
  const Rung& r07 = find_rung("r07");
  EXPECT_TRUE(knobs_point(r07, r07.defaults).has("hint"));
  EXPECT_FALSE(knobs_point(find_rung("r06"), find_rung("r06").defaults).has("hint"));
  Knobs k = resolve_knobs(r07.defaults, d);
  k.hint = 3;
  EXPECT_NE(check_knobs(r07, k, d).value_or("").find("hint 3"), std::string::npos);
  EXPECT_EQ(plan_launch(r07, knobs_from_point(r07, measure::Point({{"hint", std::int64_t{2}}})), 1u << 20, d).hint, 2);
  // r11: the block size is swept too; nothing beyond one wave or the shared memory per SM runs.
  std::set<std::int64_t> blocks;
  for (const auto& p : timed_points("r11", std::size_t{1} << 28)) {
    const Knobs kk = knobs_from_point(find_rung("r11"), p.point);
    blocks.insert(kk.block);
    EXPECT_LE(kk.block * kk.blocks_per_sm, 2048);
    EXPECT_EQ(check_knobs(find_rung("r11"), kk, d), std::nullopt);
  }
  EXPECT_EQ(blocks, (std::set<std::int64_t>{256, 512}));
  for (const auto& p : sweep_for(find_rung("r11"), std::size_t{1} << 28, d).points())
    if (p.skip_reason) {
      EXPECT_FALSE(p.skip_reason->empty());
    }
  // r08 keeps the first run's space (block 256 only).
  for (const auto& p : timed_points("r08", 1u << 24)) EXPECT_EQ(p.point.get_int("block"), 256);
}

TEST(ReduceSweeps, BandwidthRungsTieWithinOnePercentR03WithinTwo) {
  const Rung& r06 = find_rung("r06");
  std::vector<measure::Candidate> c = {{knobs_point(r06, {512, 4, 4}), 1.000e-3},
                                       {knobs_point(r06, {256, 4, 4}), 1.015e-3}};
  EXPECT_EQ(measure::choose(tie_rule_for(r06), c).chosen, 0u) << "1.5 % slower is not a tie for r06";
  c[1].time_s = 1.008e-3;
  EXPECT_EQ(measure::choose(tie_rule_for(r06), c).chosen, 1u) << "0.8 %: a tie, fewer threads wins";
  const Rung& r03 = find_rung("r03");
  std::vector<measure::Candidate> d = {{knobs_point(r03, {256, 8}), 1.000e-3}, {knobs_point(r03, {256, 4}), 1.015e-3}};
  EXPECT_EQ(measure::choose(tie_rule_for(r03), d).chosen, 1u) << "the seed's 2 % band";
  // r11: among ties less shared memory per SM, then fewer threads.
  const Rung& r11 = find_rung("r11");
  std::vector<measure::Candidate> e = {{knobs_point(r11, {512, 2, 1, 2, 16}), 1.000e-3},
                                       {knobs_point(r11, {256, 2, 1, 2, 16}), 1.005e-3},
                                       {knobs_point(r11, {256, 4, 1, 2, 16}), 1.001e-3}};
  EXPECT_EQ(measure::choose(tie_rule_for(r11), e).chosen, 1u);
  for (const Rung& r : rungs())
    if (r.swept) {
      EXPECT_EQ(tie_rule_for(r).tolerance, r.tie_tolerance) << r.slug;
      EXPECT_EQ(r.tie_tolerance, r.slug == "r03_coarsen" ? 0.02 : 0.01) << r.slug;
    }
}

TEST(ReduceRegistry, SecondRoundRungs) {
  const Rung& r09 = find_rung("r09");
  const Rung& r10 = find_rung("r10_two_slot");
  const Rung& r11 = find_rung("r11");
  EXPECT_EQ(r09.slug, "r09_packed_ticket");
  EXPECT_EQ(r09.predecessor, "r06_single_pass");
  EXPECT_EQ(r09.config_from, "r06_single_pass");
  EXPECT_NE(r09.workspace == nullptr, static_cast<bool>(r09.launch)) << "workspace exactly when built with CUDA";
  EXPECT_EQ(r09.output, Output::Word);
  EXPECT_EQ(r10.predecessor, "r09_packed_ticket");
  EXPECT_EQ(r10.config_from, "r06_single_pass");
  EXPECT_EQ(r10.output, Output::TwoSlot);
  EXPECT_EQ(r10.workspace, nullptr);
  EXPECT_EQ(r11.predecessor, "r08_bulk_copy");
  EXPECT_TRUE(r11.swept);
  EXPECT_EQ(r11.grid, GridPolicy::WaveBulk);
  for (const Rung& r : rungs())
    if (r.slug != "r10_two_slot") {
      EXPECT_EQ(r.output, Output::Word) << r.slug << ": only r10 has the two-slot contract";
    }
  // r11's default: 4 blocks per SM x 2 stages x 16 KiB (r08's best point at 2^28 in the first run).
  const LaunchPlan p = plan_launch(r11, resolve_knobs(r11.defaults, h200()), std::size_t{1} << 28, h200());
  EXPECT_EQ(p.grid, 132 * 4);
  EXPECT_EQ(p.chunk_bytes, 16 * 1024);
  EXPECT_EQ(p.dynamic_smem, 128u + 2 * 16 * 1024);
}
