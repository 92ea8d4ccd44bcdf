#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "measure/stats.hpp"

using joseki::measure::median_of;
using joseki::measure::summarize;

TEST(Stats, OddCountSummary) {
  const std::vector<double> v{5, 1, 3, 2, 4};
  const auto s = summarize(v);
  EXPECT_EQ(s.n, 5u);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_NEAR(s.stdev, std::sqrt(2.5), 1e-12);  // sample stdev of 1..5
  EXPECT_NEAR(s.rel_stdev, std::sqrt(2.5) / 3, 1e-12);
  EXPECT_DOUBLE_EQ(s.mad, 1);  // |x-3| = 2,2,0,1,1 -> median 1
  EXPECT_NEAR(s.rel_mad, 1.0 / 3, 1e-12);
}

TEST(Stats, EvenCountMedianAveragesMiddlePair) {
  EXPECT_DOUBLE_EQ(median_of({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median_of({7, 7}), 7);
}

TEST(Stats, SingleSampleHasZeroNoise) {
  const std::vector<double> v{0.25};
  const auto s = summarize(v);
  EXPECT_DOUBLE_EQ(s.median, 0.25);
  EXPECT_DOUBLE_EQ(s.stdev, 0);
  EXPECT_DOUBLE_EQ(s.rel_stdev, 0);
}

TEST(Stats, MadIsRobustToOneOutlier) {
  const std::vector<double> v{1.0, 1.01, 0.99, 1.0, 100.0};
  const auto s = summarize(v);
  EXPECT_DOUBLE_EQ(s.median, 1.0);
  EXPECT_LE(s.rel_mad, 0.011);
  EXPECT_GT(s.rel_stdev, 1.0);  // the mean-based noise sees the outlier
}

TEST(Stats, EmptyThrows) {
  const std::vector<double> v;
  EXPECT_THROW(summarize(v), std::invalid_argument);
  EXPECT_THROW(median_of({}), std::invalid_argument);
}
