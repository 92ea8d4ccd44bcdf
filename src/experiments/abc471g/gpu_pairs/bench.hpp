// Benchmarks of issue 6, as records (the CLI `joseki abc471g scale ...` prints and writes them):
//   bench_ladder   the gpu-pairs ladder at one problem (default: the max case), phases, ceilings, sweeps
//   bench_sizes    N = 10^8, 10^9, 10^10, ...: GPU_COMPUTE (in process) and EXTERNAL (child processes)
//   bench_startup  where a GPU solve's start-up time goes, and what the cuts save
//   bench_auto     auto's choice against the better EXTERNAL at every N of a sweep
// Every GPU variant is validated (exact) before it is timed; a failure is a record with
// validation "failed: ..." (the CLI then exits 1).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "experiments/abc471g/problem.hpp"
#include "measure/record.hpp"
#include "measure/spawn.hpp"
#include "measure/stopping.hpp"

namespace joseki::abc471g {
struct CostModel;
}

namespace joseki::abc471g::pairs {

struct BenchOptions {
  measure::StoppingRule rule;
  int device = 0;
  std::string self_exe;  // this joseki binary (EXTERNAL children)
  // `scale hopper --rungs`: only these rungs (ids, slugs or variant names) and their count / combine splits, no
  // sweeps; empty: every rung and sweep. A name that is no rung is an InputError before anything runs.
  std::vector<std::string> rungs;
  // `scale hopper --trace-csv`: after each rung on a wgmma combine kind is timed, one more solve with the combine's
  // trace (PairsConfig::trace_combine): its summary in the record (extra.combine_trace) and on the notes, each block's
  // row in this CSV file (written anew). Empty: no trace.
  std::string trace_csv;
  std::function<void(const std::string&)> note;
  void say(const std::string& s) const {
    if (note) note(s);
  }
};

std::vector<measure::Record> bench_ladder(const Problem& p, const std::string& case_name, const BenchOptions& o);

struct SizesOptions {
  std::vector<std::uint64_t> ns{100'000'000ULL, 1'000'000'000ULL, 10'000'000'000ULL};
  std::uint32_t k = 2300;
  std::uint64_t validate_max_n = 1'000'000'000ULL;  // CPU cross-check up to this N
  int external_runs = 3;                            // EXTERNAL samples per configuration (after one untimed)
  bool external = true;
};
std::vector<measure::Record> bench_sizes(const SizesOptions& s, const BenchOptions& o);

struct StartupOptions {
  int runs = 5;                    // samples per configuration (after one untimed)
  std::uint64_t n = 7'000'000;     // the solve children's problem (default: the max case)
  std::uint32_t k = 2300;
  std::uint64_t m = 100'000;
};
std::vector<measure::Record> bench_startup(const StartupOptions& s, const BenchOptions& o);

struct AutoSweepOptions {
  std::vector<std::uint64_t> ns{1'000ULL, 10'000ULL, 100'000ULL, 1'000'000ULL, 10'000'000ULL, 100'000'000ULL,
                                1'000'000'000ULL};
  std::uint32_t k = 2300;
  int runs = 3;
  double budget_s = 0;  // > 0: sizes not started within this many seconds are recorded as skipped
  std::vector<std::string> candidates{"cpu-direct", "cpu-pairs", "gpu-pairs", "gpu-direct"};  // those registered
};
std::vector<measure::Record> bench_auto(const AutoSweepOptions& s, const BenchOptions& o);

// ---- the child side of the start-up split (`joseki abc471g scale child`) --------------------
struct ChildOptions {
  std::string phase = "none";  // none | count | context | module | solve
  std::string input;           // solve: the input file
  std::string solver = "gpu-pairs";  // solve: a registry solver, or "auto-calibrated"
  bool fast = false;           // solve: context on a second thread during parsing, exit without teardown
  int device = 0;
};
// Runs the phase, reports figures through measure::ProgramScope, writes the answer to stdout
// (solve). With fast, ends the process itself (startup::fast_exit) after ProgramScope::end().
void run_child(const ChildOptions& c);

// ---- shared helpers ------------------------------------------------------------------------
struct Reference {
  Answer answer;
  std::string name;  // the solver that produced it
  double seconds = 0;
};
// brute (N*K <= 2e8), else cpu-direct, else cpu-pairs (registry), else solve_pairs_reference.
Reference reference_answer(const Problem& p);
// "" when equal; else the first mismatches ("k = 5: got 7, expected 6; ...").
std::string compare_answers(const Answer& got, const Answer& want);
// The calibrated auto's choice among `candidates` (those with a fit and feasible here), and why.
using ::joseki::abc471g::CostModel;  // cost/costs.hpp
std::pair<std::string, std::string> choose_calibrated(const Problem& p, const std::vector<std::string>& candidates);
std::pair<std::string, std::string> choose_calibrated(const Problem& p, const std::vector<std::string>& candidates,
                                                      const CostModel& m);

}  // namespace joseki::abc471g::pairs
