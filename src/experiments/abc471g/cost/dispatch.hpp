// `auto`: pick the solver expected to be fastest for this N and K on this machine, from a
// simple cost model, and say why. Each candidate solver has an estimator (estimator.hpp: seconds
// for a problem shape on a machine shape); auto runs the cheapest feasible one. The CPU
// estimators are built in (dispatch.cpp); GPU solvers register theirs from their own files; a
// cost file written by `joseki abc471g calibrate` (costs.hpp) replaces the built-in figures.
#pragma once

#include <string>
#include <vector>

#include "experiments/abc471g/cost/estimator.hpp"
#include "experiments/abc471g/problem.hpp"

namespace joseki::abc471g {

struct Choice {
  std::string solver;
  std::vector<CostEstimate> candidates;  // every estimator's figure, cheapest first
  std::string explanation;               // multi-line, for --explain
};

// ask_device_state: ask NVML for the device state now (where a GPU could be used); else idle is
// assumed and the source says "not asked".
MachineShape machine_shape(const SolveOptions& opt, bool ask_device_state = true);
// Asks NVML (the app's device-state probe) and sets m.device_state and its source.
void find_device_state(MachineShape& m);
Choice choose_solver(const ProblemShape& shape, const MachineShape& machine);

}  // namespace joseki::abc471g
