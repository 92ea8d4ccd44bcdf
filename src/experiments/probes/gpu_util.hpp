// Host helpers of the GPU probes (g++, CUDA runtime): one context per probe run with the
// device facts, a GpuTimer, and the effective SM clock (clock64 cycles per second of event
// time, measured here because the clock may boost above or throttle below the facts' figure).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "measure/record.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include <cuda_runtime.h>

#include "backend/cuda/buffer.hpp"
#include "backend/cuda/timing.hpp"
#endif

namespace joseki::probes {

#ifdef JOSEKI_HAVE_CUDA
class GpuContext {
 public:
  explicit GpuContext(int device);
  const measure::DeviceFacts& facts() const { return m_facts; }
  cuda::GpuTimer& timer() { return *m_timer; }
  cudaStream_t stream() const { return m_timer->stream(); }
  double clock_hz() const { return m_clock_hz; }  // effective SM clock
  double cycles_to_s(double cycles) const { return cycles / m_clock_hz; }
  std::size_t free_bytes() const;
  void sync() const;

 private:
  measure::DeviceFacts m_facts;
  std::unique_ptr<cuda::GpuTimer> m_timer;
  double m_clock_hz = 0;
};

// What every GPU probe's run opens first: its context, the context's stream and the device facts,
//   auto [g, s, d] = GpuProbeRun(o.device);
struct GpuProbeRun {
  explicit GpuProbeRun(int device) : g(device), s(g.stream()), d(g.facts()) {}
  GpuContext g;
  cudaStream_t s;
  measure::DeviceFacts d;
};

// Copies a device buffer to a host vector (synchronous).
template <class T>
std::vector<T> to_host(const cuda::DeviceBuffer<T>& d, std::size_t n, cudaStream_t s) {
  std::vector<T> h(n);
  if (n) d.copy_to_host(h.data(), n, s);
  JOSEKI_CUDA_CHECK(cudaStreamSynchronize(s));
  return h;
}
#endif

// Exact comparison of results with their CPU mirror; text() is the record's validation:
// "exact", or "failed: <what>: N of M values differ; first: ..." (the first four mismatches).
class Checker {
 public:
  explicit Checker(std::string what) : m_what(std::move(what)) {}
  template <class T>
  void expect(const T& got, const T& want, const std::string& where) {
    ++m_total;
    if (got == want) return;
    if (m_first.size() < 4) m_first.push_back(fmt::format("{}: got {} want {}", where, got, want));
    ++m_bad;
  }
  // Floats: bit-for-bit (the kernel and its mirror run the same fmaf chain).
  void expect_bits(float got, float want, const std::string& where);
  bool ok() const { return m_bad == 0; }
  // Sets r.validation to text(); a record that failed is marked "not timed: validation failed"
  // (it must not be timed). Returns ok().
  bool stamp(measure::Record& r) const;
  std::size_t checked() const { return m_total; }
  std::string text() const;

 private:
  std::string m_what;
  std::vector<std::string> m_first;
  std::size_t m_bad = 0, m_total = 0;
};

// A clock figure: "12.0 cycles (6.06 ns)".
std::string cycles_text(double cycles, double clock_hz);

}  // namespace joseki::probes
