// `joseki compare A B`: every result of run B against the same result of run A (matched by
// experiment, variant, axes, scope, mode and unit), judged SAME / FASTER / SLOWER with the
// noise of both runs, as NVBench's compare does: a change counts only when
// |median_B / median_A - 1| exceeds max(noise_A, noise_B, --min-diff), where a run's noise
// is its robust relative spread (1.4826 x MAD / median; stdev / mean when the MAD is 0).
// Exit code 3 when B has a regression: a result SLOWER by more than --threshold (default
// 5 %), or a variant whose validation failed in B only. 0 otherwise; 1 and 2 as everywhere.
// For regressions across commits and for comparing GPUs (each side's device is printed).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/context.hpp"
#include "measure/errors.hpp"
#include "measure/program_scope.hpp"
#include "measure/table.hpp"
#include "report/report.hpp"
#include "report/summary.hpp"

namespace joseki::app {
namespace {

using measure::Record;

constexpr int EXIT_REGRESSION = kExitRegression;

struct Side {
  std::string arg;
  std::vector<Record> records;
  std::vector<std::string> keys;  // parallel to records
};

std::string key_of(const Record& r) {
  return fmt::format("{}|{}|{}|{}|{}|{}", r.experiment, r.variant, r.axes.label(), r.scope, r.mode, r.unit);
}

Side load(const std::string& arg) {
  Side s{arg, {}, {}};
  for (const std::string& f : report::record_files_of(arg)) {
    const measure::RecordSet set = measure::read_records(f);
    s.records.insert(s.records.end(), set.records.begin(), set.records.end());
  }
  // The same key twice in one run (a variant measured again) is told apart by its occurrence.
  std::map<std::string, int> seen;
  for (const Record& r : s.records) {
    const std::string k = key_of(r);
    const int n = seen[k]++;
    s.keys.push_back(n == 0 ? k : fmt::format("{}#{}", k, n + 1));
  }
  return s;
}

std::string describe(const Side& s) {
  std::set<std::string> devices, commits, created;
  for (const Record& r : s.records) {
    devices.insert(r.device.present ? fmt::format("{} (cc {}.{}, {} SMs, {})", r.device.name, r.device.cc_major,
                                                  r.device.cc_minor, r.device.sm_count, r.device.pci_bus_id)
                                    : "no GPU");
    commits.insert(r.build.git_commit.substr(0, 12) + (r.build.git_dirty ? " (dirty)" : ""));
    created.insert(r.timestamp.substr(0, 10));
  }
  return fmt::format("`{}`: {} records; device {}; host {}; commit {}; {}", s.arg, s.records.size(),
                     fmt::join(devices, ", "), s.records.empty() ? "-" : s.records.front().host.hostname,
                     fmt::join(commits, ", "), fmt::join(created, ", "));
}

// +1: larger is better (rates), -1: smaller is better (times, cycles), 0: unknown.
int direction(const std::string& unit) {
  if (unit.find("/s") != std::string::npos) return +1;
  for (const char* u : {"s", "ms", "us", "ns", "cycles", "cycle"})
    if (unit == u || unit.rfind(std::string(u) + "/", 0) == 0 || unit.rfind(std::string(u) + " ", 0) == 0) return -1;
  return 0;
}

struct Verdict {
  std::string status;   // SAME | FASTER | SLOWER | DIFFERENT | FAILED | SKIPPED | ...
  std::string change;   // "+12.3%"
  bool regression = false;
};

Verdict judge(const Record& a, const Record& b, double threshold, double min_diff) {
  const bool a_failed = a.validation.rfind("failed", 0) == 0, b_failed = b.validation.rfind("failed", 0) == 0;
  if (b_failed && !a_failed) return {"FAILED in B", "", true};
  if (a_failed && !b_failed && b.summary) return {"FIXED in B", "", false};
  if (b.skipped && a.skipped) return {"skipped in both", "", false};
  if (b.skipped) return {"skipped in B: " + *b.skipped, "", false};
  if (a.skipped || !a.summary) return {"measured in B only", "", false};
  if (!b.summary) return {"no figure in B", "", false};
  const double ma = a.summary->median, mb = b.summary->median;
  if (!(ma > 0) || !(mb > 0)) return {ma == mb ? "SAME" : "DIFFERENT", "", false};
  const double d = mb / ma - 1;
  const std::string change = fmt::format("{:+.1f}%", 100 * d);
  const double band = std::max({report::rel_noise(a), report::rel_noise(b), min_diff});
  if (std::fabs(d) <= band) return {"SAME", change, false};
  const int dir = direction(a.unit);
  if (dir == 0) return {"DIFFERENT", change, false};
  const bool slower = dir < 0 ? d > 0 : d < 0;
  if (!slower) return {"FASTER", change, false};
  const double slowdown = dir < 0 ? d : ma / mb - 1;  // as a time ratio
  if (slowdown > threshold)
    return {fmt::format("SLOWER (beyond {:.0f}%)", 100 * threshold), change, true};
  return {"SLOWER", change, false};
}

struct CompareArgs {
  std::string a, b;
  double threshold_pct = 5.0;
  double min_diff_pct = 1.0;
  bool changed_only = false;
};


void compare(const CompareArgs& args) {
  const Side a = load(args.a), b = load(args.b);
  const double threshold = args.threshold_pct / 100, min_diff = args.min_diff_pct / 100;
  std::cout << "# joseki compare\n\n- A: " << describe(a) << "\n- B: " << describe(b) << "\n";
  std::set<std::string> da, db;
  for (const Record& r : a.records) da.insert(r.device.present ? r.device.name : "no GPU");
  for (const Record& r : b.records) db.insert(r.device.present ? r.device.name : "no GPU");
  if (da != db) std::cout << "- A and B ran on different devices: the statuses compare the devices, not two commits.\n";
  std::cout << fmt::format("- SAME when |B/A - 1| <= max(noise A, noise B, {:.1f}%); regression when SLOWER by more "
                           "than {:.1f}% or FAILED in B (exit code {})\n\n",
                           args.min_diff_pct, args.threshold_pct, EXIT_REGRESSION);

  std::map<std::string, std::size_t> in_b;
  for (std::size_t i = 0; i < b.keys.size(); ++i) in_b[b.keys[i]] = i;
  measure::Table t({"Experiment", "Variant", "Axes", "Scope", "Mode", "A", "B", "change", "noise A", "noise B",
                    "status"});
  std::map<std::string, int> counts;
  int regressions = 0;
  std::vector<std::string> only_a, only_b;
  std::set<std::string> matched;
  for (std::size_t i = 0; i < a.records.size(); ++i) {
    const Record& ra = a.records[i];
    const auto it = in_b.find(a.keys[i]);
    if (it == in_b.end()) {
      only_a.push_back(fmt::format("{} / {} {} {} {}", ra.experiment, ra.variant, ra.axes.label(), ra.scope, ra.mode));
      continue;
    }
    matched.insert(a.keys[i]);
    const Record& rb = b.records[it->second];
    const Verdict v = judge(ra, rb, threshold, min_diff);
    const std::string word = v.status.substr(0, v.status.find(' '));
    ++counts[v.status.rfind("skipped", 0) == 0 ? "skipped" : word];
    regressions += v.regression;
    if (args.changed_only && (word == "SAME" || v.status.rfind("skipped", 0) == 0)) continue;
    auto fig = [](const Record& r) { return r.summary ? report::value_cell(r, r.summary->median) : std::string("-"); };
    auto noise = [](const Record& r) { return r.summary ? measure::format_pct(100 * report::rel_noise(r)) : std::string("-"); };
    t.add_row({ra.experiment, ra.variant, ra.axes.label(), ra.scope, ra.mode, fig(ra), fig(rb), v.change, noise(ra),
               noise(rb), v.status});
  }
  for (std::size_t i = 0; i < b.records.size(); ++i)
    if (!matched.count(b.keys[i])) {
      const Record& r = b.records[i];
      only_b.push_back(fmt::format("{} / {} {} {} {}", r.experiment, r.variant, r.axes.label(), r.scope, r.mode));
    }

  if (t.rows() > 0) std::cout << t.markdown() << "\n";
  if (matched.empty()) std::cout << "A and B have no result in common.\n\n";
  auto list = [](const char* title, const std::vector<std::string>& v) {
    if (v.empty()) return;
    std::cout << title << " (" << v.size() << "):\n\n";
    for (std::size_t i = 0; i < v.size() && i < 50; ++i) std::cout << "- " << v[i] << "\n";
    if (v.size() > 50) std::cout << "- ... and " << v.size() - 50 << " more\n";
    std::cout << "\n";
  };
  list("Only in A (removed)", only_a);
  list("Only in B (added)", only_b);
  std::cout << fmt::format("Summary: {} SAME, {} FASTER, {} SLOWER, {} DIFFERENT, {} FAILED in B, {} skipped, {} only in "
                           "A, {} only in B; {} regression(s) beyond the {:.1f}% threshold.\n",
                           counts["SAME"], counts["FASTER"], counts["SLOWER"], counts["DIFFERENT"], counts["FAILED"],
                           counts["skipped"], only_a.size(), only_b.size(), regressions, args.threshold_pct);
  if (regressions > 0) {
    throw Regression(fmt::format("compare: {} regression(s) in B: exit code {}", regressions, EXIT_REGRESSION));
  }
}

void add_compare_command(CLI::App& app, Context&) {
  auto* cmd = app.add_subcommand(
      "compare", "compare two runs result by result: SAME / FASTER / SLOWER judged with the noise of both; "
                 "exit code 3 on a regression beyond --threshold");
  auto args = std::make_shared<CompareArgs>();
  cmd->add_option("a", args->a, "run A, the reference (a run folder or a records file)")->required();
  cmd->add_option("b", args->b, "run B, judged against A")->required();
  cmd->add_option("--threshold", args->threshold_pct, "regression: SLOWER by more than this many percent")
      ->check(finite_range(0.0, 1e6))
      ->capture_default_str();
  cmd->add_option("--min-diff", args->min_diff_pct, "changes smaller than this many percent are SAME, whatever the noise")
      ->check(finite_range(0.0, 1e6))
      ->capture_default_str();
  cmd->add_flag("--changed-only", args->changed_only, "list only results that are not SAME");
  cmd->callback([args] { compare(*args); });
}

JOSEKI_REGISTER_COMMAND(85, add_compare_command);

}  // namespace
}  // namespace joseki::app
