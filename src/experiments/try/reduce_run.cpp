// `joseki try --ladder reduce`, the child's work: compile the user's kernel with NVRTC for this
// device, check it like a rung at odd and unaligned sizes, then time it in the reduce ladder's own
// harness beside the rungs, CUB and the stream-read ceiling. The user's kernel is one more
// reduce::Rung whose launcher calls the NVRTC-compiled kernel, validated and timed by the one ladder
// protocol (measure::run_ladder, through the harness's CUDA runner) (this process holds one user kernel:
// the child process exists for it, so a hung or faulting kernel cannot touch the parent's records).
#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "experiments/reduce/cpu_sum.hpp"
#include "experiments/reduce/harness.hpp"
#include "experiments/try/child.hpp"
#include "experiments/try/ladders.hpp"
#include "experiments/try/reduce_spec.hpp"
#include "measure/errors.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include <cuda_runtime.h>

#include "backend/cuda/check.hpp"
#endif

namespace joseki::trykernel {

std::vector<std::size_t> reduce_sanitize_sizes() { return {1, 5, 4099, 65537}; }

// The validation sizes: tiny, odd (not a multiple of the block or the vector width), one past a
// power of two, and the timed size; each at offsets 0..3 (three of which are not 16-byte aligned).
std::vector<std::size_t> reduce_validation_sizes(std::size_t n) {
  std::vector<std::size_t> s = {1, 3, 31, 255, 4097, (std::size_t{1} << 20) + 3};
  if (n) s.push_back(n);
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

std::string explain_reduce_mismatch(const std::uint32_t* in, std::size_t n, std::size_t room_after, std::uint32_t got,
                                    std::uint32_t expected) {
  std::string s = fmt::format("out[0] = {:#010x}, expected {:#010x}", got, expected);
  if (got == 0xA5A5A5A5u) return s + ": the poison, so nothing was written to out[0]";
  const std::uint32_t missing = expected - got;  // mod 2^32
  std::uint32_t acc = 0;
  for (std::size_t k = 1; k <= std::min<std::size_t>(n - 1, 8); ++k) {
    acc += in[n - k];
    if (acc == missing)
      return s + fmt::format(": the difference is in[{}..{}], the last {} element{}: the tail is not read", n - k, n - 1,
                             k, k > 1 ? "s" : "");
  }
  acc = 0;
  for (std::size_t k = 1; k <= std::min<std::size_t>(n - 1, 8); ++k) {
    acc += in[k - 1];
    if (acc == missing)
      return s + fmt::format(": the difference is in[0..{}], the first {} element{}: the head (before the first "
                             "16-byte boundary) is not read",
                             k - 1, k, k > 1 ? "s" : "");
  }
  const std::uint32_t extra = got - expected;
  acc = 0;
  for (std::size_t k = 1; k <= std::min<std::size_t>(room_after, 8); ++k) {
    acc += in[n + k - 1];
    if (acc == extra)
      return s + fmt::format(": the excess is the {} word{} after in[n - 1] (in[{}..{}]): reads past the end", k,
                             k > 1 ? "s" : "", n, n + k - 1);
  }
  if (got == 0) return s + ": zero (nothing was added, or out[0] was overwritten with 0)";
  if (got == 2 * expected) return s + ": twice the sum (every element counted twice)";
  return s;
}

#ifdef JOSEKI_HAVE_CUDA

namespace {

using cuda::nvrtc::Module;

struct UserKernel {
  ReduceSpec spec;
  UserModules modules;

  const Module& get(int block, int unroll) { return modules.get(reduce_defines(spec, block, unroll)); }
};

UserKernel* g_user = nullptr;

void launch_user(const reduce::GpuArgs& a, CUstream_st* s) {
  const Module& m = g_user->get(a.plan.block, a.plan.unroll);
  if (g_user->spec.zero_before) JOSEKI_CUDA_CHECK(cudaMemsetAsync(a.d_out, 0, sizeof(std::uint32_t), s));
  const unsigned int* in = a.d_in;
  unsigned long long n = a.n;
  unsigned int* out = a.d_out;
  unsigned int slot = a.slot & 1u;
  void* work = a.d_work;
  void* args[] = {&in, &n, &out, &slot, &work};
  JOSEKI_CUDA_CHECK(cudaLaunchKernel(m.func(), dim3(static_cast<unsigned>(a.plan.grid)),
                                     dim3(static_cast<unsigned>(a.plan.block)), args, a.plan.dynamic_smem, s));
  JOSEKI_CUDA_CHECK_LAUNCH();
}

std::size_t user_workspace(std::size_t) { return g_user->spec.workspace_bytes; }

nlohmann::json validation_json(const reduce::ValidationRow& v) {
  return {{"variant", v.variant}, {"n", v.n},   {"offset", v.offset},   {"config", v.config},
          {"got", v.got},         {"expected", v.expected}, {"ok", v.ok}, {"message", v.message}};
}

}  // namespace

nlohmann::json run_reduce_try(const TryFile& f, const RunOptions& o) {
  const measure::DeviceFacts facts = open_device(o);
  const auto note = progress_of(o);
  const TryLadder& ladder = find_ladder("reduce");

  static UserKernel user;  // one user kernel per (child) process
  user = UserKernel{};
  user.spec = reduce_spec(f);
  user.modules = UserModules(f, ladder, facts, o.lineinfo);
  g_user = &user;
  reduce::Rung& rung = user.spec.rung;
  rung.launch = &launch_user;
  if (user.spec.workspace_bytes) rung.workspace = &user_workspace;

  nlohmann::json out = result_head(ladder, rung.slug, f, facts);
  const std::size_t n = o.n ? o.n : (std::size_t{1} << 24);
  out["n"] = n;

  // Compile every configuration first (the default and the sweep's), so that a compile error is
  // an answer before anything runs and the compile time stays out of the run.
  note(fmt::format("try: compiling {} for {} with NVRTC", f.path, user.modules.arch()));
  const reduce::DeviceShape shape{facts.sm_count, facts.max_threads_per_sm, facts.smem_per_sm,
                                  facts.smem_per_block_optin};
  const reduce::Knobs def = reduce::resolve_knobs(rung.defaults, shape);
  const Module& m0 = user.get(def.block, def.unroll);  // the ladder's signature checked
  if (rung.swept && !o.validate_only) {  // validation runs the default configuration alone
    const std::vector<std::int64_t> blocks = rung.space.block.empty() ? std::vector<std::int64_t>{def.block} : rung.space.block;
    const std::vector<std::int64_t> unrolls = rung.space.unroll.empty() ? std::vector<std::int64_t>{def.unroll} : rung.space.unroll;
    for (std::int64_t b : blocks)
      for (std::int64_t u : unrolls) (void)user.get(static_cast<int>(b), static_cast<int>(u));
  }
  out["compile"] = user.modules.compile_json();
  {
    const reduce::LaunchPlan plan = reduce::plan_launch(rung, def, n, shape);
    nlohmann::json& k = out["kernel"] = kernel_json(m0, plan.block, plan.dynamic_smem, facts);
    k["grid"] = plan.grid;
    k["unroll"] = plan.unroll;
    k["blocks_per_sm_asked"] = def.blocks_per_sm;
    k["grid_policy"] = user.spec.grid_name;
    k["output"] = user.spec.output_name;
  }

  // Validation: poisoned output, fresh random inputs, odd sizes at offsets 0..3, two runs each.
  reduce::RunOptions vo;
  vo.sizes = o.only_n ? std::vector<std::size_t>{n} : reduce_validation_sizes(o.validate_only && !o.n ? 0 : n);
  vo.offsets = o.only_n ? std::vector<std::size_t>{0} : std::vector<std::size_t>{0, 1, 2, 3};
  if (o.lineinfo) {
    // Under compute-sanitizer (--sanitize; racecheck is ~100x slower): a few small sizes (and --n
    // when given), the default configuration, offset 0 alone, so that the input buffer holds
    // exactly n words and a read past in[n - 1] is outside the allocation, where memcheck sees it.
    vo.sizes = reduce_sanitize_sizes();
    if (o.n && !std::count(vo.sizes.begin(), vo.sizes.end(), o.n)) vo.sizes.push_back(o.n);
    vo.offsets = {0};
  }
  if (o.validate_only)  // the ladder's rungs asked for (ncu's comparison) are validated beside yours
    for (const reduce::Rung* r : o.rungs.empty() ? std::vector<const reduce::Rung*>{} : reduce::select_rungs(o.rungs))
      if (r->is_gpu()) vo.rungs.push_back(r);
  vo.rungs.push_back(&rung);
  vo.validate_only = true;
  vo.device = o.device;
  vo.seed = o.seed;
  vo.progress = [&note](const std::string& s) { note("try: validate: " + s); };
  if (o.lineinfo) {
    std::string ns;
    for (std::size_t s : vo.sizes) ns += (ns.empty() ? "" : ", ") + std::to_string(s);
    note(fmt::format("try: validating {} under compute-sanitizer at n = {} only (offset 0, an input buffer of "
                     "exactly n words, the default configuration; the full check runs without --sanitize)",
                     rung.slug, ns));
  } else {
    note(fmt::format("try: validating {} at n = 1 ... {}, offsets 0..3, output poisoned, two runs each", rung.slug,
                     vo.sizes.back()));
  }
  const reduce::RunResult vr = reduce::run(vo);
  out["validations"] = nlohmann::json::array();
  for (const auto& v : vr.validations) out["validations"].push_back(validation_json(v));
  out["failures"] = vr.failures;
  out["seed"] = o.seed;
  if (!vr.failures.empty()) {
    for (const auto& v : vr.validations)
      if (!v.ok) {
        // The same data the harness used (its seed rule), to say which elements the difference is.
        const reduce::HostData data = reduce::generate(v.n + 3, o.seed ^ (v.n * 0x9E3779B97F4A7C15ull));
        out["first_failure"] = {{"n", v.n},
                                {"offset", v.offset},
                                {"config", v.config},
                                {"got", v.got},
                                {"expected", v.expected},
                                {"message", v.message},
                                {"explanation", v.got == v.expected ? v.message
                                                                    : explain_reduce_mismatch(data.data() + v.offset, v.n,
                                                                                              3 - v.offset, v.got,
                                                                                              v.expected)}};
        break;
      }
    out["status"] = "wrong";
    return out;
  }
  if (o.validate_only) {
    out["status"] = "exact";
    return out;
  }

  // The ladder: its GPU rungs, CUB, the ceiling, and the user's kernel, timed in the same run.
  reduce::RunOptions ro;
  ro.sizes = {n};
  ro.modes = o.modes;
  for (const reduce::Rung* r : reduce::select_rungs(o.rungs))
    if (r->is_gpu()) ro.rungs.push_back(r);
  ro.rungs.push_back(&rung);
  ro.sweep = rung.swept;
  if (rung.swept) ro.sweep_rungs = {rung.slug};
  ro.rule = o.rule;
  ro.device = o.device;
  ro.seed = o.seed;
  ro.progress = [&note](const std::string& s) { note("try: " + s); };
  note(fmt::format("try: timing {} beside {} ladder rungs, CUB and the stream-read ceiling at n = {}", rung.slug,
                   ro.rungs.size() - 1, reduce::size_label(n)));
  const reduce::RunResult rr = reduce::run(ro);
  for (const auto& s : rr.failures) out["failures"].push_back(s);
  // Wrong only when yours failed (at a sweep point, or after the timed launches: state kept across
  // launches); a ladder rung's failure is reported apart (the parent exits 1 for it too).
  const std::string mine = rung.slug + " ";
  set_status(out, rr.failures, [&mine](const std::string& msg) { return msg.rfind(mine, 0) == 0; },
             {{"n", n}, {"offset", 0}, {"config", ""}});
  finish(out, rr.records, user.modules);
  return out;
}

#else

nlohmann::json run_reduce_try(const TryFile&, const RunOptions&) { run_needs_cuda(); }

#endif

}  // namespace joseki::trykernel
