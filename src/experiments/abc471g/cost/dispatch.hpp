// `auto`: pick the solver expected to be fastest for this N and K on this machine, from a
// simple cost model, and say why. Each candidate solver has an estimator (estimator.hpp: seconds
// for a problem shape on a machine shape); auto runs the cheapest feasible one. The CPU
// estimators are built in (dispatch.cpp); GPU solvers register theirs from their own files; a
// cost file written by `joseki abc471g calibrate` (costs.hpp) replaces the built-in figures.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "experiments/abc471g/cost/estimator.hpp"
#include "experiments/abc471g/problem.hpp"

namespace joseki::abc471g {

struct Choice {
  std::string solver;
  std::vector<CostEstimate> candidates;  // every estimator's figure, cheapest first
  std::string explanation;               // multi-line, for --explain
  // Set when no GPU solver can win (the best CPU estimate is below the GPU's smallest fixed cost,
  // either device state): the GPU estimators, the driver check and NVML were not consulted; why.
  std::optional<std::string> gpu_not_asked;
  double choose_s = 0;  // auto_plan: the seconds the decision took in this process (the "auto" phase)
};

// ask_device_state: ask NVML for the device state now (where a GPU could be used); else idle is
// assumed and the source says "not asked".
MachineShape machine_shape(const SolveOptions& opt, bool ask_device_state = true);
// Asks NVML (the app's device-state probe) and sets m.device_state and its source.
void find_device_state(MachineShape& m);
Choice choose_solver(const ProblemShape& shape, const MachineShape& machine);

// The "GPU cannot win" rule, pure: every GPU estimate is the GPU's fixed cost of a process in some
// device state plus a non-negative solve time, so where the best CPU estimate is below the smaller
// of the two fixed costs (idle, held; module load included) no GPU solver can be chosen. Returns why
// (for --explain), or nullopt where a GPU solver could win and must be estimated.
std::optional<std::string> gpu_cannot_win(const std::vector<CostEstimate>& cpu_candidates, double gpu_fixed_idle_s,
                                          double gpu_fixed_held_s);

// auto's whole decision for this shape (choose_solver, plus NVML's device state only where the state
// changes the choice), made once per process and kept: `abc471g solve` asks for it from the input's
// header before parsing (so that the chosen GPU solver's warm start overlaps the parse, as it does
// for `--solver gpu-pairs`), and solve_auto then runs the same plan. choose_s: its time.
const Choice& auto_plan(const ProblemShape& shape, const SolveOptions& opt);

}  // namespace joseki::abc471g
