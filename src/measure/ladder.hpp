// One ladder protocol for every ladder and every backend:
//
//   rung -> needs (skip with the reason) -> validate (output poisoned, exact compare, run twice)
//        -> sweep (the tie rule picks) -> time (Runner: GPU events or the CPU clock; cold/hot;
//        the stopping rule) -> ratios (declared predecessor, baseline, ceiling) -> typed records
//
// An experiment supplies only its workload (inside its Runner: input, CPU reference, comparison),
// one Runner adapter per backend, and one ordered list of RungSpecs. Adding a rung is one file that
// defines its kernel and a RungSpec, plus one line that appends the spec to the ladder's list.
// Pure C++: no CUDA here; a CUDA / Vulkan / NVRTC runner lives with its backend.
//
//   Ladder lad{"toy", {spec_t00(), spec_t01(), spec_t02()}};
//   CpuToyRunner cpu(input);                    // implements Runner
//   LadderResult res = run_ladder(lad, {&cpu}, LadderOptions{});
//   std::cout << ladder_table(res.records);
#pragma once

#include <any>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "measure/needs.hpp"
#include "measure/record.hpp"
#include "measure/scopes.hpp"
#include "measure/stopping.hpp"
#include "measure/sweep.hpp"
#include "measure/throughput.hpp"

namespace joseki::measure {

// One rung of one ladder: what it is, what it needs, where it is tuned and checked.
struct RungSpec {
  std::string id;           // short and unique within the ladder: "r05", "g13", "p03"
  std::string slug;         // the records' variant and the CLI's name: "r05_vector_loads"
  std::string technique;    // one line for tables
  std::string predecessor;  // id or slug of the rung "x previous" compares with; "" none
  int position = 0;         // the records' `rung` (baselines 0)
  std::string backend;      // which Runner runs it: "cpu", "cuda", "vulkan", ...
  Needs needs;              // unmet on the runner's device -> a skipped record with the reason
  Point defaults;           // the configuration the ladder row runs at without a sweep
  std::optional<Sweep> sweep;  // the space --sweep varies (skips carry their reason)
  TieRule tie_rule = TieRule::fastest();  // picks among sweep results too close to call
  std::vector<Point> validation_configs;  // besides `defaults`: small configurations that cut the
                                          // input at awkward places (partial tiles, chunk edges)
  bool baseline = false;    // "x baseline" of the ladder is x this rung
  std::string output;       // the output contract in words ("d_out[0] = the sum, written whole")
  std::string config_from;  // id or slug of a swept rung whose chosen point this rung's row runs at
                            // (the keys its defaults have); "" its own. With any config_from in a
                            // ladder, every sweep runs before the first row (a rung may borrow a
                            // later rung's choice: reduce's r05 runs at r06's).
  bool sweep_sets_row = true;  // false: the rung's own sweep only informs; its row stays at `defaults`
                               // (the ABC471G direct ladder's g13 and g15)
  std::any impl;            // the backend's handle (launcher, SPIR-V, source); the Runner casts it
};

// What a ladder is: a name (the records' experiment) and its rungs in order.
struct Ladder {
  std::string experiment;
  std::vector<RungSpec> rungs;
  const RungSpec* find(const std::string& id_or_slug) const;  // nullptr when absent
  const RungSpec* baseline() const;                           // the first rung marked baseline
  // Throws std::invalid_argument naming the problem: duplicate ids/slugs, a predecessor that is a
  // later rung of the list (one that is not in the list is fine: a selection of rungs), more than
  // one baseline, an empty id or slug.
  void check() const;
};

// One backend's way to run a rung on the experiment's workload. The runner owns the input, the
// reference and the output buffer; run_ladder drives it through this protocol only.
class Runner {
 public:
  virtual ~Runner() = default;
  virtual std::string backend() const = 0;   // matches RungSpec::backend
  virtual Scope scope() const = 0;           // what timed_run() measures: GpuCompute or CpuCompute
  virtual DeviceFacts device() const { return {}; }  // the device RungSpec::needs is checked against
  // Get ready to run `rung` at `config` (workspace, launch plan); throws on failure. Returns why
  // this configuration cannot run here (a skip), or nullopt.
  virtual std::optional<std::string> setup(const RungSpec& rung, const Point& config) = 0;
  virtual void poison_output() = 0;          // fill the output with a value no correct run leaves
  virtual void run() = 0;                    // one untimed run of the set-up rung
  virtual std::string compare() = 0;         // the output vs the CPU reference: "" exact, else what differs
  virtual double timed_run() = 0;            // one run, timed (GPU events or the CPU clock), seconds
  virtual void flush() {}                    // cold mode: evict the caches before a sample (untimed)
  virtual Work work() const = 0;             // the work one run does, for throughput
  // How this runner names a configuration of the rung last set up (asked only after setup()).
  virtual std::string config_label(const Point& config) const { return config.label(); }
  // A runner with its own timing loop (CUDA: events, L2 flush, hot batches, the GPU's environment)
  // measures the set-up rung itself; nullopt: the core's loop over timed_run() and flush().
  virtual std::optional<Measurement> measure(Mode /*mode*/, const StoppingRule& /*rule*/, const WarmUp& /*warmup*/) {
    return std::nullopt;
  }
  // After a timed measurement: what is wrong with the output the last timed run left ("" nothing:
  // state kept across runs shows here), and any backend facts for the record (extra, axes).
  virtual std::string after_timing(Record& /*rec*/) { return ""; }
};

// A measured bound every rung is compared with (x_ceiling = ceiling time / rung time).
struct Ceiling {
  std::string name;   // "stream_read"
  double time_s = 0;  // at this workload
  double bytes_per_s = 0;
};

struct LadderOptions {
  std::vector<Mode> modes{Mode::Cold};
  StoppingRule rule;
  WarmUp warmup;
  bool sweep = false;                  // sweep the rungs that have a sweep; the row uses the choice
  bool validate_only = false;          // validate every rung, time nothing
  Point workload;                      // axes every record carries first (n, offset, case, ...)
  std::optional<Ceiling> ceiling;
  double datasheet_Bps = 0;            // for % datasheet
  std::function<void(const std::string&)> progress;  // one line per step
  std::vector<std::string> sweep_only;  // ids or slugs of the rungs --sweep sweeps; empty: every swept rung
  std::map<std::string, std::string> no_runner_because;  // backend -> why its runner is absent ("no GPU: ...")
};

struct ValidationResult {
  std::string variant;
  std::string config;   // the runner's label of the configuration
  bool ok = false;
  std::string message;  // failure or skip: what and why
};

struct LadderResult {
  std::vector<Record> records;             // sweep points first, then the ladder rows, per rung (unstamped)
  std::vector<ValidationResult> validations;
  std::vector<std::string> failures;       // one line per failed validation or rung error
};

// Runs every rung of `ladder` on the runner of its backend (none: a skipped record saying so).
// Never throws for a rung's failure: it becomes a record with validation "failed: ..." and a line
// in `failures`.
LadderResult run_ladder(const Ladder& ladder, const std::vector<Runner*>& runners, const LadderOptions& opt);

// The records a rung leaves without running (no runner, unmet needs): one per mode.
Record skipped_rung_record(const std::string& experiment, const RungSpec& r, const Point& workload,
                           const std::string& mode, const std::string& why);
// A ladder record of this rung before measurement: experiment, variant, rung, technique, backend,
// scope, mode, axes (workload then config), ladder.previous (the predecessor's slug).
Record rung_record(const std::string& experiment, const RungSpec& r, const std::string& backend, Scope scope,
                   const std::string& mode, const Point& workload, const Point& config,
                   const std::string& previous_slug);

// Ratios of medians among the ladder rows (rung >= 0, Record::is_ladder_row) of each group (same experiment,
// workload axes and mode; group_of picks the axes, empty: every axis): x_previous against the
// record's declared ladder.previous, x_baseline against `baseline` (a variant), x_ceiling against
// the ceiling time when given. > 1 = faster. Sets ladder.baseline on every row when the baseline was
// measured in its group. Sweep points, skipped and failed records get nothing.
using GroupKey = std::function<std::string(const Record&)>;
void add_ladder_ratios(std::vector<Record>& records, const std::string& baseline, const GroupKey& group_of = {});
// The group key made of these axes (absent axes count as "-") and the mode.
GroupKey group_by_axes(std::vector<std::string> axes);

// The one ladder table: rung | variant | technique | config | scope | mode | median | noise | GB/s |
// % ceiling | x previous | x baseline | validation. Ladder rows only (sweep points: sweep_table).
// hide_axes: axes left out of the config column (a table per size says n once, above it).
std::string ladder_table(const std::vector<Record>& records, const std::vector<std::string>& hide_axes = {});
// A sweep's points with the chosen one marked and the tie rule's explanation.
std::string sweep_table(const std::vector<Record>& records, const std::vector<std::string>& hide_axes = {});

}  // namespace joseki::measure
