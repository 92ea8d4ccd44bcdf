// GPU_COMPUTE timing: CUDA events around the kernels, warm-up, cold (L2 flushed before
// every sample) or hot (back to back) samples, and the stopping rule of measure/.
//
//   joseki::cuda::GpuTimer timer(device);                 // owns the flush buffers and events
//   auto m = timer.measure([&](cudaStream_t s) { kernel<<<g, b, 0, s>>>(...); },
//                          Mode::Cold, rule);
//
// The launch lambda must only enqueue work on the stream it is given (and check its
// launches). In cold mode the flush runs on the same stream just before the start event,
// so the kernel is already queued when the flush ends: no host launch gap is timed.
// In hot mode a sample times `batch` launches between one pair of events and divides,
// so launch overhead is amortised as in NVBench's hot mode; batch is chosen during
// warm-up so that a sample lasts at least ~0.2 ms (or set it explicitly).
// Every measurement carries the GPU's environment (measure/environment.hpp): clocks, power,
// temperature and throttle reasons read before and after the block and, at most every 10 ms,
// before a sample (untimed, before the flush); samples next to a slowdown are flagged.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <memory>

#include "backend/cuda/buffer.hpp"
#include "backend/cuda/check.hpp"
#include "measure/environment.hpp"
#include "measure/scopes.hpp"
#include "measure/stopping.hpp"

namespace joseki::cuda {

class EventPair {
 public:
  EventPair() {
    JOSEKI_CUDA_CHECK(cudaEventCreate(&m_start));
    JOSEKI_CUDA_CHECK(cudaEventCreate(&m_stop));
  }
  ~EventPair() {
    cudaEventDestroy(m_start);
    cudaEventDestroy(m_stop);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
  void start(cudaStream_t s) { JOSEKI_CUDA_CHECK(cudaEventRecord(m_start, s)); }
  void stop(cudaStream_t s) { JOSEKI_CUDA_CHECK(cudaEventRecord(m_stop, s)); }
  // Waits for the stop event; seconds between the two events.
  double seconds() {
    JOSEKI_CUDA_CHECK(cudaEventSynchronize(m_stop));
    float ms = 0;
    JOSEKI_CUDA_CHECK(cudaEventElapsedTime(&ms, m_start, m_stop));
    return ms * 1e-3;
  }

 private:
  cudaEvent_t m_start{}, m_stop{};
};

// Evicts the L2: writes a buffer twice the L2 size (memset), then streams a second
// buffer of that size through it with loads, so that what the L2 holds afterwards is
// clean, unrelated data. Write-backs of the dirty lines happen here, untimed, and not
// inside the measured kernel (a memset-only flush leaves up to one L2 of dirty lines
// whose write-back the next kernel pays: ~13 us for the 60 MiB L2 of an H200).
class L2Flusher {
 public:
  explicit L2Flusher(int device);
  void flush(cudaStream_t s);
  std::size_t bytes() const { return m_write.bytes(); }

 private:
  DeviceBuffer<unsigned char> m_write;
  DeviceBuffer<uint4> m_read;
  DeviceBuffer<unsigned int> m_sink;
  int m_sms = 1;
};

using LaunchFn = std::function<void(cudaStream_t)>;

class GpuTimer {
 public:
  explicit GpuTimer(int device);
  cudaStream_t stream() const { return m_stream.get(); }
  // hot_batch = 0: choose automatically.
  measure::Measurement measure(const LaunchFn& launch, measure::Mode mode, const measure::StoppingRule& rule,
                               int hot_batch = 0, const measure::WarmUp& warmup = {});
  void flush_l2() { m_flusher.flush(m_stream.get()); }
  int last_batch() const { return m_last_batch; }  // launches per sample in the last hot measurement

 private:
  std::shared_ptr<measure::EnvironmentProbe> m_env;  // NVML (backend/nvml.hpp); says why when unavailable
  Stream m_stream;
  L2Flusher m_flusher;
  EventPair m_events;
  int m_last_batch = 1;
};

// The kernel-launch latencies that `joseki check` (ceilings.cpp) and the launch probe measure, as
// sample functions on stream s (each returns seconds): the GPU-side interval between `batch`
// back-to-back empty kernels (events around them, per kernel), the host's enqueue cost per kernel
// (`batch` in a row, host clock), and one launch + cudaStreamSynchronize on the host clock.
struct LaunchLatency {
  const char* variant;
  const char* technique;
  measure::Scope scope;
  std::function<double()> sample;
};
std::vector<LaunchLatency> launch_latencies(cudaStream_t s, EventPair& ev, int batch);

}  // namespace joseki::cuda
