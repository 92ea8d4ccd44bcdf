// `joseki report RUN_FOLDER | FILE... [--out DIR]`: the report of a run, made only from
// its records: report.md (summary, ceilings, four scopes, every record) and, with Python 3
// + matplotlib, report.html with the plots embedded (self-contained, no network) and the
// PNGs in report-plots/. Without matplotlib, report.md alone, saying why. docs/REPORT.md.
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "app/context.hpp"
#include "measure/errors.hpp"
#include "report/report.hpp"

namespace joseki::app {
namespace {

void add_report_command(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("report", "write report.md and report.html (plots) from the records of a run "
                                           "(a `joseki run` folder or record files)");
  auto inputs = std::make_shared<std::vector<std::string>>();
  auto out = std::make_shared<std::string>();
  cmd->add_option("inputs", *inputs, "a run folder (holding records.json) or record files")->required();
  cmd->add_option("--out", *out, "folder for the report (default: the run folder; required for files)");
  cmd->callback([&ctx, inputs, out] {
    std::vector<std::string> files;
    for (const std::string& in : *inputs)
      for (const std::string& f : report::record_files_of(in)) files.push_back(f);
    std::string dir = *out;
    if (dir.empty()) {
      if (inputs->size() == 1 && std::filesystem::is_directory(inputs->front())) dir = inputs->front();
      else throw InputError("--out: required when the inputs are record files (the report needs a folder)");
    }
    const report::ReportResult r = report::generate_report(files, dir, ctx.self_exe);
    std::cout << "report: " << r.markdown_path << "\n";
    if (!r.html_path.empty()) std::cout << "report: " << r.html_path << " (" << r.plots << " plots)\n";
    ctx.note("report: " + r.plots_note);
  });
}

JOSEKI_REGISTER_COMMAND(80, add_report_command);

}  // namespace
}  // namespace joseki::app
