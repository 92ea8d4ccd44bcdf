// gpu-pairs' entry in `auto` (dispatch.hpp): the GPU's fixed costs of a process (driver init,
// context, teardown, module load) plus the solver's fitted time, from the cost file written by
// `joseki abc471g calibrate` (costs.hpp), else built-in defaults (said so in --explain).
// Decided without touching CUDA: a CPU choice must not pay the driver's initialisation.
#include <fmt/format.h>

#include "experiments/abc471g/dispatch.hpp"
#include "experiments/abc471g/gpu_pairs/costs.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"

namespace joseki::abc471g::pairs {
namespace {

CostEstimate estimate_gpu_pairs(const ProblemShape& s, const MachineShape&) {
  CostEstimate e{"gpu-pairs", 0, "", std::nullopt};
  if (const std::string why = gpu_presence_reason(); !why.empty()) {
    e.infeasible = why;
    return e;
  }
  if (s.k > GPU_PAIRS_MAX_K) {
    e.infeasible = fmt::format("K = {} > {} (K x K table)", s.k, GPU_PAIRS_MAX_K);
    return e;
  }
  const CostModel& m = active_costs();
  auto it = m.solvers.find("gpu-pairs");
  const SolverFit f = it != m.solvers.end() ? it->second : default_costs().solvers.at("gpu-pairs");
  e.seconds = m.gpu_fixed_s() + f.seconds(static_cast<double>(s.n), s.k);
  e.formula = fmt::format("GPU fixed {:.1f} ms (driver, context, teardown, module) + {}  [{}]", m.gpu_fixed_s() * 1e3,
                          f.formula(),
                          m.source == "measured" ? "calibrated " + m.created
                                                 : "uncalibrated defaults; run `joseki abc471g calibrate`");
  return e;
}

const CostEstimatorRegistrar reg{"gpu-pairs", estimate_gpu_pairs};

}  // namespace
}  // namespace joseki::abc471g::pairs
