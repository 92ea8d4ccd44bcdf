// The ladder, rung by rung. One entry per rung; launchers exist only in a CUDA build.
#include "experiments/reduce/registry.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "experiments/reduce/cpu_sum.hpp"
#include "experiments/reduce/launchers.hpp"
#include "experiments/reduce/workload.hpp"
#include "measure/errors.hpp"

#ifdef JOSEKI_HAVE_CUDA
#define JOSEKI_GPU_FN(fn) &fn
#else
#define JOSEKI_GPU_FN(fn) nullptr
#endif

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

Rung gpu_rung(std::string id, std::string slug, int rung, std::string name, std::string technique, std::string pred,
              GridPolicy grid, Knobs defaults, std::string preconditions, GpuLaunchFn launch) {
  Rung r;
  r.id = std::move(id);
  r.slug = std::move(slug);
  r.rung = rung;
  r.name = std::move(name);
  r.technique = std::move(technique);
  r.predecessor = std::move(pred);
  r.backend = Backend::Cuda;
  r.grid = grid;
  r.defaults = defaults;
  r.preconditions = std::move(preconditions);
  r.launch = launch;
  return r;
}

std::vector<Rung> make_rungs() {
  std::vector<Rung> v;
  v.push_back(cpu_rung("cpu_one_core", "CPU, one core", "one core, auto-vectorised loop (SIMD chosen at run time)", "",
                       &sum_one_core));
  v.push_back(cpu_rung("cpu_all_cores", "CPU, all cores", "all cores (thread pool), auto-vectorised chunks",
                       "cpu_one_core", &sum_all_cores));
  {
    Rung r = gpu_rung("r00", "r00_cub", 0, "CUB DeviceReduce::Sum", "cub::DeviceReduce::Sum (library baseline)", "",
                      GridPolicy::None, {}, "none", JOSEKI_GPU_FN(launch_r00_cub));
    r.workspace = JOSEKI_GPU_FN(r00_cub_workspace);
    v.push_back(r);
  }
  v.push_back(gpu_rung("r01", "r01_atomic", 1, "one atomicAdd per element", "one global atomicAdd per element",
                       "cpu_one_core", GridPolicy::PerElement, {256}, "none", JOSEKI_GPU_FN(launch_r01_atomic)));
  {
    Rung r = gpu_rung("r01b", "r01b_atomic_opaque", 1, "one atomic per element, address opaque to the compiler",
                      "atomicAdd per element, address from memory (no warp aggregation)", "r01_atomic",
                      GridPolicy::PerElement, {256}, "none", JOSEKI_GPU_FN(launch_r01b_atomic_opaque));
    r.workspace = JOSEKI_GPU_FN(r01b_workspace);
    v.push_back(r);
  }
  {
    Rung r = gpu_rung("r02", "r02_shared_tree", 2, "shared-memory tree", "shared-memory tree, 1 element per thread",
                      "r01_atomic", GridPolicy::PerElement, {256}, "block a power of two, 64..1024",
                      JOSEKI_GPU_FN(launch_r02_shared_tree));
    r.tree = true;
    v.push_back(r);
  }
  {
    Rung r = gpu_rung("r03", "r03_coarsen", 3, "thread coarsening", "grid-stride register sums + shared tree",
                      "r02_shared_tree", GridPolicy::Wave, {256, 0}, "block a power of two, 64..1024",
                      JOSEKI_GPU_FN(launch_r03_coarsen));
    r.tree = true;
    r.swept = true;
    r.space.block = {128, 256, 512, 1024};
    r.space.blocks_per_sm = {1, 2, 4, 8, 16, 32};
    r.tie_tolerance = 0.02;  // the seed's rule
    v.push_back(r);
  }
  {
    Rung r = gpu_rung("r04", "r04_warp_shuffle", 4, "warp shuffle", "grid-stride + warp shuffles, 1 barrier",
                      "r03_coarsen", GridPolicy::Wave, {256, 0}, "block a multiple of 32, up to 1024",
                      JOSEKI_GPU_FN(launch_r04_warp_shuffle));
    r.config_from = "r03_coarsen";
    v.push_back(r);
  }
  {
    Rung r = gpu_rung("r04b", "r04b_warp_redux", 4, "warp redux.sync", "grid-stride + redux.sync warp sums",
                      "r04_warp_shuffle", GridPolicy::Wave, {256, 0}, "block a multiple of 32; sm_80+",
                      JOSEKI_GPU_FN(launch_r04b_warp_redux));
    r.config_from = "r03_coarsen";
    r.needs.features = {measure::Feature::ReduxSync};
    v.push_back(r);
  }
  const std::string vec_pre = "input 4-byte aligned (any 16-byte phase); block a multiple of 32; unroll 1, 2, 4 or 8";
  // The bandwidth rungs' sweeps pick among points 1 % apart: the goals at 2^24 and 2^28 are
  // 1-2 % effects, which a 2 % tie band would throw away (docs/REDUCE.md, "Sweeps").
  constexpr double BW_TIE = 0.01;
  {
    Rung r = gpu_rung("r05", "r05_vector_loads", 5, "16-byte vector loads", "uint4 loads, unroll in flight + memset",
                      "r04b_warp_redux", GridPolicy::WaveVector, {256, 0, 4}, vec_pre,
                      JOSEKI_GPU_FN(launch_r05_vector_loads));
    r.config_from = "r06_single_pass";
    v.push_back(r);
  }
  {
    Rung r = gpu_rung("r06", "r06_single_pass", 6, "one launch end to end",
                      "r05 + last-block-done finish: one launch, no memset", "r05_vector_loads",
                      GridPolicy::WaveVector, {256, 0, 4}, vec_pre, JOSEKI_GPU_FN(launch_r06_single_pass));
    r.workspace = JOSEKI_GPU_FN(single_pass_workspace);
    r.swept = true;
    r.space.unroll = {1, 2, 4, 8};
    r.space.block = {256, 512, 1024};
    r.space.blocks_per_sm = {1, 2, 4, 8};
    r.tie_tolerance = BW_TIE;
    v.push_back(r);
  }
  {
    Rung r = gpu_rung("r07", "r07_load_hints", 7, "Hopper load hints",
                      "r06 + cache hints (0: nc.L1::no_allocate.L2::256B, 1: nc.L1::no_allocate, 2: 1 + "
                      "L2 evict_first policy)",
                      "r06_single_pass", GridPolicy::WaveVector, {256, 0, 4, 0, 0, 0},
                      vec_pre + "; hint 0, 1 or 2; sm_80+", JOSEKI_GPU_FN(launch_r07_load_hints));
    r.workspace = JOSEKI_GPU_FN(single_pass_workspace);
    r.hinted = true;
    r.needs.features = {measure::Feature::L2CacheHint};
    r.swept = true;
    r.space.hint = {0, 1, 2};
    r.space.unroll = {4};
    r.space.block = {256, 512, 1024};
    r.space.blocks_per_sm = {1, 2, 4, 8};
    r.tie_tolerance = BW_TIE;
    v.push_back(r);
  }
  const std::string bulk_pre =
      "sm_90; chunk a multiple of 16 bytes; 2..16 stages; stages x chunk within the shared memory per block";
  {
    Rung r = gpu_rung("r08", "r08_bulk_copy", 8, "bulk async copies (TMA)",
                      "cp.async.bulk into a shared-memory ring + mbarriers, one launch", "r06_single_pass",
                      GridPolicy::WaveBulk, {256, 2, 1, 4, 16}, bulk_pre, JOSEKI_GPU_FN(launch_r08_bulk_copy));
    r.workspace = JOSEKI_GPU_FN(single_pass_workspace);
    r.needs.features = {measure::Feature::BulkCopy};
    r.swept = true;
    r.space.block = {256};
    r.space.blocks_per_sm = {1, 2, 4};
    r.space.stages = {2, 4, 8};
    r.space.chunk_kib = {4, 8, 16};
    r.tie_tolerance = BW_TIE;
    v.push_back(r);
  }
  {
    Rung r = gpu_rung("r09", "r09_packed_ticket", 9, "one-atomic finish",
                      "r06 with a packed 64-bit ticket: one atomic per block, no fences", "r06_single_pass",
                      GridPolicy::WaveVector, {256, 0, 4}, vec_pre, JOSEKI_GPU_FN(launch_r09_packed_ticket));
    r.workspace = JOSEKI_GPU_FN(single_pass_workspace);
    r.config_from = "r06_single_pass";
    v.push_back(r);
  }
  {
    Rung r = gpu_rung("r10", "r10_two_slot", 10, "two-slot result, no finish",
                      "per-block atomics into a slot the previous launch zeroed; no memset, no tail",
                      "r09_packed_ticket", GridPolicy::WaveVector, {256, 0, 4},
                      vec_pre + "; the result alternates between two words (contract in rung.hpp)",
                      JOSEKI_GPU_FN(launch_r10_two_slot));
    r.config_from = "r06_single_pass";
    r.output = Output::TwoSlot;
    v.push_back(r);
  }
  {
    Rung r = gpu_rung("r11", "r11_bulk_slab", 11, "bulk copies over balanced slabs",
                      "r08's ring over one contiguous, balanced slab per block + r09's finish", "r08_bulk_copy",
                      GridPolicy::WaveBulk, {256, 4, 1, 2, 16}, bulk_pre, JOSEKI_GPU_FN(launch_r11_bulk_slab));
    r.workspace = JOSEKI_GPU_FN(single_pass_workspace);
    r.needs.features = {measure::Feature::BulkCopy};
    r.swept = true;
    r.space.block = {256, 512};
    r.space.blocks_per_sm = {1, 2, 4};
    r.space.stages = {2, 4};
    r.space.chunk_kib = {8, 16, 32};
    r.tie_tolerance = BW_TIE;
    v.push_back(r);
  }
  return v;
}

std::string all_names() {
  std::string s;
  for (const Rung& r : rungs()) s += (s.empty() ? "" : ", ") + r.slug;
  return s;
}

}  // namespace

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
