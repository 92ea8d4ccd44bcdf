// Issue 19's gpu-pairs pieces without a GPU: the floor's CPU check (the element sum) against the
// problem's generator one element at a time, the floor ratios on records, and the rungs r05/r06 in the
// ladder with their knobs (what `scale ladder` and `scale hopper` apply before timing them).
#include <gtest/gtest.h>

#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_pairs/bench_hopper.hpp"
#include "experiments/abc471g/gpu_pairs/ladder.hpp"
#include "experiments/abc471g/gpu_pairs/test_support.hpp"

namespace {

namespace ab = joseki::abc471g;
namespace gp = joseki::abc471g::pairs;
using gp::testing::random_problem;

TEST(Abc471gHopper, ElementSumIsTheGeneratorsSum) {
  for (const ab::Problem& p : {random_problem(1, 1, 1, 1, 2), random_problem(5, 37, 0, 3, 4),
                               random_problem(100'003, 2300, 5'000, 9, 10), random_problem(300'007, 300, 300'007, 5, 6)}) {
    std::vector<std::uint32_t> a(p.n);
    ab::generate(p, 0, p.n, a.data());
    std::uint32_t want = 0;
    for (std::uint32_t x : a) want += x;
    EXPECT_EQ(gp::cpu_element_sum32(p), want) << "N = " << p.n << ", K = " << p.k << ", M = " << p.m();
    if (p.n > 1) {
      EXPECT_NE(want, 0u) << "a sum that could not catch a generator skipping elements";
    }
  }
}

TEST(Abc471gHopper, FloorRatiosOnMeasuredGpuRecordsOnly) {
  auto rec = [](const std::string& variant, const std::string& scope, double median) {
    joseki::measure::Record r;
    r.variant = variant;
    r.scope = scope;
    if (median > 0) {
      joseki::measure::Measurement m;
      m.samples_s = {median, median, median};
      m.stats.median = median;
      r.set_measurement(m);
    }
    return r;
  };
  std::vector<joseki::measure::Record> v{rec("pairs.floor.generate", "GPU_COMPUTE", 10e-6),
                                         rec("pairs.r04_partition_gemm", "GPU_COMPUTE", 77e-6),
                                         rec("pairs.r00_cpu_pairs", "CPU_COMPUTE", 40e-3),
                                         rec("pairs.r05_whole_graph", "GPU_COMPUTE", 0)};
  ASSERT_TRUE(v[0].summary.has_value());
  gp::add_floor_ratios(v, v[0]);
  EXPECT_FALSE(v[0].extra.contains("floor_x")) << "not the floor itself";
  ASSERT_TRUE(v[1].extra.contains("floor_x"));
  EXPECT_NEAR(v[1].extra["floor_x"].get<double>(), 7.7, 1e-9);
  EXPECT_FALSE(v[2].extra.contains("floor_x")) << "CPU time is not comparable";
  EXPECT_FALSE(v[3].extra.contains("floor_x")) << "not measured";
}

TEST(Abc471gHopper, RungsFiveAndSixCarryTheirKnobs) {
  const gp::PairsRung& r5 = gp::find_rung("p05");
  const gp::PairsRung& r6 = gp::find_rung("r06_gemm_panels");
  EXPECT_EQ(r5.slug, "r05_whole_graph");
  EXPECT_EQ(r5.predecessor, "r04_partition_gemm");
  EXPECT_EQ(r6.predecessor, "r05_whole_graph");
  for (const gp::PairsRung* r : {&r5, &r6}) {
    ASSERT_TRUE(r->combiner.has_value());
    EXPECT_EQ(*r->combiner, gp::Combiner::Gemm);
    EXPECT_EQ(r->counter, gp::Counter::Partition);
    ASSERT_TRUE(static_cast<bool>(r->configure)) << r->slug;
    gp::PairsConfig c;
    r->configure(c);
    EXPECT_TRUE(c.graph) << r->slug;
    EXPECT_EQ(c.gemm_panels, r == &r6 ? 3 : 1) << r->slug;
  }
  const gp::PairsRung& r7 = gp::find_rung("p07");
  EXPECT_EQ(r7.predecessor, "r05_whole_graph") << "r06's panels lost: r07 builds on r05";
  ASSERT_TRUE(static_cast<bool>(r7.configure));
  gp::PairsConfig c7;
  r7.configure(c7);
  EXPECT_EQ(c7.partition_tile, 24);
  EXPECT_EQ(c7.gemm_panels, 1);
  EXPECT_TRUE(c7.graph);
  gp::PairsConfig d;
  EXPECT_EQ(d.partition_tile, 0) << "r03's tiles by default";
  EXPECT_FALSE(d.graph) << "the shipped solvers launch kernel by kernel";
  EXPECT_EQ(d.gemm_panels, 1);
  EXPECT_FALSE(static_cast<bool>(gp::find_rung("p04").configure)) << "r04 is r04";
}

TEST(Abc471gHopper, FloorWithoutAGpuIsASkippedRecord) {
  if (joseki::gpu::availability().ok) GTEST_SKIP() << "a GPU is present: the GPU tests time the floor";
  const ab::Problem p = random_problem(1000, 7, 1, 1, 2);
  const joseki::measure::Record r = gp::bench_generation_floor(p, gp::BenchOptions{});
  EXPECT_FALSE(r.summary.has_value());
  EXPECT_EQ(r.variant, "pairs.floor.generate");
  ASSERT_TRUE(r.skipped.has_value());
  EXPECT_FALSE(r.skipped->empty());
}

}  // namespace
