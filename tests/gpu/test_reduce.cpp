// The reduction ladder on the GPU: every GPU rung exact at the edge sizes and offsets (the
// output poisoned before each run, each configuration run twice), every sweep point exact,
// and a timed run's records complete (ratios, ceiling). Skipped, visibly, without a GPU.
#include "gpu_test.hpp"

#include <algorithm>
#include <iostream>
#include <map>
#include <set>

#include "backend/gpu.hpp"
#include "measure/needs.hpp"

#include "experiments/reduce/harness.hpp"
#include "measure/errors.hpp"
#include "measure/ladder.hpp"
#include "../rungs/reduce_test_rungs.hpp"  // the test-only rungs: tests/rungs/reduce_rungs.def

using namespace joseki;
using namespace joseki::reduce;

namespace {

// The rungs this GPU (and the code this build runs on it) can run; the others are named with the
// reason (a Hopper-only rung on an A100 or in a compute_80 PTX build). Call after JOSEKI_REQUIRE_GPU.
std::vector<const Rung*> runnable(const std::vector<const Rung*>& rs) {
  const measure::DeviceFacts d = gpu::device_facts(0);
  std::vector<const Rung*> v;
  for (const Rung* r : rs) {
    if (auto why = measure::unmet(r->needs, d))
      std::cout << "[ SKIPPED  ] rung " << r->slug << ": " << *why << "\n";
    else
      v.push_back(r);
  }
  return v;
}

std::vector<const Rung*> gpu_rungs() {
  std::vector<const Rung*> v;
  for (const Rung& r : rungs())
    if (r.is_gpu()) v.push_back(&r);
  return runnable(v);
}

measure::StoppingRule one_sample() {
  measure::StoppingRule r;
  r.min_samples = 1;
  r.max_samples = 1;
  r.min_time_s = 0;
  r.timeout_s = 0.05;
  return r;
}

}  // namespace

TEST(ReduceGpu, EveryRungIsExactAtEdgeSizesAndOffsets) {
  JOSEKI_REQUIRE_GPU();
  RunOptions o;
  o.sizes = {1, 2, 3, 4, 5, 31, 255, 4099, (1u << 20) + 3, 1u << 24};
  o.offsets = {0, 1, 2, 3};
  o.rungs = gpu_rungs();
  o.validate_only = true;
  o.seed = 12345;
  const RunResult res = run(o);
  for (const auto& f : res.failures) ADD_FAILURE() << f;
  std::map<std::string, int> ok;
  for (const auto& v : res.validations) {
    EXPECT_TRUE(v.ok) << v.message;
    EXPECT_TRUE(v.message.empty()) << v.variant << " not validated: " << v.message;
    if (v.ok) ++ok[v.variant];
  }
  for (const Rung* r : o.rungs) {
    EXPECT_EQ(ok[r->slug], 10 * 4) << r->slug;
  }
}

TEST(ReduceGpu, EverySweepPointIsExactAndTheTieRuleChooses) {
  JOSEKI_REQUIRE_GPU();
  RunOptions o;
  o.sizes = {(1u << 22) + 1};
  o.offsets = {3};
  o.rungs = gpu_rungs();
  o.sweep = true;
  o.rule = one_sample();
  o.seed = 777;
  const RunResult res = run(o);
  for (const auto& f : res.failures) ADD_FAILURE() << f;
  std::map<std::string, int> points, chosen, duplicates;
  for (const auto& r : res.records) {
    if (r.ladder.sweep.empty()) continue;
    EXPECT_EQ(r.rung, -1);
    if (r.skipped && r.skipped->rfind("the same launch", 0) == 0) ++duplicates[r.variant];
    if (r.skipped) continue;
    EXPECT_EQ(r.validation, "exact") << r.variant << " " << r.axes.label();
    ++points[r.variant];
    if (r.ladder.chosen) {
      ++chosen[r.variant];
      EXPECT_FALSE(r.ladder.tie_rule.empty());
    }
  }
  for (const Rung* r : o.rungs)
    if (r->swept) {
      EXPECT_GE(points[r->slug], 4) << r->slug;
      EXPECT_EQ(chosen[r->slug], 1) << r->slug;
    }
  // At 2^22 words r06's grid is capped by the work for unroll 8 x 1024 threads (128 tiles):
  // 1 and 2 blocks per SM make the same launch, which is timed once.
  EXPECT_GE(duplicates["r06_single_pass"], 1);
}

// The rungs that keep state between launches -- r06..r09 and r11 a ticket in their workspace,
// r10 the two result slots -- stay exact over odd and even numbers of launches per sample
// (JOSEKI_SLOW_VARIANT k = 3 and 2), in validation, cold and hot timing, and at an offset.
TEST(ReduceGpu, StatefulRungsStayExactOverAnyNumberOfLaunches) {
  JOSEKI_REQUIRE_GPU();
  RunOptions o;
  o.sizes = {(1u << 20) + 3};
  o.offsets = {0, 3};
  o.modes = {measure::Mode::Cold, measure::Mode::Hot};
  o.rungs = runnable(select_rungs({"r00_cub,r06,r09,r10,r11"}));
  o.rule = one_sample();
  o.rule.max_samples = 3;
  o.rule.min_samples = 3;
  o.seed = 31337;
  o.slow = {{"r09_packed_ticket", 3}, {"r10_two_slot", 3}, {"r11_bulk_slab", 2}};
  const RunResult res = run(o);
  for (const auto& f : res.failures) ADD_FAILURE() << f;
  int timed = 0;
  for (const auto& r : res.records) {
    if (r.variant == CEILING) continue;
    SCOPED_TRACE(r.variant + " " + r.mode);
    EXPECT_EQ(r.validation, "exact");
    EXPECT_TRUE(r.summary.has_value());
    if (r.summary) ++timed;
  }
  const int rungs = static_cast<int>(o.rungs.size());  // r11 is skipped where cp.async.bulk is missing
  EXPECT_GE(rungs, 4);
  EXPECT_EQ(timed, rungs * 2 * 2);
  int validations = 0;
  for (const auto& v : res.validations) {
    EXPECT_TRUE(v.ok) << v.message;
    ++validations;
  }
  EXPECT_EQ(validations, rungs * 2);
}

TEST(ReduceGpu, TimedLadderHasRatiosCeilingAndExactResults) {
  JOSEKI_REQUIRE_GPU();
  RunOptions o;
  o.sizes = {1u << 20};
  o.modes = {measure::Mode::Cold, measure::Mode::Hot};
  o.rungs = runnable(select_rungs({"r00_cub,r01_atomic,r05_vector_loads,r06_single_pass,r08_bulk_copy"}));
  o.rule = one_sample();
  o.rule.max_samples = 5;
  o.rule.min_samples = 3;
  o.seed = 4242;
  o.slow = {{"r06_single_pass", 2}};
  const RunResult res = run(o);
  for (const auto& f : res.failures) ADD_FAILURE() << f;
  EXPECT_TRUE(res.device.present);
  int ceilings = 0, rows = 0;
  for (const auto& r : res.records) {
    SCOPED_TRACE(r.variant + " " + r.mode);
    if (r.variant == CEILING) {
      ++ceilings;
      ASSERT_TRUE(r.throughput);
      EXPECT_GT(r.throughput->bytes_per_s, 0);
      continue;
    }
    ++rows;
    EXPECT_EQ(r.validation, "exact");
    ASSERT_TRUE(r.summary);
    ASSERT_TRUE(r.throughput);
    EXPECT_EQ(r.throughput->ceiling_name, CEILING);
    EXPECT_GT(r.throughput->pct_ceiling, 0);
    EXPECT_GT(r.throughput->pct_datasheet, 0);
    EXPECT_TRUE(r.ladder.x_baseline.has_value());
    EXPECT_EQ(r.ladder.baseline, BASELINE);
    if (r.variant == "r06_single_pass") {
      EXPECT_TRUE(r.ladder.x_previous.has_value());
      EXPECT_EQ(r.extra["slow_factor"], 2);
    }
    if (r.mode == "hot") {
      EXPECT_GE(r.extra.value("launches_per_sample", 0), 1);
    }
  }
  EXPECT_EQ(ceilings, 2);
  EXPECT_EQ(rows, static_cast<int>(o.rungs.size()) * 2);
}

// Every GPU rung in one run: those this GPU cannot run come back as skips that name the need
// (never launched, so never "no kernel image" or a trap), the others exact.
TEST(ReduceGpu, UnmetNeedsAreSkipsWithTheReason) {
  JOSEKI_REQUIRE_GPU();
  const measure::DeviceFacts d = gpu::device_facts(0);
  RunOptions o;
  o.sizes = {4099};
  o.offsets = {0, 1};
  for (const Rung& r : rungs())
    if (r.is_gpu()) o.rungs.push_back(&r);
  o.validate_only = true;
  o.seed = 777;
  const RunResult res = run(o);
  for (const auto& f : res.failures) ADD_FAILURE() << f;
  std::map<std::string, int> exact, skipped;
  for (const auto& v : res.validations) {
    EXPECT_TRUE(v.ok) << v.message;
    if (v.message.empty()) ++exact[v.variant];
    else if (v.message.rfind("skipped: needs sm_", 0) == 0) ++skipped[v.variant];
    else ADD_FAILURE() << v.variant << ": " << v.message;
  }
  for (const Rung* r : o.rungs) {
    const auto why = measure::unmet(r->needs, d);
    EXPECT_EQ(exact[r->slug], why ? 0 : 2) << r->slug;
    EXPECT_EQ(skipped[r->slug], why ? 2 : 0) << r->slug;
    if (why) std::cout << "[ SKIPPED  ] rung " << r->slug << ": " << *why << "\n";
  }
}

TEST(ReduceGpu, SizesBeyondMemoryAreBadInputNamingTheSize) {
  JOSEKI_REQUIRE_GPU();
  RunOptions o;
  o.sizes = {MAX_N};
  o.rungs = select_rungs({"r06"});
  try {
    run(o);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(MAX_N)), std::string::npos) << e.what();
  }
}

// Issue 17: every GPU-timed record carries the environment of its timed block (NVML's clocks,
// power, temperature, throttle reasons), or says why not.
TEST(ReduceGpu, TimedRecordsCarryTheirEnvironment) {
  JOSEKI_REQUIRE_GPU();
  RunOptions o;
  o.sizes = {1u << 22};
  o.modes = {measure::Mode::Cold};
  o.rungs = select_rungs({"r05_vector_loads"});
  o.rule = one_sample();
  o.rule.max_samples = 20;
  o.rule.min_samples = 20;
  o.rule.timeout_s = 5;
  o.seed = 17;
  const RunResult res = run(o);
  for (const auto& f : res.failures) ADD_FAILURE() << f;
  int gpu_records = 0;
  for (const auto& r : res.records) {
    if (r.backend != "cuda" || r.skipped || r.variant == "stream_read") continue;
    ++gpu_records;
    ASSERT_TRUE(r.environment.has_value()) << r.variant;
    if (r.environment->source != "nvml") {
      EXPECT_EQ(r.environment->source.rfind("unavailable: ", 0), 0u) << r.environment->source;
      continue;
    }
    ASSERT_TRUE(r.environment->before && r.environment->after) << r.variant;
    EXPECT_GT(r.environment->before->sm_clock_mhz, 0);
    EXPECT_GT(r.environment->after->mem_clock_mhz, 0);
    EXPECT_GE(r.environment->readings, 2);
    for (int s : r.environment->flagged_samples) EXPECT_LT(s, static_cast<int>(r.samples.size()));
    EXPECT_EQ(r.environment->flagged(), !r.environment->flags.empty());
  }
  EXPECT_GT(gpu_records, 0);
}

// Adding a GPU rung the documented way (docs/REDUCE.md, "Adding a rung"), on the GPU: the test-only
// rung t01 (tests/rungs/reduce_t01_two_loads.cu + its one line in tests/rungs/reduce_rungs.def) is
// exact at edge sizes and every offset (output poisoned, each configuration run twice), then timed
// in a ladder beside CUB and its predecessor r04, with its ratio against r04 and its row in the
// ladder table `joseki reduce` prints. Without a GPU: skipped with the reason (the unit test
// ReduceLadder.ATestGpuRungAddedWithOneLineIsListedAfterItsPredecessor runs everywhere).
TEST(ReduceGpu, ATestOnlyRungAddedWithOneLineIsValidatedTimedAndListed) {
#ifndef JOSEKI_HAVE_CUDA
  GTEST_SKIP() << "built without CUDA: the test-only rung has no GPU build";
#else
  JOSEKI_REQUIRE_GPU();
  const Rung& t01 = test_rung("t01");
  ASSERT_NE(t01.launch, nullptr);
  RunOptions v;
  v.sizes = {1, 2, 31, 255, 4099, (1u << 20) + 3};
  v.offsets = {0, 1, 2, 3};
  v.rungs = {&t01};
  v.validate_only = true;
  v.seed = 2718;
  const RunResult checked = run(v);
  for (const auto& f : checked.failures) ADD_FAILURE() << f;
  int ok = 0;
  for (const auto& r : checked.validations) {
    EXPECT_TRUE(r.ok && r.message.empty()) << r.n << " " << r.offset << ": " << r.message;
    EXPECT_EQ(r.got, r.expected);
    if (r.ok) ++ok;
  }
  EXPECT_EQ(ok, 6 * 4);

  RunOptions o;
  o.sizes = {(1u << 22) + 1};
  o.offsets = {1};
  o.modes = {measure::Mode::Cold};
  o.rule = one_sample();
  o.rule.min_samples = 3;
  o.rule.max_samples = 5;
  o.seed = 1618;
  o.rungs = select_rungs({"r00_cub,r04"});
  o.rungs.push_back(&t01);
  const RunResult res = run(o);
  for (const auto& f : res.failures) ADD_FAILURE() << f;
  const measure::Record* row = nullptr;
  for (const auto& r : res.records)
    if (r.variant == "t01_two_loads" && r.is_ladder_row()) row = &r;
  const std::string table = measure::ladder_table(res.records, {"n", "offset"});
  ASSERT_NE(row, nullptr) << table;
  EXPECT_EQ(row->validation, "exact");
  EXPECT_EQ(row->rung, 90);
  EXPECT_GT(row->summary->median, 0);
  EXPECT_EQ(row->ladder.previous, "r04_warp_shuffle");
  EXPECT_TRUE(row->ladder.x_previous.has_value());
  EXPECT_TRUE(row->ladder.x_baseline.has_value());
  EXPECT_TRUE(row->axes.has("grid"));
  EXPECT_NE(table.find("t01_two_loads"), std::string::npos) << table;
  std::cout << table;
#endif
}
