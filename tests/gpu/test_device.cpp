#include "gpu_test.hpp"

#include "measure/errors.hpp"

using namespace joseki;

TEST(GpuDevice, FactsAreSane) {
  JOSEKI_REQUIRE_GPU();
  const measure::DeviceFacts d = gpu::device_facts(0);
  EXPECT_TRUE(d.present);
  EXPECT_FALSE(d.name.empty());
  EXPECT_GT(d.sm_count, 0);
  EXPECT_EQ(d.warp_size, 32);
  EXPECT_GT(d.l2_bytes, 0);
  EXPECT_GT(d.mem_clock_khz, 0);
  EXPECT_GT(d.bus_width_bits, 0);
  EXPECT_GT(d.datasheet_bw_Bps(), 1e11);
  EXPECT_GE(d.driver_version, d.runtime_version / 1000 * 1000) << "driver older than the runtime";
}

TEST(GpuDevice, OutOfRangeDeviceIsBadInputNamingTheIndex) {
  JOSEKI_REQUIRE_GPU();
  try {
    gpu::device_facts(999);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("999"), std::string::npos) << e.what();
  }
}

TEST(GpuDevice, SanityRunVerifiesEveryOutput) {
  JOSEKI_REQUIRE_GPU();
  const gpu::CheckReport rep = gpu::run_check(0);
  ASSERT_EQ(rep.records.size(), 3u);
  for (const auto& r : rep.records) {
    EXPECT_EQ(r.validation, "exact");
    ASSERT_TRUE(r.summary);
    EXPECT_GT(r.summary->median, 0);
  }
}

TEST(GpuDevice, CeilingsAreMeasuredAndPositive) {
  JOSEKI_REQUIRE_GPU();
  gpu::CeilingOptions o;
  o.rule.min_samples = 3;
  o.rule.timeout_s = 0.5;
  o.include_context_creation = false;
  const auto recs = gpu::measure_ceilings(0, o);
  ASSERT_GE(recs.size(), 7u);
  for (const auto& r : recs) {
    ASSERT_TRUE(r.summary) << r.variant;
    EXPECT_GT(r.extra.value("value", 0.0), 0) << r.variant;
  }
}

// Issue 17: NVML's facts beside CUDA's. A GPU host without libnvidia-ml.so.1 skips, saying so.
TEST(GpuDevice, NvmlFactsWhenTheDriverShipsNvml) {
  JOSEKI_REQUIRE_GPU();
  const measure::DeviceFacts d = gpu::device_facts(0);
  ASSERT_TRUE(d.nvml.has_value());
  if (d.nvml->status != "ok") GTEST_SKIP() << "NVML: " << d.nvml->status;
  EXPECT_TRUE(d.nvml->persistence_mode == 0 || d.nvml->persistence_mode == 1) << d.nvml->persistence_mode;
  EXPECT_GT(d.nvml->power_limit_w, 10.0);
  EXPECT_TRUE(d.nvml->processes_known);
  for (const auto& p : d.nvml->other_compute_processes) EXPECT_GT(p.pid, 0);
}
