// The reduction ladder on the one ladder protocol (measure/ladder.hpp): its rungs as RungSpecs, its
// CPU rungs run by the reduce CPU runner, and a rung added the documented way (one definition, one
// line appending it) validated, timed and in the ladder's table.
#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "experiments/reduce/cpu_sum.hpp"
#include "experiments/reduce/harness.hpp"
#include "experiments/reduce/registry.hpp"
#include "measure/ladder.hpp"

using namespace joseki;

namespace {

// The added rung: two interleaved accumulators (its own file in the ladder; here beside the test).
std::uint32_t sum_two_lanes(const std::uint32_t* p, std::size_t n, cpu::SimdLevel) {
  std::uint32_t a = 0, b = 0;
  std::size_t i = 0;
  for (; i + 1 < n; i += 2) {
    a += p[i];
    b += p[i + 1];
  }
  if (i < n) a += p[i];
  return a + b;
}
measure::RungSpec cpu_two_lanes() {
  measure::RungSpec r;
  r.id = "cpu_two_lanes";
  r.slug = "cpu_two_lanes";
  r.technique = "one core, two accumulators";
  r.predecessor = "cpu_one_core";
  r.backend = "cpu";
  r.output = "one word: the sum mod 2^32";
  r.impl = reduce::CpuSumFn{&sum_two_lanes};
  return r;
}

}  // namespace

TEST(ReduceLadder, EveryRungIsARungSpecOfTheOneProtocol) {
  measure::Ladder lad{"reduce", {}};
  for (const reduce::Rung& r : reduce::rungs()) lad.rungs.push_back(reduce::spec_of(r));
  EXPECT_NO_THROW(lad.check());
  ASSERT_TRUE(lad.baseline());
  EXPECT_EQ(lad.baseline()->slug, "r00_cub");
  EXPECT_EQ(lad.find("r05")->predecessor, "r04b_warp_redux");
  EXPECT_EQ(lad.find("cpu_all_cores")->backend, "cpu");
  EXPECT_EQ(lad.find("r06_single_pass")->defaults.get_int("unroll"), 4);
}

TEST(ReduceLadder, AddingACpuRungIsOneDefinitionAndOneLine) {
  const std::size_t n = 100003;  // not a multiple of any vector width
  std::vector<std::uint32_t> data(n);
  std::mt19937 gen(7);
  for (auto& x : data) x = static_cast<std::uint32_t>(gen());
  const std::uint32_t expected = std::accumulate(data.begin(), data.end(), std::uint32_t{0});

  measure::Ladder lad{"reduce", {reduce::spec_of(reduce::find_rung("cpu_one_core"))}};
  lad.rungs.push_back(cpu_two_lanes());  // the one registration line
  const auto runner = reduce::cpu_sum_runner(data.data(), n, expected);
  measure::LadderOptions o;
  o.modes = {measure::Mode::Hot};
  o.rule.min_samples = 3;
  o.rule.max_samples = 5;
  o.rule.min_time_s = 0;
  o.rule.timeout_s = 0.5;
  o.workload.set("n", std::int64_t(n)).set("offset", std::int64_t{0});
  const measure::LadderResult res = measure::run_ladder(lad, {runner.get()}, o);
  ASSERT_EQ(res.records.size(), 2u);
  EXPECT_TRUE(res.failures.empty());
  const measure::Record& added = res.records[1];
  EXPECT_EQ(added.variant, "cpu_two_lanes");
  EXPECT_EQ(added.validation, "exact");
  ASSERT_TRUE(added.summary);
  ASSERT_TRUE(added.ladder.x_previous);
  EXPECT_EQ(added.ladder.previous, "cpu_one_core");
  EXPECT_NE(measure::ladder_table(res.records).find("cpu_two_lanes"), std::string::npos);
}
