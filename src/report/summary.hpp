// What a set of records says, in a few tables: the summary that `joseki run` prints at
// the end and that opens the report. Made only from the record conventions of
// docs/RECORDS.md (rung, extra.x_previous / x_baseline / baseline, extra.sweep / chosen,
// extra.scope_set, extra.verdict / rule / figure), so a new experiment that follows them
// appears here without code changes.
#pragma once

#include <string>
#include <vector>

#include "measure/record.hpp"

namespace joseki::report {

// One ladder: the rungs of one experiment measured on one workload (the axes that all of
// the experiment's rungs share, e.g. n), in one cache mode and one scope class (CPU and
// GPU compute scopes count as one class, so CPU baselines sit in the GPU ladder).
struct Ladder {
  std::string experiment;
  std::string workload;  // "n=16777216" (may be empty)
  std::string mode;      // "cold" | "hot" | ""
  std::string scope;     // "COMPUTE" or the scope name
  std::vector<std::size_t> rungs;  // indices into the records, rung order
  std::size_t fastest = 0;         // index into the records
  std::string baseline_name;       // extra.baseline, when given
  double x_baseline = 0;           // fastest vs baseline (> 1: faster); 0 unknown
  std::string family;              // "pairs" for variants "pairs.r01_…": a ladder of its own
  std::string title() const;       // "reduce n=16777216 (cold)"
  std::string id() const;          // "reduce-n-16777216-cold" (file names, HTML ids)
};

// Ladders in order of first appearance. Members: measured time records that are rungs
// (rung >= 0) or name the baseline they are compared with (extra.baseline, rung -1: e.g.
// solvers against an editorial baseline); records of a four-scope set and sweep points
// (other than the sweep's chosen point) are not members.
std::vector<Ladder> find_ladders(const std::vector<measure::Record>& records);

// Lines for "what reversed the textbook": rungs slower than their predecessor beyond the
// noise (and 2 %), ladders whose top rung is not the fastest, and probe rules that do not hold.
std::vector<std::string> textbook_reversals(const std::vector<measure::Record>& records,
                                            const std::vector<Ladder>& ladders);

// The summary in markdown: ladders (fastest variant, median, % of limit, x baseline), what
// reversed the textbook, probe verdicts, failures and skipped records.
std::string summary_markdown(const std::vector<measure::Record>& records);

// Helpers shared with the report and compare.
double rel_noise(const measure::Record& r);  // robust relative spread (1.4826 MAD/median, else rel_stdev)
std::string limit_cell(const measure::Record& r);  // "97.2% of stream_read" | "95.1% of datasheet" | "-"
std::string value_cell(const measure::Record& r, double v);  // formats v in the record's unit
const nlohmann::json* extra_field(const measure::Record& r, const char* key);  // null if absent
double extra_double(const measure::Record& r, const char* key, double fallback = 0);
std::string extra_string(const measure::Record& r, const char* key);


}  // namespace joseki::report
