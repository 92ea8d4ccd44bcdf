// The ABC471G direct ladder on the GPU, host side: the registry made from rungs.def, the harness
// that validates every rung (poisoned outputs, exact comparison) before timing it, the sweeps with
// their tie rules, and the four timing scopes of the final rung measured together in one run.
// Experiments never print: progress goes through the `note` callback, results are records.
// Compiles in a CPU-only build (where every GPU entry point throws GpuUnavailable).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "experiments/abc471g/gpu_direct/cases.hpp"
#include "experiments/abc471g/gpu_direct/rung_api.hpp"
#include "measure/record.hpp"
#include "measure/stopping.hpp"

namespace joseki::abc471g::ladder {

using gpu_api::Config;
using gpu_api::Shape;

inline constexpr const char* kExperiment = "abc471g";

struct RungInfo {
  std::string id;           // "g05"
  std::string slug;         // "bitsliced_ripple"
  std::string name;         // display name
  std::string technique;    // one line for tables
  std::string predecessor;  // id of the rung it builds on ("x previous"); "" for g01
  int rung = 0;             // position in the ladder, 1-based
  bool a_on_device = false; // A generated on the GPU (else generated on the host and copied)
  Config defaults;
  double seed_ms = -1;      // the seed's RTX 3060 Laptop GPU_COMPUTE where it states one
  std::string seed_note;
  std::string geometry_of;  // "" or the tuned rung whose block and chunk this rung runs at
  std::string tuned_by;     // "" or the run whose sweep chose the defaults (the rung is tuned)
  std::vector<Config> validation;  // validated at these besides the defaults (rungs.def)
  std::string variant() const { return id + "_" + slug; }  // records' variant: "g05_bitsliced_ripple"
};

const std::vector<RungInfo>& rungs();
// By id ("g05"), slug ("bitsliced_ripple") or variant ("g05_bitsliced_ripple"); throws InputError
// listing the ids.
const RungInfo& find_rung(const std::string& name);
// A comma-separated list ("g01,g05,g13"); "" or "all": every rung. Ladder order, no duplicates.
std::vector<const RungInfo*> select_rungs(const std::string& list);
const RungInfo& final_rung();     // the rung behind `--solver gpu-direct`
const RungInfo& baseline_rung();  // g01: "x baseline" is x g01

// The tie rule's choices of the sweeps run in this invocation, by the id of the tuned rung.
using Tuned = std::map<std::string, Config>;
struct LadderConfig {
  Config config;
  std::string source;  // where it comes from, for records (extra.geometry) and tables
};
// The rung whose geometry r's ladder row uses: r itself, or r.geometry_of.
const RungInfo& geometry_source(const RungInfo& r);
// The configuration of r's ladder row: the tie rule's choice of this run's sweep of its geometry
// source when `tuned` has one, else the source's defaults (for a tuned rung, a recorded choice).
LadderConfig ladder_config(const RungInfo& r, const Tuned& tuned);
// The configuration the tie rule chose in a sweep's records (extra.chosen), or none.
std::optional<Config> chosen_config(const RungInfo& r, const std::vector<measure::Record>& sweep);

bool built_with_cuda();
Shape shape_of(const Problem& p);
// "" when the rung can run this shape and configuration, else why not.
std::string check(const RungInfo& r, const Shape& s, const Config& c);
// The configurations a rung is validated at: its defaults, plus small ones that cut small inputs
// into many chunks / tiles / blocks (chunk boundaries, partial tiles, padded groups).
std::vector<Config> validation_configs(const RungInfo& r);
// Axes of a rung's configuration for records ("block", "chunk").
measure::Point config_point(const RungInfo& r, const Config& c);

using Note = std::function<void(const std::string&)>;

// A problem uploaded to one GPU once, run by any rung. Throws GpuUnavailable without a GPU or in
// a CPU-only build.
class DeviceCase {
 public:
  // a: A_0..A_{N-1} if the caller has it (else generated here when a rung needs it).
  DeviceCase(const Problem& p, int device, const std::vector<std::uint32_t>* a = nullptr);
  ~DeviceCase();
  DeviceCase(const DeviceCase&) = delete;
  DeviceCase& operator=(const DeviceCase&) = delete;

  const Problem& problem() const;
  // One solve: output and scratch poisoned (0xA5), launch, synchronize, copy back.
  Answer run(const RungInfo& r, const Config& c);
  // GPU_COMPUTE samples (events around the launch; cold: L2 flushed before each sample).
  measure::Measurement time(const RungInfo& r, const Config& c, measure::Mode mode, const measure::StoppingRule& rule);

 private:
  struct Impl;
  std::unique_ptr<Impl> m;
};

struct ValidationReport {
  int runs = 0;                                 // (case, rung, configuration) runs compared
  int cases = 0;
  std::map<std::string, int> runs_per_rung;     // by id
  std::map<std::string, std::string> failures;  // by id: the first failure
  std::vector<std::string> notes;               // e.g. where the test vectors were looked for
};

// The test vectors (testdata_dir()) and the edge cases; `notes` says what was found.
std::vector<gpu_cases::Case> validation_suite(std::vector<std::string>& notes);
// Every rung at every validation configuration on every case, compared exactly with the case's
// expected output or the CPU reference. Records nothing; the report says what passed.
ValidationReport validate(const std::vector<const RungInfo*>& rs, const std::vector<gpu_cases::Case>& cases,
                          int device, const Note& note);

struct TimingOptions {
  int device = 0;
  measure::Mode mode = measure::Mode::Cold;
  measure::StoppingRule rule;
};

// GPU_COMPUTE of each rung at its ladder configuration (ladder_config: the defaults, or this run's
// tuned geometry) on the case, each run validated first against `reference`; x_previous,
// x_baseline (x g01) where both were measured; extra.geometry says where block and chunk come
// from. Unstamped records.
std::vector<measure::Record> time_rungs(const std::vector<const RungInfo*>& rs, DeviceCase& dc,
                                        const std::string& case_name, const Answer& reference,
                                        const ValidationReport& validated, const TimingOptions& opt, const Note& note,
                                        const Tuned& tuned = {});

// The rung's declared sweep (rung_api.hpp), every point validated then timed, and the choice of
// its tie rule. Empty when the rung declares no sweep.
std::vector<measure::Record> sweep_rung(const RungInfo& r, DeviceCase& dc, const std::string& case_name,
                                        const Answer& reference, const TimingOptions& opt, const Note& note);
bool has_sweep(const RungInfo& r);

// EXTERNAL, PROGRAM, GPU_PIPELINE and GPU_COMPUTE of `joseki abc471g solve --solver gpu-direct`
// on the case, measured together: each sample spawns the solve as a child (EXTERNAL), which
// reports the other three; pre-main and post-main too. The child's output is checked against
// `reference` (a mismatch throws ValidationError). COMPUTE <= PIPELINE <= PROGRAM <= EXTERNAL is
// checked for every sample: extra.nesting says "violated" (and extra.nesting_violations why), which
// the caller turns into a failure. input_path: the case as a file (the child's stdin).
std::vector<measure::Record> four_scopes(const std::string& self_exe, const std::string& input_path,
                                         const gpu_cases::Case& c, const Answer& reference, int device,
                                         const measure::StoppingRule& rule, const Note& note);

// Writes the case in the official format to a fresh temporary file and returns its path.
std::string write_case_file(const Problem& p);

}  // namespace joseki::abc471g::ladder
