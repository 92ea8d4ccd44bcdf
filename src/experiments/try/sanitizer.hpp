// `joseki try --sanitize` (compute-sanitizer's memcheck and racecheck over the try's validation,
// with the log parsed into a short answer) and the ncu diagnosis of a try (the probes' symptom
// metrics, the user's kernel against the ladder's best rung). Both run the try's child under a
// tool; neither is fatal when the tool is missing: they say so.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiments/probes/ncu.hpp"

namespace joseki::trykernel {

// compute-sanitizer: $JOSEKI_SANITIZER, PATH, /usr/local/cuda/bin. Empty when there is none.
std::string find_sanitizer();

struct SanitizerFindings {
  int errors = 0;                  // from "ERROR SUMMARY: N errors" (memcheck) / "RACECHECK SUMMARY" (racecheck)
  bool summary_seen = false;
  std::vector<std::string> first; // the first report's lines, "=========" stripped (kind, where, thread, address)
  std::string kind;               // "Invalid __global__ read of size 16 bytes", "Race reported between ..."
  // "Program hit cudaError... on CUDA API call to ..." reports: joseki's own CUDA calls, not the
  // kernel's accesses (joseki checks each call itself). Counted apart, left out of `errors`
  // where the summary counted them, and never chosen as `first`.
  int api_errors = 0;
  std::map<std::string, int> kinds;  // each kernel report's first line -> how many times
};
// Parses a compute-sanitizer log. Pure; unit-tested.
SanitizerFindings parse_sanitizer_log(const std::string& log);

struct SanitizeReport {
  bool clean = false;
  std::string summary;  // one line
  std::string text;     // what the CLI prints
  nlohmann::json json;
};
// The command line for one tool (before the child's argv): the log to `log`, exit code 9 on an
// error, at most 20 reports printed, API errors not reported (--report-api-errors no: they are
// joseki's own calls, each of which joseki checks; the report holds the kernel's errors alone),
// racecheck in its default "analysis" mode (one report per pair of racing lines; "all" also
// prints every hazard, slow enough on a racy kernel to miss any limit). Pure; unit-tested.
std::vector<std::string> sanitizer_argv(const std::string& sanitizer, const std::string& tool, const std::string& log);

// Runs child_argv (a try child in validate-only mode) under memcheck, then racecheck, each with
// --log-file in tmp_dir and a time limit (a tool stopped at the limit still reports what its log
// holds). `scope` (what the child checks) heads the text. Throws RunError when there is no
// compute-sanitizer.
SanitizeReport run_sanitizers(const std::vector<std::string>& child_argv, const std::string& tmp_dir, double limit_s,
                              const std::string& scope = "");

// ncu over child_argv, a validate-only child that launches the user's kernel and `best_rung` (at
// the timed size alone); the symptom rows (metric, yours, theirs, matches). {"skipped": why}
// without ncu or when ncu gave nothing.
// The symptom rows from ncu's rows: per metric, the mean over each side's launches (yours: the kernel
// named joseki_reduce; theirs: the rest), and whether yours is worse by the row's factor. Pure.
nlohmann::json symptom_rows(const std::vector<probes::NcuRow>& rows, const std::string& user_variant,
                            const std::string& best_rung);
nlohmann::json ncu_diagnosis(const std::vector<std::string>& child_argv, const std::string& user_variant,
                             const std::string& best_rung, int device);

}  // namespace joseki::trykernel
