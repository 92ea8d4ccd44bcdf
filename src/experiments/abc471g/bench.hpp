// `joseki abc471g bench`: every solver as a user runs it — `joseki abc471g solve --solver S <
// input` in a child process — timed from outside (EXTERNAL) with the child's own PROGRAM time
// and phases (parse, generate, count, combine, output) read back through JOSEKI_SCOPE_REPORT.
// All solvers see the same input file; every output must equal the first solver's (exit 1
// otherwise). The editorial baseline, when in the list, is measured in the same run and each
// record carries extra.x_baseline = editorial median / this median (> 1 = faster).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "experiments/abc471g/inputs.hpp"
#include "measure/record.hpp"

namespace joseki::abc471g {

struct BenchCase {
  std::string label = "max";  // "max" or "N=..,K=.."
  InstanceSpec spec;
};
// "max" (N = 7e6, K = 2300, M = 1e5), or comma-separated N=, K=, M=, seed=, rng= (integers or
// forms like 1e8). Throws InputError naming the bad part.
BenchCase parse_bench_case(const std::string& text);
std::vector<std::string> parse_solver_list(const std::string& text);  // "a,b,c"; checks the names

struct BenchOptions {
  std::vector<std::string> solvers{"cpu-direct", "cpu-pairs", "editorial"};
  BenchCase bench_case;
  int runs = 5;              // samples per solver, after one untimed warm-up run
  // Per-solver overrides of `runs` and of the one warm-up run (the tours run the single-core
  // editorial, ~3 s a run on the max case, fewer times and without a warm-up).
  std::map<std::string, int> runs_of, warmups_of;
  int threads = 0;           // --threads for the children (0 = all)
  int device = 0;
  std::string self_exe;      // the joseki binary
  double timeout_s = 600;    // per child run
};

struct BenchResult {
  std::vector<measure::Record> records;  // EXTERNAL and PROGRAM (and GPU scopes) per solver; skipped ones
  std::vector<std::string> failures;     // "solver: what went wrong" (a differing output, a failed run)
};

// Runs the benchmark. Records are not stamped (the caller stamps them with app::Context::stamp).
BenchResult run_bench(const BenchOptions& opt);

// The bench table: Solver | scope | median | min | max | noise | phases | pre/post-main | x editorial | check.
std::string bench_table(const std::vector<measure::Record>& records);

}  // namespace joseki::abc471g
