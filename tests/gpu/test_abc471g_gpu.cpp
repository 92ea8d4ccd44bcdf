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

namespace {

using namespace joseki;
using namespace joseki::abc471g;
namespace L = joseki::abc471g::ladder;
namespace C = joseki::abc471g::gpu_cases;

std::vector<const L::RungInfo*> all_rungs() { return L::select_rungs("all"); }

void expect_all_exact(const L::ValidationReport& rep, std::size_t cases) {
  EXPECT_EQ(rep.cases, static_cast<int>(cases));
  for (const auto& [id, f] : rep.failures) ADD_FAILURE() << id << ": " << f;
  for (const L::RungInfo* r : all_rungs())
    EXPECT_GT(rep.runs_per_rung.count(r->id) ? rep.runs_per_rung.at(r->id) : 0, 0) << r->id << " never ran";
}

TEST(Abc471gGpu, EveryRungExactOnEveryTestVector) {
  JOSEKI_REQUIRE_GPU();
  const auto vectors = C::load_vectors(C::testdata_dir());
  ASSERT_FALSE(vectors.empty()) << "no test vectors in '" << C::testdata_dir()
                                << "' (set JOSEKI_TESTDATA to the folder of the *.in / *.out files)";
  expect_all_exact(L::validate(all_rungs(), vectors, 0, nullptr), vectors.size());
}

TEST(Abc471gGpu, EveryRungExactOnTheEdgeCases) {
  JOSEKI_REQUIRE_GPU();
  const auto cases = C::edge_cases();
  expect_all_exact(L::validate(all_rungs(), cases, 0, nullptr), cases.size());
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
  expect_all_exact(L::validate(all_rungs(), cases, 0, nullptr), cases.size());
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

}  // namespace
