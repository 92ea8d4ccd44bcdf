// `joseki check`: the seed's WORK1 sanity run. Detect the device, copy a random input
// in, run a small kernel, synchronize, copy the result out and verify every element
// against the CPU. Times: CUDA events around the kernel, host clock around the round trip.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "backend/cuda/buffer.hpp"
#include "backend/cuda/check.hpp"
#include "backend/cuda/kernels.hpp"
#include "backend/cuda/timing.hpp"
#include "backend/gpu.hpp"
#include "measure/clock.hpp"
#include "measure/scopes.hpp"

namespace joseki::gpu {

namespace {

using measure::now_s;

}  // namespace

CheckReport run_check(int device) {
  CheckReport rep;
  const double t_detect0 = now_s();
  const measure::DeviceFacts dev = device_facts(device);
  const double t_detect = now_s() - t_detect0;

  const std::size_t n = (std::size_t{1} << 20) + 3;  // not a multiple of the block size
  std::vector<std::uint32_t> x(n), y(n, 0);
  std::mt19937 rng(std::random_device{}());
  for (auto& v : x) v = static_cast<std::uint32_t>(rng());

  cuda::DeviceBuffer<std::uint32_t> dx(n), dy(n);
  cuda::Stream s;
  cuda::EventPair ev;
  dy.poison(s);

  const double t0 = now_s();
  dx.copy_from_host(x.data(), n, s);
  ev.start(s);
  cuda::launch_check_kernel(dx.data(), dy.data(), n, s);
  ev.stop(s);
  JOSEKI_CUDA_CHECK(cudaStreamSynchronize(s));
  dy.copy_to_host(y.data(), n, s);
  JOSEKI_CUDA_CHECK(cudaStreamSynchronize(s));
  const double t_round = now_s() - t0;
  const double t_kernel = ev.seconds();

  std::size_t bad = 0, first_bad = n;
  for (std::size_t i = 0; i < n; ++i)
    if (y[i] != x[i] * 2654435761u + static_cast<std::uint32_t>(i)) {
      if (!bad) first_bad = i;
      ++bad;
    }
  if (bad)
    throw ValidationError(fmt::format("check: {} of {} outputs wrong; first at index {}: got {:#x}, expected {:#x}",
                                      bad, n, first_bad, y[first_bad],
                                      x[first_bad] * 2654435761u + static_cast<std::uint32_t>(first_bad)));

  rep.summary = fmt::format(
      "device {}: {} (sm_{}{}, {} SMs)\n"
      "detect (first CUDA calls, context creation)  {:.3f} ms\n"
      "copy in -> kernel -> synchronize -> copy out  {:.3f} ms (host clock)\n"
      "kernel ({} elements)                          {:.3f} ms (CUDA events)\n"
      "verify: all {} outputs match the CPU",
      device, dev.name, dev.cc_major, dev.cc_minor, dev.sm_count, t_detect * 1e3, t_round * 1e3, n, t_kernel * 1e3,
      n);

  auto rec = [&](const char* variant, measure::Scope scope, double seconds) {
    measure::Record r;
    r.experiment = "check";
    r.variant = variant;
    r.technique = "WORK1 sanity run: y = x * 2654435761 + i";
    r.backend = "cuda";
    r.axes.set("n", static_cast<std::int64_t>(n));
    r.scope = to_string(scope);
    r.mode = "";
    r.set_single(seconds);
    r.validation = "exact";
    r.device = dev;
    r.host = measure::query_host();
    r.build = measure::build_info();
    r.timestamp = measure::utc_now_iso8601();
    return r;
  };
  rep.records.push_back(rec("detect", measure::Scope::Program, t_detect));
  rep.records.push_back(rec("round_trip", measure::Scope::GpuPipeline, t_round));
  rep.records.push_back(rec("kernel", measure::Scope::GpuCompute, t_kernel));
  return rep;
}

}  // namespace joseki::gpu
