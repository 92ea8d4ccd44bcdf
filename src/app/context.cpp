#include "app/context.hpp"

#include <iostream>

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

void add_rule_options(CLI::App* cmd, measure::StoppingRule& rule) {
  cmd->add_option("--min-samples", rule.min_samples, "stopping rule: at least this many samples")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd->add_option("--max-samples", rule.max_samples, "stopping rule: at most this many samples")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd->add_option("--max-noise", rule.max_noise, "stopping rule: converged when stdev/mean <= this")
      ->check(CLI::Range(1e-6, 10.0))
      ->capture_default_str();
  cmd->add_option("--min-time", rule.min_time_s, "stopping rule: at least this many seconds of samples")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  cmd->add_option("--timeout", rule.timeout_s, "stopping rule: stop sampling after this many seconds")
      ->check(CLI::Range(1e-3, 3600.0))
      ->capture_default_str();
}

}  // namespace joseki::app
