#include "report/report.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "measure/errors.hpp"
#include "measure/record.hpp"
#include "measure/scopes.hpp"
#include "measure/spawn.hpp"
#include "measure/table.hpp"
#include "report/rankings.hpp"
#include "report/summary.hpp"
#include "report/tables.hpp"

namespace joseki::report {
namespace fs = std::filesystem;
using measure::Record;

namespace {

constexpr const char* PLOTS_MARKER = "<!-- joseki:plots -->";
constexpr const char* PLOTS_DIR = "report-plots";

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_text(const fs::path& p, const std::string& text) {
  const fs::path tmp = p.string() + ".tmp";
  {
    std::ofstream out(tmp);
    out << text;
    if (!out) throw RunError(fmt::format("report: cannot write '{}'", tmp.string()));
  }
  fs::rename(tmp, p);
}

// ---- finding the plotting script and a Python that can run it ----

std::string find_script(const std::string& self_exe, std::string& why_not) {
  if (const char* env = std::getenv("JOSEKI_REPORT_SCRIPT"); env && *env) {
    if (fs::is_regular_file(env)) return env;
    why_not = fmt::format("JOSEKI_REPORT_SCRIPT={} does not exist", env);
    return "";
  }
  const fs::path rel = fs::path("scripts") / "report" / "make_report.py";
  std::vector<fs::path> tried;
  // The source tree this binary was built from (this file is src/report/report.cpp).
  tried.push_back(fs::path(__FILE__).parent_path().parent_path().parent_path() / rel);
  // Next to the binary or above it (build/release/joseki, .device/bin/joseki on the GPU host).
  fs::path d = fs::path(self_exe).parent_path();
  for (int up = 0; up < 4 && !d.empty(); ++up, d = d.parent_path()) tried.push_back(d / rel);
  tried.push_back(fs::current_path() / rel);
  for (const fs::path& p : tried)
    if (fs::is_regular_file(p)) return p.string();
  why_not = "scripts/report/make_report.py not found (looked next to the source tree, the binary and its parents, "
            "and the current folder; set JOSEKI_REPORT_SCRIPT)";
  return "";
}

// Runs argv with stdout/stderr into tmp; returns the exit code (-1 on a signal) and the output.
int run_quiet(const std::vector<std::string>& argv, const fs::path& tmp, double timeout_s, std::string& output) {
  measure::SpawnOptions o;
  o.argv = argv;
  o.stdout_path = (tmp / "out.txt").string();
  o.stderr_path = (tmp / "err.txt").string();
  o.want_report = false;
  o.timeout_s = timeout_s;
  o.env = {{"MPLBACKEND", "Agg"}};
  const measure::ExternalResult r = measure::run_external(o);
  output = read_text(tmp / "out.txt") + read_text(tmp / "err.txt");
  if (r.timed_out) output += fmt::format("\n(killed after {:.0f} s)", timeout_s);
  return r.exit_code;
}

std::string find_python(const fs::path& tmp, std::string& why_not) {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("JOSEKI_REPORT_PYTHON"); env && *env) {
    candidates.push_back(env);
  } else {
    candidates.push_back("/usr/bin/python3");  // Debian's, where python3-matplotlib installs
    if (std::string p = measure::find_program("python3"); !p.empty()) candidates.push_back(p);
  }
  std::vector<std::string> tried;
  for (const std::string& py : candidates) {
    if (::access(py.c_str(), X_OK) != 0) {
      tried.push_back(py + ": not found");
      continue;
    }
    std::string out;
    try {
      if (run_quiet({py, "-c", "import matplotlib, numpy"}, tmp, 60, out) == 0) return py;
    } catch (const std::exception& e) {
      out = e.what();
    }
    tried.push_back(py + ": " + measure::last_lines(out, 1));
  }
  why_not = "no Python 3 with matplotlib and numpy (" + fmt::format("{}", fmt::join(tried, "; ")) +
            "); install python3-matplotlib (Debian) and run `joseki report` on this folder again";
  return "";
}

// ---- report.md ----

std::string facts_line(const std::vector<Record>& recs) {
  std::set<std::string> devices, hosts, builds;
  for (const Record& r : recs) {
    if (r.device.present)
      devices.insert(fmt::format("{} (cc {}.{}, {} SMs, {:.0f} MiB L2, {} datasheet), CUDA driver {}.{}", r.device.name,
                                 r.device.cc_major, r.device.cc_minor, r.device.sm_count, r.device.l2_bytes / 1048576.0,
                                 measure::format_rate(r.device.datasheet_bw_Bps()), r.device.driver_version / 1000,
                                 r.device.driver_version % 1000 / 10));
    if (!r.host.hostname.empty())
      hosts.insert(fmt::format("{} ({}, {} logical CPUs, {})", r.host.hostname, r.host.cpu_model, r.host.logical_cpus,
                               r.host.os));
    if (!r.build.git_commit.empty())
      builds.insert(fmt::format("commit {}{}, {}, CUDA {}, {}", r.build.git_commit.substr(0, 12),
                                r.build.git_dirty ? " (dirty tree)" : "", r.build.cxx_compiler, r.build.cuda_compiler,
                                r.build.build_type));
  }
  auto join = [](const std::set<std::string>& s, const char* none) {
    return s.empty() ? std::string(none) : fmt::format("{}", fmt::join(s, "; "));
  };
  return fmt::format("| device | {} |\n| host | {} |\n| build | {} |\n", join(devices, "none (no GPU)"),
                     join(hosts, "-"), join(builds, "-"));
}

std::string scopes_table(const std::vector<Record>& recs) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const Record*>> sets;
  for (const Record& r : recs)
    if (!r.ladder.scope_set.empty() && !r.skipped && r.summary) {
      const std::string& id = r.ladder.scope_set;
      if (!sets.count(id)) order.push_back(id);
      sets[id].push_back(&r);
    }
  if (order.empty()) return "";
  using measure::Scope;
  measure::Table t({"Scope set", "Experiment / variant", to_string(Scope::External), "pre-main",
                    to_string(Scope::Program), "post-main", to_string(Scope::GpuPipeline),
                    to_string(Scope::GpuCompute), to_string(Scope::CpuCompute)});
  for (const auto& id : order) {
    std::map<std::string, std::string> cell;
    double pre = 0, post = 0;
    for (const Record* r : sets[id]) {
      cell[r->scope] = measure::format_time(r->summary->median);
      pre = std::max(pre, extra_double(*r, "pre_main_s"));
      post = std::max(post, extra_double(*r, "post_main_s"));
    }
    auto get = [&](Scope s) { return cell.count(to_string(s)) ? cell[to_string(s)] : "-"; };
    const Record& f = *sets[id].front();
    t.add_row({id, f.experiment + " / " + f.variant, get(Scope::External), pre > 0 ? measure::format_time(pre) : "-",
               get(Scope::Program), post > 0 ? measure::format_time(post) : "-", get(Scope::GpuPipeline),
               get(Scope::GpuCompute), get(Scope::CpuCompute)});
  }
  return t.markdown();
}

std::string records_section(const std::vector<Record>& recs) {
  std::vector<std::string> exps;
  for (const Record& r : recs)
    if (std::find(exps.begin(), exps.end(), r.experiment) == exps.end()) exps.push_back(r.experiment);
  std::string md;
  for (const std::string& e : exps) {
    std::vector<Record> plain;
    std::vector<std::string> sweeps;
    std::map<std::string, std::vector<Record>> by_sweep;
    for (const Record& r : recs) {
      if (r.experiment != e) continue;
      const std::string sw = r.ladder.sweep;
      if (sw.empty()) {
        plain.push_back(r);
        continue;
      }
      if (!by_sweep.count(sw)) sweeps.push_back(sw);
      by_sweep[sw].push_back(r);
    }
    md += "### " + e + "\n\n";
    if (!plain.empty()) md += measure::records_table(plain) + "\n";
    for (const std::string& sw : sweeps) {
      md += "#### Sweep `" + sw + "`\n\n";
      for (const Record& r : by_sweep[sw])
        if (const std::string& tie = r.ladder.tie_rule; !tie.empty())
          md += fmt::format("Chosen: **{}** ({}). Tie rule: {}\n\n", r.axes.label(), r.variant, tie);
      md += measure::records_table(by_sweep[sw]) + "\n";
    }
  }
  return md;
}

std::string report_markdown(const std::vector<Record>& recs, const std::vector<measure::RecordSet>& sets,
                            const std::vector<std::string>& files) {
  std::string md = "# joseki report\n\n";
  md += "Made by `joseki report` from the records alone; every figure below is a measurement in these files.\n\n";
  md += "| | |\n|---|---|\n";
  for (std::size_t i = 0; i < files.size(); ++i)
    md += fmt::format("| records | `{}`: {} records, written {} by `{}` |\n", fs::path(files[i]).filename().string(),
                      sets[i].records.size(), sets[i].created, sets[i].command);
  md += facts_line(recs) + "\n";
  md += "## Summary\n\n" + summary_markdown(recs);
  md += std::string(PLOTS_MARKER) + "\n\n";
  std::vector<Record> device;
  for (const Record& r : recs)
    if (r.experiment == "device" && !r.skipped && r.summary) device.push_back(r);
  if (!device.empty()) md += "## Device ceilings\n\n" + ceilings_table(device) + "\n";
  md += rankings_report_section(sets, files);  // empty without reduce ladder records
  if (const std::string s = scopes_table(recs); !s.empty())
    md += "## Four scopes\n\nMeasured together in one run per scope set: EXTERNAL = pre-main + PROGRAM + post-main; "
          "PROGRAM includes GPU_PIPELINE, which includes GPU_COMPUTE.\n\n" + s + "\n";
  md += "## All records\n\n" + records_section(recs);
  return md;
}

nlohmann::json plan_json(const std::vector<Record>& recs, const std::vector<measure::RecordSet>& sets,
                         const std::vector<std::string>& files, const fs::path& out, const fs::path& md) {
  nlohmann::json ladders = nlohmann::json::array();
  for (const Ladder& l : find_ladders(recs))
    ladders.push_back({{"id", l.id()}, {"title", l.title()}, {"records", l.rungs}, {"fastest", l.fastest},
                       {"baseline", l.baseline_name}});
  std::vector<std::string> abs_files;
  for (const auto& f : files) abs_files.push_back(fs::absolute(f).string());
  return {{"records_files", abs_files}, {"out_dir", fs::absolute(out).string()},
          {"markdown", fs::absolute(md).string()}, {"plots_dir", PLOTS_DIR}, {"marker", PLOTS_MARKER},
          {"ladders", ladders}, {"rankings", rankings_plot_plan(sets, files)}};
}

}  // namespace

std::vector<std::string> record_files_of(const std::string& arg) {
  const fs::path p(arg);
  if (fs::is_regular_file(p)) return {arg};
  if (!fs::is_directory(p)) throw InputError(fmt::format("'{}': no such records file or run folder", arg));
  if (fs::is_regular_file(p / "records.json")) return {(p / "records.json").string()};
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(p)) {
    if (e.path().extension() != ".json" || !e.is_regular_file()) continue;
    std::ifstream in(e.path());
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_object() && j.value("schema", "") == measure::kRecordSetSchema) files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw InputError(fmt::format("'{}': folder holds no records.json and no record files", arg));
  return files;
}

ReportResult generate_report(const std::vector<std::string>& record_files, const std::string& out_dir,
                             const std::string& self_exe) {
  std::vector<measure::RecordSet> sets;
  std::vector<Record> recs;
  for (const auto& f : record_files) {
    sets.push_back(measure::read_records(f));
    recs.insert(recs.end(), sets.back().records.begin(), sets.back().records.end());
  }
  const fs::path out(out_dir);
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) throw InputError(fmt::format("--out {}: cannot create the folder: {}", out_dir, ec.message()));

  ReportResult res;
  const fs::path md_path = out / "report.md", html_path = out / "report.html", plots = out / PLOTS_DIR;
  std::string md = report_markdown(recs, sets, record_files);
  write_text(md_path, md);
  res.markdown_path = md_path.string();
  // A report made again in the same folder must not keep stale pictures.
  fs::remove(html_path, ec);
  if (fs::is_directory(plots))
    for (const auto& e : fs::directory_iterator(plots))
      if (e.path().extension() == ".png") fs::remove(e.path(), ec);

  char tmpl[] = "/tmp/joseki-report-XXXXXX";
  const char* tmp_c = ::mkdtemp(tmpl);
  std::string why_not;
  bool script_failed = false;  // found and run, and it failed: a run failure, not a skip
  if (!tmp_c) why_not = "cannot create a temporary folder";
  const fs::path tmp = tmp_c ? tmp_c : "";
  const std::string script = why_not.empty() ? find_script(self_exe, why_not) : "";
  const std::string python = why_not.empty() ? find_python(tmp, why_not) : "";
  if (why_not.empty()) {
    const fs::path plan = tmp / "plan.json";
    std::ofstream(plan) << plan_json(recs, sets, record_files, out, md_path).dump(1);
    std::string output;
    int rc = -1;
    try {
      rc = run_quiet({python, "-B", script, "--plan", plan.string()}, tmp, 600, output);
    } catch (const std::exception& e) {
      output = e.what();
    }
    if (rc == 0 && fs::is_regular_file(html_path)) {
      res.html_path = html_path.string();
      for (const auto& e : fs::directory_iterator(plots, ec))
        if (e.path().extension() == ".png") ++res.plots;
      res.plots_note = fmt::format("{} plots drawn by {} with {}", res.plots, script, python);
    } else {
      why_not = fmt::format("{} failed (exit {}): {}", script, rc, measure::last_lines(output, 3));
      script_failed = true;
    }
  }
  if (!tmp.empty()) fs::remove_all(tmp, ec);
  if (res.html_path.empty()) {
    res.plots_note = "plots skipped: " + why_not;
    md = read_text(md_path);
    const std::string note = "## Plots\n\nPlots were skipped: " + why_not + ". The tables below are complete.\n";
    if (const auto at = md.find(PLOTS_MARKER); at != std::string::npos)
      md.replace(at, std::string(PLOTS_MARKER).size(), note);
    write_text(md_path, md);
    fs::remove(html_path, ec);
    if (script_failed) throw RunError(fmt::format("report: {} written without plots: {}", md_path.string(), why_not));
  }
  return res;
}

}  // namespace joseki::report
