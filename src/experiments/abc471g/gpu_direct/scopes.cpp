// The four nested scopes of `joseki abc471g solve --solver gpu-direct`, measured together: each
// sample is one child process (EXTERNAL, timed by measure::run_external) that reports its PROGRAM,
// GPU_PIPELINE and GPU_COMPUTE through JOSEKI_SCOPE_REPORT, plus pre-main and post-main. Every
// child's output is checked against the reference; the nesting is checked for every sample.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "experiments/abc471g/gpu_direct/ladder_internal.hpp"
#include "experiments/abc471g/inputs.hpp"
#include "measure/errors.hpp"
#include "measure/program_scope.hpp"
#include "measure/scopes.hpp"
#include "measure/spawn.hpp"

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
  measure::SpawnOptions so;
  so.argv = {self_exe, "--quiet", "--device", std::to_string(device), "abc471g", "solve", "--solver", "gpu-direct"};
  so.stdin_path = input_path;
  so.stdout_path = out_path;
  so.timeout_s = 300;
  std::vector<double> ext, prog, pipe, comp, pre, post;
  std::vector<std::string> violations;
  auto sample = [&]() -> double {
    const measure::ExternalResult r = measure::run_external(so);
    if (r.timed_out) throw RunError("gpu-direct child: timed out after 300 s");
    if (r.exit_code != 0)
      throw RunError(fmt::format("gpu-direct child: exit code {}{} (run it by hand: {} abc471g solve --solver "
                                 "gpu-direct < {})",
                                 r.exit_code, r.term_signal ? fmt::format(", signal {}", r.term_signal) : "", self_exe,
                                 input_path));
    const std::string diff = gpu_cases::compare_answers(read_output(out_path), reference);
    if (!diff.empty()) throw ValidationError("gpu-direct child's output: " + diff);
    for (const char* f : {"PROGRAM", "GPU_PIPELINE", "GPU_COMPUTE"})
      if (!r.figures.count(f)) throw RunError(fmt::format("gpu-direct child reported no {} scope", f));
    for (std::string& v : measure::check_nesting(r.scopes())) violations.push_back(std::move(v));
    ext.push_back(r.external_s);
    prog.push_back(r.figures.at("PROGRAM"));
    pipe.push_back(r.figures.at("GPU_PIPELINE"));
    comp.push_back(r.figures.at("GPU_COMPUTE"));
    if (r.pre_main_s) pre.push_back(*r.pre_main_s);
    if (r.post_main_s) post.push_back(*r.post_main_s);
    return r.external_s;
  };
  if (note) note("four scopes: spawning `joseki abc471g solve --solver gpu-direct` ...");
  measure::StoppingRule r = rule;
  r.min_samples = std::max(5, std::min(r.min_samples, 10));
  measure::WarmUp warm;
  warm.min_runs = 1;  // the first child pays for cold file caches and the driver's first load
  warm.min_time_s = 0;
  const measure::Measurement m = measure::measure(sample, nullptr, r, warm);
  // The warm-up's figures were collected too: keep only the timed samples.
  const std::size_t n = m.samples_s.size(), drop = ext.size() - n;
  auto timed = [&](std::vector<double>& v) { v.erase(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(std::min(drop, v.size()))); };
  for (auto* v : {&ext, &prog, &pipe, &comp, &pre, &post}) timed(*v);

  const std::string scope_set = "abc471g-gpu-direct-" + measure::utc_now_iso8601();
  const RungInfo& fr = final_rung();
  std::vector<measure::Record> out;
  auto make = [&](const std::string& scope, const std::vector<double>& samples, const std::string& part) {
    measure::Record rec;
    rec.experiment = kExperiment;
    rec.variant = "gpu-direct";
    rec.technique = fmt::format("`joseki abc471g solve --solver gpu-direct` ({}), one process per sample", fr.variant());
    rec.backend = scope == "GPU_PIPELINE" || scope == "GPU_COMPUTE" ? "cuda" : "process";
    rec.scope = scope;
    rec.axes.set("case", c.name);
    rec.axes.set("n", static_cast<std::int64_t>(c.problem.n));
    rec.axes.set("k", static_cast<std::int64_t>(c.problem.k));
    rec.axes.set("m", static_cast<std::int64_t>(c.problem.m()));
    if (!part.empty()) rec.axes.set("part", part);
    rec.validation = "exact";
    rec.extra["scope_set"] = scope_set;
    rec.extra["final_rung"] = fr.variant();
    rec.extra["nesting"] = violations.empty() ? "COMPUTE <= PIPELINE <= PROGRAM <= EXTERNAL in every sample"
                                              : "violated";
    if (!violations.empty()) rec.extra["nesting_violations"] = violations;
    if (samples.empty()) {
      rec.skipped = "the child did not report it";
      return rec;
    }
    measure::Measurement mm;
    mm.samples_s = samples;
    mm.stats = measure::summarize(samples);
    mm.reason = m.reason;
    mm.warmup_runs = m.warmup_runs;
    rec.set_measurement(mm);
    return rec;
  };
  out.push_back(make("EXTERNAL", ext, ""));
  out.push_back(make("PROGRAM", prog, ""));
  out.push_back(make("GPU_PIPELINE", pipe, ""));
  out.push_back(make("GPU_COMPUTE", comp, ""));
  out.push_back(make("VALUE", pre, "pre-main"));
  out.push_back(make("VALUE", post, "post-main"));
  return out;  // the caller fails the command when extra.nesting is "violated"
}

}  // namespace joseki::abc471g::ladder
