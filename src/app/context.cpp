#include "app/context.hpp"

#include <cmath>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "measure/build_info.hpp"

namespace joseki::app {

void Context::note(const std::string& line) const {
  if (!quiet) std::cerr << line << std::endl;
}

void Context::add(std::vector<measure::Record> rs) {
  for (auto& r : rs) records.push_back(std::move(r));
}

void Context::add(measure::Record r) { records.push_back(std::move(r)); }

void Context::stamp(measure::Record& r, const measure::DeviceFacts& dev) {
  static const measure::HostFacts host = measure::query_host();
  r.device = dev;
  r.host = host;
  r.build = measure::build_info();
  if (r.timestamp.empty()) r.timestamp = measure::utc_now_iso8601();
}

void Context::write_json() const {
  if (json_path.empty()) return;
  measure::RecordSet set;
  set.command = command_line;
  set.created = measure::utc_now_iso8601();
  set.records = records;
  measure::write_records(json_path, set);
  note("records: " + std::to_string(records.size()) + " written to " + json_path);
}

std::vector<std::pair<int, CommandAdder>>& CommandRegistry::all() {
  static std::vector<std::pair<int, CommandAdder>> v;
  return v;
}
CommandRegistry::Add::Add(int order, CommandAdder f) { all().emplace_back(order, std::move(f)); }

std::vector<TourStep>& TourRegistry::all() {
  static std::vector<TourStep> v;
  return v;
}
TourRegistry::Add::Add(TourStep s) { all().push_back(std::move(s)); }

CLI::Validator finite_range(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& in) -> std::string {
        double v = 0;
        std::size_t used = 0;
        try {
          v = std::stod(in, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != in.size() || !std::isfinite(v) || v < lo || v > hi)
          return fmt::format("{} is not a number in [{}, {}]", in, lo, hi);
        return std::string();
      },
      fmt::format("NUMBER in [{} - {}]", lo, hi));
}

CLI::Validator non_negative_integer() {
  return CLI::Validator(
      [](std::string& in) -> std::string {
        if (in.empty() || in.find_first_not_of("0123456789") != std::string::npos)
          return fmt::format("{} is not a non-negative integer", in);
        return std::string();
      },
      "NON-NEGATIVE INTEGER");
}

CLI::Validator writable_file_path() {
  return CLI::Validator(
      [](std::string& in) -> std::string {
        std::error_code ec;
        if (in.empty()) return "an empty path";
        if (std::filesystem::is_directory(in, ec)) return fmt::format("{} is a folder; give a file path", in);
        return std::string();
      },
      "PATH");
}

std::string unknown_command(const CLI::App& app, int argc, const char* const* argv) {
  const CLI::App* cur = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i] ? argv[i] : "";
    if (cur == &app && (a == "--json" || a == "--device")) {
      ++i;
      continue;
    }
    if (a.empty() || a[0] == '-') {
      if (cur == &app) continue;
      return "";  // an option of a subcommand: its values cannot be told from words here
    }
    const std::vector<const CLI::App*> subs = cur->get_subcommands([](const CLI::App*) { return true; });
    if (subs.empty()) return "";
    if (cur != &app && !cur->get_options([](const CLI::Option* o) { return o->get_positional(); }).empty()) return "";
    const CLI::App* found = nullptr;
    std::string names;
    for (const CLI::App* sub : subs) {
      if (sub->check_name(a)) found = sub;
      names += (names.empty() ? "" : ", ") + sub->get_name();
    }
    if (!found)
      return fmt::format("unknown {}command '{}' (commands: {})", cur == &app ? "" : cur->get_name() + " ", a, names);
    cur = found;
  }
  return "";
}

CLI::App* abc471g_app(CLI::App& app) {
  for (CLI::App* sub : app.get_subcommands({}))
    if (sub->get_name() == "abc471g") return sub;
  auto* cmd = app.add_subcommand("abc471g", "AtCoder ABC471G \"Caeser Syllables\"");
  cmd->require_subcommand(1);
  return cmd;
}

void add_rule_options(CLI::App* cmd, measure::StoppingRule& rule) {
  auto add = [cmd](const char* name, auto& value, const char* what, CLI::Validator range) {
    cmd->add_option(name, value, std::string("stopping rule: ") + what)->check(range)->capture_default_str();
  };
  add("--min-samples", rule.min_samples, "at least this many samples", CLI::Range(1, 1000000));
  add("--max-samples", rule.max_samples, "at most this many samples", CLI::Range(1, 1000000));
  add("--max-noise", rule.max_noise, "converged when stdev/mean <= this", finite_range(1e-6, 10.0));
  add("--min-time", rule.min_time_s, "at least this many seconds of samples", finite_range(0.0, 3600.0));
  add("--timeout", rule.timeout_s, "stop sampling after this many seconds", finite_range(1e-3, 3600.0));
  cmd->add_flag_callback("--keep-flagged", [&rule] { rule.discard_flagged = false; },
                         "stopping rule: keep GPU samples taken under a slowdown (throttle reason, SM clock > 5 % "
                         "down); by default they are dropped and counted in the record's environment");
}

}  // namespace joseki::app
