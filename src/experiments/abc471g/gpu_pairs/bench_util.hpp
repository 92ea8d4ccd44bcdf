// Helpers shared by the bench_*.cpp files (not a public interface).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "experiments/abc471g/gpu_pairs/bench.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
#include "experiments/abc471g/problem.hpp"
#include "measure/record.hpp"
#include "measure/four_scopes.hpp"
#include "measure/sweep.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "backend/cuda/timing.hpp"
#endif

namespace joseki::abc471g::pairs {
#ifdef JOSEKI_HAVE_CUDA
class PairsDevice;  // pipeline_cuda.hpp
#endif
}  // namespace joseki::abc471g::pairs

namespace joseki::abc471g::pairs::bench {

// A fresh folder under $TMPDIR (or /tmp), removed with its files at destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return m_path; }
  std::string write(const std::string& name, const std::string& text);  // returns the file's path

 private:
  std::string m_path;
  std::vector<std::string> m_files;
};

measure::Record base_record(const std::string& variant, const std::string& technique, const std::string& backend,
                            measure::Scope scope, const std::string& mode);
void set_problem_axes(measure::Record& r, const Problem& p);
measure::Point problem_point(const Problem& p);  // n, k, m: the axes every record of a problem carries first
measure::Record skipped_record(measure::Record r, const std::string& why);
double median(std::vector<double> v);
std::string fmt_n(std::uint64_t n);  // 1e9 -> "10^9", 7000000 -> "7e6"
std::string now_id();                // a scope-set id stem: UTC time

// EXTERNAL samples of one command (one untimed run first): the child's exit code must be 0 and,
// when `expected_stdout` is given, its output must equal it. Returns the results, or the reason
// it failed.
struct ExternalSet {
  measure::ScopeSamples samples;  // the timed runs (measure/four_scopes.hpp)
  std::string failure;  // "" when every run succeeded (and matched)
  std::string stdout_text;  // the last run's output
  std::vector<double> scope(const std::string& name) const;  // EXTERNAL, PROGRAM, pre_main, post_main, figures
};
ExternalSet sample_external(const std::vector<std::string>& argv, const std::vector<std::pair<std::string, std::string>>& env,
                            int runs, const std::optional<std::string>& expected_stdout, double timeout_s,
                            const std::string& stdin_path = "");
// One record per scope (EXTERNAL, PROGRAM, pre-main, post-main, GPU_PIPELINE, GPU_COMPUTE and named phases as
// extra) from one set, sharing extra.scope_set; nesting checked.
std::vector<measure::Record> external_records(const ExternalSet& s, const std::string& variant, const std::string& technique,
                                              const std::string& scope_set, const measure::Point& axes);

// A sweep's points: marks the one `rule` chooses among those with a measurement (extra.chosen, and
// extra.tie_rule on it); leaves the records as they are when none was measured.
void mark_choice(std::vector<measure::Record>& points, const measure::TieRule& rule);

#ifdef JOSEKI_HAVE_CUDA
// Validates one configuration (poisoned outputs, exact comparison with `want`), then times its full
// solve (cold); the record carries the configuration's counts, chunks and slices.
measure::Record time_solve(const Problem& p, const PairsConfig& cfg, const Answer& want, cuda::GpuTimer& timer,
                           const BenchOptions& o, measure::Record r);
// What a record of a timed solve says of its configuration (extra): combiner, counter, chunks, ...
nlohmann::json solve_extras(const PairsDevice& dev, const PairsConfig& cfg);
#endif

}  // namespace joseki::abc471g::pairs::bench
