// What every subcommand shares: the global options (--json, --device, --quiet), the
// records produced so far, and the registries through which subcommands and tour
// steps add themselves (one file per subcommand, no central list to edit).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "measure/record.hpp"
#include "measure/stopping.hpp"

namespace joseki::app {

struct Context {
  std::string json_path;   // --json PATH: write all records there at exit
  int device = 0;          // --device N
  bool quiet = false;      // --quiet: tables only, no progress lines
  std::string command_line;
  std::string self_exe;    // absolute path of this binary (for child processes)
  std::vector<measure::Record> records;

  // Progress and notes go to stderr (so stdout stays parseable); tables to stdout.
  void note(const std::string& line) const;
  void add(std::vector<measure::Record> rs);
  void add(measure::Record r);
  // Stamps device/host/build/timestamp into a record made by an experiment.
  static void stamp(measure::Record& r, const measure::DeviceFacts& dev);
  // Writes the records to --json if it was given.
  void write_json() const;
};

// Subcommands register themselves: JOSEKI_REGISTER_COMMAND(add_device_command);
using CommandAdder = std::function<void(CLI::App&, Context&)>;
struct CommandRegistry {
  static std::vector<std::pair<int, CommandAdder>>& all();
  struct Add {
    Add(int order, CommandAdder f);
  };
};
#define JOSEKI_REGISTER_COMMAND(order, fn) \
  static const ::joseki::app::CommandRegistry::Add joseki_cmd_registration_##fn{order, fn}

// Steps of `joseki run` (the tour). Each experiment registers one; the tour runs them in
// order, with GPU steps skipped (and said so) when there is no GPU.
struct TourOptions {
  bool quick = false;
  bool gpu = false;              // a GPU is usable
  std::string gpu_reason;        // why not, when !gpu
  std::string out_dir;           // folder for this run's records
  measure::StoppingRule rule;    // default stopping rule for the tour
};
struct TourStep {
  std::string name;          // "device", "reduce", "abc471g", "probes", ...
  std::string description;
  int order = 0;
  // For the time-left estimate: seconds on the GPU host (the registrations use the H200 tour of 2026-11-30).
  double est_seconds_quick = 5, est_seconds_full = 30;
  std::function<std::vector<measure::Record>(Context&, const TourOptions&)> run;
  bool gpu_only = false;  // without a GPU the tour records it as skipped, with the reason
};
struct TourRegistry {
  static std::vector<TourStep>& all();
  struct Add {
    explicit Add(TourStep s);
  };
};
#define JOSEKI_REGISTER_TOUR_STEP(id, ...) \
  static const ::joseki::app::TourRegistry::Add joseki_tour_registration_##id{::joseki::app::TourStep{__VA_ARGS__}}

// Common option helpers.
void add_rule_options(CLI::App* cmd, measure::StoppingRule& rule);
// CLI::Range for real numbers that also refuses nan and inf (every comparison with nan is false,
// so CLI::Range lets it through): "--threshold: nan is not a number in [0, 1e+06]".
CLI::Validator finite_range(double lo, double hi);
// For unsigned options: plain decimal digits only, so "-1" is refused as typed instead of
// wrapping to 18446744073709551615.
CLI::Validator non_negative_integer();
// --json PATH: not an existing folder (a file cannot be written there).
CLI::Validator writable_file_path();

// "unknown command 'x' (commands: ...)" or "unknown abc471g command 'x' (commands: ...)" for a
// word where a (sub)command must be; empty when there is none. main() and the CLI fuzzer use it.
std::string unknown_command(const CLI::App& app, int argc, const char* const* argv);
// The `abc471g` command (made by whichever of its subcommands registers first), for its subcommands.
CLI::App* abc471g_app(CLI::App& app);

}  // namespace joseki::app
