// The gpu-pairs ladder's pluggable kinds on the GPU (kinds.hpp): the test-only rung t01 (pt01), which
// brings a new count kind ("warp_atomic") the documented way: one file (tests/rungs/pairs_t01_warp_atomic.cu:
// kernel + registered CountKind) plus one line (tests/rungs/pairs_rungs.def). Its tables exact against the
// CPU's on random inputs whose sizes are not multiples of the block (256) or of the pairs per thread, and the
// rung validated, timed and listed by measure::run_ladder. Without a GPU (or a CUDA build): skipped.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../rungs/pairs_test_rungs.hpp"  // the test-only rungs: tests/rungs/pairs_rungs.def
#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_pairs/kinds.hpp"
#include "experiments/abc471g/gpu_pairs/ladder.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
#include "experiments/abc471g/gpu_pairs/reference.hpp"
#include "experiments/abc471g/gpu_pairs/test_support.hpp"
#include "gpu_test.hpp"
#include "measure/errors.hpp"
#include "measure/ladder.hpp"
#include "measure/table.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "backend/cuda/buffer.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline_cuda.hpp"
#endif

namespace {

namespace ab = joseki::abc471g;
namespace gp = joseki::abc471g::pairs;
using gp::testing::random_problem;

#ifndef JOSEKI_PAIRS_TEST_RUNGS
#define JOSEKI_REQUIRE_PAIRS_TEST_RUNGS() GTEST_SKIP() << "built without CUDA: the test-only kinds have no GPU build"
#else
#define JOSEKI_REQUIRE_PAIRS_TEST_RUNGS() (void)0
#endif

// The kind's count table against the CPU's, after a poison, twice (its state is left clean), for
// sizes that are not multiples of the block or of the pairs per thread, both counter widths, and a
// skewed input (few symbols: whole warps on one cell, the aggregation's case).
TEST(Abc471gPairsKindsGpu, TestOnlyCountKindTablesAreExact) {
  JOSEKI_REQUIRE_PAIRS_TEST_RUNGS();
  JOSEKI_REQUIRE_GPU();
#ifdef JOSEKI_HAVE_CUDA
  ASSERT_NE(gp::find_count_kind("warp_atomic"), nullptr) << "tests/rungs/pairs_t01_warp_atomic.cu registers it";
  struct Case {
    ab::Problem p;
    std::uint32_t ppt;
    std::uint64_t round;
  };
  const std::vector<Case> cases = {
      {random_problem(1, 5, 1, 1, 2), 0, gp::ROUND_PAIRS_MAX},
      {random_problem(2, 37, 1, 3, 4), 0, gp::ROUND_PAIRS_MAX},
      {random_problem(4'099, 31, 17, 7, 8), 3, gp::ROUND_PAIRS_MAX},
      {random_problem(100'003, 300, 5'000, 9, 10), 17, gp::ROUND_PAIRS_MAX},
      {random_problem(100'003, 300, 5'000, 9, 10), 0, gp::ROUND_PAIRS_MAX},
      {random_problem(300'007, 301, 100'000, 11, 12), 0, 40'000},  // 64-bit counters: rounds flushed
      {gp::testing::heavy_cell_problem(70'001, 13, 4, 70'000), 5, gp::ROUND_PAIRS_MAX},
      {random_problem(1'000'003, 2, 1, 19, 20), 0, gp::ROUND_PAIRS_MAX},  // two symbols: warps share cells
  };
  for (const Case& c : cases) {
    gp::PairsConfig cfg = gp::test_rung("pt01").config();
    cfg.pairs_per_thread = c.ppt;
    cfg.round_pairs = c.round;
    cfg.progress = false;
    gp::PairsDevice dev(c.p, cfg, 0);
    ASSERT_EQ(dev.counter(), gp::Counter::Kind);
    EXPECT_EQ(dev.count_kind(), "warp_atomic");
    EXPECT_EQ(dev.counter_label(), "warp_atomic");
    EXPECT_EQ(dev.count_extra("warp_threads"), 256u);
    const std::vector<std::uint64_t> want = gp::cpu_pair_table(c.p, dev.kp());
    joseki::cuda::Stream s;
    for (int rep = 0; rep < 2; ++rep) {
      dev.poison(s);
      dev.enqueue_count(s);
      EXPECT_EQ(dev.download_table(s), want) << "N = " << c.p.n << ", K = " << c.p.k << ", M = " << c.p.m()
                                             << ", ppt " << dev.pairs_per_thread() << ", rounds " << dev.rounds()
                                             << ", count " << rep;
    }
    EXPECT_THROW(dev.enqueue_count_phase(s, 1), joseki::RunError) << "t01 has no phases";
  }
  // Bad kinds are refused with the name.
  const ab::Problem p = random_problem(1'000, 37, 1, 1, 1);
  gp::PairsConfig bad;
  bad.count_kind = "no_such_kind";
  try {
    gp::PairsDevice dev(p, bad, 0);
    ADD_FAILURE() << "an unknown count kind was accepted";
  } catch (const joseki::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_kind"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("warp_atomic"), std::string::npos) << "lists the kinds: " << e.what();
  }
  gp::PairsConfig bad_combine;
  bad_combine.combine_kind = "wgmma";  // with the tensor-core combiner: the kind takes gemm's planes only
  EXPECT_THROW(gp::PairsDevice(p, bad_combine, 0), joseki::InputError);
#endif
}

// Adding a rung that brings a new kind (one file plus one line), on the GPU: the ladder p00 (CPU), p01,
// p02 and the test-only pt01 through measure::run_ladder with the CPU and CUDA runners: pt01 validated
// exact, timed, ratioed against its declared predecessor p02 and listed in the one table.
TEST(Abc471gPairsKindsGpu, ATestOnlyKindRungAddedWithOneLineIsValidatedTimedAndListed) {
  JOSEKI_REQUIRE_PAIRS_TEST_RUNGS();
  JOSEKI_REQUIRE_GPU();
  // pt01 takes r02's combine (mma.sync m16n8k32 int8): without it the ladder skips the rung, with the reason.
  if (auto why = joseki::measure::unmet(gp::combiner_needs(gp::Combiner::TensorCore, 2300), joseki::gpu::needs_facts(0)))
    GTEST_SKIP() << *why;
  const ab::Problem p = random_problem(200'003, 301, 1'001, 2026, 12);
  const ab::Answer want = gp::solve_pairs_reference(p);
  std::vector<gp::PairsRung> rungs{gp::find_rung("p00"), gp::find_rung("p01"), gp::find_rung("p02")};
  rungs.push_back(gp::test_rung("pt01"));
  const auto cpu = gp::make_cpu_runner(p, want);
  const auto gpu = gp::make_gpu_runner(p, want, 0);
  ASSERT_NE(gpu, nullptr);
  joseki::measure::LadderOptions lo;
  lo.rule.min_samples = 3;
  lo.rule.timeout_s = 0.5;
  lo.workload.set("n", static_cast<std::int64_t>(p.n)).set("k", static_cast<std::int64_t>(p.k));
  const joseki::measure::LadderResult res =
      joseki::measure::run_ladder(gp::core_ladder(p, rungs), {cpu.get(), gpu.get()}, lo);
  for (const std::string& f : res.failures) ADD_FAILURE() << f;
  const joseki::measure::Record* row = nullptr;
  for (const joseki::measure::Record& r : res.records)
    if (r.variant == "pairs.t01_warp_atomic" && r.is_ladder_row()) row = &r;
  const std::string table = joseki::measure::ladder_table(res.records);
  ASSERT_NE(row, nullptr) << table;
  ASSERT_FALSE(row->skipped.has_value()) << *row->skipped;
  EXPECT_EQ(row->validation, "exact");
  EXPECT_EQ(row->scope, "GPU_COMPUTE");
  ASSERT_TRUE(row->summary.has_value());
  EXPECT_GT(row->summary->median, 0);
  ASSERT_TRUE(row->ladder.x_previous.has_value());
  EXPECT_EQ(row->ladder.previous, "pairs.r02_atomic_tc_int8");
  ASSERT_TRUE(row->ladder.x_baseline.has_value());
  EXPECT_EQ(row->extra.value("counter", std::string()), "warp_atomic") << "the records name the kind";
  const std::size_t at = table.find("pairs.t01_warp_atomic"), pred = table.find("pairs.r02_atomic_tc_int8");
  ASSERT_NE(at, std::string::npos) << table;
  ASSERT_NE(pred, std::string::npos) << table;
  EXPECT_LT(pred, at) << "listed after its predecessor\n" << table;
}

}  // namespace
