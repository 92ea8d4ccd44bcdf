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
#include "experiments/abc471g/gpu_direct/rung_info.hpp"
#include "measure/ladder.hpp"
#include "measure/record.hpp"
#include "measure/stopping.hpp"

namespace joseki::abc471g::ladder {

using gpu_api::Config;
using gpu_api::Shape;

inline constexpr const char* kExperiment = "abc471g";

const std::vector<RungInfo>& rungs();
// By id ("g05"), slug ("bitsliced_ripple") or variant ("g05_bitsliced_ripple"); throws InputError
// listing the ids.
const RungInfo& find_rung(const std::string& name);
// A comma-separated list ("g01,g05,g13"); "" or "all": every rung. Ladder order, no duplicates.
std::vector<const RungInfo*> select_rungs(const std::string& list);
const RungInfo& final_rung();     // the rung behind `--solver gpu-direct`
const RungInfo& baseline_rung();  // g01: "x baseline" is x g01

// The rung whose geometry r's ladder row uses: r itself, or r.geometry_of.
const RungInfo& geometry_source(const RungInfo& r);
// Where the block and chunk of r's row come from (records' extra.geometry): "defaults", the
// recorded choice of a tuned rung, or this run's sweep when `swept` (the run swept its source).
std::string geometry_note(const RungInfo& r, bool swept);

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

// The direct ladder in the measurement core's terms (measure/ladder.hpp): one RungSpec per rung,
// made from its rungs.def line and its file's RungOps (sweep axes), impl = the RungInfo. `k` (the
// timed problem's shifts) sets the block x chunk sweep's tie rule (fewest idle guard threads).
measure::RungSpec rung_spec(const RungInfo& r, std::uint32_t k);
measure::Ladder make_ladder(const std::vector<const RungInfo*>& rs, std::uint32_t k);
// A RungSpec's configuration point back as the launchers' Config.
Config config_of(const RungInfo& r, const measure::Point& p);

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
  measure::Measurement time(const RungInfo& r, const Config& c, measure::Mode mode, const measure::StoppingRule& rule,
                            const measure::WarmUp& warmup = {});
  double time_once(const RungInfo& r, const Config& c);  // one launch between two events, seconds
  void flush_l2();                                       // enqueued on the case's stream

 private:
  struct Impl;
  std::unique_ptr<Impl> m;
};

// The test vectors (testdata_dir()) and the edge cases; `notes` says what was found.
std::vector<gpu_cases::Case> validation_suite(std::vector<std::string>& notes);
// The axes every record of a run on case `c` carries first: case, n, k, m.
measure::Point case_workload(const gpu_cases::Case& c);

// The CUDA Runner of the direct ladder (measure::Runner): every configuration a rung is set up at
// runs on every case of the suite that fits it (output and scratch poisoned by DeviceCase::run,
// exact comparison with the case's expected output or the CPU reference); the timed case joins at
// every configuration but the rung's small validation-only ones (rungs.def), and is timed there
// with the backend's GpuTimer (events, L2 flush, hot batches, the GPU's environment). A
// configuration is never timed before it was validated on the timed case. Throws GpuUnavailable
// without a GPU or in a CPU-only build.
class DirectRunner : public measure::Runner {
 public:
  // timed: the case the rows are timed on (none: validation only); its A if the caller has it.
  DirectRunner(std::vector<gpu_cases::Case> suite, std::optional<gpu_cases::Case> timed, int device,
               const std::vector<std::uint32_t>* timed_a = nullptr, const Answer* timed_reference = nullptr);
  ~DirectRunner() override;
  std::string backend() const override { return "cuda"; }
  measure::Scope scope() const override { return measure::Scope::GpuCompute; }
  measure::DeviceFacts device() const override;
  std::optional<std::string> setup(const measure::RungSpec& rung, const measure::Point& config) override;
  void poison_output() override {}  // DeviceCase::run poisons the output and the scratch of every run
  void run() override;
  std::string compare() override;
  double timed_run() override;
  void flush() override;
  measure::Work work() const override;
  std::optional<measure::Measurement> measure(measure::Mode mode, const measure::StoppingRule& rule,
                                              const measure::WarmUp& warmup) override;
  const std::map<std::string, int>& runs_per_rung() const;  // by variant: (case, configuration) runs compared
  int cases() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m;
};

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
