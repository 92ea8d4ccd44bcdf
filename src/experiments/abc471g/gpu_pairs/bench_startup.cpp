// Where a GPU solve's start-up time goes, and what the cuts save (bench.hpp). Children of this
// binary (`joseki abc471g scale child --phase P`) each stop after one more step of CUDA's
// start-up; the parent times them (EXTERNAL) and reads their figures and main entry/exit times:
//   none     the process alone (exec, dynamic loader, static initialisers, exit): the floor
//   count    + cudaGetDeviceCount: driver load and initialisation
//   context  + cudaSetDevice + cudaFree(0): the primary context
//   module   + the first launch of a gpu-pairs kernel (module load; LAZY vs EAGER loading)
//   solve    the max case read, parsed, solved on the GPU, printed: as shipped, with the context
//            created on a second thread during parsing, with an exit that skips CUDA's teardown,
//            and with both.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_pairs/bench.hpp"
#include "experiments/abc471g/gpu_pairs/bench_util.hpp"
#include "experiments/abc471g/gpu_pairs/startup.hpp"
#include "experiments/abc471g/inputs.hpp"
#include "experiments/abc471g/io.hpp"
#include "measure/errors.hpp"
#include "measure/program_scope.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "backend/cuda/check.hpp"
#include "experiments/abc471g/gpu_pairs/kernels.hpp"
#endif

namespace joseki::abc471g::pairs {

using bench::base_record;
using measure::ProgramScope;
using measure::Record;
using measure::Scope;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("--input " + path + ": cannot open: " + std::strerror(errno));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_stdout(const std::string& s) {
  std::cout.flush();
  if (std::fwrite(s.data(), 1, s.size(), stdout) != s.size() || std::fflush(stdout) != 0)
    throw RunError(std::string("cannot write the answer to standard output: ") + std::strerror(errno));
}

}  // namespace

void run_child(const ChildOptions& c) {
  const std::string& ph = c.phase;
  if (ph != "none" && ph != "count" && ph != "context" && ph != "module" && ph != "solve" && ph != "solve-async" &&
      ph != "solve-exit")
    throw InputError("--phase " + ph + ": unknown (none, count, context, module, solve)");
  if (ph == "none") return;
  if (ph.rfind("solve", 0) == 0) {
    const bool async = c.fast || ph == "solve-async";
    const bool quick_exit = c.fast || ph == "solve-exit";
    if (c.input.empty()) throw InputError("--phase solve needs --input FILE");
    const bool gpu_solver = c.solver != "auto-calibrated" && find_solver(c.solver).needs_gpu;
    if (async && gpu_solver) startup::begin_context_async(c.device);  // overlaps reading + parsing
    double t0 = ProgramScope::elapsed_s();
    const Problem p = parse_problem_text(read_file(c.input));
    ProgramScope::add("parse", ProgramScope::elapsed_s() - t0);
    std::string name = c.solver;
    if (name == "auto-calibrated") {
      auto [chosen, why] = choose_calibrated(p, AutoSweepOptions{}.candidates);
      name = chosen;
      std::cerr << why << "\n";
    }
    SolveOptions so;
    so.device = c.device;
    const SolveResult r = find_solver(name).solve(p, so);
    t0 = ProgramScope::elapsed_s();
    write_stdout(format_answer(r.answer));
    ProgramScope::add("output", ProgramScope::elapsed_s() - t0);
    for (const auto& [k, v] : r.phases_s) ProgramScope::add(k, v);
    if (r.gpu_compute_s) ProgramScope::add(to_string(Scope::GpuCompute), *r.gpu_compute_s);
    if (r.gpu_pipeline_s) ProgramScope::add(to_string(Scope::GpuPipeline), *r.gpu_pipeline_s);
    const startup::ContextTimes ct = startup::context_times();
    if (ct.started) {
      ProgramScope::add("driver_init", ct.driver_init_s);
      ProgramScope::add("context_create", ct.context_s);
    }
    if (quick_exit) {
      ProgramScope::end();
      startup::fast_exit(0);
    }
    return;
  }
  // count / context / module
  double t0 = ProgramScope::elapsed_s();
  const gpu::Availability a = gpu::availability();
  ProgramScope::add("driver_init", ProgramScope::elapsed_s() - t0);
  if (!a.ok) throw GpuUnavailable(a.reason);
  if (ph == "count") return;
  t0 = ProgramScope::elapsed_s();
  gpu::create_context_only(c.device);
  ProgramScope::add("context_create", ProgramScope::elapsed_s() - t0);
  if (ph == "context") return;
#ifdef JOSEKI_HAVE_CUDA
  // module: the first launch of a kernel of the gpu-pairs module, then a second one.
  t0 = ProgramScope::elapsed_s();
  launch_flush_table(nullptr, nullptr, 0, nullptr);
  JOSEKI_CUDA_CHECK(cudaDeviceSynchronize());
  const double first = ProgramScope::elapsed_s() - t0;
  t0 = ProgramScope::elapsed_s();
  launch_flush_table(nullptr, nullptr, 0, nullptr);
  JOSEKI_CUDA_CHECK(cudaDeviceSynchronize());
  const double second = ProgramScope::elapsed_s() - t0;
  ProgramScope::add("first_launch", first);
  ProgramScope::add("second_launch", second);
  ProgramScope::add("module_load", first > second ? first - second : 0.0);
#else
  throw GpuUnavailable("this joseki was built without CUDA");
#endif
}

std::vector<Record> bench_startup(const StartupOptions& so, const BenchOptions& o) {
  gpu::require_device(o.device);
  if (o.self_exe.empty()) throw RunError("abc471g scale startup: the path of the joseki binary is unknown");
  std::vector<Record> out;
  bench::TempDir dir;
  InstanceSpec spec;
  spec.n = so.n;
  spec.k = so.k;
  spec.m = std::min(so.m, so.n);
  spec.seed = 471;
  spec.rng = 3;
  const Problem p = make_problem(spec);
  const std::string file = dir.write("startup.in", to_text(p));
  const Reference ref = reference_answer(p);
  const std::string expected = format_answer(ref.answer);
  const std::string set_id = "startup " + bench::now_id();
  const std::string dev = std::to_string(o.device);
  measure::Point axes;
  axes.set("n", static_cast<std::int64_t>(p.n)).set("k", static_cast<std::int64_t>(p.k)).set("m", static_cast<std::int64_t>(p.m()));
  using Env = std::vector<std::pair<std::string, std::string>>;
  const Env lazy{{"CUDA_MODULE_LOADING", "LAZY"}}, eager{{"CUDA_MODULE_LOADING", "EAGER"}};
  auto child = [&](std::vector<std::string> extra) {
    std::vector<std::string> a{o.self_exe, "--device", dev, "abc471g", "scale", "child"};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  const struct Config {
    const char* variant;
    const char* technique;
    std::vector<std::string> argv;
    Env env;
    bool solve;
  } configs[] = {
      {"startup.none", "the process alone: no CUDA call", child({"--phase", "none"}), lazy, false},
      {"startup.count", "+ cudaGetDeviceCount (driver init)", child({"--phase", "count"}), lazy, false},
      {"startup.context", "+ cudaSetDevice + cudaFree(0) (primary context)", child({"--phase", "context"}), lazy, false},
      {"startup.module_lazy", "+ first kernel launch, CUDA_MODULE_LOADING=LAZY", child({"--phase", "module"}), lazy, false},
      {"startup.module_eager", "+ first kernel launch, CUDA_MODULE_LOADING=EAGER", child({"--phase", "module"}), eager, false},
      {"startup.solve_default", "max case, gpu-pairs: parse, then CUDA, normal exit (as shipped)",
       child({"--phase", "solve", "--input", file}), lazy, true},
      {"startup.solve_async", "... context created on a 2nd thread while the input is read and parsed",
       child({"--phase", "solve-async", "--input", file}), lazy, true},
      {"startup.solve_exit", "... flush, then _exit: no CUDA teardown, no static destructors",
       child({"--phase", "solve-exit", "--input", file}), lazy, true},
      {"startup.solve_fast", "... both cuts", child({"--phase", "solve", "--fast", "--input", file}), lazy, true},
  };
  std::map<std::string, double> ext, post, pre, prog;
  std::map<std::string, std::map<std::string, double>> fig;
  for (const Config& c : configs) {
    o.say(fmt::format("start-up: {} ...", c.variant));
    const bench::ExternalSet es =
        bench::sample_external(c.argv, c.env, so.runs, c.solve ? std::optional<std::string>(expected) : std::nullopt, 120);
    if (!es.failure.empty()) {
      Record f = base_record(c.variant, c.technique, "process", Scope::External, "");
      f.axes = axes;
      f.validation = "failed: " + es.failure;
      out.push_back(f);
      continue;
    }
    auto recs = bench::external_records(es, c.variant, c.technique, set_id, axes);
    for (Record& r : recs)
      if (!c.solve) r.validation = "not-applicable";
    ext[c.variant] = bench::median(es.scope(to_string(Scope::External)));
    post[c.variant] = bench::median(es.scope("post_main"));
    pre[c.variant] = bench::median(es.scope("pre_main"));
    prog[c.variant] = bench::median(es.scope(to_string(Scope::Program)));
    for (const char* f : {"driver_init", "context_create", "module_load", "first_launch", "parse", "cuda_init"})
      if (!es.scope(f).empty()) fig[c.variant][f] = bench::median(es.scope(f));
    out.insert(out.end(), recs.begin(), recs.end());
  }
  // The split, as VALUE records derived from the medians above (one scope set).
  auto value = [&](const std::string& name, const std::string& how, double v) {
    Record r = base_record("startup.split." + name, how, "process", Scope::Value, "");
    r.axes = axes;
    r.samples = {v};
    r.summary = measure::summarize(r.samples);
    r.stop_reason = "single";
    r.validation = "not-applicable";
    r.ladder.scope_set = set_id;
    r.extra["derived_from"] = "medians of the startup.* EXTERNAL records";
    out.push_back(r);
  };
  auto has = [&](const char* v) { return ext.count(v) > 0; };
  if (has("startup.none")) {
    value("process_floor", "EXTERNAL of a joseki process that makes no CUDA call", ext["startup.none"]);
    value("pre_main", "exec + dynamic loading + static initialisers (no-CUDA child)", pre["startup.none"]);
  }
  if (has("startup.count")) value("driver_init", "cudaGetDeviceCount in main (count child)", fig["startup.count"]["driver_init"]);
  if (has("startup.context")) {
    value("context_create", "cudaSetDevice + cudaFree(0) in main (context child)", fig["startup.context"]["context_create"]);
    if (has("startup.none"))
      value("teardown", "post-main(context child) - post-main(no-CUDA child): CUDA teardown at exit",
            post["startup.context"] - post["startup.none"]);
  }
  if (has("startup.module_lazy")) value("module_load_lazy", "first launch - second launch, LAZY", fig["startup.module_lazy"]["module_load"]);
  if (has("startup.module_eager")) value("module_load_eager", "first launch - second launch, EAGER", fig["startup.module_eager"]["module_load"]);
  if (has("startup.module_lazy") && has("startup.module_eager"))
    value("lazy_saving", "EXTERNAL(module, EAGER) - EXTERNAL(module, LAZY)", ext["startup.module_eager"] - ext["startup.module_lazy"]);
  for (const char* v : {"startup.solve_async", "startup.solve_exit", "startup.solve_fast"})
    if (has("startup.solve_default") && has(v)) {
      value(std::string("saving_") + (v + 14), std::string("EXTERNAL(solve_default) - EXTERNAL(") + (v + 8) + ")",
            ext["startup.solve_default"] - ext[v]);
      out.back().extra["before_s"] = ext["startup.solve_default"];
      out.back().extra["after_s"] = ext[v];
    }
  return out;
}

}  // namespace joseki::abc471g::pairs
