// Measured costs for `auto` (issue 6, item 4): the fixed price of using the GPU in a process
// (driver init + context creation + teardown, EXTERNAL, from child processes; module load) and,
// for every solver, a fitted time t(N, K) = c0 + c_n N + c_nk N K + c_k2 K^2 of its solve call,
// all measured on this machine by `calibrate` and kept in a JSON file:
//   $JOSEKI_COSTS, else $XDG_CACHE_HOME/joseki/abc471g_costs.json, else ~/.cache/joseki/abc471g_costs.json.
// The GPU solvers' estimators (estimator.hpp, calibrated_gpu_estimator) and dispatch.cpp read it, so
// `--solver auto` weighs the GPU's fixed costs against its per-pair rate; without a file it
// uses the defaults below and says so in --explain.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiments/abc471g/cost/estimator.hpp"
#include "measure/record.hpp"

namespace joseki::abc471g {

// t(N, K) = c0 + c_n * N + c_nk * N * K + c_k2 * K^2 seconds (all coefficients >= 0).
struct SolverFit {
  double c0 = 0, c_n = 0, c_nk = 0, c_k2 = 0;
  int threads = 0;          // CPU threads during calibration (CPU solvers)
  double max_rel_err = 0;   // worst |fit - measured| / measured over the calibration points
  std::vector<std::array<double, 3>> points;  // (N, K, seconds), the medians fitted
  double seconds(double n, double k) const { return c0 + c_n * n + c_nk * n * k + c_k2 * k * k; }
  std::string formula() const;  // "0.21 ms + N x 0.85 ns + N K x 0.01 ps + K^2 x 1.2 ns"
};

struct CostModel {
  std::string source = "defaults";  // "measured" or "defaults"
  std::string created;              // UTC
  std::string host;                 // hostname
  std::string device_name;
  int device = 0;
  // EXTERNAL(context-only child) - EXTERNAL(no-CUDA child) in each device state (issue 17, item 2):
  // idle, no process held a context (the child paid driver init and context creation in full);
  // held, another process held one (the calibrating process itself). Defaults: the H200 host's
  // idle/held pair of results/h200/2026-12-01-device-call-2 (context-only EXTERNAL 325.0 / 191.7 ms)
  // less ~10 ms, an assumed figure for a joseki process that does not touch CUDA.
  double gpu_fixed_idle_s = 0.315;
  double gpu_fixed_held_s = 0.182;
  bool idle_measured = false;  // the figure above was measured, in the idle state (else the default)
  bool held_measured = false;
  std::string idle_note;       // why the idle figure is not measured, when it is not
  double module_load_s = 0.002;  // first launch of the gpu-pairs kernels
  std::map<std::string, SolverFit> solvers;  // by solver name
  // The CPU time other processes used while the fits ran, as a share of all the machine's CPUs (measure/host_load.hpp);
  // -1 unknown (a file without it, or no /proc/stat). Above BUSY_WARN the fits were made on a loaded machine: calibrate
  // warns and --explain says so beside every calibrated figure.
  double others_cpu_share = -1;
  static constexpr double BUSY_WARN = 0.25;
  std::string load_text() const;  // "other processes used 48 % of the 2 CPUs while it was calibrated"; "" unknown
  std::string busy_text() const;  // load_text() + ": its CPU figures may be slow" above BUSY_WARN, else ""
  int cpus = 0;                   // the machine's CPUs during the fits (0 unknown)
  bool gpu_measured() const { return idle_measured || held_measured; }
  // The fixed GPU cost a process pays in total in that state (what auto adds to a GPU solver's fit).
  double gpu_fixed_s(DeviceState state = DeviceState::Idle) const {
    return (state == DeviceState::Idle ? gpu_fixed_idle_s : gpu_fixed_held_s) + module_load_s;
  }
  // "idle 320.1 ms (calibrated) / held 187.0 ms (default)": both figures and where each comes from.
  std::string fixed_costs_text() const;
};

// Built-in defaults (no calibration file): the lab H200's context-creation figures (above) and gpu-pairs rates that
// are assumptions, not measurements (5e10 pairs/s, 0.5 ms combine). --explain says "defaults".
CostModel default_costs();

std::string costs_path();
// with_points: each fit's calibration points (the records keep them; the cost file does not, since
// every `solve --solver auto` reads that file and the points were three quarters of its parse).
nlohmann::json to_json(const CostModel& m, bool with_points = true);
CostModel costs_from_json(const nlohmann::json& j);  // throws InputError naming the bad field
std::optional<CostModel> load_costs(const std::string& path);  // nullopt when absent; InputError if malformed
void save_costs(const CostModel& m, const std::string& path);  // creates the folder; atomic rename; no points
const CostModel& active_costs();  // the file if present (read once), else defaults

// Least-squares fit of the four coefficients to (N, K, seconds) points, relative error weighted,
// coefficients clamped at zero (active set). Pure; unit-tested.
SolverFit fit_solver(const std::vector<std::array<double, 3>>& points);

// Whether a GPU could be used, decided without touching CUDA (driver init costs ~0.1 s):
// "" if yes, else why not (CPU-only build, no /dev/nvidiactl).
std::string gpu_presence_reason();

// EXTERNAL estimate for a solver on (N, K): its fit, plus the GPU's fixed costs when it needs
// the GPU. nullopt when the model has no fit for it.
std::optional<double> estimate_external(const CostModel& m, const std::string& solver, bool needs_gpu, double n,
                                        double k, DeviceState state = DeviceState::Idle);

// For dispatch.cpp's choose_solver: the calibrated estimate of a registry solver (the GPU's fixed
// costs included when it needs the GPU) and its formula; nullopt without a measured cost file or
// without a fit for this solver, and for a CPU solver calibrated with a different thread count.
std::optional<std::pair<double, std::string>> calibrated_estimate(const std::string& solver, double n, double k,
                                                                  int threads, DeviceState state = DeviceState::Idle);

struct CalibrateOptions {
  std::string self_exe;  // this joseki binary (spawned for the fixed-cost children)
  int device = 0;
  int threads = 0;       // CPU solvers' threads (0 = all)
  bool quick = false;    // fewer points (tests)
  std::vector<std::string> solvers;  // empty: every registered solver except auto/brute/editorial
  std::function<void(const std::string&)> note;  // progress lines
};
// Measures everything above. The GPU's fixed cost in both device states: idle first, before this
// process touches CUDA (children spawned while no process holds a context; NVML says whether one
// did, and an idle set that found a context is not taken as idle), then held, with this process
// holding a context. Records: one VALUE record per fixed cost (axes.device_state) and per solver fit.
CostModel calibrate(const CalibrateOptions& o, std::vector<measure::Record>* records = nullptr);

}  // namespace joseki::abc471g
