#include <gtest/gtest.h>

#include <stdexcept>

#include "measure/sweep.hpp"

using namespace joseki::measure;

TEST(Sweep, CartesianProductFirstAxisSlowest) {
  Sweep s;
  s.add_int_axis("chunk", {1024, 2048}).add_int_axis("block", {64, 72, 96});
  const auto pts = s.points();
  ASSERT_EQ(pts.size(), 6u);
  EXPECT_EQ(s.size(), 6u);
  EXPECT_EQ(pts[0].point.label(), "chunk=1024 block=64");
  EXPECT_EQ(pts[1].point.label(), "chunk=1024 block=72");
  EXPECT_EQ(pts[3].point.label(), "chunk=2048 block=64");
  EXPECT_EQ(pts[5].point.get_int("block"), 96);
  for (const auto& p : pts) EXPECT_FALSE(p.skip_reason);
}

TEST(Sweep, SkipWithReason) {
  Sweep s;
  s.add_power_of_two_axis("n", 4, 6).add_string_axis("mode", {"cold", "hot"});
  s.skip_if([](const Point& p) -> std::optional<std::string> {
    if (p.get_int("n") == 32 && p.get_str("mode") == "hot") return "too small to time hot";
    return std::nullopt;
  });
  const auto pts = s.points();
  ASSERT_EQ(pts.size(), 6u);
  int skipped = 0;
  for (const auto& p : pts)
    if (p.skip_reason) {
      ++skipped;
      EXPECT_EQ(*p.skip_reason, "too small to time hot");
      EXPECT_EQ(p.point.label(), "n=32 mode=hot");
    }
  EXPECT_EQ(skipped, 1);
}

TEST(Sweep, RejectsBadAxes) {
  Sweep s;
  EXPECT_THROW(s.add_int_axis("a", {}), std::invalid_argument);
  s.add_int_axis("a", {1});
  EXPECT_THROW(s.add_int_axis("a", {2}), std::invalid_argument);
  EXPECT_THROW(s.add_power_of_two_axis("b", 5, 3), std::invalid_argument);
  Point p;
  p.set("x", std::int64_t{1});
  EXPECT_THROW(p.at("y"), std::out_of_range);
  EXPECT_THROW((void)Point().get_int("x"), std::out_of_range);
}

TEST(TieRule, SeedChunkResweepPicksLargerChunkWithinTwoPercent) {
  // The seed's final chunk re-sweep (ms): 8192 fastest, 16384 within 0.9% -> 16384.
  const std::pair<std::int64_t, double> data[] = {{1024, 5.69}, {2048, 4.62},  {4096, 4.61}, {8192, 4.45},
                                                  {16384, 4.50}, {32768, 4.77}, {65536, 5.42}};
  std::vector<Candidate> c;
  for (auto [chunk, ms] : data) c.push_back({Point({{"chunk", chunk}}), ms * 1e-3});
  const TieChoice t = choose(TieRule::prefer_larger("chunk"), c);
  EXPECT_EQ(c[t.fastest].point.get_int("chunk"), 8192);
  EXPECT_EQ(c[t.chosen].point.get_int("chunk"), 16384);
  ASSERT_EQ(t.ties.size(), 2u);
  EXPECT_NE(t.explanation.find("larger chunk"), std::string::npos) << t.explanation;
  EXPECT_NE(t.explanation.find("chunk=16384 (+1.1%)"), std::string::npos) << t.explanation;
}

TEST(TieRule, SeedBlockSizeTie) {
  // Block sizes: 96 = 4.5189, 72 = 4.5245 (tie); preferring the smaller block picks 72.
  std::vector<Candidate> c{{Point({{"block", std::int64_t{64}}}), 5.0e-3},
                           {Point({{"block", std::int64_t{72}}}), 4.5245e-3},
                           {Point({{"block", std::int64_t{96}}}), 4.5189e-3}};
  const TieChoice t = choose(TieRule::prefer_smaller("block"), c);
  EXPECT_EQ(c[t.fastest].point.get_int("block"), 96);
  EXPECT_EQ(c[t.chosen].point.get_int("block"), 72);
}

TEST(TieRule, OutsideToleranceFastestWins) {
  std::vector<Candidate> c{{Point({{"chunk", std::int64_t{1}}}), 1.00}, {Point({{"chunk", std::int64_t{2}}}), 1.03}};
  const TieChoice t = choose(TieRule::prefer_larger("chunk"), c);
  EXPECT_EQ(t.chosen, 0u);
  EXPECT_EQ(t.ties.size(), 1u);
  const TieChoice loose = choose(TieRule::prefer_larger("chunk", 0.05), c);
  EXPECT_EQ(loose.chosen, 1u);
}

TEST(TieRule, FastestRuleAndEmpty) {
  std::vector<Candidate> c{{Point({{"v", std::string("a")}}), 2.0}, {Point({{"v", std::string("b")}}), 1.99}};
  EXPECT_EQ(choose(TieRule::fastest(), c).chosen, 1u);
  EXPECT_THROW(choose(TieRule::fastest(), std::vector<Candidate>{}), std::invalid_argument);
}
