#include "measure/table.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace joseki::measure {

std::string format_time(double s) {
  if (!std::isfinite(s)) return "-";
  const double a = std::fabs(s);
  if (a >= 1.0) return fmt::format("{:.3f} s", s);
  if (a >= 1e-3) return fmt::format("{:.3f} ms", s * 1e3);
  if (a >= 1e-6) return fmt::format("{:.2f} us", s * 1e6);
  return fmt::format("{:.1f} ns", s * 1e9);
}

std::string format_rate(double b) {
  if (!std::isfinite(b) || b <= 0) return "-";
  if (b >= 1e12) return fmt::format("{:.3f} TB/s", b / 1e12);
  if (b >= 1e9) return fmt::format("{:.1f} GB/s", b / 1e9);
  if (b >= 1e6) return fmt::format("{:.1f} MB/s", b / 1e6);
  return fmt::format("{:.0f} B/s", b);
}

std::string format_count(double n) {
  const double a = std::fabs(n);
  if (a >= 1e9) return fmt::format("{:.2f} G", n / 1e9);
  if (a >= 1e6) return fmt::format("{:.2f} M", n / 1e6);
  if (a >= 1e3) return fmt::format("{:.2f} k", n / 1e3);
  return fmt::format("{:g}", n);
}

std::string format_ratio(double r) { return std::isfinite(r) && r > 0 ? fmt::format("{:.2f}x", r) : "-"; }
std::string format_pct(double p) { return std::isfinite(p) && p > 0 ? fmt::format("{:.1f}%", p) : "-"; }

void Table::add_row(std::vector<std::string> cells) {
  if (cells.size() != m_headers.size())
    throw std::invalid_argument(fmt::format("table row has {} cells, header has {}", cells.size(), m_headers.size()));
  m_rows.push_back(std::move(cells));
}

std::string Table::markdown() const {
  std::vector<std::size_t> w(m_headers.size());
  for (std::size_t c = 0; c < w.size(); ++c) {
    w[c] = std::max<std::size_t>(3, m_headers[c].size());
    for (const auto& r : m_rows) w[c] = std::max(w[c], r[c].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s = "|";
    for (std::size_t c = 0; c < cells.size(); ++c) s += " " + cells[c] + std::string(w[c] - cells[c].size(), ' ') + " |";
    return s + "\n";
  };
  std::string out = line(m_headers);
  out += "|";
  for (std::size_t c = 0; c < w.size(); ++c) out += std::string(w[c] + 2, '-') + "|";
  out += "\n";
  for (const auto& r : m_rows) out += line(r);
  return out;
}

namespace {
std::string summary_cell(const Record& r, double v) {
  if (r.unit == "s") return format_time(v);
  return fmt::format("{:.4g} {}", v, r.unit);
}
}  // namespace

std::string records_table(const std::vector<Record>& records) {
  Table t({"Variant", "Technique", "Axes", "Scope", "Mode", "median", "min", "max", "noise", "GB/s", "% datasheet",
           "% ceiling", "x previous", "x baseline"});
  for (const Record& r : records) {
    if (r.skipped) {
      t.add_row({r.variant, r.technique, r.axes.label(), r.scope, r.mode, "skipped: " + *r.skipped, "", "", "", "",
                 "", "", "", ""});
      continue;
    }
    const bool has = r.summary.has_value();
    const Throughput* tp = r.throughput ? &*r.throughput : nullptr;
    t.add_row({r.variant, r.technique, r.axes.label(), r.scope, r.mode,
               has ? summary_cell(r, r.summary->median) : "-", has ? summary_cell(r, r.summary->min) : "-",
               has ? summary_cell(r, r.summary->max) : "-", has ? format_pct(100.0 * r.summary->rel_stdev) : "-",
               tp && tp->bytes_per_s > 0 ? fmt::format("{:.1f}", tp->bytes_per_s / 1e9) : "-",
               tp ? format_pct(tp->pct_datasheet) : "-", tp ? format_pct(tp->pct_ceiling) : "-",
               format_ratio(r.ladder.x_previous.value_or(NAN)), format_ratio(r.ladder.x_baseline.value_or(NAN))});
  }
  return t.markdown();
}

}  // namespace joseki::measure
