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
#include "../rungs/reduce_test_rungs.hpp"  // the test-only GPU rungs: tests/rungs/reduce_rungs.def

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

namespace {

// A wrong rung: forgets the last element (the harness must catch it, not time it).
std::uint32_t sum_drops_last(const std::uint32_t* p, std::size_t n, cpu::SimdLevel) {
  std::uint32_t s = 0;
  for (std::size_t i = 0; i + 1 < n; ++i) s += p[i];
  return s;
}

// The rung as the registry holds it (registry.cpp: one cpu_rung entry per CPU rung).
reduce::Rung cpu_rung(const std::string& slug, reduce::CpuSumFn fn) {
  reduce::Rung r;
  r.id = r.slug = slug;
  r.name = slug;
  r.technique = "one core, " + slug;
  r.predecessor = "cpu_one_core";
  r.backend = reduce::Backend::Cpu;
  r.cpu = fn;
  return r;
}

measure::StoppingRule quick_rule() {
  measure::StoppingRule rule;
  rule.min_samples = 3;
  rule.max_samples = 5;
  rule.min_time_s = 0;
  rule.timeout_s = 0.5;
  return rule;
}

// A hot run of the harness at one size and offset with the quick rule.
reduce::RunOptions hot_run(std::size_t n, std::size_t offset, std::uint64_t seed) {
  reduce::RunOptions o;
  o.sizes = {n};
  o.offsets = {offset};
  o.modes = {measure::Mode::Hot};
  o.rule = quick_rule();
  o.seed = seed;
  return o;
}

}  // namespace

// The harness path (reduce::run: random data, reference, offsets, the one ladder protocol, ratios):
// a rung added as one definition plus one line in the rung list is validated at every offset,
// timed, rated against its declared predecessor and listed in the ladder table.
TEST(ReduceLadder, ARungAddedToTheHarnessIsValidatedTimedAndInTheTable) {
  const reduce::Rung added = cpu_rung("cpu_two_lanes", &sum_two_lanes);
  reduce::RunOptions o;
  o.sizes = {100003};
  o.offsets = {0, 3};
  o.modes = {measure::Mode::Hot};
  o.rule = quick_rule();
  o.seed = 99;
  o.rungs = reduce::select_rungs({"cpu_one_core"});
  o.rungs.push_back(&added);  // the one registration line
  const reduce::RunResult res = reduce::run(o);
  for (const auto& f : res.failures) ADD_FAILURE() << f;
  int validated = 0, timed = 0;
  for (const auto& v : res.validations)
    if (v.variant == "cpu_two_lanes") {
      EXPECT_TRUE(v.ok && v.message.empty()) << v.message;
      EXPECT_EQ(v.got, v.expected);
      ++validated;
    }
  for (const auto& r : res.records)
    if (r.variant == "cpu_two_lanes") {
      EXPECT_EQ(r.validation, "exact");
      ASSERT_TRUE(r.summary);
      EXPECT_GT(r.summary->median, 0);
      EXPECT_EQ(r.ladder.previous, "cpu_one_core");
      EXPECT_TRUE(r.ladder.x_previous.has_value());
      EXPECT_EQ(r.extra.value("cold_means", ""), "samples back to back");
      ++timed;
    }
  EXPECT_EQ(validated, 2);  // one per offset
  EXPECT_EQ(timed, 2);
  EXPECT_NE(measure::ladder_table(res.records).find("cpu_two_lanes"), std::string::npos);
}

// A wrong rung added the same way fails validation (the output is compared exactly, the poison is
// never taken for a result), is not timed, and the failure names the size and the offset.
TEST(ReduceLadder, AWrongRungIsCaughtAndNotTimed) {
  const reduce::Rung wrong = cpu_rung("cpu_drops_last", &sum_drops_last);
  reduce::RunOptions o = hot_run(4099, 1, 7);
  o.rungs = {&wrong};
  const reduce::RunResult res = reduce::run(o);
  ASSERT_FALSE(res.failures.empty());
  EXPECT_EQ(res.failures.front().rfind("cpu_drops_last n=4099 offset=1", 0), 0u) << res.failures.front();
  ASSERT_EQ(res.validations.size(), 1u);
  EXPECT_FALSE(res.validations[0].ok);
  EXPECT_NE(res.validations[0].got, res.validations[0].expected);
  ASSERT_EQ(res.records.size(), 1u);
  EXPECT_FALSE(res.records[0].summary.has_value());
  EXPECT_EQ(res.records[0].validation.rfind("failed: ", 0), 0u);
  EXPECT_EQ(res.records[0].skipped.value_or(""), "not timed: failed validation");
}

// The ladder per size: the swept rungs carry their sweep (duplicate launches skipped with the reason),
// knobs resolved for the device, and the rungs that borrow a choice name it (r05 runs at r06's).
TEST(ReduceLadder, TheLadderAtASizeCarriesSweepsAndBorrowedChoices) {
  const reduce::DeviceShape h200{132, 2048, 233472, 232448};
  const measure::Ladder lad = reduce::ladder_at(reduce::select_rungs({}), 4099, h200);
  EXPECT_NO_THROW(lad.check());
  const measure::RungSpec* r06 = lad.find("r06");
  ASSERT_TRUE(r06 && r06->sweep);
  EXPECT_EQ(r06->defaults.get_int("blocks_per_sm"), 8);  // 2048 threads / 256
  int dup = 0, run = 0;
  for (const auto& p : r06->sweep->points()) {
    if (p.skip_reason && p.skip_reason->rfind("the same launch", 0) == 0) ++dup;
    if (!p.skip_reason) ++run;
  }
  EXPECT_GE(dup, 1);  // at 4099 elements the grid is capped by the work
  EXPECT_GE(run, 1);
  EXPECT_EQ(lad.find("r05")->config_from, "r06_single_pass");
  EXPECT_EQ(lad.find("cpu_one_core")->defaults.get_int("threads"), 1);
}

// Adding a GPU rung the documented way (docs/REDUCE.md, "Adding a rung"): one file
// (tests/rungs/reduce_t01_two_loads.cu: kernel + GpuOps t01_ops()) plus one JK_REDUCE_RUNG line
// (tests/rungs/reduce_rungs.def, expanded by the registry's own macro). The rung has its metadata in
// any build and its launcher only in a CUDA build; it joins the ladder's list after its predecessor
// and runs through reduce::run, whose table (the one `joseki reduce` prints) lists it: skipped
// with the reason without a GPU, validated and timed with one (tests/gpu/test_reduce.cpp checks
// that on the device).
TEST(ReduceLadder, ATestGpuRungAddedWithOneLineIsListedAfterItsPredecessor) {
  const reduce::Rung& t01 = reduce::test_rung("t01");
  EXPECT_EQ(t01.slug, "t01_two_loads");
  EXPECT_EQ(t01.rung, 90);
  EXPECT_TRUE(t01.is_gpu());
  EXPECT_EQ(t01.predecessor, "r04_warp_shuffle");
  EXPECT_EQ(t01.grid, reduce::GridPolicy::Wave);
#ifdef JOSEKI_HAVE_CUDA
  EXPECT_NE(t01.launch, nullptr) << "its file's launcher";
#else
  EXPECT_EQ(t01.launch, nullptr) << "a CPU-only build has no rung files";
#endif
  EXPECT_EQ(t01.workspace, nullptr);
  std::vector<const reduce::Rung*> list = reduce::select_rungs({});
  list.push_back(&t01);  // the ladder's list with the test rung
  const reduce::DeviceShape h200{132, 2048, 233472, 232448};
  const measure::Ladder lad = reduce::ladder_at(list, 1u << 20, h200);
  EXPECT_NO_THROW(lad.check()) << "its predecessor is in the list, before it";
  ASSERT_NE(lad.find("t01"), nullptr);
  EXPECT_EQ(lad.find("t01")->predecessor, "r04_warp_shuffle");
  EXPECT_EQ(lad.find("t01")->defaults.label(), "block=256 blocks_per_sm=8");
  EXPECT_EQ(reduce::check_knobs(t01, reduce::resolve_knobs(t01.defaults, h200), h200), std::nullopt);

  reduce::RunOptions o = hot_run(4099, 1, 5);
  o.rungs = reduce::select_rungs({"cpu_one_core,r04"});
  o.rungs.push_back(&t01);  // as select_rungs would list it from rungs.def
  const reduce::RunResult res = reduce::run(o);
  for (const auto& f : res.failures) ADD_FAILURE() << f;
  const measure::Record* rec = nullptr;
  for (const auto& r : res.records)
    if (r.variant == "t01_two_loads") rec = &r;
  ASSERT_NE(rec, nullptr);
  EXPECT_EQ(rec->rung, 90);
  EXPECT_EQ(rec->ladder.previous, "r04_warp_shuffle");
  const std::string table = measure::ladder_table(res.records, {"n", "offset"});
  EXPECT_NE(table.find("t01_two_loads"), std::string::npos) << table;
  if (res.device.present) {  // a GPU: validated and timed
    EXPECT_EQ(rec->validation, "exact");
    EXPECT_TRUE(rec->summary.has_value());
  } else {  // none: a skipped row with the reason, in the table all the same
    ASSERT_TRUE(rec->skipped.has_value());
    EXPECT_EQ(rec->skipped->rfind("no GPU: ", 0), 0u) << *rec->skipped;
    EXPECT_NE(table.find("skipped: no GPU: "), std::string::npos) << table;
  }
}
