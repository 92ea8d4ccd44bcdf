// The ladder protocol (measure/ladder.hpp) on a toy CPU ladder: sums of random 32-bit words,
// rungs that differ by unrolling, one that is wrong on purpose, one for a backend this run lacks.
#include <cstdint>
#include <numeric>
#include <random>

#include <gtest/gtest.h>

#include "measure/ladder.hpp"

using namespace joseki::measure;

namespace {

using SumFn = std::uint32_t (*)(const std::uint32_t*, std::size_t, int unroll);

std::uint32_t sum_serial(const std::uint32_t* p, std::size_t n, int) {
  std::uint32_t s = 0;
  for (std::size_t i = 0; i < n; ++i) s += p[i];
  return s;
}
std::uint32_t sum_unrolled(const std::uint32_t* p, std::size_t n, int unroll) {
  std::uint32_t acc[8] = {};
  std::size_t i = 0;
  for (; i + static_cast<std::size_t>(unroll) <= n; i += static_cast<std::size_t>(unroll))
    for (int u = 0; u < unroll; ++u) acc[u] += p[i + static_cast<std::size_t>(u)];
  for (; i < n; ++i) acc[0] += p[i];
  std::uint32_t s = 0;
  for (std::uint32_t a : acc) s += a;
  return s;
}
std::uint32_t sum_drops_tail(const std::uint32_t* p, std::size_t n, int) {  // wrong when n % 8 != 0
  return sum_unrolled(p, n - n % 8, 8);
}

// The toy workload's runner: owns the input and its reference; the rung's impl is a SumFn.
class ToyRunner : public Runner {
 public:
  explicit ToyRunner(std::size_t n) : m_data(n) {
    std::mt19937 gen(12345);
    for (auto& x : m_data) x = static_cast<std::uint32_t>(gen());
    m_expected = std::accumulate(m_data.begin(), m_data.end(), std::uint32_t{0});
  }
  std::string backend() const override { return "cpu"; }
  Scope scope() const override { return Scope::CpuCompute; }
  std::optional<std::string> setup(const RungSpec& r, const Point& c) override {
    m_fn = std::any_cast<SumFn>(r.impl);
    m_unroll = c.has("unroll") ? static_cast<int>(c.get_int("unroll")) : 1;
    if (m_unroll != 1 && m_unroll != 2 && m_unroll != 4 && m_unroll != 8) return "unroll must be 1, 2, 4 or 8";
    ++setups;
    return std::nullopt;
  }
  void poison_output() override { m_out = 0xA5A5A5A5u; }
  void run() override { m_out = m_fn(m_data.data(), m_data.size(), m_unroll); }
  std::string compare() override {
    return m_out == m_expected ? "" : "got " + std::to_string(m_out) + ", expected " + std::to_string(m_expected);
  }
  double timed_run() override {
    const double t0 = steady_seconds();
    run();
    return steady_seconds() - t0;
  }
  Work work() const override { return {double(m_data.size()), 4.0 * double(m_data.size())}; }

  int setups = 0;

 private:
  std::vector<std::uint32_t> m_data;
  std::uint32_t m_expected = 0, m_out = 0;
  SumFn m_fn = nullptr;
  int m_unroll = 1;
};

RungSpec toy_rung(std::string id, std::string slug, std::string pred, SumFn fn) {
  RungSpec r;
  r.id = std::move(id);
  r.slug = std::move(slug);
  r.technique = r.slug;
  r.predecessor = std::move(pred);
  r.backend = "cpu";
  r.output = "one word: the sum mod 2^32";
  r.impl = fn;
  return r;
}

Ladder toy_ladder() {
  Ladder lad{"toy", {}};
  RungSpec t0 = toy_rung("t00", "t00_serial", "", &sum_serial);
  t0.baseline = true;
  lad.rungs.push_back(t0);
  RungSpec t1 = toy_rung("t01", "t01_unrolled", "t00", &sum_unrolled);
  t1.position = 1;
  t1.defaults.set("unroll", std::int64_t{4});
  Sweep s;
  s.add_int_axis("unroll", {1, 2, 4, 8, 3});  // 3 fails setup: a skip with the runner's reason
  t1.sweep = s;
  t1.tie_rule = TieRule::prefer_larger("unroll", 1e9);  // everything ties: the preference decides
  t1.validation_configs = {Point{}.set("unroll", std::int64_t{8})};
  lad.rungs.push_back(t1);
  RungSpec t2 = toy_rung("t02", "t02_drops_tail", "t01", &sum_drops_tail);
  t2.position = 2;
  lad.rungs.push_back(t2);
  RungSpec t3 = toy_rung("t03", "t03_gpu", "t01", &sum_serial);
  t3.position = 3;
  t3.backend = "cuda";
  t3.needs.min_cc = 90;
  lad.rungs.push_back(t3);
  return lad;
}

LadderOptions quick() {
  LadderOptions o;
  o.modes = {Mode::Hot};
  o.rule.min_samples = 3;
  o.rule.max_samples = 5;
  o.rule.min_time_s = 0;
  o.rule.timeout_s = 0.5;
  o.warmup.min_runs = 1;
  o.warmup.min_time_s = 0;
  o.workload.set("n", std::int64_t{100003});
  return o;
}

const Record* row(const LadderResult& res, const std::string& variant) {
  for (const Record& r : res.records)
    if (r.variant == variant && r.ladder.sweep.empty()) return &r;
  return nullptr;
}

}  // namespace

TEST(Ladder, ValidatesTimesAndRatesEveryRung) {
  ToyRunner cpu(100003);  // not a multiple of 8: t02 drops words
  const LadderResult res = run_ladder(toy_ladder(), {&cpu}, quick());

  const Record* t0 = row(res, "t00_serial");
  const Record* t1 = row(res, "t01_unrolled");
  ASSERT_TRUE(t0 && t1);
  EXPECT_EQ(t0->validation, "exact");
  ASSERT_TRUE(t1->summary);
  EXPECT_EQ(t1->scope, "CPU_COMPUTE");
  EXPECT_EQ(t1->axes.get_int("n"), 100003);
  EXPECT_EQ(t1->axes.get_int("unroll"), 4) << "no --sweep: the defaults";
  EXPECT_EQ(t1->ladder.previous, "t00_serial");
  ASSERT_TRUE(t1->ladder.x_previous && t1->ladder.x_baseline);
  EXPECT_DOUBLE_EQ(*t1->ladder.x_previous, t0->summary->median / t1->summary->median);
  EXPECT_EQ(t1->ladder.baseline, "t00_serial");
  ASSERT_TRUE(t1->throughput);
  EXPECT_GT(t1->throughput->bytes_per_s, 0);

  const Record* t2 = row(res, "t02_drops_tail");
  ASSERT_TRUE(t2);
  EXPECT_EQ(t2->validation.rfind("failed: ", 0), 0u) << t2->validation;
  EXPECT_NE(t2->validation.find("run 1"), std::string::npos) << t2->validation;
  EXPECT_TRUE(t2->skipped);
  EXPECT_FALSE(t2->ladder.x_previous) << "a failed rung gets no ratio";
  EXPECT_EQ(res.failures.size(), 1u);

  const Record* t3 = row(res, "t03_gpu");
  ASSERT_TRUE(t3 && t3->skipped);
  EXPECT_EQ(*t3->skipped, "no cuda runner in this run");

  const std::string table = ladder_table(res.records);
  for (const char* v : {"t00_serial", "t01_unrolled", "t02_drops_tail", "skipped: no cuda runner"})
    EXPECT_NE(table.find(v), std::string::npos) << v << "\n" << table;
}

TEST(Ladder, SweepPicksByTheTieRuleAndTheRowUsesTheChoice) {
  ToyRunner cpu(4099);
  LadderOptions o = quick();
  o.sweep = true;
  const LadderResult res = run_ladder(toy_ladder(), {&cpu}, o);
  int points = 0, chosen = 0, skipped = 0;
  for (const Record& r : res.records) {
    if (r.ladder.sweep.empty()) continue;
    ++points;
    EXPECT_EQ(r.variant, "t01_unrolled");
    if (r.skipped) {
      ++skipped;
      EXPECT_EQ(*r.skipped, "unroll must be 1, 2, 4 or 8");
      continue;
    }
    EXPECT_EQ(r.validation, "exact");
    if (r.ladder.chosen) {
      ++chosen;
      EXPECT_EQ(r.axes.get_int("unroll"), 8) << "every point ties; the rule prefers the larger unroll";
      EXPECT_FALSE(r.ladder.tie_rule.empty());
    }
    EXPECT_FALSE(r.ladder.x_previous) << "sweep points are not ladder rows";
  }
  EXPECT_EQ(points, 5);
  EXPECT_EQ(skipped, 1);
  EXPECT_EQ(chosen, 1);
  ASSERT_TRUE(row(res, "t01_unrolled"));
  EXPECT_EQ(row(res, "t01_unrolled")->axes.get_int("unroll"), 8);
  EXPECT_NE(sweep_table(res.records).find("yes"), std::string::npos);
}

TEST(Ladder, NeedsUnmetOnTheRunnersDeviceIsASkipWithTheReason) {
  // A "cuda" runner whose device is an sm_75: the rung needing sm_90 is skipped, never run.
  class FakeGpu : public ToyRunner {
   public:
    FakeGpu() : ToyRunner(100) {}
    std::string backend() const override { return "cuda"; }
    Scope scope() const override { return Scope::GpuCompute; }
    DeviceFacts device() const override {
      DeviceFacts d;
      d.present = true;
      d.cc_major = 7;
      d.cc_minor = 5;
      return d;
    }
  } gpu;
  ToyRunner cpu(100);
  const LadderResult res = run_ladder(toy_ladder(), {&cpu, &gpu}, quick());
  const Record* t3 = row(res, "t03_gpu");
  ASSERT_TRUE(t3 && t3->skipped);
  EXPECT_NE(t3->skipped->find("sm_90"), std::string::npos) << *t3->skipped;
  EXPECT_EQ(gpu.setups, 0);
}

TEST(Ladder, ValidateOnlyTimesNothing) {
  ToyRunner cpu(1001);  // not a multiple of 8: t02 fails
  LadderOptions o = quick();
  o.validate_only = true;
  const LadderResult res = run_ladder(toy_ladder(), {&cpu}, o);
  EXPECT_TRUE(res.records.empty());
  int ok = 0;
  for (const ValidationResult& v : res.validations) ok += v.ok && v.message.empty();
  EXPECT_EQ(ok, 3) << "t00 at its defaults, t01 at unroll 4 and 8";
  EXPECT_EQ(res.failures.size(), 1u) << "t02";
}

// Adding a rung the documented way: one definition (in a ladder, its own file) and one line that
// appends it to the list. It is validated, timed and in the table with its ratios.
namespace {
std::uint32_t sum_two_halves(const std::uint32_t* p, std::size_t n, int) {
  return sum_serial(p, n / 2, 1) + sum_serial(p + n / 2, n - n / 2, 1);
}
RungSpec added_rung() {
  RungSpec r = toy_rung("t04", "t04_two_halves", "t00", &sum_two_halves);
  r.position = 4;
  return r;
}
}  // namespace

TEST(Ladder, AddingARungIsOneDefinitionAndOneLine) {
  Ladder lad = toy_ladder();
  lad.rungs.push_back(added_rung());  // the one registration line
  ToyRunner cpu(100003);
  const LadderResult res = run_ladder(lad, {&cpu}, quick());
  const Record* t4 = row(res, "t04_two_halves");
  const Record* t0 = row(res, "t00_serial");
  ASSERT_TRUE(t4 && t0);
  EXPECT_EQ(t4->validation, "exact");
  ASSERT_TRUE(t4->summary);
  ASSERT_TRUE(t4->ladder.x_previous);
  EXPECT_DOUBLE_EQ(*t4->ladder.x_previous, t0->summary->median / t4->summary->median)
      << "x previous follows the declared predecessor (t00), not the list order (t03)";
  EXPECT_NE(ladder_table(res.records).find("t04_two_halves"), std::string::npos);
}

TEST(Ladder, CheckRejectsBadLists) {
  Ladder lad = toy_ladder();
  lad.rungs.push_back(toy_rung("t01", "t01_again", "", &sum_serial));
  EXPECT_THROW(lad.check(), std::invalid_argument);
  Ladder fwd = toy_ladder();
  fwd.rungs[1].predecessor = "t02";
  EXPECT_THROW(fwd.check(), std::invalid_argument) << "a predecessor later in the list";
  Ladder sub = toy_ladder();
  sub.rungs.erase(sub.rungs.begin());
  EXPECT_NO_THROW(sub.check()) << "a selection without t01's predecessor is fine";
  Ladder two = toy_ladder();
  two.rungs[1].baseline = true;
  EXPECT_THROW(two.check(), std::invalid_argument);
}

TEST(Ladder, RatiosByDeclaredPredecessorPerGroup) {
  auto rec = [](std::string v, std::string prev, std::int64_t n, double med) {
    Record r;
    r.experiment = "x";
    r.rung = 1;
    r.variant = std::move(v);
    r.ladder.previous = std::move(prev);
    r.axes.set("n", n);
    r.mode = "cold";
    r.summary = Stats{};
    r.summary->median = med;
    return r;
  };
  std::vector<Record> v{rec("base", "", 1, 8), rec("a", "base", 1, 4), rec("b", "base", 1, 2), rec("b", "base", 2, 1)};
  v.push_back(rec("c", "a", 1, 1));
  v.back().ladder.sweep = "c_sweep";
  add_ladder_ratios(v, "base", group_by_axes({"n"}));
  EXPECT_DOUBLE_EQ(v[1].ladder.x_baseline.value(), 2.0);
  EXPECT_DOUBLE_EQ(v[2].ladder.x_previous.value(), 4.0) << "b's predecessor is base, not a";
  EXPECT_FALSE(v[3].ladder.x_previous) << "no base at n = 2";
  EXPECT_FALSE(v[4].ladder.x_previous) << "sweep points are not rows";
}

// config_from: a rung listed before the swept rung runs at its choice (every sweep first), validated
// there before it is timed; sweep_only limits the sweeps; an absent runner's reason is the records'.
TEST(Ladder, BorrowedChoiceSweepOnlyAndAbsentRunnerReason) {
  Ladder lad{"toy", {}};
  RungSpec early = toy_rung("t00", "t00_early", "", &sum_unrolled);
  early.defaults.set("unroll", std::int64_t{1});
  early.config_from = "t01";
  lad.rungs.push_back(early);
  RungSpec swept = toy_ladder().rungs[1];  // t01_unrolled: its sweep prefers unroll 8
  swept.predecessor = "t00";
  lad.rungs.push_back(swept);
  RungSpec gpu = toy_rung("t03", "t03_gpu", "t01", &sum_serial);
  gpu.backend = "cuda";
  lad.rungs.push_back(gpu);
  ToyRunner cpu(4099);
  LadderOptions o = quick();
  o.sweep = true;
  o.no_runner_because["cuda"] = "no GPU: none here";
  LadderResult res = run_ladder(lad, {&cpu}, o);
  EXPECT_TRUE(res.failures.empty());
  ASSERT_TRUE(row(res, "t00_early"));
  EXPECT_EQ(row(res, "t00_early")->axes.get_int("unroll"), 8) << "t00 runs at t01's choice";
  EXPECT_EQ(res.records.front().variant, "t01_unrolled") << "the sweep runs before the first row";
  int early_validations = 0;
  for (const auto& v : res.validations) early_validations += v.variant == "t00_early" ? 1 : 0;
  EXPECT_EQ(early_validations, 2) << "its defaults, then the borrowed configuration";
  bool skipped_gpu = false;
  for (const Record& r : res.records)
    if (r.variant == "t03_gpu") skipped_gpu = r.skipped.value_or("") == "no GPU: none here";
  EXPECT_TRUE(skipped_gpu);

  o.sweep_only = {"t00"};  // t01 is not swept: both rows run at their defaults
  res = run_ladder(lad, {&cpu}, o);
  for (const Record& r : res.records) EXPECT_TRUE(r.ladder.sweep.empty()) << r.variant;
  EXPECT_EQ(row(res, "t00_early")->axes.get_int("unroll"), 1);
  EXPECT_EQ(row(res, "t01_unrolled")->axes.get_int("unroll"), 4);
}

// Runner::after_timing: output the timed runs left wrong discards the timing; Runner::measure: a
// runner with its own timing loop is used instead of the core's.
TEST(Ladder, RunnerHooksForItsOwnTimingAndTheOutputAfterTiming) {
  class Hooked : public ToyRunner {
   public:
    using ToyRunner::ToyRunner;
    std::optional<Measurement> measure(Mode, const StoppingRule&, const WarmUp&) override {
      ++own;
      Measurement m;
      m.samples_s = {1e-3, 1e-3, 1e-3};
      m.stats = summarize(m.samples_s);
      return m;
    }
    std::string after_timing(Record& rec) override {
      rec.extra["hooked"] = true;
      return bad;
    }
    int own = 0;
    std::string bad;
  };
  Ladder lad{"toy", {toy_rung("t00", "t00_serial", "", &sum_serial)}};
  Hooked h(1000);
  LadderResult res = run_ladder(lad, {&h}, quick());
  ASSERT_TRUE(row(res, "t00_serial"));
  EXPECT_EQ(h.own, 1);
  EXPECT_DOUBLE_EQ(row(res, "t00_serial")->summary->median, 1e-3);
  EXPECT_EQ(row(res, "t00_serial")->extra.value("hooked", false), true);
  h.bad = "got 0, expected 1";
  res = run_ladder(lad, {&h}, quick());
  ASSERT_EQ(res.failures.size(), 1u);
  EXPECT_NE(res.failures[0].find("after timing: got 0"), std::string::npos) << res.failures[0];
  EXPECT_EQ(res.records[0].skipped.value_or(""), "timing discarded: wrong result after timing");
}

// The runner names a configuration only after it has set up the rung (a CUDA runner's label is
// the launch its knobs make: it needs the rung); the H200 crashed when the label came first.
TEST(Ladder, TheRunnerLabelsOnlyASetUpConfiguration) {
  class Labelling : public ToyRunner {
   public:
    using ToyRunner::ToyRunner;
    std::optional<std::string> setup(const RungSpec& r, const Point& c) override {
      last = r.slug;
      return ToyRunner::setup(r, c);
    }
    std::string config_label(const Point& c) const override {
      return last.empty() ? "NOT SET UP" : last + ":" + c.label();
    }
    std::string last;
  };
  Labelling lab(4099);
  LadderOptions o = quick();
  o.sweep = true;
  const LadderResult res = run_ladder(toy_ladder(), {&lab}, o);
  int labelled = 0;
  for (const auto& v : res.validations) {
    if (v.variant == "t03_gpu") continue;  // no runner: nothing to label
    EXPECT_EQ(v.config.rfind(v.variant + ":", 0), 0u) << v.variant << " labelled '" << v.config << "'";
    ++labelled;
  }
  EXPECT_GE(labelled, 4);
}
