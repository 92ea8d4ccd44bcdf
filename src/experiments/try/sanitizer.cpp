// compute-sanitizer and ncu around a try's child (sanitizer.hpp).
#include "experiments/try/sanitizer.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "experiments/probes/ncu.hpp"
#include "experiments/try/reduce_spec.hpp"
#include "measure/errors.hpp"
#include "measure/spawn.hpp"

namespace joseki::trykernel {

namespace fs = std::filesystem;

std::string find_sanitizer() {
  std::error_code ec;
  auto exe = [&](const fs::path& p) { return fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0; };
  if (const char* e = std::getenv("JOSEKI_SANITIZER"); e && *e) return exe(e) ? e : "";
  if (const char* path = std::getenv("PATH")) {
    std::istringstream ps(path);
    for (std::string dir; std::getline(ps, dir, ':');)
      if (!dir.empty() && exe(fs::path(dir) / "compute-sanitizer")) return (fs::path(dir) / "compute-sanitizer").string();
  }
  if (exe("/usr/local/cuda/bin/compute-sanitizer")) return "/usr/local/cuda/bin/compute-sanitizer";
  return "";
}

SanitizerFindings parse_sanitizer_log(const std::string& log) {
  SanitizerFindings f;
  std::istringstream in(log);
  std::string line;
  static const std::regex summary(R"((ERROR SUMMARY|RACECHECK SUMMARY): (\d+) (error|hazard))");
  bool in_first = false;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, summary)) {
      f.summary_seen = true;
      f.errors = std::max(f.errors, std::stoi(m[2].str()));
      in_first = false;
      continue;
    }
    std::string body = line;
    const std::size_t p = body.find("=========");
    if (p == std::string::npos) continue;
    body = body.substr(p + 9);
    const bool blank = body.find_first_not_of(' ') == std::string::npos;
    const std::string t = blank ? "" : body.substr(body.find_first_not_of(' '));
    const bool starts_report = t.rfind("Invalid ", 0) == 0 || t.rfind("Error: Race", 0) == 0 ||
                               t.rfind("Race reported", 0) == 0 || t.rfind("Program hit", 0) == 0 ||
                               t.rfind("Warning: Race", 0) == 0 || t.rfind("Error:", 0) == 0 ||
                               t.rfind("Misaligned", 0) == 0 || t.rfind("Out-of-range", 0) == 0;
    if (starts_report && t.rfind("Program hit", 0) == 0 && t.find("on CUDA API call") != std::string::npos) {
      ++f.api_errors;  // joseki's own call, not the kernel's
      in_first = false;
      continue;
    }
    if (starts_report) ++f.kinds[t];
    if (f.first.empty() && starts_report) {
      in_first = true;
      f.kind = t;
    }
    if (in_first) {
      if (blank || f.first.size() >= 8) {
        in_first = false;
        continue;
      }
      if (t.rfind("Saved host backtrace", 0) == 0 || t.rfind("Host Frame", 0) == 0) {
        in_first = false;
        continue;
      }
      f.first.push_back(t);
    }
  }
  if (f.summary_seen) {
    // memcheck's ERROR SUMMARY counts API errors too; racecheck's counts hazards alone.
    int reports = 0;
    for (const auto& [k, c] : f.kinds) reports += c;
    if (f.api_errors && f.errors >= f.api_errors && f.errors - f.api_errors >= reports) f.errors -= f.api_errors;
  } else {
    for (const auto& [k, c] : f.kinds) f.errors += c;
  }
  return f;
}

std::vector<std::string> sanitizer_argv(const std::string& sanitizer, const std::string& tool, const std::string& log) {
  std::vector<std::string> a = {sanitizer, "--tool", tool, "--log-file", log, "--error-exitcode", "9",
                                "--print-limit", "20", "--report-api-errors", "no"};
  if (tool == "racecheck") a.insert(a.end(), {"--racecheck-report", "analysis"});
  return a;
}

SanitizeReport run_sanitizers(const std::vector<std::string>& child_argv, const std::string& tmp_dir, double limit_s,
                              const std::string& scope) {
  const std::string san = find_sanitizer();
  if (san.empty())
    throw RunError("--sanitize needs compute-sanitizer (the CUDA toolkit's; not on PATH nor in /usr/local/cuda/bin; "
                   "set JOSEKI_SANITIZER to its path)");
  SanitizeReport rep;
  rep.clean = true;
  rep.json = nlohmann::json::object();
  std::string lines;
  for (const char* tool : {"memcheck", "racecheck"}) {
    const std::string log = tmp_dir + "/" + tool + ".log";
    measure::SpawnOptions so;
    so.argv = sanitizer_argv(san, tool, log);
    so.argv.insert(so.argv.end(), child_argv.begin(), child_argv.end());
    so.timeout_s = limit_s;
    so.want_report = false;
    so.own_group = true;  // the sanitizer and its target die together at the limit
    so.stderr_path = tmp_dir + "/" + tool + ".stderr";
    const measure::ExternalResult r = measure::run_external(so);
    std::ifstream in(log);
    std::stringstream ss;
    ss << in.rdbuf();
    const SanitizerFindings f = parse_sanitizer_log(ss.str());
    nlohmann::json j = {{"exit_code", r.exit_code}, {"errors", f.errors}, {"first", f.first}, {"kind", f.kind},
                        {"kinds", f.kinds},          {"api_errors", f.api_errors}, {"timed_out", r.timed_out},
                        {"command", so.argv}};
    std::string verdict;
    const char* what = std::string(tool) == "racecheck" ? "hazard(s)" : "error(s)";
    if (r.timed_out) {
      verdict = f.errors > 0 ? fmt::format("{} {} before it was stopped: did not finish within {:.0f} s (killed)",
                                           f.errors, what, limit_s)
                             : fmt::format("did not finish within {:.0f} s (killed)", limit_s);
      rep.clean = false;
    } else if (f.errors > 0) {
      verdict = fmt::format("{} {}", f.errors, what);
      rep.clean = false;
    } else if (!f.summary_seen && r.exit_code != 0) {
      std::ifstream e(so.stderr_path);
      std::stringstream es;
      es << e.rdbuf();
      verdict = fmt::format("no summary; the check exited {}: {}", r.exit_code, measure::last_lines(es.str(), 2));
      rep.clean = false;
    } else if (r.exit_code != 0) {
      verdict = fmt::format("0 errors, but the check itself exited {} (a wrong result: run without --sanitize)",
                            r.exit_code);
    } else {
      verdict = "clean";
    }
    j["verdict"] = verdict;
    rep.json[tool] = j;
    lines += fmt::format("compute-sanitizer --tool {}: {}\n", tool, verdict);
    for (const auto& l : f.first) lines += "    " + l + "\n";
    int also = 0;  // the other kinds of report, one line each, the first few
    for (const auto& [k, c] : f.kinds) {
      if (k == f.kind) continue;
      if (++also > 4) {
        lines += fmt::format("    ... and {} more kinds of report\n", f.kinds.size() - 5);
        break;
      }
      lines += fmt::format("    also: {} ({}x)\n", k, c);
    }
    rep.summary += (rep.summary.empty() ? "" : "; ") + fmt::format("{}: {}", tool, verdict);
  }
  rep.text = "## compute-sanitizer over the validation (compiled with -lineinfo: FILE:LINE below)\n\n" +
             (scope.empty() ? "" : scope + "\n") +
             "The kernel's accesses alone: joseki's own CUDA calls are checked by joseki, not reported "
             "(--report-api-errors no).\n\n" +
             lines;
  return rep;
}

namespace {

struct DiagSymptom {
  const char* symptom;
  const char* cause;
  std::vector<std::string> metrics;  // summed
  int direction;                     // +1: higher is worse; -1: lower is worse
  double factor;                     // matches when worse than the best rung by this factor
  double floor;                      // ... and beyond this absolute value (+1) / below it (-1)
};
// The symptoms of the probes' diagnosis table (probes/diagnose.cpp), read off the user's kernel
// against the ladder's best rung instead of a bad kernel against its fix.
const std::vector<DiagSymptom>& diag_symptoms() {
  static const std::vector<DiagSymptom> s = {
      {"low DRAM throughput", "too few bytes in flight (scalar loads, low occupancy) or a serial part",
       {"dram__throughput.avg.pct_of_peak_sustained_elapsed"}, -1, 1.25, 100},
      {"extra DRAM traffic", "uncoalesced or repeated reads (bytes read per input byte)", {"dram__bytes_read.sum"}, +1,
       1.25, 0},
      {"shared-load stalls", "bank conflicts", {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"}, +1, 4, 1000},
      {"many barrier stalls", "a __syncthreads per tree level while most warps idle",
       {"smsp__warp_issue_stalled_barrier_per_warp_active.pct"}, +1, 2, 5},
      {"atomic bottleneck", "many atomics on one address (per element, not per block)",
       {"lts__t_sectors_op_red.sum", "lts__t_sectors_op_atom.sum"}, +1, 4, 10000},
      {"low occupancy", "registers or shared memory per block limit the resident warps",
       {"sm__warps_active.avg.pct_of_peak_sustained_active"}, -1, 1.5, 100},
  };
  return s;
}

}  // namespace

nlohmann::json symptom_rows(const std::vector<probes::NcuRow>& rows, const std::string& user_variant,
                            const std::string& best_rung) {
  // Mean per kernel of each metric over its launches.
  std::map<std::string, std::map<std::string, std::pair<double, int>>> acc;  // side -> metric -> (sum, count)
  for (const auto& r : rows) {
    if (!r.value) continue;
    const std::string side = r.kernel.find(REDUCE_ENTRY) != std::string::npos ? "yours" : "theirs";
    auto& a = acc[side][r.metric];
    a.first += *r.value;
    a.second += 1;
  }
  auto value = [&](const std::string& side, const std::vector<std::string>& ms) -> std::optional<double> {
    double v = 0;
    bool any = false;
    for (const auto& m : ms) {
      const auto it = acc[side].find(m);
      if (it != acc[side].end() && it->second.second) {
        v += it->second.first / it->second.second;
        any = true;
      }
    }
    return any ? std::optional<double>(v) : std::nullopt;
  };
  nlohmann::json out = {{"against", best_rung}, {"yours", user_variant}, {"rows", nlohmann::json::array()}};
  auto fmtv = [](double v) { return std::fabs(v) >= 1e4 ? fmt::format("{:.3g}", v) : fmt::format("{:.1f}", v); };
  for (const auto& s : diag_symptoms()) {
    const auto y = value("yours", s.metrics), t = value("theirs", s.metrics);
    if (!y || !t) continue;
    bool match = s.direction > 0 ? (*y > s.factor * *t && *y > s.floor) : (*y * s.factor < *t && *y < s.floor);
    std::string metric = s.metrics[0] + (s.metrics.size() > 1 ? " + ..." : "");
    out["rows"].push_back({{"symptom", s.symptom}, {"cause", s.cause}, {"metric", metric}, {"yours", fmtv(*y)},
                           {"theirs", fmtv(*t)}, {"matches", match}});
  }
  if (const auto y = value("yours", {"gpu__time_duration.sum"}), t = value("theirs", {"gpu__time_duration.sum"}); y && t)
    out["rows"].push_back({{"symptom", "(kernel time under ncu, ns)"}, {"metric", "gpu__time_duration.sum"},
                           {"yours", fmtv(*y)}, {"theirs", fmtv(*t)}, {"matches", false}});
  return out;
}

nlohmann::json ncu_diagnosis(const std::vector<std::string>& child_argv, const std::string& user_variant,
                             const std::string& best_rung, int device) {
  const std::string ncu = probes::find_ncu();
  if (ncu.empty()) return {{"skipped", "ncu not found (PATH, /usr/local/cuda/bin, /opt/nvidia/nsight-compute; JOSEKI_NCU)"}};
  std::vector<std::string> metrics = {"gpu__time_duration.sum"};
  for (const auto& s : diag_symptoms()) metrics.insert(metrics.end(), s.metrics.begin(), s.metrics.end());
  const std::set<std::string> known = probes::query_ncu_metrics(ncu, device, 30);
  const probes::NcuRun run = probes::run_ncu_with_fallbacks(ncu, metrics, {"gpu__time_duration.sum"}, known,
                                                            std::string(REDUCE_ENTRY) + "|" + best_rung, child_argv, 60);
  if (!run.ok || run.rows.empty()) return {{"skipped", run.error.empty() ? "ncu gave no rows" : run.error}};
  nlohmann::json out = symptom_rows(run.rows, user_variant, best_rung);
  out["ncu"] = ncu;
  if (!run.warning.empty()) out["warning"] = run.warning;
  return out;
}

}  // namespace joseki::trykernel
