// `joseki try`: the child's result document, its check, the ranked table, and the history of
// tries (one JSON file per try under a folder per ladder). Pure C++, unit-tested.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "measure/errors.hpp"
#include "measure/record.hpp"

namespace joseki::trykernel {

// NVRTC rejected the file: exit 2, the message holds NVRTC's log ("FILE(LINE): error: ...").
class CompileError : public InputError {
 public:
  CompileError(const std::string& path, const std::string& log, const std::vector<std::string>& defines);
  const std::string& log() const { return m_log; }

 private:
  std::string m_log;
};

// Throws RunError naming the first thing wrong when `doc` is not a result document a child of
// this joseki writes (so nothing a user's file makes a child write can reach the records).
// Returns the records it holds (validated by record_from_json).
std::vector<measure::Record> check_result_document(const nlohmann::json& doc);

struct RankRow {
  int rank = 0;             // 1 = fastest; 0 for rows not timed
  std::string variant, technique, config, note;
  bool user = false, ceiling = false;
  std::optional<double> median_s, gbps, pct_ceiling, x_best_rung, x_cub;
};
struct Ranking {
  std::vector<RankRow> rows;  // timed rows by median, then untimed rows, the ceiling last
  std::string best_rung;      // the fastest ladder rung (not CUB, not the user's)
  std::optional<RankRow> user;
  int timed = 0;              // ranked rows (the ceiling excluded)
};
// The ladder records of one (n, mode) group (sweep points excluded), ranked by median.
Ranking rank(const std::vector<measure::Record>& records, const std::string& user_variant, std::int64_t n,
             const std::string& mode, const std::string& baseline = "r00_cub",
             const std::string& ceiling = "stream_read");

// ---- history ----
// <base>/<ladder>; base defaults to joseki-runs/try.
std::string history_dir(const std::string& base, const std::string& ladder);
// Writes one try (atomically: temp file + rename) as <dir>/<UTC time>-<stem>.json; returns the path.
std::string write_history(const std::string& dir, const nlohmann::json& entry);

struct HistoryEntry {
  std::string path, file, when, status, variant, mode, best_rung, message;
  std::int64_t n = 0;
  std::optional<double> median_s, x_best_rung, x_cub, pct_ceiling, best_rung_median_s;
};
// Every readable try in dir (unreadable or foreign files are listed in *skipped, never fatal).
std::vector<HistoryEntry> read_history(const std::string& dir, std::vector<std::string>* skipped);
// A history entry from a result document (status/message from the parent).
HistoryEntry summarize(const nlohmann::json& entry);

}  // namespace joseki::trykernel
