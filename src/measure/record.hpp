// Records: one JSON object per (experiment, variant, axes, scope, mode), carrying
// the device, host and build facts, the raw samples and their summary. Records are
// the only thing tables, reports and comparisons read. Schema: docs/records.schema.json.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "measure/build_info.hpp"
#include "measure/environment.hpp"
#include "measure/scopes.hpp"
#include "measure/stats.hpp"
#include "measure/stopping.hpp"
#include "measure/sweep.hpp"
#include "measure/throughput.hpp"

namespace joseki::measure {

// Written: joseki.record/2. Read: /2 and /1 (records written before the typed ladder fields,
// whose ladder meaning sits in `extra` and is lifted into Record::ladder: lift_ladder_fields).
inline constexpr const char* kRecordSchema = "joseki.record/2";
inline constexpr const char* kRecordSetSchema = "joseki.records/1";

// What the GPU is. Pure data, filled by the CUDA backend; `present == false` on CPU-only runs.
struct DeviceFacts {
  bool present = false;
  int index = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int warp_size = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t global_mem_bytes = 0;
  std::int64_t smem_per_sm = 0;
  std::int64_t smem_per_block_optin = 0;
  int regs_per_sm = 0;
  int max_threads_per_sm = 0;
  int sm_clock_khz = 0;   // max SM clock
  int mem_clock_khz = 0;  // max memory clock
  int bus_width_bits = 0;
  int driver_version = 0;   // e.g. 13000 for 13.0
  int runtime_version = 0;
  std::string pci_bus_id;
  std::optional<NvmlFacts> nvml;  // persistence / ECC mode, power limit, other processes (when NVML was asked)
  // The device code that runs on this GPU: the virtual architecture it was compiled for
  // (major*10+minor, cudaFuncAttributes::ptxVersion of a kernel; 0 unknown) and whether it is
  // PTX compiled by the driver at load time (no SASS for this GPU in the binary) or native SASS.
  int code_arch = 0;
  bool code_jit = false;
  // Peak DRAM bandwidth from memory clock x bus width (x2 for double data rate).
  double clock_bw_Bps() const;
  // The vendor's published bandwidth where we know the part (H200: 4.8 TB/s); else clock_bw_Bps().
  double datasheet_bw_Bps() const;
  std::string datasheet_source() const;  // "vendor datasheet" | "memory clock x bus width"
};

struct HostFacts {
  std::string hostname;
  std::string cpu_model;
  int logical_cpus = 0;
  std::string os;
};
HostFacts query_host();

// What a record means in its ladder, typed (schema joseki.record/2; in /1 these were `extra` keys
// of the same names). Filled by measure/ladder.hpp (add_ladder_ratios, run_ladder) and the sweeps.
struct LadderFields {
  std::string previous;                // variant "x previous" compares with (the declared predecessor)
  std::string baseline;                // variant "x baseline" compares with
  std::optional<double> x_previous;    // previous median / this median (> 1: faster)
  std::optional<double> x_baseline;    // baseline median / this median
  std::string ceiling;                 // the ceiling's name ("stream_read")
  std::optional<double> x_ceiling;     // ceiling time / this median (<= 1 when the ceiling holds)
  std::string sweep;                   // set: this record is a point of the sweep so named, not a ladder row
  bool chosen = false;                 // sweep points: the tie rule picked this one
  std::string tie_rule;                // on the chosen point: the tie rule's explanation
  std::string scope_set;               // id shared by the records of scopes measured together in one run
  bool empty() const;
  bool operator==(const LadderFields&) const = default;
};
nlohmann::json to_json(const LadderFields& l);  // only the fields that are set
LadderFields ladder_from_json(const nlohmann::json& j);
// Moves the ladder keys of a joseki.record/1 `extra` (x_previous, x_baseline, baseline, previous,
// sweep, chosen, tie_rule, scope_set) into `l`, where their type is the expected one.
void lift_ladder_fields(nlohmann::json& extra, LadderFields& l);

struct Record {
  std::string experiment;     // "reduce", "abc471g", "probe.coalescing", "device"
  std::string variant;        // "r03_coarsen", "cub", "cpu_all_cores"
  int rung = -1;              // position in its ladder; -1 when not a ladder rung
  std::string technique;      // short text, "grid-stride coarsening + shared tree"
  std::string backend;        // "cuda" | "vulkan" | "cpu" | "process"
  Point axes;                 // workload and tuning parameters
  std::string scope;          // to_string(Scope): "GPU_COMPUTE" | "GPU_PIPELINE" | "PROGRAM" | "EXTERNAL" | "CPU_COMPUTE" | "VALUE"
  std::string mode;           // "cold" | "hot" | "" (not applicable)
  std::string unit = "s";     // samples' unit: "s" for times; "B/s", "cycles", ... for probes reporting other figures
  std::vector<double> samples;
  std::optional<Stats> summary;
  std::string stop_reason;    // "converged" | "max_samples" | "timeout" | ""
  int warmup_runs = 0;
  std::optional<Throughput> throughput;
  std::string validation = "not-checked";  // "exact" | "within-tolerance" | "not-checked" | "failed: ..."
  std::optional<std::string> skipped;       // reason; a skipped record has no samples
  LadderFields ladder;        // ratios, sweep point and choice, scope set (typed; "ladder" in the JSON)
  nlohmann::json extra = nlohmann::json::object();  // experiment-specific figures (verdicts, notes, ...)
  DeviceFacts device;
  HostFacts host;
  BuildInfo build;
  std::string timestamp;  // UTC, ISO 8601
  std::optional<Environment> environment;  // clocks, power, temperature, throttling around the timed block

  // Fill samples, summary, stop reason and warm-up count from a measurement.
  void set_measurement(const Measurement& m);
  // One figure, not sampled by the stopping rule: samples {value}, its summary, stop reason "single".
  void set_single(double value);
  // A ladder row: timed, not skipped, not a sweep point.
  bool is_ladder_row() const { return summary.has_value() && !skipped && ladder.sweep.empty(); }
  // Whether this record is of scope `s` (its `scope` text names it).
  bool scope_is(Scope s) const { return scope == to_string(s); }
};

nlohmann::json to_json(const DeviceFacts& d);
DeviceFacts device_from_json(const nlohmann::json& j);
nlohmann::json to_json(const HostFacts& h);
HostFacts host_from_json(const nlohmann::json& j);
nlohmann::json to_json(const BuildInfo& b);
BuildInfo build_from_json(const nlohmann::json& j);
nlohmann::json to_json(const Stats& s);
Stats stats_from_json(const nlohmann::json& j);
nlohmann::json to_json(const Record& r);
Record record_from_json(const nlohmann::json& j);  // throws RecordSchemaError naming the JSON path

std::string utc_now_iso8601();

// A file of records: {"schema": "joseki.records/1", "command": ..., "created": ..., "records": [...]}.
struct RecordSet {
  std::string command;
  std::string created;
  std::vector<Record> records;
};
nlohmann::json to_json(const RecordSet& s);
RecordSet record_set_from_json(const nlohmann::json& j);
void write_records(const std::string& path, const RecordSet& s);  // atomic (temp file + rename)
// The one reader of records (table, compare, report, probes): the file must be plain UTF-8 JSON
// (no byte-order mark, nothing after the value) that follows docs/records.schema.json; else
// InputError naming the file and the JSON path of the first violation ("$.records[2].summary.n").
RecordSet read_records(const std::string& path);
RecordSet parse_records(std::string_view text, const std::string& name);  // the same, from memory
inline constexpr std::size_t kMaxRecordsFileBytes = std::size_t{1} << 30;   // 1 GiB

// A violation of the schema at a JSON path; read_records turns it into InputError.
class RecordSchemaError : public std::runtime_error {
 public:
  RecordSchemaError(std::string path, const std::string& what);
  const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

}  // namespace joseki::measure
