// Measured ceilings of this device: the limits every experiment is compared with.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "backend/cuda/buffer.hpp"
#include "backend/cuda/check.hpp"
#include "backend/cuda/kernels.hpp"
#include "backend/cuda/timing.hpp"
#include "backend/gpu.hpp"
#include "measure/clock.hpp"
#include "measure/scopes.hpp"
#include "measure/spawn.hpp"

namespace joseki::gpu {

using measure::Record;
using measure::Scope;

namespace {

Record base_record(const measure::DeviceFacts& dev, const std::string& variant, const std::string& technique,
                   measure::Scope scope, const std::string& mode) {
  Record r;
  r.experiment = "device";
  r.variant = variant;
  r.technique = technique;
  r.backend = "cuda";
  r.scope = to_string(scope);
  r.mode = mode;
  r.device = dev;
  r.host = measure::query_host();
  r.build = measure::build_info();
  r.timestamp = measure::utc_now_iso8601();
  return r;
}

}  // namespace

std::vector<Record> measure_ceilings(int device, const CeilingOptions& opt) {
  const measure::DeviceFacts dev = device_facts(device);
  std::vector<Record> out;
  cuda::GpuTimer timer(device);
  const cudaStream_t s = timer.stream();
  const double datasheet = dev.datasheet_bw_Bps();

  // 1. Device-to-device copy (bytes read + bytes written).
  {
    const std::size_t bytes = std::size_t{1} << 30;
    cuda::DeviceBuffer<unsigned char> src(bytes), dst(bytes);
    JOSEKI_CUDA_CHECK(cudaMemset(src.data(), 0x11, bytes));
    auto m = timer.measure([&](cudaStream_t st) {
      JOSEKI_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, st));
    }, measure::Mode::Cold, opt.rule);
    Record r = base_record(dev, "d2d_copy", "cudaMemcpyAsync device-to-device, 1 GiB, read + write counted",
                           Scope::GpuCompute, "cold");
    r.axes.set("bytes", static_cast<std::int64_t>(bytes));
    r.set_measurement(m);
    r.throughput = measure::throughput({static_cast<double>(bytes), 2.0 * bytes}, m.stats.median, datasheet);
    r.extra["value"] = r.throughput->bytes_per_s;
    r.extra["value_unit"] = "B/s";
    out.push_back(r);
  }

  // 2. Stream read: the ceiling for read-only kernels such as a reduction.
  {
    const std::size_t bytes = std::size_t{1} << 30;
    cuda::DeviceBuffer<uint4> buf(bytes / sizeof(uint4));
    cuda::DeviceBuffer<unsigned int> sink(1);
    JOSEKI_CUDA_CHECK(cudaMemset(buf.data(), 0x22, bytes));
    const int blocks = dev.sm_count * (dev.max_threads_per_sm / 256);
    auto m = timer.measure([&](cudaStream_t st) {
      cuda::launch_stream_read(buf.data(), buf.size(), sink.data(), blocks, 256, st);
    }, measure::Mode::Cold, opt.rule);
    Record r = base_record(dev, "stream_read", "16-byte loads, 4 in flight per thread, full occupancy, 1 GiB",
                           Scope::GpuCompute, "cold");
    r.axes.set("bytes", static_cast<std::int64_t>(bytes));
    r.set_measurement(m);
    r.throughput = measure::throughput({static_cast<double>(bytes / 4), static_cast<double>(bytes)},
                                       m.stats.median, datasheet);
    r.extra["value"] = r.throughput->bytes_per_s;
    r.extra["value_unit"] = "B/s";
    out.push_back(r);
  }

  // 3. Kernel launch: GPU-side interval between back-to-back empty kernels, host enqueue cost,
  //    and the round trip launch -> synchronize seen by the host.
  {
    cuda::EventPair ev;
    for (const cuda::LaunchLatency& l : cuda::launch_latencies(s, ev, 1000)) {
      auto m = measure::measure(l.sample, nullptr, opt.rule);
      Record r = base_record(dev, l.variant, l.technique, l.scope, "hot");
      r.set_measurement(m);
      r.extra["value"] = m.stats.median;
      r.extra["value_unit"] = "s";
      out.push_back(r);
    }
  }

  // 4. Host <-> device copies, pageable and pinned, 256 MiB each way.
  {
    const std::size_t bytes = std::size_t{256} << 20;
    cuda::DeviceBuffer<unsigned char> d(bytes);
    cuda::PinnedBuffer<unsigned char> pinned(bytes);
    std::vector<unsigned char> pageable(bytes);
    std::memset(pinned.data(), 0x33, bytes);
    std::memset(pageable.data(), 0x44, bytes);
    struct C {
      const char* variant;
      unsigned char* host;
      cudaMemcpyKind kind;
    };
    const C copies[] = {{"h2d_pageable", pageable.data(), cudaMemcpyHostToDevice},
                        {"h2d_pinned", pinned.data(), cudaMemcpyHostToDevice},
                        {"d2h_pageable", pageable.data(), cudaMemcpyDeviceToHost},
                        {"d2h_pinned", pinned.data(), cudaMemcpyDeviceToHost}};
    for (const C& c : copies) {
      auto fn = [&] {
        const double t0 = measure::now_s();
        if (c.kind == cudaMemcpyHostToDevice)
          JOSEKI_CUDA_CHECK(cudaMemcpy(d.data(), c.host, bytes, c.kind));
        else
          JOSEKI_CUDA_CHECK(cudaMemcpy(c.host, d.data(), bytes, c.kind));
        return measure::now_s() - t0;
      };
      measure::StoppingRule rule = opt.rule;
      rule.min_samples = std::min(rule.min_samples, 5);
      auto m = measure::measure(fn, nullptr, rule);
      Record r = base_record(dev, c.variant, fmt::format("cudaMemcpy {} MiB, host clock", bytes >> 20),
                             Scope::CpuCompute, "hot");
      r.axes.set("bytes", static_cast<std::int64_t>(bytes));
      r.set_measurement(m);
      r.throughput = measure::throughput({static_cast<double>(bytes), static_cast<double>(bytes)}, m.stats.median);
      r.extra["value"] = r.throughput->bytes_per_s;
      r.extra["value_unit"] = "B/s";
      out.push_back(r);
    }
  }

  // 5. Context creation, in fresh child processes (this process already has a context).
  if (opt.include_context_creation && !opt.self_exe.empty()) {
    const int runs = 5;
    std::vector<double> ext, prog, pre, post, ctx, count;
    for (int i = 0; i <= runs; ++i) {
      measure::SpawnOptions so;
      so.argv = {opt.self_exe, "device", "--context-child", "--device", std::to_string(device)};
      so.timeout_s = 60;
      const measure::ExternalResult er = measure::run_external(so);
      if (er.exit_code != 0)
        throw RunError(fmt::format("context-creation child exited with code {} (signal {})", er.exit_code,
                                   er.term_signal));
      if (i == 0) continue;  // first run warms the page cache and the driver's files
      ext.push_back(er.external_s);
      if (er.figures.count(to_string(Scope::Program))) prog.push_back(er.figures.at(to_string(Scope::Program)));
      if (er.figures.count("context_create")) ctx.push_back(er.figures.at("context_create"));
      if (er.figures.count("device_count")) count.push_back(er.figures.at("device_count"));
      if (er.pre_main_s) pre.push_back(*er.pre_main_s);
      if (er.post_main_s) post.push_back(*er.post_main_s);
    }
    Record r = base_record(dev, "context_creation",
                           "child process: cudaGetDeviceCount + cudaFree(0), timed from spawn to exit", Scope::External,
                           "");
    measure::Measurement m;
    m.samples_s = ext;
    m.stats = measure::summarize(ext);
    m.warmup_runs = 1;
    r.set_measurement(m);
    auto med = [](const std::vector<double>& v) { return v.empty() ? 0.0 : measure::median_of(v); };
    r.extra["value"] = med(ctx);
    r.extra["value_unit"] = "s";
    r.extra["program_s"] = med(prog);
    r.extra["pre_main_s"] = med(pre);
    r.extra["post_main_s"] = med(post);
    r.extra["device_count_call_s"] = med(count);
    r.extra["context_create_call_s"] = med(ctx);
    out.push_back(r);
  }
  return out;
}

}  // namespace joseki::gpu
