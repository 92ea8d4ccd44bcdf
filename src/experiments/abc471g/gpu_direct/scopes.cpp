// The four nested scopes of `joseki abc471g solve --solver gpu-direct`, measured together: each
// sample is one child process, run by measure/four_scopes.hpp (EXTERNAL, PROGRAM, GPU_PIPELINE,
// GPU_COMPUTE, pre-main and post-main, the nesting checked for every sample). Every child's output
// is checked against the reference here.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "experiments/abc471g/gpu_direct/ladder_internal.hpp"
#include "experiments/abc471g/inputs.hpp"
#include "measure/errors.hpp"
#include "backend/gpu.hpp"
#include "measure/four_scopes.hpp"

namespace joseki::abc471g::ladder {

namespace {

std::string temp_path(const char* suffix) {
  const char* dir = std::getenv("TMPDIR");
  std::string t = fmt::format("{}/joseki-abc471g-gpu-XXXXXX{}", dir && *dir ? dir : "/tmp", suffix);
  const int fd = ::mkstemps(t.data(), static_cast<int>(std::string(suffix).size()));
  if (fd < 0) throw RunError(fmt::format("cannot create a temporary file like '{}'", t));
  ::close(fd);
  return t;
}

Answer read_output(const std::string& path) {
  std::ifstream f(path);
  Answer a;
  std::uint64_t x = 0;
  while (f >> x) a.push_back(x);
  return a;
}

}  // namespace

std::string write_case_file(const Problem& p) {
  const std::string path = temp_path(".in");
  const std::string text = to_text(p);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw RunError(fmt::format("cannot write '{}'", path));
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (std::fclose(f) != 0 || !ok) throw RunError(fmt::format("cannot write '{}'", path));
  return path;
}

std::vector<measure::Record> four_scopes(const std::string& self_exe, const std::string& input_path,
                                         const gpu_cases::Case& c, const Answer& reference, int device,
                                         const measure::StoppingRule& rule, const Note& note) {
  const std::string out_path = temp_path(".out");
  struct Remove {
    std::string path;
    ~Remove() { std::remove(path.c_str()); }
  } remove_out{out_path};
  measure::FourScopesOptions o;
  o.spawn.argv = {self_exe, "--quiet", "--device", std::to_string(device), "abc471g", "solve", "--solver", "gpu-direct"};
  o.spawn.stdin_path = input_path;
  o.spawn.stdout_path = out_path;
  o.spawn.timeout_s = 300;
  o.what = "gpu-direct child";
  o.hint = fmt::format("run it by hand: {} abc471g solve --solver gpu-direct < {}", self_exe, input_path);
  o.required = {measure::Scope::Program, measure::Scope::GpuPipeline, measure::Scope::GpuCompute};
  o.check = [&](const measure::ExternalResult&) {
    const std::string diff = gpu_cases::compare_answers(read_output(out_path), reference);
    if (!diff.empty()) throw ValidationError("gpu-direct child's output: " + diff);
  };
  o.rule = rule;
  o.rule.min_samples = std::max(5, std::min(rule.min_samples, 10));
  o.parent_context = [] { return std::optional<bool>(::joseki::gpu::holds_context()); };
  if (note) note("four scopes: spawning `joseki abc471g solve --solver gpu-direct` ...");
  const measure::ScopeSamples samples = measure::sample_four_scopes(o);

  const RungInfo& fr = final_rung();
  measure::Record base;
  base.experiment = kExperiment;
  base.variant = "gpu-direct";
  base.technique = fmt::format("`joseki abc471g solve --solver gpu-direct` ({}), one process per sample", fr.variant());
  base.axes.set("case", c.name);
  base.axes.set("n", static_cast<std::int64_t>(c.problem.n));
  base.axes.set("k", static_cast<std::int64_t>(c.problem.k));
  base.axes.set("m", static_cast<std::int64_t>(c.problem.m()));
  base.validation = "exact";
  base.extra["final_rung"] = fr.variant();
  std::vector<measure::Record> out =
      measure::four_scope_records(samples, base, "abc471g-gpu-direct-" + measure::utc_now_iso8601());
  return out;  // the caller fails the command when extra.nesting is "violated"
}

}  // namespace joseki::abc471g::ladder
