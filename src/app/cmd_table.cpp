// `joseki table FILE...`: markdown tables from record files (one table per experiment).
#include <iostream>
#include <map>

#include "app/context.hpp"
#include "measure/table.hpp"

namespace joseki::app {
namespace {

void add_table_command(CLI::App& app, Context&) {
  auto* cmd = app.add_subcommand("table", "print markdown tables from record files");
  auto files = std::make_shared<std::vector<std::string>>();
  cmd->add_option("files", *files, "record files (JSON written by --json or joseki run)")->required();
  cmd->callback([files] {
    for (const std::string& f : *files) {
      const measure::RecordSet set = measure::read_records(f);
      std::map<std::string, std::vector<measure::Record>> by_exp;
      std::vector<std::string> order;
      for (const auto& r : set.records) {
        if (!by_exp.count(r.experiment)) order.push_back(r.experiment);
        by_exp[r.experiment].push_back(r);
      }
      std::cout << "# " << f << "\n\n`" << set.command << "` (" << set.created << ")\n\n";
      for (const auto& e : order) std::cout << "## " << e << "\n\n" << measure::records_table(by_exp[e]) << "\n";
    }
  });
}

JOSEKI_REGISTER_COMMAND(90, add_table_command);

}  // namespace
}  // namespace joseki::app
