// The cost model behind `auto`. Per-element costs were measured on the 2-core development
// machine (AMD EPYC Zen 4 under KVM, one thread, `joseki abc471g solve --explain` phase times);
// they only need to rank the solvers, not to predict to the millisecond.
#include "experiments/abc471g/cost/dispatch.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>

#include <fmt/format.h>

#include "backend/cpu/parallel.hpp"
#include "experiments/abc471g/cpu/pairs.hpp"
#include "experiments/abc471g/cost/costs.hpp"
#include "measure/errors.hpp"
#include "measure/launcher.hpp"
#include "measure/stopping.hpp"

namespace joseki::abc471g {
namespace {

// Seconds per element of generation, and per element and lane vector of the direct kernel
// (carry-save tree depth 7, tiles of 2; CPU time of one thread on the development machine).
struct DirectCost {
  double gen_s, vec_s;
  unsigned vbits;
  double half_s;  // the 256-lane tail vector of the AVX-512 kernels
};
DirectCost direct_cost(joseki::cpu::SimdLevel s) {
  switch (s) {
    case joseki::cpu::SimdLevel::Avx512: return {0.8e-9, 0.57e-9, 512, 0.31e-9};
    case joseki::cpu::SimdLevel::Avx2: return {1.4e-9, 0.31e-9, 256, 0};
    // NEON: 128 lanes a vector; its cost not measured on an arm64 host (scalar's per-vector figure,
    // which only ranks it against the GPU solvers and cpu-pairs).
    case joseki::cpu::SimdLevel::Neon: return {1.6e-9, 0.32e-9, 128, 0};
    case joseki::cpu::SimdLevel::Scalar: break;
  }
  return {1.6e-9, 0.32e-9, 64, 0};
}

CostEstimate est_direct(const ProblemShape& p, const MachineShape& m) {
  const DirectCost c = direct_cost(m.simd);
  const std::uint32_t rem = p.k % c.vbits;
  const bool half = c.half_s > 0 && rem != 0 && rem <= c.vbits / 2;
  const double full = half ? p.k / c.vbits : std::ceil(static_cast<double>(p.k) / c.vbits);
  const double per = c.gen_s + full * c.vec_s + (half ? c.half_s : 0);
  const double t = static_cast<double>(p.n) * per / m.threads + 0.2e-3;
  return {"cpu-direct", t,
          fmt::format("N * ({:.2f} ns gen + {} x {:.2f} ns per {}-lane vector{}) / {} threads", c.gen_s * 1e9, full,
                      c.vec_s * 1e9, c.vbits, half ? fmt::format(" + {:.2f} ns", c.half_s * 1e9) : "", m.threads),
          std::nullopt};
}

CostEstimate est_pairs(const ProblemShape& p, const MachineShape& m) {
  CostEstimate e{"cpu-pairs", 0, "", std::nullopt};
  if (p.k > cpu::PAIRS_MAX_K) {
    e.infeasible = fmt::format("K = {} > {} (K^2 counters)", p.k, cpu::PAIRS_MAX_K);
    return e;
  }
  const double k = p.k, kk = k * k;
  // Random increments: cheap while a thread's 4-byte table stays in its L2 (~1 MiB), then
  // bound by cache and TLB misses.
  const double inc_s = kk * 4 <= (1 << 20) ? 1.5e-9 : kk * 4 <= (32 << 20) ? 10e-9 : 20e-9;
  const double gen_s = direct_cost(m.simd).gen_s;
  const double count = static_cast<double>(p.n) * (gen_s + inc_s) / m.threads;
  const double merge = kk * 2e-9;                                       // tables -> doubles, + zeroing
  const double fft = 2.5e-9 * kk * std::log2(std::max(2.0, k)) / m.threads;  // 2-D FFT + diagonal
  e.seconds = count + merge + fft + 0.3e-3;
  e.formula = fmt::format("N * ({:.1f} + {:.1f} ns) / {} threads + K^2 merge + K^2 log K FFT", gen_s * 1e9,
                          inc_s * 1e9, m.threads);
  return e;
}

void ensure_cpu_estimators() {
  auto& m = registered_estimators();
  if (!m.count("cpu-direct")) m["cpu-direct"] = est_direct;
  if (!m.count("cpu-pairs")) m["cpu-pairs"] = est_pairs;
}

}  // namespace

std::map<std::string, CostEstimator>& registered_estimators() {
  static std::map<std::string, CostEstimator> m;
  return m;
}

CostEstimatorRegistrar::CostEstimatorRegistrar(std::string solver, CostEstimator f) {
  registered_estimators()[std::move(solver)] = std::move(f);
}

MachineShape machine_shape(const SolveOptions& opt, bool ask_device_state) {
  MachineShape m;
  m.threads = opt.threads > 0 ? opt.threads : joseki::cpu::ThreadPool::global().size();
  m.simd = joseki::cpu::simd_level();
  m.device = opt.device;
  if (ask_device_state) find_device_state(m);
  return m;
}

void find_device_state(MachineShape& m) {
  // The device state now (issue 17, item 2): NVML's compute-process list (loaded at run time; the
  // app installs the probe), asked only where a GPU could be used. This process holds no context yet.
  m.device_state = DeviceState::Idle;
  if (const std::string why = gpu_presence_reason(); !why.empty()) {
    m.device_state_source = "not asked (no GPU: " + why + ")";
    return;
  }
  const double t0 = measure::steady_seconds();
  const std::string state = measure::launcher::device_state();
  const double asked_ms = (measure::steady_seconds() - t0) * 1e3;
  if (state == "held") {
    m.device_state = DeviceState::Held;
    m.device_state_source = fmt::format("NVML: another process holds a CUDA context ({:.1f} ms to ask)", asked_ms);
  } else if (state == "idle") {
    m.device_state_source = fmt::format("NVML: no process holds a CUDA context ({:.1f} ms to ask)", asked_ms);
  } else {
    m.device_state_source = "assumed idle: NVML could not say (library missing, JOSEKI_NVML=off, or no probe)";
  }
}

namespace {

bool solver_needs_gpu(const std::string& name) {
  for (const Solver& s : solver_registry())
    if (s.name == name) return s.needs_gpu;
  return false;  // an estimator without a registry entry is treated as a CPU one (always estimated)
}

// The estimator's figure, replaced by the cost file's where `joseki device` (or `joseki abc471g
// calibrate`) measured this machine's costs (costs.hpp).
CostEstimate estimate(const CostEstimator& f, const ProblemShape& shape,
                      const MachineShape& machine) {
  CostEstimate e = f(shape, machine);
  if (e.infeasible) return e;
  if (const auto cal = calibrated_estimate(e.solver, static_cast<double>(shape.n), shape.k,
                                           static_cast<int>(machine.threads), machine.device_state)) {
    e.seconds = cal->first;
    e.formula = cal->second;
  }
  return e;
}

std::string explanation(const Choice& c, const ProblemShape& shape, const MachineShape& machine) {
  std::string x = fmt::format("auto: N = {}, K = {}, {} threads, SIMD {}: chose {}", shape.n, shape.k, machine.threads,
                              joseki::cpu::to_string(machine.simd), c.solver);
  x += fmt::format("\n  device state {} ({}); GPU fixed cost {}", to_string(machine.device_state),
                   machine.device_state_source, active_costs().fixed_costs_text());
  if (c.gpu_not_asked) x += fmt::format("\n  GPU not asked: {}", *c.gpu_not_asked);
  for (const CostEstimate& e : c.candidates) {
    if (e.not_asked)
      x += fmt::format("\n  {:<12} not estimated (GPU not asked)", e.solver);
    else if (e.infeasible)
      x += fmt::format("\n  {:<12} not possible: {}", e.solver, *e.infeasible);
    else
      x += fmt::format("\n  {:<12} ~{:.3f} ms  ({})", e.solver, e.seconds * 1e3, e.formula);
  }
  return x;
}

// choose_solver without the explanation (auto_plan ranks up to three times, explains once).
Choice rank(const ProblemShape& shape, const MachineShape& machine) {
  ensure_cpu_estimators();
  Choice c;
  std::vector<std::pair<std::string, const CostEstimator*>> gpu;
  for (const auto& [name, f] : registered_estimators()) {
    if (solver_needs_gpu(name))
      gpu.emplace_back(name, &f);
    else
      c.candidates.push_back(estimate(f, shape, machine));
  }
  const CostModel& costs = active_costs();
  c.gpu_not_asked =
      gpu.empty() ? std::nullopt
                  : gpu_cannot_win(c.candidates, costs.gpu_fixed_s(DeviceState::Idle), costs.gpu_fixed_s(DeviceState::Held));
  for (const auto& [name, f] : gpu) {
    if (c.gpu_not_asked) {
      CostEstimate e{name, 0, "", "not estimated: no GPU solver can win here"};
      e.not_asked = true;
      c.candidates.push_back(std::move(e));
    } else {
      c.candidates.push_back(estimate(*f, shape, machine));
    }
  }
  std::stable_sort(c.candidates.begin(), c.candidates.end(), [](const CostEstimate& a, const CostEstimate& b) {
    if (a.infeasible.has_value() != b.infeasible.has_value()) return !a.infeasible.has_value();
    return a.seconds < b.seconds;
  });
  c.solver = c.candidates.front().infeasible ? "cpu-direct" : c.candidates.front().solver;
  return c;
}

}  // namespace

std::optional<std::string> gpu_cannot_win(const std::vector<CostEstimate>& cpu_candidates, double gpu_fixed_idle_s,
                                          double gpu_fixed_held_s) {
  const CostEstimate* best = nullptr;
  for (const CostEstimate& e : cpu_candidates)
    if (!e.infeasible && (!best || e.seconds < best->seconds)) best = &e;
  if (!best) return std::nullopt;  // no CPU solver can run: the GPU solvers must be asked
  const bool held_smaller = gpu_fixed_held_s <= gpu_fixed_idle_s;
  const double floor = held_smaller ? gpu_fixed_held_s : gpu_fixed_idle_s;
  if (!(best->seconds < floor)) return std::nullopt;
  return fmt::format(
      "the best CPU estimate ({} ~{:.3f} ms) is below the GPU's smallest fixed cost of a process ({} state, "
      "{:.1f} ms with the module load), so no GPU solver can win; neither the driver, NVML nor a GPU estimator "
      "was consulted",
      best->solver, best->seconds * 1e3, held_smaller ? "held" : "idle", floor * 1e3);
}

Choice choose_solver(const ProblemShape& shape, const MachineShape& machine) {
  Choice c = rank(shape, machine);
  c.explanation = explanation(c, shape, machine);
  return c;
}

const Choice& auto_plan(const ProblemShape& shape, const SolveOptions& opt) {
  struct Kept {
    std::uint64_t n, m;
    std::uint32_t k;
    int threads, device;
    bool explain;
    Choice choice;
  };
  static std::mutex mu;
  static std::optional<Kept> kept;
  std::lock_guard<std::mutex> lock(mu);
  if (kept && kept->n == shape.n && kept->k == shape.k && kept->m == shape.m && kept->threads == opt.threads &&
      kept->device == opt.device && kept->explain == opt.explain)
    return kept->choice;
  const double t0 = measure::steady_seconds();
  MachineShape m = machine_shape(opt, /*ask_device_state=*/false);
  Choice c = rank(shape, m);
  if (c.gpu_not_asked) {
    m.device_state_source = "not asked: no GPU solver can win";
  } else if (!gpu_presence_reason().empty()) {
    find_device_state(m);  // without a GPU it says why and asks nothing
  } else {
    // NVML costs its initialisation (milliseconds): ask it only when the state changes the choice.
    MachineShape held = m;
    held.device_state = DeviceState::Held;
    if (rank(shape, held).solver != c.solver) {
      find_device_state(m);
      c = rank(shape, m);
    } else {
      m.device_state_source = "not asked: idle and held choose " + c.solver;
    }
  }
  // The table costs a dozen formatted lines: made only where --explain will print it.
  c.explanation = opt.explain ? explanation(c, shape, m) : "auto: chose " + c.solver + " (--explain says why)";
  c.choose_s = measure::steady_seconds() - t0;
  kept = Kept{shape.n, shape.m, shape.k, opt.threads, opt.device, opt.explain, std::move(c)};
  return kept->choice;
}

namespace {

// The cheapest candidate that runs: a GPU solver that finds this GPU lacks what it needs (e.g.
// gpu-pairs above K = 4096 on a GPU without mma.sync m16n8k32, where its NTT fallback cannot take
// K) says so with GpuUnavailable, and the next candidate runs; the explanation names the skip.
SolveResult solve_auto(const Problem& p, const SolveOptions& opt) {
  const Choice& c = auto_plan(ProblemShape{p.n, p.k, p.m()}, opt);
  std::string skipped;
  auto done = [&](SolveResult r) {
    r.explanation = c.explanation + skipped + "\n" + r.explanation;
    r.phases_s["auto"] = c.choose_s;
    return r;
  };
  for (const CostEstimate& e : c.candidates) {
    if (e.infeasible) break;  // infeasible ones sort last
    try {
      return done(find_solver(e.solver).solve(p, opt));
    } catch (const GpuUnavailable& err) {
      skipped += fmt::format("\n  {} could not run here: {}; next candidate", e.solver, err.what());
    }
  }
  return done(find_solver("cpu-direct").solve(p, opt));
}

const SolverRegistrar reg{Solver{"auto", "the fastest solver for this N and K on this machine (cost model; --explain "
                                         "says why)",
                                 false, 0, solve_auto}};

}  // namespace
}  // namespace joseki::abc471g
