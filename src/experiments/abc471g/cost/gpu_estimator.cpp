// calibrated_gpu_estimator (estimator.hpp): a GPU solver's entry in `auto` whose cost is the GPU's
// fixed costs of a process (driver init, context, teardown, module load) plus the solver's fitted
// time, from the cost file written by `joseki abc471g calibrate` (costs.hpp), else built-in
// defaults (said so in --explain). Decided without touching CUDA: a CPU choice must not pay the
// driver's initialisation. (Was gpu_pairs/estimator.cpp; the solver registers it from its file.)
#include <fmt/format.h>

#include "experiments/abc471g/cost/costs.hpp"
#include "experiments/abc471g/cost/estimator.hpp"

namespace joseki::abc471g {

const char* to_string(DeviceState s) { return s == DeviceState::Idle ? "idle" : "held"; }

std::pair<double, std::string> gpu_fixed_cost(DeviceState state) {
  const CostModel& m = active_costs();
  const bool measured = state == DeviceState::Idle ? m.idle_measured : m.held_measured;
  return {m.gpu_fixed_s(state), measured ? "calibrated " + m.created : "default"};
}

CostEstimator calibrated_gpu_estimator(std::string solver, std::uint32_t max_k) {
  return [solver, max_k](const ProblemShape& s, const MachineShape& machine) {
    CostEstimate e{solver, 0, "", std::nullopt};
    if (const std::string why = gpu_presence_reason(); !why.empty()) {
      e.infeasible = why;
      return e;
    }
    if (s.k > max_k) {
      e.infeasible = fmt::format("K = {} > {} (K x K table)", s.k, max_k);
      return e;
    }
    const CostModel& m = active_costs();
    auto it = m.solvers.find(solver);
    const CostModel defaults = default_costs();
    if (it == m.solvers.end()) {
      it = defaults.solvers.find(solver);
      if (it == defaults.solvers.end()) {
        e.infeasible = "no cost figures for it (run `joseki abc471g calibrate`)";
        return e;
      }
    }
    const SolverFit& f = it->second;
    const auto [fixed, fixed_from] = gpu_fixed_cost(machine.device_state);
    e.seconds = fixed + f.seconds(static_cast<double>(s.n), s.k);
    e.formula = fmt::format("GPU fixed ({}, {}) {:.1f} ms (driver, context, teardown, module) + {}  [{}]",
                            to_string(machine.device_state), fixed_from, fixed * 1e3, f.formula(),
                            m.source == "measured" ? "calibrated " + m.created
                                                   : "uncalibrated defaults; run `joseki abc471g calibrate`");
    return e;
  };
}

}  // namespace joseki::abc471g
