// `auto`: pick the solver expected to be fastest for this N and K on this machine, from a
// simple cost model, and say why. Each candidate solver has an estimator (seconds for a problem
// shape on a machine shape); auto runs the cheapest feasible one. CPU estimators live in
// dispatch.cpp; other solvers (GPU) add theirs with a static CostEstimatorRegistrar, e.g. from
// the ceilings `joseki device` measures (launch latency, context creation, bandwidth).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "backend/cpu/cpu_info.hpp"
#include "experiments/abc471g/problem.hpp"

namespace joseki::abc471g {

struct ProblemShape {
  std::uint64_t n = 0;
  std::uint32_t k = 0;
  std::uint64_t m = 0;
};

struct MachineShape {
  int threads = 1;                                             // CPU threads the solver may use
  joseki::cpu::SimdLevel simd = joseki::cpu::SimdLevel::Scalar;  // the level the CPU kernels will use
  int device = 0;                                              // GPU index (GPU estimators)
};

struct CostEstimate {
  std::string solver;
  double seconds = 0;       // estimated time of the solve call (not process start-up)
  std::string formula;      // how the figure was made, one line
  std::optional<std::string> infeasible;  // set: cannot run here, and why
};

using CostEstimator = std::function<CostEstimate(const ProblemShape&, const MachineShape&)>;
struct CostEstimatorRegistrar {
  CostEstimatorRegistrar(std::string solver, CostEstimator f);
};

struct Choice {
  std::string solver;
  std::vector<CostEstimate> candidates;  // every estimator's figure, cheapest first
  std::string explanation;               // multi-line, for --explain
};

MachineShape machine_shape(const SolveOptions& opt);
Choice choose_solver(const ProblemShape& shape, const MachineShape& machine);

}  // namespace joseki::abc471g
