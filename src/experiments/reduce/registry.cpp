// The ladder, rung by rung. One entry per rung; launchers exist only in a CUDA build.
#include "experiments/reduce/registry.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "experiments/reduce/cpu_sum.hpp"
#include "experiments/reduce/launchers.hpp"
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
    v.push_back(r);
  }
  const std::string vec_pre = "input 4-byte aligned (any 16-byte phase); block a multiple of 32; unroll 1, 2, 4 or 8";
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
    v.push_back(r);
  }
  {
    Rung r = gpu_rung("r07", "r07_load_hints", 7, "Hopper load hints",
                      "r06 with ld.global.nc.L1::no_allocate.L2::256B", "r06_single_pass", GridPolicy::WaveVector,
                      {256, 0, 4}, vec_pre + "; sm_80+", JOSEKI_GPU_FN(launch_r07_load_hints));
    r.workspace = JOSEKI_GPU_FN(single_pass_workspace);
    r.swept = true;
    v.push_back(r);
  }
  {
    Rung r = gpu_rung("r08", "r08_bulk_copy", 8, "bulk async copies (TMA)",
                      "cp.async.bulk into a shared-memory ring + mbarriers, one launch", "r06_single_pass",
                      GridPolicy::WaveBulk, {256, 2, 1, 4, 16},
                      "sm_90; chunk a multiple of 16 bytes; 2..16 stages; stages x chunk within the shared memory "
                      "per block",
                      JOSEKI_GPU_FN(launch_r08_bulk_copy));
    r.workspace = JOSEKI_GPU_FN(single_pass_workspace);
    r.swept = true;
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
  for (const std::string& item : names) {
    std::size_t start = 0;
    while (start <= item.size()) {
      const std::size_t comma = std::min(item.find(',', start), item.size());
      const std::string name = item.substr(start, comma - start);
      start = comma + 1;
      if (name.empty()) continue;
      any = true;
      if (name == "all") {
        std::fill(on.begin(), on.end(), true);
        continue;
      }
      on[static_cast<std::size_t>(&find_rung(name) - rungs().data())] = true;
    }
  }
  std::vector<const Rung*> out;
  for (std::size_t i = 0; i < rungs().size(); ++i)
    if (on[i] || !any) out.push_back(&rungs()[i]);
  return out;
}

}  // namespace joseki::reduce
