// The reduction ladder's harness: for every size it generates random data and the reference;
// for every offset and mode it runs the selected rungs through the one ladder protocol
// (measure/ladder.hpp: validation with the output poisoned, run twice; sweeps with the tie rule;
// timing) on the CPU runner and the CUDA runner, with the stream-read ceiling measured beside
// them; it returns records (never prints). Rungs only compute.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "experiments/reduce/registry.hpp"
#include "experiments/reduce/workload.hpp"
#include "measure/ladder.hpp"
#include "measure/record.hpp"
#include "measure/stopping.hpp"

namespace joseki::reduce {

inline constexpr const char* EXPERIMENT = "reduce";
inline constexpr const char* BASELINE = "r00_cub";
inline constexpr const char* CEILING = "stream_read";

struct RunOptions {
  std::vector<std::size_t> sizes;
  std::vector<std::size_t> offsets{0};
  std::vector<measure::Mode> modes{measure::Mode::Cold};
  std::vector<const Rung*> rungs;  // ladder order (select_rungs)
  bool sweep = false;              // sweep the swept rungs first; the ladder then uses their choice
  std::vector<std::string> sweep_rungs;  // slugs to sweep; empty: every selected swept rung
  bool validate_only = false;      // validate every rung at every size and offset; time nothing
  measure::StoppingRule rule;
  int device = 0;
  std::uint64_t seed = 0;
  SlowVariants slow;
  std::function<void(const std::string&)> progress;  // one line per step (the CLI prints it)
};

struct ValidationRow {
  std::string variant;
  std::size_t n = 0, offset = 0;
  std::string config;  // "block=256 grid=1056 unroll=4"
  std::uint32_t got = 0, expected = 0;
  bool ok = false;
  std::string message;  // on failure: what was wrong
};

struct RunResult {
  std::vector<measure::Record> records;  // not stamped (the CLI stamps device/host/build)
  std::vector<ValidationRow> validations;
  std::vector<std::string> failures;     // one line per failed validation or rung error
  measure::DeviceFacts device;           // present == false when the GPU rungs did not run
  std::string gpu_skip_reason;           // why they did not ("" when they ran or none was selected)
};

// Throws InputError (bad size for this machine's memory, bad device index); never throws
// GpuUnavailable: without a GPU the GPU rungs are skipped records saying why.
RunResult run(const RunOptions& opt);

// x_previous / x_baseline / baseline / previous for the ladder records of each (n, offset,
// mode) group: ratios of medians, > 1 = faster. Pure; exposed for tests.
void add_ratios(std::vector<measure::Record>& records);

// The runner of the CPU rungs (measure::Runner, backend "cpu"): sums n words at p with the rung's
// CpuSumFn (RungSpec::impl), `slow` times per run, compares with `expected`. Hot mode only (no cache
// flush). The harness runs the ladder's CPU rungs through it; tests add rungs to it.
std::unique_ptr<measure::Runner> cpu_sum_runner(const std::uint32_t* p, std::size_t n, std::uint32_t expected,
                                                int slow = 1);

// A runner of the reduction (CPU, CUDA, Vulkan): besides the protocol, the word each compare()
// read, by "slug|config label" (ValidationRow::got).
class SumRunner : public measure::Runner {
 public:
  std::map<std::string, std::uint32_t> got;
};

// Where a ladder's runs go (RunResult and the Vulkan ladder's result alike).
struct LadderOut {
  std::vector<measure::Record>& records;
  std::vector<ValidationRow>& validations;
  std::vector<std::string>& failures;
  std::set<std::string> logged;  // validation rows already listed (a rung is validated once per mode)
};
// Appends one run of the protocol at size n and offset `off` (reference `expected`): validation rows
// with the word the runner read, failures naming n and offset, records with each sweep named by rung,
// size, mode and offset (sweep points have rung -1). Returns the index of its first record in out.records.
std::size_t merge_ladder_run(measure::LadderResult& res, const SumRunner* runner, std::size_t n, std::size_t off,
                             std::uint32_t expected, LadderOut& out);

// A ceiling measured beside a ladder (a record of its own, rung -1, axes n and offset), and its
// measurement of `bytes` streamed: throughput against itself, extra value (B/s) and value_unit.
// set_ceiling returns the B/s.
measure::Record ceiling_record(const std::string& variant, const std::string& backend, const std::string& technique,
                               std::size_t n, std::size_t offset, measure::Mode mode);
double set_ceiling(measure::Record& rec, const measure::Measurement& m, double bytes, double datasheet_Bps);

// The ladder of these rungs at size n on a device of this shape, as the one protocol's
// descriptors: knobs resolved for the device, each swept rung's sweep at n (points that make the
// same launch as an earlier one skipped), its tie rule and config_from; CPU rungs carry their
// threads and SIMD level.
measure::Ladder ladder_at(const std::vector<const Rung*>& rungs, std::size_t n, const DeviceShape& shape);

// "failed: got 0x... expected 0x..." text for a wrong result (names the poison when it is one).
std::string mismatch_text(std::uint32_t got, std::uint32_t expected);

}  // namespace joseki::reduce
