// `--solver gpu-direct`: the ladder's final rung as a solver, with its two GPU scopes:
// GPU_PIPELINE (host clock, first host-to-device copy to the end of the last device-to-host copy,
// synchronous) and GPU_COMPUTE (events around the kernels). Context creation, allocation and the
// kernels' module loading happen before the pipeline starts (they are PROGRAM time).
// Without a GPU (or in a CPU-only build) it throws GpuUnavailable with a plain message: exit 1.
// Its cost estimate lets `auto` pick it where it pays (very large N) and never where no GPU is.
#include <chrono>
#include <filesystem>

#include <fmt/format.h>

#include "experiments/abc471g/cost/estimator.hpp"
#include "experiments/abc471g/gpu_direct/ladder_internal.hpp"
#include "experiments/abc471g/gpu_pairs/startup.hpp"
#include "measure/errors.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include <cuda_runtime.h>

#include "backend/cuda/buffer.hpp"
#include "backend/cuda/check.hpp"
#include "backend/cuda/timing.hpp"
#include "backend/gpu.hpp"
#endif

namespace joseki::abc471g::ladder {
namespace {

constexpr const char* kName = "gpu-direct";

// Limits, as input errors naming the field (the problem is valid, this solver cannot take it).
void check_limits(const Problem& p) {
  const RungInfo& r = final_rung();
  if (p.n > kMaxN)
    throw InputError(fmt::format("N = {}: above gpu-direct's limit 2^32 (32-bit counts); use --solver cpu-direct",
                                 p.n));
  if (p.k > 2304)
    throw InputError(fmt::format("K = {}: above gpu-direct's limit 2304 (8 threads x 9 words of 32 shifts); use "
                                 "--solver cpu-direct or gpu-pairs",
                                 p.k));
#ifdef JOSEKI_HAVE_CUDA
  if (const std::string why = check(r, shape_of(p), r.defaults); !why.empty())
    throw InputError(fmt::format("gpu-direct ({}): {}", r.variant(), why));
#else
  (void)r;
#endif
}

SolveResult solve_gpu_direct(const Problem& p, const SolveOptions& opt) {
  check_limits(p);
#ifndef JOSEKI_HAVE_CUDA
  (void)opt;
  throw GpuUnavailable("gpu-direct: this joseki was built without CUDA; use --solver cpu-direct (or auto)");
#else
  const auto now = [] { return std::chrono::steady_clock::now(); };
  const auto t_setup = now();
  try {
    joseki::gpu::require_device(opt.device);  // InputError: a bad --device index
  } catch (const GpuUnavailable& e) {
    throw GpuUnavailable(fmt::format("gpu-direct: {}; use --solver cpu-direct (or auto)", e.what()));
  }
  JOSEKI_CUDA_CHECK(cudaSetDevice(opt.device));
  const RungInfo& r = final_rung();
  const gpu_api::RungOps& ops = ops_of(r);
  const Shape shape = shape_of(p);
  const Config cfg = r.defaults;
  std::vector<std::uint32_t> a;
  if (!r.a_on_device) a = gpu_cases::generate_all(p);  // host generation: PROGRAM time
  cuda::DeviceBuffer<std::uint32_t> d_a(a.size()), d_b(p.b.size()), d_answer(p.k);
  cuda::DeviceBuffer<std::uint8_t> d_v(p.v.size());
  cuda::DeviceBuffer<unsigned char> d_scratch(ops.scratch_bytes(shape, cfg));
  if (ops.prepare) ops.prepare(shape, cfg);
  cuda::EventPair events;
  std::vector<std::uint32_t> out(p.k);
  const double setup_s = std::chrono::duration<double>(now() - t_setup).count();

  const auto t0 = now();  // GPU_PIPELINE: first H2D copy ...
  if (!a.empty()) JOSEKI_CUDA_CHECK(cudaMemcpy(d_a.data(), a.data(), a.size() * 4, cudaMemcpyHostToDevice));
  JOSEKI_CUDA_CHECK(cudaMemcpy(d_b.data(), p.b.data(), p.b.size() * 4, cudaMemcpyHostToDevice));
  JOSEKI_CUDA_CHECK(cudaMemcpy(d_v.data(), p.v.data(), p.v.size(), cudaMemcpyHostToDevice));
  gpu_api::DeviceProblem dp;
  dp.shape = shape;
  dp.seed = p.seed;
  dp.d_a = a.empty() ? nullptr : d_a.data();
  dp.d_b = d_b.data();
  dp.d_v = d_v.data();
  dp.d_answer = d_answer.data();
  dp.d_scratch = d_scratch.size() ? d_scratch.data() : nullptr;
  events.start(nullptr);
  ops.launch(dp, cfg, nullptr);
  events.stop(nullptr);
  JOSEKI_CUDA_CHECK(cudaMemcpy(out.data(), d_answer.data(), p.k * 4, cudaMemcpyDeviceToHost));
  const auto t1 = now();  // ... to the end of the last D2H copy
  const double compute_s = events.seconds();

  SolveResult res;
  res.answer.assign(out.begin(), out.end());
  res.solver = kName;
  res.gpu_compute_s = compute_s;
  res.gpu_pipeline_s = std::chrono::duration<double>(t1 - t0).count();
  res.phases_s["gpu_setup"] = setup_s;
  res.explanation = fmt::format(
      "gpu-direct: ladder rung {} ({}), block {}; GPU_COMPUTE {:.3f} ms, GPU_PIPELINE {:.3f} ms (setup before the "
      "pipeline: {:.1f} ms, mostly CUDA context creation)",
      r.variant(), r.name, cfg.block, compute_s * 1e3, *res.gpu_pipeline_s * 1e3, setup_s * 1e3);
  return res;
#endif
}

// For `auto`: a GPU only where one is (checked without initialising CUDA, which costs ~0.1 s),
// and a cost that includes creating the context, so the CPU wins unless N is very large. Both
// figures are the H200's of 2026-11-30 (results/h200/2026-11-30-abc471g-gpu-final): PROGRAM of
// `solve --solver gpu-direct` (g15) on the max case 142.3 ms, nearly all of it set-up
// (GPU_PIPELINE 0.30 ms, parsing ~3 ms); its kernel, first launch included, 182.7 us for
// N*K = 1.61e10 lane steps (8.8e13 per second; 145.8 us warm in the ladder). A cost file written
// by `joseki device` / `joseki abc471g calibrate` replaces both (cost/dispatch.cpp). The set-up is
// the GPU's fixed cost in the device state found at solve time (cost/estimator.hpp; it was 0.14 s,
// a held-state PROGRAM figure).
CostEstimate estimate(const ProblemShape& s, const MachineShape& m) {
  CostEstimate e{kName, 0, "", std::nullopt};
  if (!built_with_cuda()) {
    e.infeasible = "this joseki was built without CUDA";
    return e;
  }
  if (s.k > 2304 || s.n > kMaxN) {
    e.infeasible = fmt::format("K = {} / N = {} above its limits (K <= 2304, N <= 2^32)", s.k, s.n);
    return e;
  }
  std::error_code ec;
  if (!std::filesystem::exists("/dev/nvidiactl", ec) && !std::filesystem::exists("/proc/driver/nvidia/version", ec)) {
    e.infeasible = "no NVIDIA driver here (/dev/nvidiactl absent)";
    return e;
  }
  constexpr double LANE_STEPS_PER_S = 8.8e13, PAGEABLE_BPS = 8e9;
  const auto [fixed, from] = gpu_fixed_cost(m.device_state);  // the GPU's set-up in this device state
  e.seconds = fixed + static_cast<double>(s.n) * s.k / LANE_STEPS_PER_S + 4.0 * static_cast<double>(s.m) / PAGEABLE_BPS;
  e.formula = fmt::format("GPU fixed ({}, {}) {:.1f} ms + N*K / 8.8e13 lane-steps/s + b upload (H200, 2026-11-30)",
                          to_string(m.device_state), from, fixed * 1e3);
  return e;
}

const SolverRegistrar reg{Solver{kName,
                                 "GPU: the direct ladder's final rung (bit-sliced counters, A generated on the GPU "
                                 "by jump-ahead); K <= 2304, N <= 2^32",
                                 true, 45, solve_gpu_direct, [](int d) { pairs::startup::begin_context_async(d); }}};
const CostEstimatorRegistrar est_reg{kName, estimate};

}  // namespace
}  // namespace joseki::abc471g::ladder
