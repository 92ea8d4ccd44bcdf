#include "backend/cuda/timing.hpp"

#include <algorithm>
#include <cmath>

#include "backend/cuda/kernels.hpp"
#include "backend/nvml.hpp"
#include "measure/clock.hpp"

namespace joseki::cuda {

L2Flusher::L2Flusher(int device) {
  int l2 = 0;
  JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&m_sms, cudaDevAttrMultiProcessorCount, device));
  const std::size_t bytes = std::max<std::size_t>(2 * static_cast<std::size_t>(l2), 8u << 20);
  m_write = DeviceBuffer<unsigned char>(bytes);
  m_read = DeviceBuffer<uint4>(bytes / sizeof(uint4));
  m_sink = DeviceBuffer<unsigned int>(1);
  JOSEKI_CUDA_CHECK(cudaMemset(m_read.data(), 0x5A, m_read.bytes()));
}

void L2Flusher::flush(cudaStream_t s) {
  JOSEKI_CUDA_CHECK(cudaMemsetAsync(m_write.data(), 0x3C, m_write.bytes(), s));
  launch_stream_read(m_read.data(), m_read.size(), m_sink.data(), m_sms * 4, 512, s);
}

namespace {
std::shared_ptr<measure::EnvironmentProbe> probe_of(int device) {
  char bus[64] = {};
  JOSEKI_CUDA_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, device));
  return nvml::probe_for(bus);
}
}  // namespace

GpuTimer::GpuTimer(int device) : m_env(probe_of(device)), m_flusher(device) {}

measure::Measurement GpuTimer::measure(const LaunchFn& launch, measure::Mode mode,
                                       const measure::StoppingRule& rule, int hot_batch,
                                       const measure::WarmUp& warmup) {
  const cudaStream_t s = m_stream.get();
  const bool cold = mode == measure::Mode::Cold;
  int batch = cold ? 1 : std::max(hot_batch, 1);
  if (!cold && hot_batch == 0) {
    // Pick the batch from one timed launch (after a first, warming launch).
    launch(s);
    m_events.start(s);
    launch(s);
    m_events.stop(s);
    const double one = m_events.seconds();
    batch = static_cast<int>(std::clamp(std::ceil(2e-4 / std::max(one, 1e-7)), 1.0, 1000.0));
  }
  m_last_batch = batch;
  measure::EnvironmentLog env(m_env);
  auto prepare = [&] {
    env.before_run();  // an NVML reading (rate-limited), untimed, before the flush
    if (cold) m_flusher.flush(s);
  };
  auto sample = [&] {
    m_events.start(s);
    for (int i = 0; i < batch; ++i) launch(s);
    m_events.stop(s);
    return m_events.seconds() / batch;
  };
  env.begin();
  // A sample taken under a slowdown (throttle reason, SM clock > 5 % down) is dropped and sampling
  // goes on while rule.discard_flagged (the default; --keep-flagged turns it off).
  measure::Measurement m = measure::measure(sample, prepare, rule, warmup, measure::steady_seconds,
                                            [&env] { return env.current_flagged(); });
  JOSEKI_CUDA_CHECK(cudaStreamSynchronize(s));
  env.end(m.warmup_runs, static_cast<int>(m.samples_s.size() + m.discarded_s.size()), m.discarded_at);
  m.environment = env.result();
  return m;
}

std::vector<LaunchLatency> launch_latencies(cudaStream_t s, EventPair& ev, int batch) {
  auto gpu_interval = [s, &ev, batch] {
    ev.start(s);
    for (int i = 0; i < batch; ++i) launch_empty(s);
    ev.stop(s);
    return ev.seconds() / batch;
  };
  auto enqueue = [s, batch] {
    JOSEKI_CUDA_CHECK(cudaStreamSynchronize(s));
    const double t0 = measure::now_s();
    for (int i = 0; i < batch; ++i) launch_empty(s);
    const double t1 = measure::now_s();
    JOSEKI_CUDA_CHECK(cudaStreamSynchronize(s));
    return (t1 - t0) / batch;
  };
  auto roundtrip = [s] {
    const double t0 = measure::now_s();
    launch_empty(s);
    JOSEKI_CUDA_CHECK(cudaStreamSynchronize(s));
    return measure::now_s() - t0;
  };
  return {{"launch_gpu_interval", "1000 empty kernels back to back, events around them, per kernel",
           measure::Scope::GpuCompute, gpu_interval},
          {"launch_host_enqueue", "host time to enqueue one empty kernel (1000 in a row)", measure::Scope::CpuCompute,
           enqueue},
          {"launch_roundtrip", "launch one empty kernel + cudaStreamSynchronize, host clock",
           measure::Scope::CpuCompute, roundtrip}};
}

}  // namespace joseki::cuda
