// The reduction ladder's harness: for every size, offset and mode it generates random data,
// computes the reference, validates every selected rung (output poisoned first, run twice so
// that state left behind shows), sweeps the swept rungs, times the ladder and the stream-read
// ceiling side by side, and returns records (never prints). Rungs only compute.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
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

// "failed: got 0x... expected 0x..." text for a wrong result (names the poison when it is one).
std::string mismatch_text(std::uint32_t got, std::uint32_t expected);

}  // namespace joseki::reduce
