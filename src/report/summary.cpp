#include "report/summary.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include <fmt/format.h>

#include "measure/scopes.hpp"
#include "measure/table.hpp"

namespace joseki::report {

using measure::Record;

const nlohmann::json* extra_field(const Record& r, const char* key) {
  if (!r.extra.is_object()) return nullptr;
  const auto it = r.extra.find(key);
  return it == r.extra.end() ? nullptr : &*it;
}

double extra_double(const Record& r, const char* key, double fallback) {
  const nlohmann::json* j = extra_field(r, key);
  return j && j->is_number() ? j->get<double>() : fallback;
}

std::string extra_string(const Record& r, const char* key) {
  const nlohmann::json* j = extra_field(r, key);
  if (!j) return "";
  return j->is_string() ? j->get<std::string>() : j->dump();
}

namespace {

std::string scope_class(const std::string& scope) {
  const std::optional<measure::Scope> s = measure::scope_from_string(scope);
  return s && measure::is_compute(*s) ? "COMPUTE" : scope;
}

std::string workload_label(const Record& r, const std::vector<std::string>& keys) {
  std::string s;
  for (const auto& [k, v] : r.axes.values())
    if (std::find(keys.begin(), keys.end(), k) != keys.end())
      s += (s.empty() ? "" : " ") + k + "=" + measure::to_string(v);
  return s;
}

// "pairs" for "pairs.r01_atomic_ntt": a second ladder of the same experiment and workload names its
// variants with a prefix, so its rung numbers do not mix with the first ladder's.
std::string variant_family(const std::string& variant) {
  const auto dot = variant.find('.');
  return dot == std::string::npos ? "" : variant.substr(0, dot);
}

// A rung of a ladder, or a variant compared against a named baseline (extra.baseline, e.g.
// solvers against the editorial one): both are ranked in the summary.
bool is_ladder_rung(const Record& r) {
  if (r.skipped || !r.summary || r.unit != "s") return false;
  if (r.rung < 0 && r.ladder.baseline.empty()) return false;
  if (r.validation.rfind("failed", 0) == 0) return false;
  if (r.rung < 0 && !r.ladder.scope_set.empty()) return false;  // a set of scopes, not a rung
  if (!r.ladder.sweep.empty() && !r.ladder.chosen) return false;
  return true;
}

std::string md_escape(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

}  // namespace

double rel_noise(const Record& r) {
  if (!r.summary) return 0;
  if (r.summary->rel_mad > 0) return 1.4826 * r.summary->rel_mad;  // MAD scaled to a normal stdev
  return r.summary->rel_stdev;
}

std::string value_cell(const Record& r, double v) {
  if (r.unit == "s") return measure::format_time(v);
  if (r.unit == "B/s") return measure::format_rate(v);
  return fmt::format("{:.4g} {}", v, r.unit);
}

std::string limit_cell(const Record& r) {
  if (!r.throughput) return "-";
  const measure::Throughput& t = *r.throughput;
  if (t.pct_ceiling > 0) return fmt::format("{:.1f}% of {}", t.pct_ceiling, t.ceiling_name.empty() ? "ceiling" : t.ceiling_name);
  if (t.pct_datasheet > 0) return fmt::format("{:.1f}% of datasheet", t.pct_datasheet);
  return "-";
}

std::string Ladder::title() const {
  std::string t = experiment + (family.empty() ? "" : " " + family);
  if (!workload.empty()) t += " " + workload;
  std::string what = mode;
  if (scope != "COMPUTE") what += (what.empty() ? "" : ", ") + scope;
  return what.empty() ? t : t + " (" + what + ")";
}

std::string Ladder::id() const {
  std::string raw = experiment + (family.empty() ? "" : "-" + family) + "-" + workload + "-" + mode + (scope == "COMPUTE" ? "" : "-" + scope);
  std::string out;
  for (char c : raw) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) != 0;
    if (ok) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::vector<Ladder> find_ladders(const std::vector<Record>& records) {
  std::vector<std::size_t> cand;
  for (std::size_t i = 0; i < records.size(); ++i)
    if (is_ladder_rung(records[i])) cand.push_back(i);

  // The workload axes of an experiment: those that all of its rungs carry, skipped rungs
  // included (tuning axes such as block or chunk appear on some rungs only), less those that
  // only tell variants apart (threads=1 vs threads=16: never two values within one variant,
  // but different values between variants).
  std::map<std::string, std::vector<std::string>> common;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const Record& r = records[i];
    const bool skipped_rung = r.skipped && r.rung >= 0 && !r.axes.values().empty() && r.ladder.sweep.empty();
    if (!skipped_rung && std::find(cand.begin(), cand.end(), i) == cand.end()) continue;
    std::vector<std::string> keys;
    for (const auto& [k, v] : r.axes.values()) keys.push_back(k);
    auto [it, fresh] = common.emplace(r.experiment, keys);
    if (!fresh)
      std::erase_if(it->second, [&](const std::string& k) { return std::find(keys.begin(), keys.end(), k) == keys.end(); });
  }
  for (auto& [exp_name, keys] : common)
    std::erase_if(keys, [&, &exp = exp_name](const std::string& k) {  // clang < 16: no structured binding capture
      std::map<std::string, std::set<std::string>> per_variant;  // variant -> values of k
      std::set<std::string> all;
      for (std::size_t i : cand)
        if (records[i].experiment == exp && records[i].axes.has(k)) {
          const std::string v = measure::to_string(records[i].axes.at(k));
          per_variant[records[i].variant].insert(v);
          all.insert(v);
        }
      const bool varies_within = std::any_of(per_variant.begin(), per_variant.end(),
                                              [](const auto& p) { return p.second.size() > 1; });
      return all.size() > 1 && !varies_within;
    });

  std::vector<Ladder> ladders;
  auto find = [&](const Ladder& key) -> Ladder* {
    for (Ladder& l : ladders)
      if (l.experiment == key.experiment && l.family == key.family && l.workload == key.workload && l.mode == key.mode &&
          l.scope == key.scope)
        return &l;
    return nullptr;
  };
  std::vector<std::size_t> modeless;
  for (std::size_t i : cand) {
    const Record& r = records[i];
    if (r.mode.empty()) {
      modeless.push_back(i);
      continue;
    }
    Ladder key{r.experiment, workload_label(r, common[r.experiment]), r.mode, scope_class(r.scope), {}, 0, "", 0, ""};
    key.family = variant_family(r.variant);
    Ladder* l = find(key);
    if (!l) l = &ladders.emplace_back(key);
    l->rungs.push_back(i);
  }
  // Records without a cache mode (CPU baselines) belong to every moded ladder of their workload.
  for (std::size_t i : modeless) {
    const Record& r = records[i];
    Ladder key{r.experiment, workload_label(r, common[r.experiment]), "", scope_class(r.scope), {}, 0, "", 0, ""};
    key.family = variant_family(r.variant);
    bool placed = false;
    for (Ladder& l : ladders)
      if (l.experiment == key.experiment && l.family == key.family && l.workload == key.workload &&
          l.scope == key.scope && !l.mode.empty()) {
        l.rungs.push_back(i);
        placed = true;
      }
    if (!placed) {
      Ladder* l = find(key);
      if (!l) l = &ladders.emplace_back(key);
      l->rungs.push_back(i);
    }
  }

  std::vector<Ladder> out;
  for (Ladder& l : ladders) {
    // One record per variant: a rung record wins over the sweep point it repeats.
    std::vector<std::size_t> kept;
    for (std::size_t i : l.rungs) {
      auto same = std::find_if(kept.begin(), kept.end(), [&](std::size_t k) { return records[k].variant == records[i].variant; });
      if (same == kept.end()) kept.push_back(i);
      else if (!records[*same].ladder.sweep.empty() && records[i].ladder.sweep.empty()) *same = i;
    }
    if (kept.size() < 2) continue;
    std::stable_sort(kept.begin(), kept.end(), [&](std::size_t a, std::size_t b) {
      return records[a].rung != records[b].rung ? records[a].rung < records[b].rung : a < b;
    });
    l.rungs = kept;
    l.fastest = *std::min_element(kept.begin(), kept.end(), [&](std::size_t a, std::size_t b) {
      return records[a].summary->median < records[b].summary->median;
    });
    for (std::size_t i : kept)
      if (l.baseline_name.empty()) l.baseline_name = records[i].ladder.baseline;
    const Record& f = records[l.fastest];
    l.x_baseline = f.ladder.x_baseline.value_or(0);
    if (l.x_baseline <= 0 && !l.baseline_name.empty())
      for (std::size_t i : kept)
        if (records[i].variant == l.baseline_name) l.x_baseline = records[i].summary->median / f.summary->median;
    out.push_back(std::move(l));
  }
  std::stable_sort(out.begin(), out.end(), [](const Ladder& a, const Ladder& b) {
    return *std::min_element(a.rungs.begin(), a.rungs.end()) < *std::min_element(b.rungs.begin(), b.rungs.end());
  });
  return out;
}

std::vector<std::string> textbook_reversals(const std::vector<Record>& records, const std::vector<Ladder>& ladders) {
  std::vector<std::string> lines;
  for (const Ladder& l : ladders) {
    // The ladder's last rung: its highest rung number (baselines may be numbered below -1).
    int top = std::numeric_limits<int>::min();
    for (std::size_t i : l.rungs) top = std::max(top, records[i].rung);
    for (std::size_t i : l.rungs) {
      const Record& r = records[i];
      const double xp = r.ladder.x_previous.value_or(0);
      if (r.rung < 1 || xp <= 0 || xp >= 1) continue;
      if (1 / xp - 1 <= std::max(0.02, rel_noise(r))) continue;
      const std::string& prev = r.ladder.previous;
      lines.push_back(fmt::format("**{}**: {} (rung {}{}) is {:.2f}x slower than {}; the textbook order says each rung "
                                  "should be faster than the one before",
                                  l.title(), r.variant, r.rung, r.technique.empty() ? "" : ", " + r.technique, 1 / xp,
                                  prev.empty() ? "its predecessor" : prev));
    }
    const Record& f = records[l.fastest];
    if (f.rung >= top) continue;
    const Record* t = nullptr;
    for (std::size_t i : l.rungs)
      if (records[i].rung == top && (!t || records[i].summary->median < t->summary->median)) t = &records[i];
    if (!t) continue;
    const double ratio = t->summary->median / f.summary->median;
    if (ratio - 1 > std::max({0.02, rel_noise(*t), rel_noise(f)}))
      lines.push_back(fmt::format("**{}**: the last rung, {}, is not the fastest: {} (rung {}{}) is {:.2f}x faster",
                                  l.title(), t->variant, f.variant, f.rung, f.rung == 0 ? ", a baseline" : "", ratio));
  }
  for (const Record& r : records)
    if (extra_string(r, "verdict") == "does not hold")
      lines.push_back(fmt::format("**{}**: \"{}\" does not hold: {}", r.experiment, extra_string(r, "rule"),
                                  extra_string(r, "figure")));
  return lines;
}

std::string summary_markdown(const std::vector<Record>& records) {
  std::string md;
  const std::vector<Ladder> ladders = find_ladders(records);
  md += "### Ladders\n\n";
  if (ladders.empty()) {
    md += "No ladder in these records (a ladder needs two or more measured rungs).\n\n";
  } else {
    measure::Table t({"Ladder", "Rungs", "Fastest", "Median", "Noise (1.48 MAD)", "GB/s", "% of limit", "x baseline"});
    for (const Ladder& l : ladders) {
      const Record& f = records[l.fastest];
      const double gbs = f.throughput ? f.throughput->bytes_per_s / 1e9 : 0;
      t.add_row({md_escape(l.title()), std::to_string(l.rungs.size()),
                 f.variant + (f.rung >= 0 ? fmt::format(" (rung {})", f.rung) : ""), value_cell(f, f.summary->median),
                 measure::format_pct(100 * rel_noise(f)), gbs > 0 ? fmt::format("{:.1f}", gbs) : "-", limit_cell(f),
                 l.x_baseline > 0 ? fmt::format("{:.2f}x {}", l.x_baseline, l.baseline_name) : "-"});
    }
    md += t.markdown() + "\n";
  }

  md += "### What reversed the textbook\n\n";
  const auto rev = textbook_reversals(records, ladders);
  if (rev.empty())
    md += "Nothing in these records: no rung is slower than its predecessor beyond the noise, every ladder's last rung "
          "is its fastest, and no probed rule failed.\n\n";
  for (const auto& line : rev) md += "- " + line + "\n";
  if (!rev.empty()) md += "\n";

  measure::Table verdicts({"Probe", "Rule", "Verdict", "Figure"});
  for (const Record& r : records)
    if (extra_field(r, "verdict"))
      verdicts.add_row({r.experiment, md_escape(extra_string(r, "rule")), extra_string(r, "verdict"),
                        md_escape(extra_string(r, "figure"))});
  if (verdicts.rows() > 0) md += "### Probe verdicts\n\n" + verdicts.markdown() + "\n";

  std::vector<std::string> failed;
  for (const Record& r : records)
    if (r.validation.rfind("failed", 0) == 0)
      failed.push_back(fmt::format("{} / {} ({}): {}", r.experiment, r.variant, r.axes.label(), r.validation));
  if (!failed.empty()) {
    md += "### Failed\n\n";
    for (const auto& f : failed) md += "- " + md_escape(f) + "\n";
    md += "\n";
  }

  std::vector<std::pair<std::string, std::string>> keys;  // (experiment, reason), first-seen order
  std::map<std::pair<std::string, std::string>, int> counts;
  for (const Record& r : records) {
    if (!r.skipped || r.validation.rfind("failed", 0) == 0) continue;
    const auto key = std::make_pair(r.experiment, *r.skipped);
    if (counts[key]++ == 0) keys.push_back(key);
  }
  if (!keys.empty()) {
    measure::Table t({"Experiment", "Skipped", "Why"});
    for (const auto& k : keys) t.add_row({k.first, std::to_string(counts[k]), md_escape(k.second)});
    md += "### Skipped\n\n" + t.markdown() + "\n";
  }
  return md;
}

}  // namespace joseki::report
