// The four-scope runner (measure/four_scopes.hpp) on scope_child, which sleeps a known time and
// reports PROGRAM, GPU_PIPELINE (half of it) and GPU_COMPUTE (a quarter).
#include <gtest/gtest.h>

#include "measure/errors.hpp"
#include "measure/four_scopes.hpp"

using namespace joseki::measure;

namespace {
FourScopesOptions child(const char* code, const char* ms) {
  FourScopesOptions o;
  o.spawn.argv = {JOSEKI_SCOPE_CHILD, code, ms};
  o.what = "scope_child";
  o.required = {Scope::Program, Scope::GpuPipeline, Scope::GpuCompute};
  o.rule.min_samples = 3;
  o.rule.max_samples = 3;
  o.rule.min_time_s = 0;
  o.rule.timeout_s = 30;
  return o;
}
}  // namespace

TEST(FourScopes, SamplesEveryScopeChecksNestingAndWritesRecords) {
  FourScopesOptions o = child("0", "20");
  int checked = 0;
  o.check = [&](const ExternalResult&) { ++checked; };
  o.parent_context = [] { return std::optional<bool>(false); };
  const ScopeSamples s = sample_four_scopes(o);
  EXPECT_EQ(checked, 4) << "one warm-up child + three timed, every one checked";
  ASSERT_TRUE(s.of(Scope::External) && s.of(Scope::Program) && s.of(Scope::GpuCompute));
  EXPECT_EQ(s.of(Scope::External)->size(), 3u) << "the warm-up's figures are dropped";
  EXPECT_EQ(s.of(Scope::GpuCompute)->size(), 3u);
  EXPECT_NEAR(s.of(Scope::GpuCompute)->front(), 5e-3, 1e-9);
  EXPECT_TRUE(s.violations.empty());
  EXPECT_EQ(s.pre_main.size(), 3u);

  Record base;
  base.experiment = "toy";
  base.variant = "scope_child";
  base.validation = "exact";
  base.axes.set("case", std::string("c1"));
  const std::vector<Record> recs = four_scope_records(s, base, "set-1");
  ASSERT_EQ(recs.size(), 6u) << "four scopes + pre-main + post-main";
  EXPECT_EQ(recs[0].scope, "EXTERNAL");
  EXPECT_EQ(recs[0].extra.at("parent_gpu_context"), false);
  EXPECT_TRUE(recs[0].extra.contains("pre_main_s"));
  EXPECT_EQ(recs[3].scope, "GPU_COMPUTE");
  EXPECT_EQ(recs[3].backend, "cuda");
  EXPECT_EQ(recs[4].scope, "VALUE");
  EXPECT_EQ(recs[4].axes.get_str("part"), "pre-main");
  for (const Record& r : recs) {
    EXPECT_EQ(r.ladder.scope_set, "set-1");
    EXPECT_EQ(r.validation, "exact");
    EXPECT_EQ(r.axes.get_str("case"), "c1");
    ASSERT_TRUE(r.summary);
  }
  EXPECT_LE(recs[3].summary->median, recs[2].summary->median);
  EXPECT_LE(recs[1].summary->median, recs[0].summary->median);
}

TEST(FourScopes, AChildThatFailsOrMissesAScopeIsAnErrorNamingIt) {
  try {
    sample_four_scopes(child("3", "1"));
    FAIL() << "expected RunError";
  } catch (const joseki::RunError& e) {
    EXPECT_NE(std::string(e.what()).find("scope_child: exit code 3"), std::string::npos) << e.what();
  }
  FourScopesOptions o = child("0", "1");
  o.required.push_back(Scope::CpuCompute);
  EXPECT_THROW(sample_four_scopes(o), joseki::RunError);
  FourScopesOptions bad = child("0", "1");
  bad.check = [](const ExternalResult&) { throw joseki::ValidationError("wrong answer"); };
  EXPECT_THROW(sample_four_scopes(bad), joseki::ValidationError);
}
