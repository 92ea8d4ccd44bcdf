// The ladder, rung by rung: the CPU baselines here, then the GPU rungs of rungs.def (each line
// expanded by JOSEKI_REDUCE_RUNG with its file's ops; none in a CPU-only build).
#include "experiments/reduce/registry.hpp"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "experiments/reduce/cpu_sum.hpp"
#include "experiments/reduce/workload.hpp"
#include "measure/errors.hpp"

namespace joseki::reduce {

namespace {

Rung cpu_rung(std::string slug, std::string name, std::string technique, std::string pred, CpuSumFn fn) {
  Rung r;
  r.id = slug;
  r.slug = std::move(slug);
  r.name = std::move(name);
  r.technique = std::move(technique);
  r.rung = 0;
  r.predecessor = std::move(pred);
  r.backend = Backend::Cpu;
  r.preconditions = "none";
  r.cpu = fn;
  return r;
}

// What several rungs.def entries share.
constexpr const char* VECTOR_PRE =
    "input 4-byte aligned (any 16-byte phase); block a multiple of 32; unroll 1, 2, 4 or 8";
constexpr const char* BULK_PRE =
    "sm_90; chunk a multiple of 16 bytes; 2..16 stages; stages x chunk within the shared memory per block";
// The bandwidth rungs' sweeps pick among points 1 % apart: the goals at 2^24 and 2^28 are
// 1-2 % effects, which a 2 % tie band would throw away (docs/REDUCE.md, "Sweeps").
constexpr double BANDWIDTH_TIE = 0.01;

std::vector<Rung> make_rungs() {
  std::vector<Rung> v;
  v.push_back(cpu_rung("cpu_one_core", "CPU, one core", "one core, auto-vectorised loop (SIMD chosen at run time)", "",
                       &sum_one_core));
  v.push_back(cpu_rung("cpu_all_cores", "CPU, all cores", "all cores (thread pool), auto-vectorised chunks",
                       "cpu_one_core", &sum_all_cores));
#define JK_REDUCE_RUNG(...) v.push_back(JOSEKI_REDUCE_RUNG(__VA_ARGS__));
#include "experiments/reduce/rungs.def"
#undef JK_REDUCE_RUNG
  return v;
}

std::string all_names() {
  std::string s;
  for (const Rung& r : rungs()) s += (s.empty() ? "" : ", ") + r.slug;
  return s;
}

}  // namespace

Rung gpu_rung(const char* id, const char* slug_suffix, const GpuOps& ops, Rung meta) {
  meta.id = id;
  meta.slug = meta.id + "_" + slug_suffix;
  if (meta.rung == 0) meta.rung = std::atoi(id + 1);  // "r05" -> 5, "r01b" -> 1
  meta.backend = Backend::Cuda;
  meta.launch = ops.launch;
  meta.workspace = ops.workspace;
  return meta;
}

measure::RungSpec spec_of(const Rung& r) {
  measure::RungSpec s;
  s.id = r.id;
  s.slug = r.slug;
  s.technique = r.technique;
  s.predecessor = r.predecessor;
  s.position = r.rung;
  s.backend = r.is_gpu() ? "cuda" : "cpu";
  if (r.is_gpu()) s.defaults = knobs_point(r, r.defaults);
  s.baseline = r.slug == "r00_cub";
  s.output = r.output == Output::TwoSlot ? "two slots, alternating launches (rung.hpp, Output::TwoSlot)"
                                         : "one word: the sum mod 2^32";
  s.config_from = r.config_from;
  if (r.is_gpu())
    s.impl = &r;  // the CUDA runner reads the grid policy, output and launcher from the rung
  else
    s.impl = r.cpu;
  return s;
}

const std::vector<Rung>& rungs() {
  static const std::vector<Rung> v = make_rungs();
  return v;
}

const Rung& find_rung(const std::string& name) {
  const std::string want = name == "cub" ? "r00_cub" : name;
  for (const Rung& r : rungs())
    if (r.slug == want || r.id == want) return r;
  throw InputError(fmt::format("--rungs: no rung named '{}' (rungs: {})", name, all_names()));
}

std::vector<const Rung*> select_rungs(const std::vector<std::string>& names) {
  std::vector<bool> on(rungs().size(), false);
  bool any = false;
  for (const std::string& name : comma_items(names)) {
    any = true;
    if (name == "all")
      std::fill(on.begin(), on.end(), true);
    else
      on[static_cast<std::size_t>(&find_rung(name) - rungs().data())] = true;
  }
  std::vector<const Rung*> out;
  for (std::size_t i = 0; i < rungs().size(); ++i)
    if (on[i] || !any) out.push_back(&rungs()[i]);
  return out;
}

}  // namespace joseki::reduce
