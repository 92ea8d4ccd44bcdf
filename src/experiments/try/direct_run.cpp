// `joseki try --ladder abc471g-direct`, the child's work: compile the user's count kernel with NVRTC
// for this device, then run it as one more rung of the ABC471G direct ladder through
// measure::run_ladder and the ladder's own DirectRunner: validated on the test vectors, the edge
// cases and the max case with the answer poisoned (exact comparison, the first differing shifts
// named), swept over the axes the file declares, timed beside g01 ... g15. The user's rung is a
// run-time RungInfo whose RungOps launch the NVRTC module (one user kernel per child process).
#include <memory>

#include <fmt/format.h>

#include "experiments/try/direct_spec.hpp"
#include "experiments/try/ladders.hpp"
#include "experiments/try/result.hpp"
#include "measure/errors.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include <cuda_runtime.h>

#include "backend/cuda/check.hpp"
#include "backend/cuda/nvrtc.hpp"
#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_direct/ladder.hpp"
#endif

namespace joseki::trykernel {

#ifdef JOSEKI_HAVE_CUDA

namespace {

namespace L = abc471g::ladder;
namespace C = abc471g::gpu_cases;
using cuda::nvrtc::Module;

struct DirectUser {
  const TryFile* file = nullptr;
  const TryLadder* ladder = nullptr;
  DirectSpec spec;
  std::string arch;
  std::vector<std::string> extra;  // -lineinfo under the sanitizer
  std::map<std::string, std::unique_ptr<Module>> modules;  // by defines
  std::map<std::string, CompileReport> reports;
  double compile_s = 0;
  abc471g::gpu_api::RungOps ops;
  L::RungInfo info;

  static std::string key_of(const std::vector<std::string>& defs) {
    std::string key;
    for (const auto& d : defs) key += d + " ";
    return key;
  }
  const Module& get(int block, std::int64_t chunk) {
    const std::vector<std::string> defs = direct_defines(spec, block, chunk);
    const std::string key = key_of(defs);
    if (const auto it = modules.find(key); it != modules.end()) return *it->second;
    cuda::nvrtc::CompileRequest req;
    req.source = file->source;
    req.file_name = file->path;
    req.arch = arch;
    req.options = defs;
    req.options.insert(req.options.end(), extra.begin(), extra.end());
    const cuda::nvrtc::CompileResult res = cuda::nvrtc::compile(req);
    compile_s += res.seconds;
    reports[key] = compile_report(res, arch, defs, DIRECT_ENTRY);
    if (!res.ok) throw CompileError(file->path, res.log, defs);
    check_signature(*ladder, file->path, res.ptx);
    auto m = std::make_unique<Module>(res, DIRECT_ENTRY);
    if (const auto got = m->param_sizes(ladder->param_sizes.size()); got && *got != ladder->param_sizes) {
      std::string g;
      for (std::size_t v : *got) g += (g.empty() ? "" : ", ") + std::to_string(v);
      throw InputError(fmt::format("{}: {} takes {} parameter(s) of {} bytes; the abc471g-direct ladder's signature "
                                   "is {}: 5 parameters of 8, 8, 8, 4, 8 bytes (joseki try --list)",
                                   file->path, DIRECT_ENTRY, got->size(), g, ladder->signature));
    }
    modules[key] = std::move(m);
    return *modules[key];
  }
};

DirectUser* g_direct = nullptr;

std::string user_check(const abc471g::gpu_api::Shape& s, const abc471g::gpu_api::Config& c) {
  return direct_grid_check(s.n, s.k, c.block, c.chunk);
}

std::size_t user_scratch(const abc471g::gpu_api::Shape&, const abc471g::gpu_api::Config&) { return 0; }

void user_launch(const abc471g::gpu_api::DeviceProblem& p, const abc471g::gpu_api::Config& c, CUstream_st* s) {
  const Module& m = g_direct->get(c.block, c.chunk);
  if (g_direct->spec.zero_before)
    JOSEKI_CUDA_CHECK(cudaMemsetAsync(p.d_answer, 0, sizeof(std::uint32_t) * p.shape.k, s));
  const DirectGrid g = direct_grid(p.shape.n, p.shape.k, c.block, c.chunk);
  const unsigned int* a = p.d_a;
  unsigned long long n = p.shape.n;
  const unsigned char* v = p.d_v;
  unsigned int k = p.shape.k;
  unsigned int* answer = p.d_answer;
  void* args[] = {&a, &n, &v, &k, &answer};
  JOSEKI_CUDA_CHECK(cudaLaunchKernel(m.func(), dim3(static_cast<unsigned>(g.x), static_cast<unsigned>(g.y)),
                                     dim3(static_cast<unsigned>(c.block)), args, 0, s));
  JOSEKI_CUDA_CHECK_LAUNCH();
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

}  // namespace

nlohmann::json run_direct_try(const TryFile& f, const RunOptions& o) {
  const gpu::Availability av = gpu::availability();
  if (!av.ok)
    throw GpuUnavailable("running a kernel needs a GPU: " + av.reason +
                         " (--compile-only compiles and reports registers and spills without one)");
  const measure::DeviceFacts facts = gpu::device_facts(o.device);
  JOSEKI_CUDA_CHECK(cudaSetDevice(o.device));
  auto note = [&o](const std::string& s) {
    if (o.progress) o.progress(s);
  };

  static DirectUser user;  // one user kernel per (child) process
  user = DirectUser{};
  user.file = &f;
  user.ladder = &find_ladder("abc471g-direct");
  user.spec = direct_spec(f);
  user.arch = fmt::format("sm_{}{}", facts.cc_major, facts.cc_minor);
  if (o.lineinfo) user.extra.push_back("-lineinfo");
  g_direct = &user;
  const DirectSpec& sp = user.spec;
  user.ops.check = &user_check;
  user.ops.scratch_bytes = &user_scratch;
  user.ops.launch = &user_launch;
  user.ops.sweep_name = sp.slug;
  user.ops.sweep_blocks.assign(sp.sweep_blocks.begin(), sp.sweep_blocks.end());
  user.ops.sweep_chunks = sp.sweep_chunks;
  L::RungInfo& info = user.info;
  info.id = "try";
  info.slug = sp.slug.substr(4);  // variant() = "try_" + the stem = sp.slug
  info.name = sp.name;
  info.technique = sp.technique;
  info.predecessor = sp.like.empty() ? "" : L::find_rung(sp.like).id;  // InputError lists the rungs
  info.rung = 99;  // after every rung; the table ranks by median
  info.defaults = {sp.block, sp.chunk};
  // Like g02's rungs.def line: a small chunk cuts the small cases into many chunks (boundaries).
  if (sp.chunk > 0 && sp.chunk != 7) info.validation.push_back({sp.block, 7});
  info.ops = &user.ops;

  nlohmann::json out;
  out["ladder"] = "abc471g-direct";
  out["variant"] = info.variant();
  out["file"] = f.path;
  out["device"] = measure::to_json(facts);
  out["baseline"] = L::baseline_rung().variant();
  out["ceiling"] = "";

  // Compile every configuration first (defaults, validation, the sweep's), so that a compile error
  // or a wrong signature is an answer before anything runs and compiling stays out of the timing.
  note(fmt::format("try: compiling {} for {} with NVRTC", f.path, user.arch));
  const Module& m0 = user.get(sp.block, sp.chunk);
  const CompileReport first = user.reports.begin()->second;
  for (const auto& c : info.validation) (void)user.get(c.block, c.chunk);
  if (!o.validate_only) {
    const std::vector<std::int64_t> bs = sp.sweep_blocks.empty() ? std::vector<std::int64_t>{sp.block} : sp.sweep_blocks;
    const std::vector<std::int64_t> cs = sp.sweep_chunks.empty() ? std::vector<std::int64_t>{sp.chunk} : sp.sweep_chunks;
    for (std::int64_t b : bs)
      for (std::int64_t c : cs) (void)user.get(static_cast<int>(b), c);
  }
  out["compile"] = to_json(first);
  out["compile"]["configurations"] = user.modules.size();
  {
    const Module::Attributes a = m0.attributes();
    const int bps = m0.blocks_per_sm(sp.block, 0);
    out["kernel"] = {{"registers", a.registers},
                     {"static_smem_bytes", a.static_smem},
                     {"local_bytes", a.local_bytes},
                     {"binary_version", a.binary_version},
                     {"block", sp.block},
                     {"chunk", sp.chunk},
                     {"resident_blocks_per_sm", bps},
                     {"occupancy_pct",
                      facts.max_threads_per_sm ? 100.0 * bps * sp.block / facts.max_threads_per_sm : 0.0},
                     {"output", sp.output_name}};
  }

  // The suite: the test vectors and the edge cases (under the sanitizer: the edge cases and the
  // small built-in case alone, racecheck is ~100x slower); the timed case: the max case.
  std::vector<std::string> notes;
  std::vector<C::Case> cases;
  if (o.lineinfo) {
    cases = C::edge_cases();
    cases.push_back(C::builtin_case("small"));
  } else {
    cases = L::validation_suite(notes);
  }
  for (const auto& s : notes) note("try: " + s);
  C::Case timed = C::builtin_case("max");
  std::vector<std::uint32_t> a;
  abc471g::Answer reference;
  std::optional<C::Case> timed_case;
  if (!o.validate_only) {
    note(fmt::format("try: case max: N = {}, K = {}; computing the CPU reference ...", timed.problem.n,
                     timed.problem.k));
    a = C::generate_all(timed.problem);
    reference = timed.expected ? *timed.expected : C::reference_answer(timed.problem, a);
    timed_case = timed;
  }
  const std::size_t n_cases = cases.size();
  L::DirectRunner runner(std::move(cases), timed_case, o.device, &a, &reference);

  measure::Ladder lad{L::kExperiment, {}};  // the ladder's rungs (none when only validating), then yours
  if (!o.validate_only)
    for (const L::RungInfo* r : L::select_rungs(join(o.rungs))) lad.rungs.push_back(L::rung_spec(*r, timed.problem.k));
  measure::RungSpec mine = L::rung_spec(info, timed.problem.k);
  mine.sweep_sets_row = true;  // the file's sweep chooses the row, as the reduce ladder's try does
  mine.tie_rule.tolerance = sp.tie;
  lad.rungs.push_back(std::move(mine));
  lad.check();
  measure::LadderOptions lo;
  lo.modes = o.modes;
  lo.rule = o.rule;
  lo.sweep = !sp.sweep_blocks.empty() || !sp.sweep_chunks.empty();
  lo.sweep_only = {info.variant()};
  lo.validate_only = o.validate_only;
  lo.workload.set("case", timed.name);
  lo.workload.set("n", static_cast<std::int64_t>(timed.problem.n));
  lo.workload.set("k", static_cast<std::int64_t>(timed.problem.k));
  lo.workload.set("m", static_cast<std::int64_t>(timed.problem.m()));
  lo.datasheet_Bps = facts.datasheet_bw_Bps();
  lo.progress = [&note](const std::string& s) { note("try: " + s); };
  note(fmt::format("try: validating {} on {} cases{} (answer poisoned, exact comparison){}", info.variant(), n_cases,
                   o.validate_only ? "" : " and the max case",
                   o.validate_only ? "" : fmt::format(", then timing it beside {} rungs", lad.rungs.size() - 1)));
  const measure::LadderResult res = measure::run_ladder(lad, {&runner}, lo);

  out["n"] = timed.problem.n;
  out["k"] = timed.problem.k;
  out["case"] = timed.name;
  out["cases"] = n_cases;
  out["validations"] = nlohmann::json::array();
  for (const auto& v : res.validations)
    out["validations"].push_back({{"variant", v.variant}, {"config", v.config}, {"ok", v.ok}, {"message", v.message}});
  out["failures"] = res.failures;
  out["seed"] = o.seed;
  out["records"] = nlohmann::json::array();
  for (const auto& r : res.records) out["records"].push_back(measure::to_json(r));
  out["compile"]["total_seconds"] = user.compile_s;
  out["status"] = "exact";
  for (const auto& v : res.validations)
    if (v.variant == info.variant() && !v.ok && !v.message.empty()) {
      out["status"] = "wrong";
      out["first_failure"] = {{"config", v.config}, {"message", v.message}, {"explanation", v.message}};
      break;
    }
  if (out["status"] == "exact") {
    const std::string mine_prefix = info.variant();
    for (const auto& msg : res.failures)
      if (msg.find(mine_prefix) != std::string::npos) {
        out["status"] = "wrong";
        out["first_failure"] = {{"config", ""}, {"message", msg}, {"explanation", msg}};
        break;
      }
  }
  user.modules.clear();  // unloaded while the runtime is certainly alive
  return out;
}

#else

nlohmann::json run_direct_try(const TryFile&, const RunOptions&) {
  throw GpuUnavailable("running a kernel needs a GPU, and this joseki was built without CUDA (--compile-only needs "
                       "NVRTC, which a CUDA build loads at run time)");
}

#endif

}  // namespace joseki::trykernel
