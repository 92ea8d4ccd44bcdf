#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "measure/errors.hpp"
#include "measure/record.hpp"
#include "measure/table.hpp"

using namespace joseki::measure;

namespace {
Record sample_record() {
  Record r;
  r.experiment = "reduce";
  r.variant = "r03_coarsen";
  r.rung = 3;
  r.technique = "grid-stride coarsening + shared tree";
  r.backend = "cuda";
  r.axes.set("n", std::int64_t{16777216}).set("block", std::int64_t{256}).set("label", std::string("x"))
      .set("ratio", 0.5);
  r.scope = "GPU_COMPUTE";
  r.mode = "cold";
  Measurement m;
  m.samples_s = {1e-3, 1.1e-3, 0.9e-3};
  m.stats = summarize(m.samples_s);
  m.reason = StopReason::Converged;
  m.warmup_runs = 2;
  r.set_measurement(m);
  r.throughput = throughput({16777216.0, 67108864.0}, 1e-3, 4.8e12, "stream_read", 4.4e12);
  r.validation = "exact";
  r.extra = {{"x_previous", 2.5}, {"x_baseline", 0.9}};
  r.device.present = true;
  r.device.name = "NVIDIA H200";
  r.device.cc_major = 9;
  r.device.sm_count = 132;
  r.device.warp_size = 32;
  r.device.l2_bytes = 50 << 20;
  r.device.mem_clock_khz = 3201000;
  r.device.bus_width_bits = 6144;
  r.device.pci_bus_id = "0000:00:00.0";
  r.host = query_host();
  r.build = build_info();
  r.timestamp = utc_now_iso8601();
  return r;
}
}  // namespace

TEST(Records, JsonRoundTripPreservesEverything) {
  const Record r = sample_record();
  const nlohmann::json j = to_json(r);
  const Record back = record_from_json(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(to_json(back), j);
  EXPECT_EQ(back.axes.get_int("n"), 16777216);
  EXPECT_EQ(back.axes.get_str("label"), "x");
  EXPECT_DOUBLE_EQ(back.axes.get_double("ratio"), 0.5);
  EXPECT_EQ(back.samples.size(), 3u);
  ASSERT_TRUE(back.throughput);
  EXPECT_NEAR(back.throughput->bytes_per_s, 67108864e3, 1);
  EXPECT_EQ(back.device.name, "NVIDIA H200");
  EXPECT_DOUBLE_EQ(back.device.datasheet_bw_Bps(), 4.8e12);
  EXPECT_NEAR(back.device.clock_bw_Bps(), 4.917e12, 1e9);
}

TEST(Records, SkippedRecordRoundTrip) {
  Record r;
  r.experiment = "reduce";
  r.variant = "r01_atomic";
  r.backend = "cuda";
  r.scope = "GPU_COMPUTE";
  r.skipped = "no GPU: test";
  r.host = query_host();
  r.build = build_info();
  const Record back = record_from_json(to_json(r));
  ASSERT_TRUE(back.skipped);
  EXPECT_EQ(*back.skipped, "no GPU: test");
  EXPECT_FALSE(back.summary);
  EXPECT_FALSE(back.device.present);
}

TEST(Records, FileRoundTripAndErrorsNameTheProblem) {
  const auto dir = std::filesystem::temp_directory_path() / "joseki-test-records";
  std::filesystem::remove_all(dir);
  const std::string path = (dir / "sub" / "r.json").string();
  RecordSet s{"joseki test", utc_now_iso8601(), {sample_record(), sample_record()}};
  write_records(path, s);
  const RecordSet back = read_records(path);
  ASSERT_EQ(back.records.size(), 2u);
  EXPECT_EQ(back.command, "joseki test");

  // Also leave a copy where the CLI schema test can validate it.
  if (const char* out = std::getenv("JOSEKI_RECORDS_SAMPLE")) write_records(out, s);

  EXPECT_THROW(read_records((dir / "missing.json").string()), joseki::InputError);
  {
    std::ofstream(dir / "bad.json") << "{not json";
  }
  EXPECT_THROW(read_records((dir / "bad.json").string()), joseki::InputError);
  {
    std::ofstream(dir / "wrong.json") << R"({"schema": "joseki.records/1", "command": "", "created": "",
      "records": [{"schema": "joseki.record/1", "experiment": "x"}]})";
  }
  try {
    read_records((dir / "wrong.json").string());
    FAIL() << "expected InputError";
  } catch (const joseki::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("records[0]"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

TEST(Throughput, PercentOfDatasheetAndCeiling) {
  const Throughput t = throughput({1e6, 4e9}, 1e-3, 4.8e12, "stream_read", 4.0e12);
  EXPECT_DOUBLE_EQ(t.bytes_per_s, 4e12);
  EXPECT_DOUBLE_EQ(t.elements_per_s, 1e9);
  EXPECT_NEAR(t.pct_datasheet, 83.333, 1e-3);
  EXPECT_NEAR(t.pct_ceiling, 100.0, 1e-9);
  EXPECT_THROW(throughput({1, 1}, 0), std::invalid_argument);
  const Throughput u = throughput({1, 1}, 1);
  EXPECT_EQ(u.pct_datasheet, 0);
}

TEST(Table, MarkdownFromRecords) {
  Record skipped;
  skipped.variant = "r01_atomic";
  skipped.skipped = "no GPU";
  const std::string t = records_table({sample_record(), skipped});
  EXPECT_NE(t.find("| r03_coarsen"), std::string::npos) << t;
  EXPECT_NE(t.find("1.000 ms"), std::string::npos) << t;
  EXPECT_NE(t.find("2.50x"), std::string::npos) << t;
  EXPECT_NE(t.find("skipped: no GPU"), std::string::npos) << t;
  EXPECT_NE(t.find("67.1"), std::string::npos) << t;  // GB/s
}

TEST(Table, Formats) {
  EXPECT_EQ(format_time(4.515e-3), "4.515 ms");
  EXPECT_EQ(format_time(2.5e-6), "2.50 us");
  EXPECT_EQ(format_time(1.5), "1.500 s");
  EXPECT_EQ(format_rate(4.16e12), "4.160 TB/s");
  EXPECT_EQ(format_rate(55e9), "55.0 GB/s");
  EXPECT_EQ(format_ratio(1.234), "1.23x");
  EXPECT_EQ(format_pct(95.12), "95.1%");
  Table t({"a", "b"});
  EXPECT_THROW(t.add_row({"1"}), std::invalid_argument);
}
