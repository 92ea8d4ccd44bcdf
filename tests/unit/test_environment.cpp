// measure/environment: readings around a timed block, flags for slowdowns and clock drops, JSON
// round trip and the record's "environment"; backend/nvml without the library says why.
#include <gtest/gtest.h>

#include <cstdlib>
#include <deque>

#include "backend/nvml.hpp"
#include "measure/environment.hpp"
#include "measure/record.hpp"
#include "measure/stopping.hpp"

namespace m = joseki::measure;

namespace {

// Returns the queued readings in order, then repeats the last one.
class FakeProbe : public m::EnvironmentProbe {
 public:
  explicit FakeProbe(std::deque<m::EnvReading> q) : m_q(std::move(q)) {}
  std::optional<m::EnvReading> read() override {
    ++reads;
    m::EnvReading r = m_q.front();
    if (m_q.size() > 1) m_q.pop_front();
    return r;
  }
  std::string source() const override { return "fake"; }
  std::string unavailable() const override { return ""; }
  int reads = 0;

 private:
  std::deque<m::EnvReading> m_q;
};

m::EnvReading reading(int sm, std::int64_t mask = 0) {
  m::EnvReading r;
  r.sm_clock_mhz = sm;
  r.mem_clock_mhz = 3201;
  r.power_w = 412.5;
  r.temperature_c = 47;
  r.throttle_mask = mask;
  return r;
}

}  // namespace

TEST(Environment, SteadyClocksFlagNothing) {
  auto probe = std::make_shared<FakeProbe>(std::deque<m::EnvReading>{reading(1980), reading(1980)});
  m::EnvironmentLog log(probe, 0.0);  // read before every run
  log.begin();
  for (int i = 0; i < 2 + 5; ++i) log.before_run();
  log.end(2, 5);
  const m::Environment& e = log.result();
  EXPECT_EQ(e.source, "fake");
  EXPECT_FALSE(e.flagged());
  EXPECT_TRUE(e.flagged_samples.empty());
  EXPECT_EQ(e.readings, 1 + 7 + 1);
  ASSERT_TRUE(e.before && e.after);
  EXPECT_EQ(e.before->sm_clock_mhz, 1980);
  EXPECT_DOUBLE_EQ(e.sm_clock_drop_pct, 0.0);
}

TEST(Environment, ClockDropAndThrottleFlagTheSamplesTheyPrecede) {
  // begin, then runs 0..5 (2 warm-up, samples 0..3), then end.
  std::deque<m::EnvReading> q = {reading(1980),                               // begin
                                 reading(1980), reading(1980),                 // warm-up runs
                                 reading(1980), reading(1850),                 // sample 0 ok, sample 1: -6.6 %
                                 reading(1970, m::throttle::kHwSlowdown | 1),  // sample 2: hw slowdown
                                 reading(1975, m::throttle::kGpuIdle),         // sample 3: idle is not a slowdown
                                 reading(1975)};                               // end
  auto probe = std::make_shared<FakeProbe>(q);
  m::EnvironmentLog log(probe, 0.0);
  log.begin();
  for (int i = 0; i < 6; ++i) log.before_run();
  log.end(2, 4);
  const m::Environment& e = log.result();
  ASSERT_TRUE(e.flagged());
  EXPECT_EQ(e.flagged_samples, (std::vector<int>{1, 2}));
  EXPECT_NEAR(e.sm_clock_drop_pct, 100.0 * (1980 - 1850) / 1980.0, 1e-9);
  ASSERT_EQ(e.flags.size(), 2u);
  EXPECT_NE(e.flags[0].find("1850 MHz"), std::string::npos) << e.flags[0];
  EXPECT_NE(e.flags[1].find("hw_slowdown before sample 2"), std::string::npos) << e.flags[1];
}

TEST(Environment, ThrottleAfterTheBlockFlagsTheLastSample) {
  std::deque<m::EnvReading> q = {reading(1980), reading(1980, m::throttle::kSwThermal)};  // begin, end
  auto probe = std::make_shared<FakeProbe>(q);
  m::EnvironmentLog log(probe, 1e9);  // no readings inside the block: before and after only
  log.begin();
  for (int i = 0; i < 1 + 3; ++i) log.before_run();
  log.end(1, 3);
  EXPECT_EQ(probe->reads, 2);
  EXPECT_EQ(log.result().flagged_samples, (std::vector<int>{2}));
  EXPECT_NE(log.result().flags.back().find("sw_thermal after the block"), std::string::npos);
}

// Issue 17 item 3: the stopping rule drops the samples the environment flags and samples on; the
// record keeps the kept samples, the dropped ones (environment.discarded_samples) and flags that
// index the kept ones. A clock drop before samples 1 and 2 (of the order taken): both dropped.
TEST(Environment, StoppingRuleDropsFlaggedSamples) {
  std::deque<m::EnvReading> q = {reading(1980),                 // begin
                                 reading(1980), reading(1980),   // warm-up runs
                                 reading(1980),                  // taken 0: kept
                                 reading(1850),                  // taken 1: -6.6 %, dropped
                                 reading(1970, m::throttle::kHwSlowdown),  // taken 2: dropped
                                 reading(1980)};                 // taken 3.. kept (repeats)
  auto probe = std::make_shared<FakeProbe>(q);
  m::EnvironmentLog log(probe, 0.0);
  m::StoppingRule rule;
  rule.min_samples = 5;
  rule.max_samples = 100;
  rule.min_time_s = 0;
  rule.max_noise = 10;  // converges at min_samples kept
  rule.timeout_s = 100;
  m::WarmUp w;
  w.min_runs = 2;
  w.min_time_s = 0;
  double t = 0;
  int n = 0;
  log.begin();
  const m::Measurement me = m::measure([&] { return 1.0 + 0.01 * n++; }, [&] { log.before_run(); }, rule, w,
                                       [&] { return t += 1e-3; }, [&] { return log.current_flagged(); });
  log.end(me.warmup_runs, static_cast<int>(me.samples_s.size() + me.discarded_s.size()), me.discarded_at);
  // Values: warm-ups 1.00, 1.01; taken 1.02 (kept), 1.03, 1.04 (dropped), 1.05.. (kept).
  EXPECT_EQ(me.samples_s.size(), 5u);
  EXPECT_EQ(me.discarded_at, (std::vector<int>{1, 2}));
  ASSERT_EQ(me.discarded_s.size(), 2u);
  EXPECT_DOUBLE_EQ(me.discarded_s[0], 1.03);
  EXPECT_DOUBLE_EQ(me.samples_s[1], 1.05);
  EXPECT_TRUE(log.result().flagged_samples.empty()) << "the flagged samples were dropped";
  EXPECT_TRUE(log.result().flagged()) << "the slowdown is still reported";
  m::Measurement with_env = me;
  with_env.environment = log.result();
  m::Record r;
  r.set_measurement(with_env);
  ASSERT_TRUE(r.environment);
  EXPECT_EQ(r.environment->discarded_samples, me.discarded_s);
  const m::Environment back = m::environment_from_json(m::to_json(*r.environment));
  EXPECT_EQ(back.discarded_samples, me.discarded_s);
  EXPECT_FALSE(m::to_json(log.result()).contains("discarded_samples")) << "absent when none was dropped";

  // Off (--keep-flagged): the same readings keep every sample and flag samples 1 and 2.
  auto probe2 = std::make_shared<FakeProbe>(q);
  m::EnvironmentLog log2(probe2, 0.0);
  rule.discard_flagged = false;
  n = 0;
  log2.begin();
  const m::Measurement keep = m::measure([&] { return 1.0 + 0.01 * n++; }, [&] { log2.before_run(); }, rule, w,
                                         [&] { return t += 1e-3; }, [&] { return log2.current_flagged(); });
  log2.end(keep.warmup_runs, static_cast<int>(keep.samples_s.size()), keep.discarded_at);
  EXPECT_TRUE(keep.discarded_s.empty());
  EXPECT_EQ(log2.result().flagged_samples, (std::vector<int>{1, 2}));
}

// Every sample flagged: sampling stops at max_samples (counting the dropped ones) and keeps them all.
TEST(Environment, AllFlaggedKeepsTheSamples) {
  m::StoppingRule rule;
  rule.min_samples = 3;
  rule.max_samples = 8;
  rule.min_time_s = 0;
  rule.timeout_s = 100;
  double t = 0;
  const m::Measurement me = m::measure([] { return 1.0; }, nullptr, rule, {}, [&] { return t += 1e-3; },
                                       [] { return true; });
  EXPECT_EQ(me.samples_s.size(), 8u);
  EXPECT_TRUE(me.discarded_s.empty());
  EXPECT_EQ(me.reason, m::StopReason::MaxSamples);
}

TEST(Environment, WithoutAProbeTheRecordSaysSo) {
  m::EnvironmentLog log(nullptr);
  log.begin();
  log.before_run();
  log.end(0, 1);
  EXPECT_EQ(log.result().source, "unavailable: no probe");
  EXPECT_FALSE(log.result().before.has_value());
  EXPECT_EQ(log.result().readings, 0);
}

TEST(Environment, ThrottleNames) {
  EXPECT_EQ(m::throttle::names(m::throttle::kSwPowerCap | m::throttle::kHwThermal),
            (std::vector<std::string>{"sw_power_cap", "hw_thermal"}));
  EXPECT_EQ(m::throttle::names(0x4000), (std::vector<std::string>{"other_0x4000"}));
}

TEST(Environment, RecordRoundTripKeepsEnvironmentAndNvmlFacts) {
  m::Record r;
  r.experiment = "reduce";
  r.variant = "r05_vector_loads";
  r.backend = "cuda";
  r.scope = "GPU_COMPUTE";
  r.mode = "cold";
  m::Measurement meas;
  meas.samples_s = {1e-3, 1.1e-3};
  meas.stats = m::summarize(meas.samples_s);
  m::Environment env;
  env.source = "nvml";
  env.before = reading(1980);
  env.after = reading(1755, m::throttle::kSwPowerCap);
  env.readings = 2;
  env.sm_clock_drop_pct = 11.36;
  env.flags = {"sw_power_cap after the block"};
  env.flagged_samples = {1};
  meas.environment = env;
  r.set_measurement(meas);
  r.device.present = true;
  r.device.name = "NVIDIA H200";
  r.device.cc_major = 9;
  m::NvmlFacts f;
  f.status = "ok";
  f.persistence_mode = 1;
  f.ecc_mode = 1;
  f.power_limit_w = 700;
  f.processes_known = true;
  f.other_compute_processes = {{4242, 536870912}};
  r.device.nvml = f;
  const nlohmann::json j = m::to_json(r);
  EXPECT_EQ(j.at("environment").at("after").at("throttle_reasons"), nlohmann::json::array({"sw_power_cap"}));
  EXPECT_TRUE(j.at("environment").at("flagged").get<bool>());
  EXPECT_EQ(j.at("device").at("nvml").at("other_compute_processes").at(0).at("pid"), 4242);
  const m::Record back = m::record_from_json(j);
  ASSERT_TRUE(back.environment.has_value());
  EXPECT_EQ(back.environment->flagged_samples, (std::vector<int>{1}));
  EXPECT_EQ(back.environment->after->sm_clock_mhz, 1755);
  ASSERT_TRUE(back.device.nvml.has_value());
  EXPECT_EQ(back.device.nvml->persistence_mode, 1);
  EXPECT_DOUBLE_EQ(back.device.nvml->power_limit_w, 700);
  EXPECT_EQ(m::to_json(back), j);
}

TEST(Environment, RecordWithoutEnvironmentHasNoKey) {
  m::Record r;
  r.experiment = "x";
  EXPECT_FALSE(m::to_json(r).contains("environment"));
  EXPECT_FALSE(m::to_json(r.device).contains("nvml"));
}

TEST(Nvml, DisabledSaysWhyAndReadsNothing) {
  // JOSEKI_NVML=off is read once per process, so this test only runs where NVML is otherwise absent
  // or in a process that set it first; without the library the reason names it.
  const std::string why = joseki::nvml::unavailable();
  if (why.empty()) GTEST_SKIP() << "NVML is present on this machine; the GPU tests cover it";
  EXPECT_TRUE(why.find("libnvidia-ml.so.1") != std::string::npos || why.find("JOSEKI_NVML=off") != std::string::npos) << why;
  auto probe = joseki::nvml::probe_for("0000:00:06.0");
  EXPECT_EQ(probe->unavailable(), why);
  EXPECT_FALSE(probe->read().has_value());
  const m::NvmlFacts f = joseki::nvml::device_facts("0000:00:06.0");
  EXPECT_EQ(f.status, why);
  EXPECT_EQ(f.persistence_mode, -1);
  EXPECT_FALSE(f.processes_known);
}
