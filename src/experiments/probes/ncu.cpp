#include "experiments/probes/ncu.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "measure/spawn.hpp"
#include "measure/stopping.hpp"

namespace joseki::probes {

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

std::optional<double> parse_ncu_number(const std::string& s) {
  std::string t;
  for (char c : s)
    if (c != ',' && c != ' ') t += c;
  if (t.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (end == t.c_str() || *end != '\0') return std::nullopt;
  return v;
}

std::vector<NcuRow> parse_ncu_csv(const std::string& text) {
  std::vector<NcuRow> rows;
  std::istringstream in(text);
  int c_id = -1, c_kernel = -1, c_metric = -1, c_unit = -1, c_value = -1;
  std::size_t width = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] != '"') continue;
    const std::vector<std::string> f = split_csv_line(line);
    bool header = false;
    for (const auto& x : f) header = header || x == "Metric Name";
    if (header) {
      c_id = c_kernel = c_metric = c_unit = c_value = -1;
      for (std::size_t i = 0; i < f.size(); ++i) {
        const int k = static_cast<int>(i);
        if (f[i] == "ID") c_id = k;
        if (f[i] == "Kernel Name") c_kernel = k;
        if (f[i] == "Metric Name") c_metric = k;
        if (f[i] == "Metric Unit") c_unit = k;
        if (f[i] == "Metric Value") c_value = k;
      }
      width = f.size();
      continue;
    }
    if (c_metric < 0 || c_value < 0 || f.size() != width) continue;
    NcuRow r;
    if (c_id >= 0) r.id = f[c_id];
    if (c_kernel >= 0) r.kernel = f[c_kernel];
    r.metric = f[c_metric];
    if (c_unit >= 0) r.unit = f[c_unit];
    r.raw_value = f[c_value];
    r.value = parse_ncu_number(r.raw_value);
    rows.push_back(std::move(r));
  }
  return rows;
}

std::set<std::string> parse_ncu_query(const std::string& text) {
  static const std::regex name(R"(^[\s"]*([a-z0-9]+__[A-Za-z0-9_]+))");
  std::set<std::string> out;
  std::istringstream in(text);
  std::smatch m;
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, m, name)) out.insert(m[1].str());
  return out;
}

std::string metric_base(const std::string& metric) { return metric.substr(0, metric.find('.')); }

bool is_unlisted_metric(const std::string& metric) {
  static const std::set<std::string> derived = {"sm__maximum_warps_per_active_cycle_pct",
                                                "sm__maximum_warps_avg_per_active_cycle"};
  const std::string base = metric_base(metric);
  return base.rfind("launch__", 0) == 0 || derived.count(base) > 0;
}

bool keep_metric(const std::string& metric, const std::set<std::string>& known, bool strict) {
  if (known.empty() || known.count(metric_base(metric))) return true;
  return !strict && is_unlisted_metric(metric);
}

std::string find_ncu() {
  namespace fs = std::filesystem;
  const char* env = std::getenv("JOSEKI_NCU");
  const std::string p = measure::find_program("ncu", "JOSEKI_NCU", {"/usr/local/cuda/bin/ncu"});
  if (!p.empty() || (env && *env)) return p;
  std::error_code ec;
  auto exe = [&](const fs::path& p) { return fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0; };
  std::vector<fs::path> found;
  if (fs::is_directory("/opt/nvidia/nsight-compute", ec))
    for (const auto& d : fs::directory_iterator("/opt/nvidia/nsight-compute", ec))
      if (exe(d.path() / "ncu")) found.push_back(d.path() / "ncu");
  std::sort(found.begin(), found.end());
  return found.empty() ? "" : found.back().string();  // the newest version folder
}

namespace {

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string temp_path(const char* tag) {
  static int counter = 0;
  return (std::filesystem::temp_directory_path() /
          fmt::format("joseki-ncu-{}-{}-{}.txt", getpid(), tag, counter++)).string();
}

// With $JOSEKI_NCU_LOG_DIR set, ncu's output files are moved there (ncu_<n>.<ext>) for the
// record; else deleted.
void keep_or_remove(const std::string& path, const char* ext) {
  static int kept = 0;
  const char* dir = std::getenv("JOSEKI_NCU_LOG_DIR");
  std::error_code ec;
  if (dir && *dir && std::filesystem::is_directory(dir, ec)) {
    const auto to = std::filesystem::path(dir) / fmt::format("ncu_{}.{}", std::string(ext) == "err" ? kept++ : kept, ext);
    std::filesystem::copy_file(path, to, std::filesystem::copy_options::overwrite_existing, ec);
  }
  std::remove(path.c_str());
}

}  // namespace

std::set<std::string> query_ncu_metrics(const std::string& ncu, int device, double timeout_s) {
  measure::SpawnOptions so;
  (void)device;  // the query describes the chip ncu finds first; all probes use one GPU kind
  so.argv = {ncu, "--query-metrics"};
  so.stdout_path = temp_path("query");
  so.stderr_path = temp_path("query-err");
  so.env = {{"LC_ALL", "C"}};
  so.timeout_s = timeout_s;
  so.want_report = false;
  std::set<std::string> known;
  try {
    const measure::ExternalResult r = measure::run_external(so);
    if (r.exit_code == 0) known = parse_ncu_query(slurp(so.stdout_path));
  } catch (const std::exception&) {
  }
  std::remove(so.stdout_path.c_str());
  std::remove(so.stderr_path.c_str());
  return known;
}

NcuRun run_ncu(const std::string& ncu, const std::vector<std::string>& metrics, const std::set<std::string>& known,
               const std::string& kernel_regex, const std::vector<std::string>& app, double timeout_s, bool strict) {
  NcuRun run;
  for (const auto& m : metrics) (keep_metric(m, known, strict) ? run.metrics : run.dropped).push_back(m);
  if (run.metrics.empty()) {
    run.error = "none of the metrics is offered by this ncu";
    return run;
  }
  std::string list;
  for (const auto& m : run.metrics) list += (list.empty() ? "" : ",") + m;
  measure::SpawnOptions so;
  so.argv = {ncu, "--clock-control", "none", "--target-processes", "all", "--csv", "--print-units", "base",
             "--metrics", list, "--kernel-name", "regex:" + kernel_regex};
  so.argv.insert(so.argv.end(), app.begin(), app.end());
  for (const auto& a : so.argv) run.command += (run.command.empty() ? "" : " ") + a;
  so.stdout_path = temp_path("out");
  so.stderr_path = temp_path("err");
  so.env = {{"LC_ALL", "C"}};
  so.timeout_s = timeout_s;
  so.want_report = false;
  try {
    const measure::ExternalResult r = measure::run_external(so);
    run.seconds = r.external_s;
    const std::string out = slurp(so.stdout_path), err = slurp(so.stderr_path);
    run.rows = parse_ncu_csv(out);
    const std::string tail = measure::last_lines(err + "\n" + out, 3, " | ");
    if (run.rows.empty()) {
      run.error = r.timed_out ? fmt::format("ncu timed out after {:.0f} s: {}", timeout_s, tail)
                              : fmt::format("ncu exited with code {} and no metric rows: {}", r.exit_code, tail);
    } else {
      // Rows came back: keep them even if the run ended badly (the kernels before a failure
      // were profiled), and say how it ended.
      run.ok = true;
      if (r.timed_out || r.exit_code != 0)
        run.warning = r.timed_out ? fmt::format("ncu timed out after {:.0f} s (partial rows): {}", timeout_s, tail)
                                  : fmt::format("ncu exited with code {} (partial rows?): {}", r.exit_code, tail);
    }
  } catch (const std::exception& e) {
    run.error = e.what();
  }
  keep_or_remove(so.stdout_path, "csv");
  keep_or_remove(so.stderr_path, "err");
  return run;
}

NcuRun run_ncu_with_fallbacks(const std::string& ncu, const std::vector<std::string>& metrics,
                              const std::vector<std::string>& core, const std::set<std::string>& known,
                              const std::string& kernel_regex, const std::vector<std::string>& app, double budget_s) {
  const double t0 = measure::steady_seconds();
  auto left = [&] { return budget_s - (measure::steady_seconds() - t0); };
  NcuRun run = run_ncu(ncu, metrics, known, kernel_regex, app, left());
  const auto refused = [](const NcuRun& r) { return !r.ok && r.error.find("etric") != std::string::npos; };
  if (run.ok || !refused(run)) return run;
  // A metric refused: the listed metrics only, then the guide's core set.
  if (left() > 10) {
    NcuRun strict = run_ncu(ncu, metrics, known, kernel_regex, app, left(), true);
    if (strict.ok) strict.dropped.push_back("(retried with the listed metrics only after: " + run.error + ")");
    if (strict.ok || !refused(strict)) return strict;
  }
  if (left() > 10) {
    NcuRun retry = run_ncu(ncu, core, known, kernel_regex, app, left(), true);
    if (retry.ok) {
      retry.dropped.push_back("(retried with the core metrics after: " + run.error + ")");
      return retry;
    }
  }
  return run;
}

}  // namespace joseki::probes
