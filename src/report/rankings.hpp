// The cross-device rankings table of the reduction ladder (issue 16), shared by
// `joseki rankings A B ...` (cmd_rankings.cpp) and the report's "Rankings across devices and APIs"
// section (rankings_report_section, called from report.cpp).
// One column per (record set, device, backend, n, mode); the seeds' figures as reference columns
// marked "from the seed, not measured here"; each rule marked where it flips between columns.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "measure/record.hpp"

namespace joseki::report {

struct RankColumn {
  std::string label;
  bool reference = false;                    // from the seed, not measured here
  std::map<std::string, double> t;           // v1..v6 -> median seconds
  double opaque_s = 0;                       // r01b_atomic_opaque's median (CUDA), 0 when absent
  std::map<std::string, std::string> text;   // reference cells (ranges)
  std::string best;                          // best ladder rung (any rung) and its time
  double best_s = 0;
  double best_Bps = 0, ceiling_Bps = 0;
  std::map<std::string, double> ratio;       // cost ratios
  std::map<std::string, bool> rule;          // rule -> holds
  std::string ranking;
  std::string predicted;                     // the ranking the probes' cost ratios predict ("" unknown)
};

// The measured columns of one record set (set_name labels them). sizes empty: all sizes.
std::vector<RankColumn> rank_columns(const std::string& set_name, const std::vector<measure::Record>& records,
                                     const std::set<std::int64_t>& sizes, const std::string& mode);
// Seed 000's Apple M4 and seed 001's RTX 3060 Laptop: reference columns.
std::vector<RankColumn> seed_rank_columns();
// The table (markdown) with the legend below it; `heading` is put above it when not empty.
std::string rankings_markdown(const std::vector<RankColumn>& cols, const std::string& heading);
// The rules (and rankings) whose values differ between the columns that state them.
std::vector<std::string> flipped_rules(const std::vector<RankColumn>& cols);

// The report's section and the data of its plot (scripts/report/rankings.py), from the records of
// the report's files (one set per file). Empty section / null plan when no timed reduce ladder
// (cuda or vulkan) is in the records. Cold records are used where present, else hot.
// A set is named by its file (by its folder when the file is records.json).
std::string rankings_report_section(const std::vector<measure::RecordSet>& sets, const std::vector<std::string>& files);
nlohmann::json rankings_plot_plan(const std::vector<measure::RecordSet>& sets, const std::vector<std::string>& files);

}  // namespace joseki::report
