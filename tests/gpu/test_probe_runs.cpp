// Every probe runs on the GPU (quick mode, a light stopping rule) and returns its records:
// validated, measured (or skipped with a reason), and with its verdicts. Skipped without a GPU.
#include "measure/needs.hpp"
#include "gpu_test.hpp"

#include "backend/gpu.hpp"
#include "experiments/probes/probe.hpp"
#include "experiments/probes/references.hpp"

using namespace joseki;
using namespace joseki::probes;

namespace {
ProbeOptions quick_options() {
  ProbeOptions o;
  o.quick = true;
  o.rule.min_samples = 3;
  o.rule.timeout_s = 0.2;
  o.rule.min_time_s = 0.002;
  return o;
}

void expect_sane(const std::string& name, const std::vector<measure::Record>& recs, int min_verdicts) {
  ASSERT_FALSE(recs.empty()) << name;
  int verdicts = 0;
  for (const auto& r : recs) {
    EXPECT_EQ(r.validation.rfind("failed", 0), std::string::npos) << name << " " << r.variant << ": " << r.validation;
    if (r.skipped) {
      EXPECT_TRUE(r.samples.empty()) << name << " " << r.variant;
      continue;
    }
    ASSERT_TRUE(r.summary) << name << " " << r.variant;
    EXPECT_FALSE(r.samples.empty()) << name << " " << r.variant;
    if (r.extra.contains("verdict")) {
      ++verdicts;
      const std::string v = r.extra.at("verdict");
      EXPECT_TRUE(v == "holds" || v == "does not hold" || v == "depends") << v;
      EXPECT_FALSE(r.extra.value("figure", "").empty()) << name << " " << r.variant;
    }
  }
  EXPECT_GE(verdicts, min_verdicts) << name;
}
}  // namespace

class ProbeRuns : public ::testing::TestWithParam<std::pair<const char*, int>> {};

TEST_P(ProbeRuns, ReturnsValidatedRecordsAndVerdicts) {
  JOSEKI_REQUIRE_GPU();
  const auto [name, verdicts] = GetParam();
  const ProbeInfo* p = ProbeRegistry::find(name);
  ASSERT_NE(p, nullptr);
  expect_sane(name, p->run(quick_options()), verdicts);
}

INSTANTIATE_TEST_SUITE_P(All, ProbeRuns,
                         ::testing::Values(std::pair{"exec", 1}, std::pair{"divergence", 3}, std::pair{"coalescing", 3},
                                           std::pair{"banks", 2}, std::pair{"caches", 2}, std::pair{"caches_l2", 2},
                                           std::pair{"atomics", 2},
                                           std::pair{"fences", 1}, std::pair{"barriers", 1}, std::pair{"occupancy", 2},
                                           std::pair{"launch", 2}, std::pair{"startup", 2}),
                         [](const auto& info) { return std::string(info.param.first); });

TEST(ProbeRunsProfile, UnitCostsAndPrediction) {
  JOSEKI_REQUIRE_GPU();
  // No joseki binary to spawn here: the measured ranking is skipped with the reason.
  const auto recs = ProbeRegistry::find("profile")->run(quick_options());
  expect_sane("profile", recs, 0);
  int costs = 0, predicted = 0;
  for (const auto& r : recs) {
    if (r.experiment != "probe.profile") continue;
    costs += r.extra.contains("x_global_load_elem");
    predicted += r.variant.rfind("predicted_", 0) == 0;
    if (r.variant == "verdict:prediction") {
      EXPECT_TRUE(r.skipped);
    }
  }
  EXPECT_EQ(costs, 6);
  EXPECT_EQ(predicted, 3);
}

TEST(ProbeRunsDiagnose, TimesEveryBadKernelAndItsFix) {
  JOSEKI_REQUIRE_GPU();
  const auto recs = ProbeRegistry::find("diagnose")->run(quick_options());
  expect_sane("diagnose", recs, 0);
  int timed = 0;
  for (const auto& r : recs) timed += r.scope == "GPU_COMPUTE" && r.summary.has_value();
  EXPECT_EQ(timed, 10);  // 5 symptoms x (bad, fix)
}

// Issue 19's Hopper probes: on sm_90 every part measures, validates and carries its verdicts (with
// the published reference beside joseki's figure); below sm_90 each is one record skipped with the
// reason (measure::Needs), never a CUDA error.
class HopperProbeRuns : public ::testing::TestWithParam<std::pair<const char*, int>> {};

TEST_P(HopperProbeRuns, MeasureOnHopperOrSkipWithTheReason) {
  JOSEKI_REQUIRE_GPU();
  const auto [name, verdicts] = GetParam();
  const ProbeInfo* p = ProbeRegistry::find(name);
  ASSERT_NE(p, nullptr);
  const auto recs = p->run(quick_options());
  const auto facts = gpu::device_facts(0);
  if (std::string(name) == "mma" && facts.cc_major == 8) {  // mma.sync measured, wgmma skipped with the reason
    expect_sane(name, recs, 3);
    for (const auto& r : recs) {
      if (r.variant.rfind("wgmma", 0) == 0) {
        EXPECT_TRUE(r.skipped) << r.variant;
      }
    }
    return;
  }
  // Below sm_90, or where the running code lacks the probe's features (a compute_80 PTX build on an
  // H200): skipped with the reason.
  if (facts.cc_major < 9 || measure::unmet(p->needs, facts)) {
    ASSERT_FALSE(recs.empty());
    for (const auto& r : recs) {
      ASSERT_TRUE(r.skipped) << r.variant;
      EXPECT_NE(r.skipped->find("needs sm_"), std::string::npos) << *r.skipped;
    }
    return;
  }
  expect_sane(name, recs, verdicts);
  int referenced = 0;
  for (const auto& r : recs)
    if (r.extra.contains("reference")) {
      ++referenced;
      EXPECT_GT(r.extra.at("reference").at("value").get<double>(), 0) << r.variant;
      EXPECT_FALSE(r.extra.at("comparison").get<std::string>().empty()) << r.variant;
    }
  EXPECT_GE(referenced, 1) << name;
}

INSTANTIATE_TEST_SUITE_P(Hopper, HopperProbeRuns,
                         ::testing::Values(std::pair{"dsmem", 2}, std::pair{"tma", 1}, std::pair{"mma", 3}),
                         [](const auto& info) { return std::string(info.param.first); });

TEST(ProbeReferences, WithinFifteenPercentOrTheReason) {
  EXPECT_EQ(comparison_text(190, 180, "x").rfind("within 15 %", 0), 0u);
  EXPECT_EQ(comparison_text(154, 180, "x").rfind("within 15 %", 0), 0u);  // -14.4 %
  EXPECT_EQ(comparison_text(150, 180, "x").rfind("joseki 16.7 % below", 0), 0u);
  const std::string far = comparison_text(300, 180, "a different part");
  EXPECT_NE(far.find("66.7 % above"), std::string::npos) << far;
  EXPECT_NE(far.find("a different part"), std::string::npos) << far;
  EXPECT_NE(comparison_text(0, 180, "x").find("not comparable"), std::string::npos);
  auto r = verdict_record("dsmem", "latency", "rule", Verdict::Holds, "fig", 200, "cycles");
  add_reference(r, Published{"q", 180, "cycles", LUO_2024}, 200, "why");
  EXPECT_DOUBLE_EQ(r.extra.at("ratio").get<double>(), 200.0 / 180);
  EXPECT_EQ(r.extra.at("reference").at("unit"), "cycles");
}
