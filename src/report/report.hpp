// The report of a run, made only from record files: report.md (written here, from the same
// tables the CLI prints) and, when a Python 3 with matplotlib is found, plots/*.png and a
// self-contained report.html (scripts/report/make_report.py draws them). Used by
// `joseki report` and at the end of `joseki run`.
#pragma once

#include <string>
#include <vector>

namespace joseki::report {

struct ReportResult {
  std::string markdown_path;
  std::string html_path;   // empty when the plots were skipped
  int plots = 0;           // figures drawn
  std::string plots_note;  // why plots were skipped, or the interpreter used
};

// Reads the record files (throws InputError naming a bad one), writes the report into
// out_dir. Never fails because plotting failed: that is said in the result and in report.md.
ReportResult generate_report(const std::vector<std::string>& record_files, const std::string& out_dir,
                             const std::string& self_exe);

// Record files named by a report/compare argument: a records file, or a folder holding
// records.json (else every *.json record set in it). Throws InputError naming the argument.
std::vector<std::string> record_files_of(const std::string& arg);

}  // namespace joseki::report
