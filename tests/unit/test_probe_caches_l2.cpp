// The caches_l2 probe's pure analysis (caches_l2_analysis.hpp): the near/far split of one SM's
// line latencies, the SM groups, and the TLB sweep's first lasting rise.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "experiments/probes/caches_l2_analysis.hpp"
#include "experiments/probes/caches_l2_layout.hpp"

using namespace joseki::probes;

namespace {

// Lines alternate at random between a near (~264) and a far (~502) level, with noise.
std::vector<float> two_levels(const std::vector<bool>& far, std::uint32_t seed, float near_c = 264, float far_c = 502) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> noise(0, 6);
  std::vector<float> v;
  for (const bool f : far) v.push_back((f ? far_c : near_c) + noise(rng));
  return v;
}

std::vector<bool> random_far(int n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<bool> f;
  for (int i = 0; i < n; ++i) f.push_back(rng() & 1);
  return f;
}

}  // namespace

TEST(ProbeCachesL2, SplitFindsTheTwoSides) {
  const auto far = random_far(2048, 7);
  const TwoSides t = split_two_sides(two_levels(far, 1));
  ASSERT_TRUE(t.separated);
  EXPECT_NEAR(t.near, 264, 3);
  EXPECT_NEAR(t.far, 502, 3);
  EXPECT_EQ(t.is_far, far);
  int n = 0;
  for (const bool f : far) n += f;
  EXPECT_EQ(t.far_lines, n);
}

TEST(ProbeCachesL2, OneLevelIsNotSplit) {
  const TwoSides t = split_two_sides(two_levels(std::vector<bool>(512, false), 3));
  EXPECT_FALSE(t.separated);
  EXPECT_EQ(t.far_lines, 0);
  EXPECT_NEAR(t.near, 264, 2);
  EXPECT_DOUBLE_EQ(t.near, t.far);
  // A few slow outliers (< 10 % of the lines) are not a second side either.
  std::vector<bool> few(512, false);
  for (int i = 0; i < 20; ++i) few[i * 25] = true;
  EXPECT_FALSE(split_two_sides(two_levels(few, 4)).separated);
  EXPECT_FALSE(split_two_sides({}).separated);
}

TEST(ProbeCachesL2, SmsFallIntoComplementaryGroups) {
  const auto far = random_far(1024, 11);
  std::vector<bool> other(far.size());
  for (std::size_t i = 0; i < far.size(); ++i) other[i] = !far[i];
  std::vector<TwoSides> sms;
  for (int s = 0; s < 6; ++s) sms.push_back(split_two_sides(two_levels(s % 2 ? other : far, 100 + s)));
  sms.push_back(split_two_sides(two_levels(std::vector<bool>(1024, false), 9)));  // no split
  sms.push_back(split_two_sides(two_levels(random_far(1024, 12), 10)));          // unrelated pattern
  const std::vector<int> g = side_groups(sms);
  EXPECT_EQ(g, (std::vector<int>{0, 1, 0, 1, 0, 1, -1, -1}));
  EXPECT_EQ(side_groups({}), std::vector<int>{});
}

TEST(ProbeCachesL2, FirstLastingRise) {
  const std::vector<double> b{1, 2, 4, 8, 16, 32};
  EXPECT_DOUBLE_EQ(first_rise(b, {300, 302, 299, 420, 640, 700}), 8);
  EXPECT_DOUBLE_EQ(first_rise(b, {300, 302, 299, 301, 298, 303}), 0) << "flat: no rise";
  EXPECT_DOUBLE_EQ(first_rise(b, {300, 400, 299, 420, 640, 700}), 8) << "a spike that falls back is not the rise";
  EXPECT_DOUBLE_EQ(first_rise({}, {}), 0);
}

TEST(ProbeCachesL2, PageNodesAreDistinctLinesInTheirPage) {
  constexpr std::uint64_t page_slots = (2u << 20) / 8;
  for (std::uint64_t p : {0ull, 1ull, 2ull, 1000ull, 32767ull}) {
    const std::uint64_t s = page_slot_of(p, page_slots);
    EXPECT_EQ(s / page_slots, p) << "node of page " << p << " lies in its page";
    EXPECT_EQ(s % 16, 0u) << "line aligned";
  }
  EXPECT_NE(page_slot_of(1, page_slots) % page_slots, page_slot_of(2, page_slots) % page_slots);
}
