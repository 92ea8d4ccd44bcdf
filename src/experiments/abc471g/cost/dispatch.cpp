// The cost model behind `auto`. Per-element costs were measured on the 2-core development
// machine (AMD EPYC Zen 4 under KVM, one thread, `joseki abc471g solve --explain` phase times);
// they only need to rank the solvers, not to predict to the millisecond.
#include "experiments/abc471g/cost/dispatch.hpp"

#include <algorithm>
#include <cmath>
#include <map>

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

Choice choose_solver(const ProblemShape& shape, const MachineShape& machine) {
  ensure_cpu_estimators();
  Choice c;
  for (const auto& [name, f] : registered_estimators()) c.candidates.push_back(f(shape, machine));
  // Where `joseki device` (or `joseki abc471g calibrate`) measured this machine's costs, they
  // replace the built-in per-element constants above (costs.hpp).
  for (CostEstimate& e : c.candidates) {
    if (e.infeasible) continue;
    if (const auto cal = calibrated_estimate(e.solver, static_cast<double>(shape.n), shape.k,
                                             static_cast<int>(machine.threads), machine.device_state)) {
      e.seconds = cal->first;
      e.formula = cal->second;
    }
  }
  std::stable_sort(c.candidates.begin(), c.candidates.end(), [](const CostEstimate& a, const CostEstimate& b) {
    if (a.infeasible.has_value() != b.infeasible.has_value()) return !a.infeasible.has_value();
    return a.seconds < b.seconds;
  });
  c.solver = c.candidates.front().infeasible ? "cpu-direct" : c.candidates.front().solver;
  c.explanation = fmt::format("auto: N = {}, K = {}, {} threads, SIMD {}: chose {}", shape.n, shape.k,
                              machine.threads, joseki::cpu::to_string(machine.simd), c.solver);
  c.explanation += fmt::format("\n  device state {} ({}); GPU fixed cost {}", to_string(machine.device_state),
                               machine.device_state_source, active_costs().fixed_costs_text());
  for (const CostEstimate& e : c.candidates) {
    if (e.infeasible)
      c.explanation += fmt::format("\n  {:<12} not possible: {}", e.solver, *e.infeasible);
    else
      c.explanation += fmt::format("\n  {:<12} ~{:.3f} ms  ({})", e.solver, e.seconds * 1e3, e.formula);
  }
  return c;
}

namespace {

// The cheapest candidate that runs: a GPU solver that finds this GPU lacks what it needs (e.g.
// gpu-pairs above K = 4096 on a GPU without mma.sync m16n8k32, where its NTT fallback cannot take
// K) says so with GpuUnavailable, and the next candidate runs; the explanation names the skip.
SolveResult solve_auto(const Problem& p, const SolveOptions& opt) {
  // NVML costs its initialisation (milliseconds): ask it only when the state changes the choice.
  const ProblemShape shape{p.n, p.k, p.m()};
  MachineShape m = machine_shape(opt, /*ask_device_state=*/false);
  MachineShape held = m;
  held.device_state = DeviceState::Held;
  Choice c = choose_solver(shape, m);
  if (!gpu_presence_reason().empty() || choose_solver(shape, held).solver != c.solver) {
    find_device_state(m);  // without a GPU it says why and asks nothing
  } else {
    m.device_state_source = "not asked: idle and held choose " + c.solver;
  }
  c = choose_solver(shape, m);
  std::string skipped;
  for (const CostEstimate& e : c.candidates) {
    if (e.infeasible) break;  // infeasible ones sort last
    try {
      SolveResult r = find_solver(e.solver).solve(p, opt);
      r.explanation = c.explanation + skipped + "\n" + r.explanation;
      return r;
    } catch (const GpuUnavailable& err) {
      skipped += fmt::format("\n  {} could not run here: {}; next candidate", e.solver, err.what());
    }
  }
  SolveResult r = find_solver("cpu-direct").solve(p, opt);
  r.explanation = c.explanation + skipped + "\n" + r.explanation;
  return r;
}

const SolverRegistrar reg{Solver{"auto", "the fastest solver for this N and K on this machine (cost model; --explain "
                                         "says why)",
                                 false, 0, solve_auto}};

}  // namespace
}  // namespace joseki::abc471g
