// Host-side arithmetic of the probes (experiments/probes/analysis.hpp): verdict rules, the
// pointer-chase permutation, bank-conflict degrees, plateau finding, occupancy thresholds,
// and the reduction-ranking prediction of the cost-ratio profile.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "experiments/probes/analysis.hpp"

using namespace joseki::probes;

TEST(ProbeAnalysis, VerdictNames) {
  EXPECT_STREQ(to_string(Verdict::Holds), "holds");
  EXPECT_STREQ(to_string(Verdict::DoesNotHold), "does not hold");
  EXPECT_STREQ(to_string(Verdict::Depends), "depends");
}

TEST(ProbeAnalysis, SumOfPathsVerdict) {
  EXPECT_EQ(sum_of_paths_verdict(3.0, 2.0, 1.0), Verdict::Holds);        // = A + B
  EXPECT_EQ(sum_of_paths_verdict(3.3, 2.0, 1.0), Verdict::Holds);        // within 15 %
  EXPECT_EQ(sum_of_paths_verdict(2.0, 2.0, 1.0), Verdict::DoesNotHold);  // = max
  EXPECT_EQ(sum_of_paths_verdict(2.5, 2.0, 1.0), Verdict::Depends);      // in between
}

TEST(ProbeAnalysis, SectorsPerWarpRequest) {
  EXPECT_EQ(sectors_per_request(1), 4);    // 128 contiguous bytes
  EXPECT_EQ(sectors_per_request(2), 8);
  EXPECT_EQ(sectors_per_request(3), 12);   // AoS {x,y,z}.x
  EXPECT_EQ(sectors_per_request(4), 16);
  EXPECT_EQ(sectors_per_request(8), 32);   // one sector per lane from here on
  EXPECT_EQ(sectors_per_request(32), 32);
  EXPECT_EQ(sectors_per_request(128), 32);
  EXPECT_EQ(sectors_per_request(1, 1), 5);  // misaligned by one word: one more sector
  EXPECT_EQ(sectors_per_request(1, 8), 4);  // 32-byte aligned start: still 4
  EXPECT_EQ(sectors_per_request(0), 1);     // broadcast
}

TEST(ProbeAnalysis, BankConflictDegreeIsGcdWith32) {
  const std::pair<int, int> cases[] = {{0, 1}, {1, 1},  {2, 2},   {3, 1},  {4, 4},  {6, 2},
                                       {8, 8}, {12, 4}, {16, 16}, {31, 1}, {32, 32}, {33, 1}, {64, 32}};
  for (auto [stride, degree] : cases) EXPECT_EQ(bank_conflict_degree(stride), degree) << "stride " << stride;
  // By brute force: the most lanes of one warp that land on one bank with distinct words.
  for (int stride = 1; stride <= 64; ++stride) {
    int worst = 0;
    for (int bank = 0; bank < 32; ++bank) {
      std::set<int> words;
      for (int lane = 0; lane < 32; ++lane)
        if (lane * stride % 32 == bank) words.insert(lane * stride);
      worst = std::max(worst, static_cast<int>(words.size()));
    }
    EXPECT_EQ(bank_conflict_degree(stride), worst) << "stride " << stride;
  }
}

TEST(ProbeAnalysis, BankModelDeviation) {
  const std::vector<std::int64_t> s = {1, 2, 3, 8, 32};
  EXPECT_DOUBLE_EQ(bank_model_deviation(s, {2, 4, 2, 16, 64}), 0.0);
  EXPECT_NEAR(bank_model_deviation(s, {2, 4, 2, 16, 32}), 0.5, 1e-12);  // stride 32 at half the model
  EXPECT_THROW(bank_model_deviation({2, 4}, {1, 2}), std::invalid_argument);  // no stride 1
}

TEST(ProbeAnalysis, ChaseOrderIsOneCycleThroughEveryNode) {
  for (std::uint32_t n : {1u, 2u, 3u, 17u, 1000u, 65536u}) {
    const auto order = chase_order(n, 42);
    ASSERT_EQ(order.size(), n);
    std::vector<std::uint32_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (std::uint32_t i = 0; i < n; ++i) ASSERT_EQ(sorted[i], i) << "not a permutation, n = " << n;
    EXPECT_TRUE(is_single_cycle(next_from_order(order))) << "n = " << n;
  }
  EXPECT_EQ(chase_order(1000, 7), chase_order(1000, 7));  // seeded
  EXPECT_NE(chase_order(1000, 7), chase_order(1000, 8));
  // Random: neighbours in the visiting order are rarely neighbours in memory.
  const auto o = chase_order(100000, 3);
  int adjacent = 0;
  for (std::size_t k = 0; k + 1 < o.size(); ++k) adjacent += (o[k + 1] == o[k] + 1);
  EXPECT_LT(adjacent, 20);
}

TEST(ProbeAnalysis, SingleCycleDetectsTwoCycles) {
  EXPECT_FALSE(is_single_cycle({1, 0, 3, 2}));  // two 2-cycles
  EXPECT_TRUE(is_single_cycle({1, 2, 3, 0}));
  EXPECT_FALSE(is_single_cycle({}));
}

TEST(ProbeAnalysis, FindLevelsSplitsAPlateauCurve) {
  const std::vector<double> lat = {30, 31, 30, 32, 250, 260, 255, 700, 720, 1100};
  const auto lv = find_levels(lat, 1.35);
  ASSERT_EQ(lv.size(), 4u);
  EXPECT_EQ(lv[0].first, 0u);
  EXPECT_EQ(lv[0].last, 3u);
  EXPECT_DOUBLE_EQ(lv[0].value, 30.5);
  EXPECT_EQ(lv[1].first, 4u);
  EXPECT_DOUBLE_EQ(lv[1].value, 255);
  EXPECT_EQ(lv[2].first, 7u);
  EXPECT_EQ(lv[3].first, 9u);  // a one-point level at the end
  EXPECT_TRUE(find_levels({}).empty());
  EXPECT_EQ(find_levels({5, 5, 5}).size(), 1u);
}

TEST(ProbeAnalysis, OccupancyNeededAndVerdicts) {
  const std::vector<double> occ = {0.0625, 0.125, 0.25, 0.5, 0.75, 1.0};
  const std::vector<double> rate = {1.0, 1.9, 3.2, 3.9, 4.0, 4.0};
  EXPECT_DOUBLE_EQ(occupancy_needed(occ, rate, 0.9), 0.5);   // 3.9 >= 3.6
  EXPECT_DOUBLE_EQ(occupancy_needed(occ, rate, 0.75), 0.25);  // 3.2 >= 3.0
  EXPECT_DOUBLE_EQ(occupancy_needed({}, {}), -1);
  EXPECT_EQ(memory_occupancy_verdict(0.75, 0.75), Verdict::Holds);
  EXPECT_EQ(memory_occupancy_verdict(0.5, 0.5), Verdict::Holds);
  EXPECT_EQ(memory_occupancy_verdict(0.75, 0.25), Verdict::Depends);      // ILP gets there below 50 %
  EXPECT_EQ(memory_occupancy_verdict(0.25, 0.125), Verdict::DoesNotHold);  // even without ILP
  EXPECT_EQ(compute_occupancy_verdict(0.25), Verdict::Holds);
  EXPECT_EQ(compute_occupancy_verdict(0.0625), Verdict::Holds);
  EXPECT_EQ(compute_occupancy_verdict(0.375), Verdict::DoesNotHold);
}

TEST(ProbeAnalysis, SharedMemoryPerBlockForBlocksPerSm) {
  const std::int64_t per_sm = 233472, reserved = 1024;  // H200: 228 KiB per SM, 1 KiB reserved per block
  for (int b = 1; b <= 16; ++b) {
    const std::int64_t s = smem_for_blocks(per_sm, reserved, b);
    EXPECT_LE(b * (s + reserved), per_sm) << b;
    EXPECT_GT((b + 1) * (s + reserved), per_sm) << b;
    EXPECT_EQ(s % 128, 0) << b;
  }
  EXPECT_EQ(smem_for_blocks(per_sm, reserved, 1), per_sm - reserved);
  EXPECT_THROW(smem_for_blocks(per_sm, reserved, 0), std::invalid_argument);
}

TEST(ProbeAnalysis, RankingIsByTimeStable) {
  EXPECT_EQ(ranking_of({{"a", 3}, {"b", 1}, {"c", 2}}), (std::vector<std::string>{"b", "c", "a"}));
  EXPECT_EQ(ranking_of({{"x", 1}, {"y", 1}}), (std::vector<std::string>{"x", "y"}));
}

TEST(ProbeAnalysis, ReducePredictionArithmetic) {
  UnitCosts c;
  c.global_load_elem_s = 1e-12;  // 4 B per ps: 4 TB/s
  c.atomic_same_op_s = 1e-9;
  c.barrier_s = 20e-9;
  c.launch_s = 2e-6;
  c.sms = 132;
  const double n = 16777216;
  const ReducePrediction p = predict_reduce(c, n, 256, 8);
  ASSERT_EQ(p.rungs.size(), 3u);
  const double mem = n * 1e-12, launches = 4e-6;
  // r01: n/32 same-address atomics (nvcc's aggregation) vs the read.
  EXPECT_NEAR(p.rungs[0].time_s, std::max(mem, n / 32 * 1e-9) + launches, 1e-15);
  // r02: one atomic per 256-element block; 8 barrier levels spread over 132 SMs x 8 resident blocks.
  const double blocks = n / 256;
  EXPECT_NEAR(p.rungs[1].time_s, std::max({mem, blocks * 1e-9, blocks * 8 * 20e-9 / (132 * 8)}) + launches, 1e-15);
  // r03: one wave of 132 x 8 blocks: one atomic each, one tree.
  EXPECT_NEAR(p.rungs[2].time_s, std::max({mem, 132 * 8 * 1e-9, 8 * 20e-9}) + launches, 1e-15);
  EXPECT_EQ(p.ranking, (std::vector<std::string>{"r03", "r02", "r01"}));
  EXPECT_NE(p.rungs[0].arithmetic.find("n/32"), std::string::npos);
  // Cheap atomics and dear barriers: the tree (r02) comes last, as on the seed's M4.
  c.atomic_same_op_s = 5e-11;
  c.barrier_s = 1e-6;
  EXPECT_EQ(predict_reduce(c, n).ranking, (std::vector<std::string>{"r03", "r01", "r02"}));
  EXPECT_THROW(predict_reduce(c, n, 100), std::invalid_argument);
}
