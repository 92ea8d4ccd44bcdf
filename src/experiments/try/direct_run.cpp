// `joseki try --ladder abc471g-direct`, the child's work: compile the user's count kernel with NVRTC
// for this device, then run it as one more rung of the ABC471G direct ladder through
// measure::run_ladder and the ladder's own DirectRunner: validated on the test vectors, the edge
// cases and the max case with the answer poisoned (exact comparison, the first differing shifts
// named), swept over the axes the file declares, timed beside g01 ... g15. The user's rung is a
// run-time RungInfo whose RungOps launch the NVRTC module (one user kernel per child process).
#include <memory>

#include <fmt/format.h>

#include "experiments/try/child.hpp"
#include "experiments/try/direct_spec.hpp"
#include "experiments/try/ladders.hpp"
#include "measure/errors.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include <cuda_runtime.h>

#include "backend/cuda/check.hpp"
#include "experiments/abc471g/gpu_direct/ladder.hpp"
#endif

namespace joseki::trykernel {

#ifdef JOSEKI_HAVE_CUDA

namespace {

namespace L = abc471g::ladder;
namespace C = abc471g::gpu_cases;
using cuda::nvrtc::Module;

struct DirectUser {
  DirectSpec spec;
  UserModules modules;
  abc471g::gpu_api::RungOps ops;
  L::RungInfo info;

  const Module& get(int block, std::int64_t chunk) { return modules.get(direct_defines(spec, block, chunk)); }
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
  const measure::DeviceFacts facts = open_device(o);
  const auto note = progress_of(o);
  const TryLadder& ladder = find_ladder("abc471g-direct");

  static DirectUser user;  // one user kernel per (child) process
  user = DirectUser{};
  user.spec = direct_spec(f);
  user.modules = UserModules(f, ladder, facts, o.lineinfo);
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

  nlohmann::json out = result_head(ladder, info.variant(), f, facts);
  out["baseline"] = L::baseline_rung().variant();
  out["ceiling"] = "";

  // Compile every configuration first (defaults, validation, the sweep's), so that a compile error
  // or a wrong signature is an answer before anything runs and compiling stays out of the timing.
  note(fmt::format("try: compiling {} for {} with NVRTC", f.path, user.modules.arch()));
  const Module& m0 = user.get(sp.block, sp.chunk);
  for (const auto& c : info.validation) (void)user.get(c.block, c.chunk);
  if (!o.validate_only) {
    const std::vector<std::int64_t> bs = sp.sweep_blocks.empty() ? std::vector<std::int64_t>{sp.block} : sp.sweep_blocks;
    const std::vector<std::int64_t> cs = sp.sweep_chunks.empty() ? std::vector<std::int64_t>{sp.chunk} : sp.sweep_chunks;
    for (std::int64_t b : bs)
      for (std::int64_t c : cs) (void)user.get(static_cast<int>(b), c);
  }
  out["compile"] = user.modules.compile_json();
  out["kernel"] = kernel_json(m0, sp.block, 0, facts);
  out["kernel"]["chunk"] = sp.chunk;
  out["kernel"]["output"] = sp.output_name;

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
  lo.workload = L::case_workload(timed);
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
  // Wrong at your first failed validation, else at the first failure that names your variant.
  set_status(out, res.failures, [&info](const std::string& msg) { return msg.find(info.variant()) != std::string::npos; },
             {{"config", ""}});
  for (const auto& v : res.validations)
    if (v.variant == info.variant() && !v.ok && !v.message.empty()) {
      out["status"] = "wrong";
      out["first_failure"] = {{"config", v.config}, {"message", v.message}, {"explanation", v.message}};
      break;
    }
  finish(out, res.records, user.modules);
  return out;
}

#else

nlohmann::json run_direct_try(const TryFile&, const RunOptions&) { run_needs_cuda(); }

#endif

}  // namespace joseki::trykernel
