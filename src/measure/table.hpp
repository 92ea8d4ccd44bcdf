// Markdown tables printed from records (never from ad-hoc numbers), and the
// number formats used everywhere (times with units, bandwidths, ratios).
#pragma once

#include <string>
#include <vector>

#include "measure/record.hpp"

namespace joseki::measure {

std::string format_time(double seconds);       // "4.515 ms", "812.3 us", "1.204 s"
std::string format_rate(double bytes_per_s);   // "4.162 TB/s", "812 GB/s" (decimal units)
std::string format_count(double n);            // "16.78 M", "2.30 k"
std::string format_ratio(double r);            // "1.23x"
std::string format_pct(double p);              // "95.1%"

class Table {
 public:
  explicit Table(std::vector<std::string> headers) : m_headers(std::move(headers)) {}
  void add_row(std::vector<std::string> cells);  // throws if the cell count differs
  std::string markdown() const;                  // aligned GitHub-flavoured markdown
  std::size_t rows() const { return m_rows.size(); }

 private:
  std::vector<std::string> m_headers;
  std::vector<std::vector<std::string>> m_rows;
};

// The standard ladder table: Variant | Technique | Axes | Scope | Mode | median | min | max |
// noise | GB/s | % datasheet | % ceiling | x previous | x baseline (from the typed
// ladder fields when present). Skipped records show their reason.
std::string records_table(const std::vector<Record>& records);

}  // namespace joseki::measure
