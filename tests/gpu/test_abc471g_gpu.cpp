// The GPU ladder on the device: every rung exact on every test vector, on the edge cases and on
// random small cases against `brute`, at every validation configuration (poisoned outputs);
// the gpu-direct solver and its scopes. Timing is not asserted here (benchmarks are records).
// The test vectors are found through $JOSEKI_TESTDATA (default ../shared/testdata/abc471g from
// the repository root, the tests' working directory).
#include <random>

#include "gpu_test.hpp"

#include "experiments/abc471g/gpu_direct/ladder.hpp"
#include "experiments/abc471g/inputs.hpp"
#include "experiments/abc471g/problem.hpp"
#include "measure/errors.hpp"
#include "measure/ladder.hpp"

#ifdef JOSEKI_TEST_RUNG_T01
namespace joseki::abc471g::gpu {
ladder::RungInfo t01_info();  // tests/rungs/abc471g_t01_two_lanes.cu, built by nvcc
}
#endif

namespace {

using namespace joseki;
using namespace joseki::abc471g;
namespace L = joseki::abc471g::ladder;
namespace C = joseki::abc471g::gpu_cases;

std::vector<const L::RungInfo*> all_rungs() { return L::select_rungs("all"); }

// Every rung at every validation configuration on every case through the core's protocol
// (run_ladder, validate only: poisoned outputs, exact, twice), with the direct ladder's Runner.
void expect_all_exact(std::vector<C::Case> cases) {
  const std::size_t n = cases.size();
  L::DirectRunner runner(std::move(cases), std::nullopt, 0);
  measure::LadderOptions lo;
  lo.validate_only = true;
  const measure::LadderResult res = measure::run_ladder(L::make_ladder(all_rungs(), 2300), {&runner}, lo);
  EXPECT_EQ(runner.cases(), static_cast<int>(n));
  for (const std::string& f : res.failures) ADD_FAILURE() << f;
  for (const L::RungInfo* r : all_rungs()) {
    const auto it = runner.runs_per_rung().find(r->variant());
    EXPECT_GT(it == runner.runs_per_rung().end() ? 0 : it->second, 0) << r->id << " never ran";
  }
}

TEST(Abc471gGpu, EveryRungExactOnEveryTestVector) {
  JOSEKI_REQUIRE_GPU();
  const auto vectors = C::load_vectors(C::testdata_dir());
  ASSERT_FALSE(vectors.empty()) << "no test vectors in '" << C::testdata_dir()
                                << "' (set JOSEKI_TESTDATA to the folder of the *.in / *.out files)";
  expect_all_exact(vectors);
}

TEST(Abc471gGpu, EveryRungExactOnTheEdgeCases) {
  JOSEKI_REQUIRE_GPU();
  const auto cases = C::edge_cases();
  expect_all_exact(cases);
}

TEST(Abc471gGpu, EveryRungExactOnRandomCasesAgainstBrute) {
  JOSEKI_REQUIRE_GPU();
  std::mt19937_64 rng(471);
  std::vector<C::Case> cases;
  for (int i = 0; i < 12; ++i) {
    InstanceSpec s;
    s.n = 1 + rng() % 4000;
    s.k = 1 + static_cast<std::uint32_t>(rng() % 2304);
    s.m = 1 + rng() % s.n;
    s.seed = rng() & kMaxSeed;
    s.rng = rng();
    s.vowel_ratio = 0.1 + 0.8 * static_cast<double>(rng() % 1000) / 1000.0;
    C::Case c{"random" + std::to_string(i), make_problem(s), std::nullopt};
    c.expected = find_solver("brute").solve(c.problem, {}).answer;  // the other engineer's reference
    cases.push_back(std::move(c));
  }
  expect_all_exact(cases);
}

TEST(Abc471gGpu, GpuDirectSolvesAndReportsItsScopes) {
  JOSEKI_REQUIRE_GPU();
  const C::Case c = C::builtin_case("small");
  const SolveResult r = find_solver("gpu-direct").solve(c.problem, {});
  EXPECT_EQ(r.solver, "gpu-direct");
  EXPECT_EQ(C::compare_answers(r.answer, C::reference_answer(c.problem)), "");
  ASSERT_TRUE(r.gpu_compute_s && r.gpu_pipeline_s);
  EXPECT_GT(*r.gpu_compute_s, 0);
  EXPECT_LE(*r.gpu_compute_s, *r.gpu_pipeline_s) << "GPU_COMPUTE must nest in GPU_PIPELINE";
}

TEST(Abc471gGpu, GpuDirectRejectsKAboveItsLimitNamingIt) {
  JOSEKI_REQUIRE_GPU();
  InstanceSpec s;
  s.n = 100;
  s.k = 2305;
  s.m = 1;
  try {
    find_solver("gpu-direct").solve(make_problem(s), {});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("2305"), std::string::npos) << e.what();
  }
}

TEST(Abc471gGpu, TimingAFinalRungGivesSamples) {
  JOSEKI_REQUIRE_GPU();
  const C::Case c = C::builtin_case("small");
  L::DeviceCase dc(c.problem, 0);
  measure::StoppingRule rule;
  rule.min_samples = 3;
  rule.timeout_s = 0.5;
  const measure::Measurement m = dc.time(L::final_rung(), L::final_rung().defaults, measure::Mode::Cold, rule);
  ASSERT_GE(m.samples_s.size(), 3u);
  EXPECT_GT(m.stats.median, 0);
}

// The ladder through measure::run_ladder on the small case: every rung validated on the case, then
// timed; ratios by predecessor; the one table lists every rung.
TEST(Abc471gGpu, TheLadderRunsThroughTheCoreProtocol) {
  JOSEKI_REQUIRE_GPU();
  const C::Case c = C::builtin_case("small");
  L::DirectRunner runner({}, c, 0);
  measure::LadderOptions lo;
  lo.rule.min_samples = 3;
  lo.rule.timeout_s = 0.2;
  lo.workload.set("case", c.name);
  const measure::LadderResult res = measure::run_ladder(L::make_ladder(all_rungs(), c.problem.k), {&runner}, lo);
  for (const std::string& f : res.failures) ADD_FAILURE() << f;
  int rows = 0;
  for (const measure::Record& r : res.records)
    if (r.is_ladder_row()) {
      ++rows;
      EXPECT_EQ(r.validation, "exact") << r.variant;
      EXPECT_EQ(r.scope, "GPU_COMPUTE");
      if (r.variant != "g01_lane_per_thread") EXPECT_TRUE(r.ladder.x_previous.has_value()) << r.variant;
    }
  EXPECT_EQ(rows, static_cast<int>(all_rungs().size()));
  const std::string table = measure::ladder_table(res.records);
  for (const L::RungInfo* r : all_rungs()) EXPECT_NE(table.find(r->variant()), std::string::npos) << r->id;
}

// Adding a rung the documented way (one file + one line), on the GPU: the test-only rung t01 of
// tests/rungs/ (built by nvcc into this test) validated on the small case, swept, timed, ratioed
// against its predecessor g01 and listed in the one table. Without a GPU: skipped with the reason
// (the unit test Abc471gGpuEmuLadder.AddingARungIsOneFileAndOneLine runs it on the host emulation).
TEST(Abc471gGpu, ATestOnlyRungAddedWithOneLineIsValidatedTimedAndListed) {
#ifndef JOSEKI_TEST_RUNG_T01
  GTEST_SKIP() << "built without CUDA: the test-only rung has no GPU build";
#else
  JOSEKI_REQUIRE_GPU();
  static const L::RungInfo t01 = abc471g::gpu::t01_info();
  const C::Case c = C::builtin_case("small");
  measure::Ladder lad = L::make_ladder(L::select_rungs("g01"), c.problem.k);
  lad.rungs.push_back(L::rung_spec(t01, c.problem.k));  // <- the one registration line
  L::DirectRunner runner(C::edge_cases(), c, 0);
  measure::LadderOptions lo;
  lo.sweep = true;
  lo.rule.min_samples = 3;
  lo.rule.timeout_s = 0.2;
  lo.workload.set("case", c.name);
  const measure::LadderResult res = measure::run_ladder(lad, {&runner}, lo);
  for (const std::string& f : res.failures) ADD_FAILURE() << f;
  EXPECT_GT(runner.runs_per_rung().at("t01_two_lanes"), 3 * 2 * 10) << "the suite at three configurations, twice";
  const measure::Record* row = nullptr;
  for (const measure::Record& r : res.records)
    if (r.variant == "t01_two_lanes" && r.is_ladder_row()) row = &r;
  ASSERT_NE(row, nullptr) << measure::ladder_table(res.records);
  EXPECT_EQ(row->validation, "exact");
  EXPECT_GT(row->summary->median, 0);
  ASSERT_TRUE(row->ladder.x_previous.has_value());
  EXPECT_EQ(row->ladder.previous, "g01_lane_per_thread");
  EXPECT_NE(measure::ladder_table(res.records).find("t01_two_lanes"), std::string::npos);
  EXPECT_NE(measure::sweep_table(res.records).find("t01_two_lanes"), std::string::npos);
#endif
}

}  // namespace
