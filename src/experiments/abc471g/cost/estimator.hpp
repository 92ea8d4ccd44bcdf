// What a solver tells `auto` about itself: an estimator (seconds for a problem shape on a machine
// shape), registered with a static CostEstimatorRegistrar from the solver's own file. This header
// is all a solver folder includes of the cost model; the choice itself is dispatch.hpp's, the
// measured costs costs.hpp's. CPU estimators are built in (dispatch.cpp); a GPU solver whose cost
// is its calibrated fit plus the GPU's fixed costs registers calibrated_gpu_estimator(...).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "backend/cpu/cpu_info.hpp"

namespace joseki::abc471g {

struct ProblemShape {
  std::uint64_t n = 0;
  std::uint32_t k = 0;
  std::uint64_t m = 0;
};

// The device state a GPU solve will find (issue 17, item 2): idle = no process holds a CUDA
// context, so this one pays driver initialisation and context creation in full (the case of a
// user's one-shot run from a shell); held = another process holds one, which makes both cheaper.
enum class DeviceState { Idle, Held };
const char* to_string(DeviceState s);  // "idle" | "held"

struct MachineShape {
  int threads = 1;                                             // CPU threads the solver may use
  joseki::cpu::SimdLevel simd = joseki::cpu::SimdLevel::Scalar;  // the level the CPU kernels will use
  int device = 0;                                              // GPU index (GPU estimators)
  DeviceState device_state = DeviceState::Idle;                // which GPU fixed cost applies
  std::string device_state_source = "assumed idle: not asked";  // how it was found, for --explain
};

struct CostEstimate {
  std::string solver;
  double seconds = 0;       // estimated time of the solve call (not process start-up)
  std::string formula;      // how the figure was made, one line
  std::optional<std::string> infeasible;  // set: cannot run here, and why
  // Not estimated at all (a GPU solver where the best CPU estimate is below the GPU's smallest fixed
  // cost: no GPU solver can win, so nothing GPU-related is consulted); infeasible says why.
  bool not_asked = false;
};

using CostEstimator = std::function<CostEstimate(const ProblemShape&, const MachineShape&)>;
struct CostEstimatorRegistrar {
  CostEstimatorRegistrar(std::string solver, CostEstimator f);
};
// Every registered estimator by solver name (the built-in CPU ones are added by choose_solver).
std::map<std::string, CostEstimator>& registered_estimators();

// The GPU's fixed cost of a process in this state (driver, context, teardown, module load): the
// cost file's figure (costs.hpp), else the built-in default; the second member says which.
std::pair<double, std::string> gpu_fixed_cost(DeviceState state);

// The estimator of a GPU solver that `joseki abc471g calibrate` fits (costs.hpp): the GPU's fixed
// costs in the machine's device state plus the solver's fit (its built-in default fit when the
// cost file has none; --explain says so), infeasible without a GPU or above max_k.
CostEstimator calibrated_gpu_estimator(std::string solver, std::uint32_t max_k);

}  // namespace joseki::abc471g
