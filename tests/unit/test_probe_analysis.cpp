// Host-side arithmetic of the probes (experiments/probes/analysis.hpp): verdict rules, the
// pointer-chase permutation, bank-conflict degrees, plateau finding, occupancy thresholds,
// and the reduction-ranking prediction of the cost-ratio profile.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "experiments/probes/analysis.hpp"
#include "measure/table.hpp"

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
  // H200: 228 KiB per SM, 227 KiB per block opt-in, 1 KiB reserved per block; a kernel with a
  // 128-byte static __shared__ array (the probes' block_sum).
  const SmemLimits lim{233472, 232448, 1024, 128, 128};
  EXPECT_EQ(max_dynamic_smem(lim), 232448 - 128);
  for (int b = 1; b <= 16; ++b) {
    const std::int64_t s = smem_for_blocks(lim, b);
    EXPECT_LE(s, max_dynamic_smem(lim)) << b;  // what cudaFuncSetAttribute accepts
    EXPECT_EQ(s % 128, 0) << b;
    EXPECT_LE(b * (s + lim.static_per_block + lim.reserved_per_block), lim.per_sm) << b;
    EXPECT_EQ(blocks_by_smem(lim, s), b) << b;  // exactly b blocks fit, not b + 1
  }
  // The first H200 run asked for per_sm - reserved = 232448 B of dynamic memory for one
  // block: with the static 128 B that is above the opt-in limit (cudaErrorInvalidValue).
  EXPECT_LT(smem_for_blocks(lim, 1), 232448);
  EXPECT_EQ(smem_for_blocks(lim, 1), 232320);
  EXPECT_EQ(blocks_by_smem(lim, 232448), 0);
  EXPECT_EQ(blocks_by_smem(lim, 0), 233472 / (128 + 1024));
  // Without static shared memory the whole opt-in size is available.
  const SmemLimits none{233472, 232448, 1024, 0, 128};
  EXPECT_EQ(smem_for_blocks(none, 1), 232448);
  EXPECT_EQ(blocks_by_smem(none, 232448), 1);
  // A static array so large that 16 blocks cannot fit: 0 dynamic bytes (fewer blocks fit).
  const SmemLimits big{233472, 232448, 1024, 20000, 128};
  EXPECT_EQ(smem_for_blocks(big, 16), 0);
  EXPECT_LT(blocks_by_smem(big, 0), 16);
  EXPECT_THROW(smem_for_blocks(lim, 0), std::invalid_argument);
  EXPECT_THROW(smem_for_blocks(SmemLimits{}, 1), std::invalid_argument);
}

TEST(ProbeAnalysis, LatencyPlateausAreNamed) {
  const double KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB, l2 = 60 * MiB;
  // L1 to 128 KiB, one transition point, L2 to 32 MiB, a mixed stretch, HBM, then TLB misses.
  const std::vector<double> ws = {16 * KiB, 64 * KiB, 128 * KiB, 256 * KiB, 512 * KiB, 4 * MiB, 32 * MiB,
                                  64 * MiB, 90 * MiB, 256 * MiB, 512 * MiB, 1 * GiB, 2 * GiB, 4 * GiB};
  const std::vector<double> lat = {40, 40, 40, 170, 288, 288, 290, 420, 450, 650, 660, 670, 950, 980};
  const auto lv = name_latency_levels(ws, lat, 128 * KiB, l2);
  ASSERT_EQ(lv.size(), 5u);
  EXPECT_EQ(lv[0].name, "L1");
  EXPECT_DOUBLE_EQ(lv[0].level.value, 40);
  EXPECT_EQ(lv[1].name, "L2");  // the one-point transition at 256 KiB is left out
  EXPECT_DOUBLE_EQ(lv[1].from_ws, 512 * KiB);
  EXPECT_DOUBLE_EQ(lv[1].to_ws, 32 * MiB);
  EXPECT_EQ(lv[2].name, "L2 + HBM mix");
  EXPECT_EQ(lv[3].name, "HBM");
  EXPECT_DOUBLE_EQ(lv[3].level.value, 660);
  EXPECT_EQ(lv[4].name, "HBM + TLB misses");
  // The first H200 run's curve: L1, then one level up to 4 GiB (no HBM plateau: the probe
  // re-read the same nodes from the L2). Named L2, and no HBM: the verdict cannot hold.
  const auto flat = name_latency_levels({16 * KiB, 128 * KiB, 360 * KiB, 64 * MiB, 1 * GiB, 4 * GiB},
                                        {40, 40, 288, 288, 295, 297}, 128 * KiB, l2);
  ASSERT_EQ(flat.size(), 2u);
  EXPECT_EQ(flat[1].name, "L2");
  EXPECT_DOUBLE_EQ(flat[1].to_ws, 4 * GiB);
  // The H200 tour of 2026-11-30: a second step at 32..90.5 MiB runs past the 60 MiB L2, so it is
  // the way into HBM, not a second L2 plateau.
  const auto h200 = name_latency_levels({16 * KiB, 180 * KiB, 360 * KiB, 22.6 * MiB, 32 * MiB, 90.5 * MiB, 128 * MiB,
                                         4 * GiB},
                                        {40, 40, 286, 286, 500, 520, 700, 700}, 180 * KiB, l2);
  ASSERT_EQ(h200.size(), 4u);
  EXPECT_EQ(h200[1].name, "L2");
  EXPECT_EQ(h200[2].name, "L2 + HBM mix");
  EXPECT_EQ(h200[3].name, "HBM");
  EXPECT_THROW(name_latency_levels({1, 2}, {1}, 1, 2), std::invalid_argument);
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

TEST(ProbeAnalysis, UnitTimesBelowANanosecondAreNotZero) {
  // The first H200 run printed the global load per element (1.24 ps) as "0.0 ns".
  EXPECT_EQ(unit_time(1.2397763930139085e-12), "1.24 ps");
  EXPECT_EQ(unit_time(7.78e-10), "778 ps");
  EXPECT_EQ(unit_time(1.354e-9), "1.35 ns");
  EXPECT_EQ(unit_time(3.7334e-6), joseki::measure::format_time(3.7334e-6));
  UnitCosts c;
  c.global_load_elem_s = 1.24e-12;
  c.atomic_same_op_s = 7.78e-10;
  c.barrier_s = 1.35e-8;
  c.launch_s = 3.7e-6;
  c.sms = 132;
  EXPECT_NE(predict_reduce(c, 16777216).rungs[0].arithmetic.find("n x 1.24 ps"), std::string::npos);
}
