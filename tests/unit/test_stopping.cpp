#include <gtest/gtest.h>

#include <vector>

#include "measure/errors.hpp"
#include "measure/stopping.hpp"

using namespace joseki::measure;

namespace {
StoppingRule rule(int min_s, int max_s, double min_t, double noise, double timeout) {
  StoppingRule r;
  r.min_samples = min_s;
  r.max_samples = max_s;
  r.min_time_s = min_t;
  r.max_noise = noise;
  r.timeout_s = timeout;
  return r;
}
}  // namespace

TEST(StoppingRule, NeedsMinimumSamples) {
  const auto r = rule(5, 100, 0, 0.5, 100);
  const std::vector<double> four(4, 1.0);
  EXPECT_FALSE(should_stop(r, four, 0).stop);
  const std::vector<double> five(5, 1.0);
  const auto d = should_stop(r, five, 0);
  EXPECT_TRUE(d.stop);
  EXPECT_EQ(d.reason, StopReason::Converged);
}

TEST(StoppingRule, NeedsMinimumMeasuredTime) {
  const auto r = rule(2, 100, 1.0, 0.5, 100);
  const std::vector<double> short_(10, 0.05);  // 0.5 s in all
  EXPECT_FALSE(should_stop(r, short_, 0.5).stop);
  const std::vector<double> enough(20, 0.05);  // 1.0 s
  EXPECT_TRUE(should_stop(r, enough, 1.0).stop);
}

TEST(StoppingRule, NoisySamplesKeepGoingUntilTimeout) {
  const auto r = rule(2, 1000, 0, 0.01, 2.0);
  const std::vector<double> noisy{1, 2, 1, 2, 1, 2};
  EXPECT_FALSE(should_stop(r, noisy, 1.0).stop);
  const auto d = should_stop(r, noisy, 2.5);
  EXPECT_TRUE(d.stop);
  EXPECT_EQ(d.reason, StopReason::Timeout);
}

TEST(StoppingRule, MaxSamplesWins) {
  const auto r = rule(2, 6, 0, 0.01, 100);
  const std::vector<double> noisy{1, 2, 1, 2, 1, 2};
  const auto d = should_stop(r, noisy, 0);
  EXPECT_TRUE(d.stop);
  EXPECT_EQ(d.reason, StopReason::MaxSamples);
}

TEST(StoppingRule, ValidateRejectsNonsense) {
  EXPECT_THROW(rule(0, 10, 0, 0.1, 1).validate(), joseki::InputError);
  EXPECT_THROW(rule(10, 5, 0, 0.1, 1).validate(), joseki::InputError);
  EXPECT_THROW(rule(1, 5, -1, 0.1, 1).validate(), joseki::InputError);
  EXPECT_THROW(rule(1, 5, 0, 0, 1).validate(), joseki::InputError);
  EXPECT_THROW(rule(1, 5, 0, 0.1, 0).validate(), joseki::InputError);
  EXPECT_NO_THROW(rule(1, 5, 0, 0.1, 1).validate());
}

TEST(Measure, WarmUpRunsAreNotSamplesAndPrepareRunsBeforeEach) {
  int calls = 0, prepares = 0;
  double fake_now = 0;
  auto clock = [&] { return fake_now; };
  auto sample = [&] {
    ++calls;
    fake_now += 0.01;
    return calls <= 3 ? 100.0 : 1.0;  // the first (warm-up) runs are slow, as with lazy loading
  };
  WarmUp w;
  w.min_runs = 3;
  w.min_time_s = 0;
  const auto m = measure(sample, [&] { ++prepares; }, rule(10, 1000, 0, 0.05, 100), w, clock);
  EXPECT_EQ(m.warmup_runs, 3);
  EXPECT_EQ(m.samples_s.size(), 10u);
  EXPECT_EQ(prepares, calls);
  EXPECT_DOUBLE_EQ(m.stats.max, 1.0);  // no warm-up time leaked into the samples
  EXPECT_EQ(m.reason, StopReason::Converged);
}

TEST(Measure, TimesOutOnNoise) {
  int k = 0;
  double fake_now = 0;
  auto sample = [&] {
    fake_now += 0.1;
    return (k++ % 2) ? 1.0 : 3.0;
  };
  WarmUp w;
  w.min_runs = 1;
  w.min_time_s = 0;
  const auto m = measure(sample, nullptr, rule(3, 100000, 0, 0.01, 2.0), w, [&] { return fake_now; });
  EXPECT_EQ(m.reason, StopReason::Timeout);
  EXPECT_GE(m.samples_s.size(), 19u);
  EXPECT_LE(m.samples_s.size(), 21u);
}

TEST(Measure, ModeNames) {
  EXPECT_EQ(mode_from_string("cold"), Mode::Cold);
  EXPECT_EQ(mode_from_string("hot"), Mode::Hot);
  try {
    mode_from_string("warm");
    FAIL() << "expected InputError";
  } catch (const joseki::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'warm'"), std::string::npos) << e.what();
  }
}
