#include "experiments/probes/gpu_util.hpp"

#include <cstring>

#include <fmt/format.h>

#include "backend/gpu.hpp"
#include "measure/stats.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "experiments/probes/common_kernels.hpp"
#endif

namespace joseki::probes {

#ifdef JOSEKI_HAVE_CUDA
namespace {
double measure_clock_hz(cudaStream_t s) {
  cuda::DeviceBuffer<long long> d_cycles(1);
  cuda::EventPair ev;
  std::vector<double> hz;
  const long long cycles = 1LL << 24;  // ~8 ms at 2 GHz: launch overhead is < 0.1 % of it
  launch_clock_spin(cycles / 16, d_cycles.data(), s);  // warm-up (module load, clock ramp)
  for (int i = 0; i < 3; ++i) {
    ev.start(s);
    launch_clock_spin(cycles, d_cycles.data(), s);
    ev.stop(s);
    const double sec = ev.seconds();
    long long seen = 0;
    d_cycles.copy_to_host(&seen, 1, s);
    JOSEKI_CUDA_CHECK(cudaStreamSynchronize(s));
    hz.push_back(static_cast<double>(seen) / sec);
  }
  return measure::median_of(hz);
}
}  // namespace

GpuContext::GpuContext(int device) : m_facts(gpu::device_facts(device)) {
  m_timer = std::make_unique<cuda::GpuTimer>(device);
  static double cached_hz = 0;
  static int cached_device = -1;
  if (cached_device != device) {
    cached_hz = measure_clock_hz(m_timer->stream());
    cached_device = device;
  }
  m_clock_hz = cached_hz;
}

std::size_t GpuContext::free_bytes() const {
  std::size_t f = 0, t = 0;
  JOSEKI_CUDA_CHECK(cudaMemGetInfo(&f, &t));
  return f;
}

void GpuContext::sync() const { JOSEKI_CUDA_CHECK(cudaStreamSynchronize(stream())); }
#endif

void Checker::expect_bits(float got, float want, const std::string& where) {
  std::uint32_t g = 0, w = 0;
  std::memcpy(&g, &got, 4);
  std::memcpy(&w, &want, 4);
  ++m_total;
  if (g == w) return;
  if (m_first.size() < 4) m_first.push_back(fmt::format("{}: got {:.9g} want {:.9g}", where, got, want));
  ++m_bad;
}

std::string Checker::text() const {
  if (m_bad == 0) return "exact";
  std::string s = fmt::format("failed: {}: {} of {} values differ; first:", m_what, m_bad, m_total);
  for (const auto& f : m_first) s += " " + f + ";";
  return s;
}

bool Checker::stamp(measure::Record& r) const {
  r.validation = text();
  if (!ok()) r.skipped = "not timed: validation failed";
  return ok();
}

std::string cycles_text(double cycles, double clock_hz) {
  return fmt::format("{:.1f} cycles ({:.2f} ns)", cycles, clock_hz > 0 ? cycles / clock_hz * 1e9 : 0.0);
}

}  // namespace joseki::probes
