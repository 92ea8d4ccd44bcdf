// Nsight Compute from the probes: find ncu, ask it which metrics it knows, profile the
// diagnose kernels, and parse its CSV. Parsing is pure and unit-tested on captured output;
// a metric this ncu does not offer is dropped (and reported), never fatal.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace joseki::probes {

struct NcuRow {
  std::string id;      // ncu's result ID (one per profiled launch, in launch order)
  std::string kernel;  // "Kernel Name" as ncu prints it (demangled)
  std::string metric;
  std::string unit;
  std::string raw_value;
  std::optional<double> value;  // empty when the value is not a number ("n/a")
};

// Splits one CSV line with double-quoted fields ("a","b,c","" -> a | b,c | "").
std::vector<std::string> split_csv_line(const std::string& line);
// "1,234,567" -> 1234567; "12.5" -> 12.5; "n/a", "" -> empty.
std::optional<double> parse_ncu_number(const std::string& s);
// Rows of `ncu --csv` output; lines before the header (==PROF== ..., program output) are ignored.
std::vector<NcuRow> parse_ncu_csv(const std::string& text);
// Base metric names listed by `ncu --query-metrics` (first column), table or CSV form.
std::set<std::string> parse_ncu_query(const std::string& text);
// "dram__throughput.avg.pct_of_peak_sustained_elapsed" -> "dram__throughput".
std::string metric_base(const std::string& metric);
// Metrics that ncu accepts in --metrics but `ncu --query-metrics` does not list: the launch
// statistics (launch__*) and the occupancy section's derived metrics
// (sm__maximum_warps_per_active_cycle_pct, ...). They are not dropped for being unlisted.
bool is_unlisted_metric(const std::string& metric);
// Whether a metric is kept for a profile: no listing (the query failed), listed, or unlisted
// but accepted (is_unlisted_metric) unless `strict`.
bool keep_metric(const std::string& metric, const std::set<std::string>& known, bool strict);

// The ncu executable: $JOSEKI_NCU, then PATH, /usr/local/cuda/bin, /opt/nvidia/nsight-compute/*/.
// Empty when there is none.
std::string find_ncu();

struct NcuRun {
  bool ok = false;
  std::string error;                 // why not, when !ok (names the command and ncu's last words)
  std::string warning;               // ok, but ncu timed out or exited non-zero after giving rows
  std::string command;               // what was run
  std::vector<std::string> metrics;  // the metrics asked for
  std::vector<std::string> dropped;  // metrics this ncu does not offer
  std::vector<NcuRow> rows;
  double seconds = 0;
};

// Runs `ncu --clock-control none --target-processes all --csv --print-units base --metrics M
// --kernel-name regex:R APP...`. Metrics that keep_metric(m, known, strict) rejects are
// dropped first. With $JOSEKI_NCU_LOG_DIR set, ncu's stdout and stderr are kept there
// (ncu_<n>.csv / ncu_<n>.err) instead of being deleted.
NcuRun run_ncu(const std::string& ncu, const std::vector<std::string>& metrics, const std::set<std::string>& known,
               const std::string& kernel_regex, const std::vector<std::string>& app, double timeout_s,
               bool strict = false);
// run_ncu with fallbacks, all within budget_s: the full list (unlisted metrics allowed);
// when ncu refuses a metric, the listed metrics only; then `core` alone. The run that
// worked (or the last one) is returned; `dropped` says what was left out and why.
NcuRun run_ncu_with_fallbacks(const std::string& ncu, const std::vector<std::string>& metrics,
                              const std::vector<std::string>& core, const std::set<std::string>& known,
                              const std::string& kernel_regex, const std::vector<std::string>& app, double budget_s);
// `ncu --query-metrics`: the base names, or empty when the query failed (then nothing is dropped).
std::set<std::string> query_ncu_metrics(const std::string& ncu, int device, double timeout_s = 120);

}  // namespace joseki::probes
