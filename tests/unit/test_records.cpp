#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

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
  r.ladder.previous = "r02_shared_tree";
  r.ladder.baseline = "r00_cub";
  r.ladder.x_previous = 2.5;
  r.ladder.x_baseline = 0.9;
  r.extra = {{"seed", 7}};
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

TEST(Records, WritesSchemaTwoWithTypedLadderFields) {
  const nlohmann::json j = to_json(sample_record());
  EXPECT_EQ(j.at("schema"), "joseki.record/2");
  EXPECT_EQ(j.at("ladder").at("x_previous"), 2.5);
  EXPECT_EQ(j.at("ladder").at("previous"), "r02_shared_tree");
  EXPECT_FALSE(j.at("extra").contains("x_previous"));
  Record plain;
  EXPECT_TRUE(to_json(plain).at("ladder").is_null()) << "no ladder meaning: null";
}

TEST(Records, ReadsSchemaOneLiftingLadderKeysOutOfExtra) {
  nlohmann::json j = to_json(sample_record());
  j["schema"] = "joseki.record/1";
  j.erase("ladder");
  j["extra"] = {{"x_previous", 1.5}, {"x_baseline", 3.0}, {"baseline", "r00_cub"}, {"previous", "r05"},
                {"sweep", "r06_n1"}, {"chosen", true}, {"tie_rule", "within 1%"}, {"scope_set", "set 1"},
                {"seed", 9}, {"x_ceiling", "not lifted: unknown in /1"}};
  const Record r = record_from_json(j);
  EXPECT_DOUBLE_EQ(r.ladder.x_previous.value(), 1.5);
  EXPECT_DOUBLE_EQ(r.ladder.x_baseline.value(), 3.0);
  EXPECT_EQ(r.ladder.baseline, "r00_cub");
  EXPECT_EQ(r.ladder.previous, "r05");
  EXPECT_EQ(r.ladder.sweep, "r06_n1");
  EXPECT_TRUE(r.ladder.chosen);
  EXPECT_EQ(r.ladder.tie_rule, "within 1%");
  EXPECT_EQ(r.ladder.scope_set, "set 1");
  EXPECT_EQ(r.extra, (nlohmann::json{{"seed", 9}, {"x_ceiling", "not lifted: unknown in /1"}}));
  // A /1 key of the wrong type stays in extra rather than being misread.
  j["extra"] = {{"x_previous", "fast"}};
  const Record odd = record_from_json(j);
  EXPECT_FALSE(odd.ladder.x_previous);
  EXPECT_EQ(odd.extra.at("x_previous"), "fast");
  // /2 with an unknown ladder key names it.
  nlohmann::json k = to_json(sample_record());
  k["ladder"]["x_sideways"] = 1;
  EXPECT_THROW(record_from_json(k), std::runtime_error);
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

// ---- the one validating reader (issue 21, item 7) ----
namespace {
std::string valid_set_text() {
  RecordSet set;
  set.command = "joseki reduce";
  set.created = "2026-12-01T00:00:00Z";
  set.records = {sample_record(), sample_record()};
  return to_json(set).dump();
}
std::string reject(const std::string& text) {
  try {
    parse_records(text, "f.json");
  } catch (const joseki::InputError& e) {
    return e.what();
  }
  return "(accepted)";
}
}  // namespace

// The one table of scope names: every scope's name reads back as that scope, and the names are
// the schema's strings (records committed under results/ carry them).
TEST(Scopes, NamesRoundTripAndAreTheSchemaStrings) {
  std::vector<std::string> names;
  for (Scope s : all_scopes()) {
    names.push_back(to_string(s));
    EXPECT_EQ(scope_from_string(to_string(s)), s) << to_string(s);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"EXTERNAL", "PROGRAM", "GPU_PIPELINE", "GPU_COMPUTE", "CPU_COMPUTE",
                                             "VALUE"}));
  EXPECT_FALSE(scope_from_string("gpu_compute").has_value()) << "names are case-sensitive";
  EXPECT_FALSE(scope_from_string("").has_value());
  EXPECT_FALSE(scope_from_string("COMPUTE").has_value());
  EXPECT_TRUE(is_compute(Scope::GpuCompute) && is_compute(Scope::CpuCompute) && !is_compute(Scope::Program));
  Record r;
  r.scope = to_string(Scope::GpuPipeline);
  EXPECT_TRUE(r.scope_is(Scope::GpuPipeline));
  EXPECT_FALSE(r.scope_is(Scope::GpuCompute));
}

TEST(Records, SetSingleIsOneFigureNotSampled) {
  Record r;
  r.set_single(2.5e-3);
  EXPECT_EQ(r.samples, std::vector<double>{2.5e-3});
  ASSERT_TRUE(r.summary.has_value());
  EXPECT_EQ(r.summary->n, 1);
  EXPECT_DOUBLE_EQ(r.summary->median, 2.5e-3);
  EXPECT_EQ(r.stop_reason, "single");
}

TEST(RecordReader, AcceptsWhatItWrites) { EXPECT_EQ(parse_records(valid_set_text(), "f.json").records.size(), 2u); }

TEST(RecordReader, NamesTheFileAndTheJsonPathOfTheFirstViolation) {
  const std::string good = valid_set_text();
  auto with = [&](const std::function<void(nlohmann::json&)>& f) {
    nlohmann::json j = nlohmann::json::parse(good);
    f(j);
    return j.dump();
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"\xEF\xBB\xBF" + good, "byte-order mark"},
      {good + " {}", "not JSON"},
      {good + "x", "not JSON"},
      {with([](auto& j) { j["records"] = nullptr; }), "$.records: is null"},
      {with([](auto& j) { j["records"] = nlohmann::json::object(); }), "$.records: is an object"},
      {with([](auto& j) { j["records"][1]["summary"]["n"] = -3; }), "$.records[1].summary.n"},
      {with([](auto& j) { j["records"][0]["rung"] = 1e30; }), "$.records[0].rung"},
      {with([](auto& j) { j["records"][0]["rung"] = -2; }), "$.records[0].rung"},
      {with([](auto& j) { j["records"][0]["warmup_runs"] = -1; }), "$.records[0].warmup_runs"},
      {with([](auto& j) { j["records"][0]["samples"][1] = "x"; }), "$.records[0].samples[1]"},
      {with([](auto& j) { j["records"][0]["device"]["present"] = 1; }), "$.records[0].device.present"},
      {with([](auto& j) { j["records"][1]["scope"] = "gpu_compute"; }),
       "$.records[1].scope: is 'gpu_compute', expected one of 'EXTERNAL', 'PROGRAM', 'GPU_PIPELINE', 'GPU_COMPUTE', "
       "'CPU_COMPUTE', 'VALUE'"},
  };
  for (const auto& [text, needle] : cases) {
    const std::string m = reject(text);
    EXPECT_NE(m.find("f.json"), std::string::npos) << m;
    EXPECT_NE(m.find(needle), std::string::npos) << "'" << m << "' lacks '" << needle << "'";
  }
}

TEST(RecordReader, ADirectoryIsBadInputNamingIt) {
  const auto dir = std::filesystem::temp_directory_path();
  try {
    read_records(dir.string());
    ADD_FAILURE() << "a directory was read as records";
  } catch (const joseki::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(dir.string()), std::string::npos) << e.what();
  }
}
