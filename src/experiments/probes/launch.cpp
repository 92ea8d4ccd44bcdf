// Probe "launch": what it costs to start work on the GPU from the host: an empty kernel's
// GPU interval (back to back), host enqueue time and launch + synchronize round trip; and
// host<->device copies, pageable and pinned, both ways, over sizes from 4 KiB to 256 MiB.
// Issue 19: the same chain of tiny kernels (each folds its index into one word, so the order is
// checked, and records %globaltimer) launched three ways -- stream launches, one CUDA graph, and
// programmatic dependent launches (sm_90: measure::Needs) -- with the GPU-side interval per kernel
// from the kernels' own timestamps and from events, beside the host's enqueue time per kernel.
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "experiments/probes/probe.hpp"
#include "measure/errors.hpp"
#include "measure/needs.hpp"
#include "measure/table.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "backend/cuda/kernels.hpp"
#include "experiments/probes/device_common.hpp"
#include "experiments/probes/gpu_util.hpp"
#include "experiments/probes/launch_kernels.hpp"
#endif

namespace joseki::probes {
namespace {

JOSEKI_REGISTER_GPU_PROBE(launch, "kernel launch latency; pageable and pinned copies both ways",
                          "launches cost microseconds; pinned copies are faster", 90, 8);

using measure::Record;

#ifdef JOSEKI_HAVE_CUDA
double host_s() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

// The chains (issue 19): stream / graph / PDL, GPU-side interval per kernel, host enqueue per kernel.
void chain_records(GpuContext& g, const ProbeOptions& o, std::vector<Record>& recs) {
  const cudaStream_t s = g.stream();
  const int n = o.quick ? 200 : 2000;
  cuda::DeviceBuffer<std::uint32_t> state(1);
  cuda::DeviceBuffer<unsigned long long> t_entry(static_cast<std::size_t>(n)), t_ready(static_cast<std::size_t>(n));
  std::uint32_t want = 1;
  for (int i = 0; i < n; ++i) want = want * 31u + static_cast<std::uint32_t>(i);
  const measure::StoppingRule lr = light_rule(o.rule, o.quick);
  const std::optional<std::string> no_pdl =
      measure::unmet(measure::Needs{0, {measure::Feature::ProgrammaticLaunch}, 0}, g.facts());
  std::unique_ptr<ChainGraph> graph;
  std::map<std::string, double> gpu_ns, host_ns;
  cuda::EventPair ev;
  for (const char* kind : {"stream", "graph", "pdl"}) {
    const std::string k = kind;
    Record r = make_record("launch", "chain_" + k,
                           k == "stream" ? "tiny kernels back to back, ordinary launches; GPU interval per kernel from %globaltimer (ready to ready)"
                           : k == "graph" ? "the same chain as one CUDA graph (captured once, cudaGraphLaunch)"
                                          : "the same chain with programmatic dependent launch (griddepcontrol)",
                           Scope::GpuCompute, "hot");
    r.axes.set("kernels", std::int64_t{n});
    if (k == "pdl" && no_pdl) {
      r.skipped = *no_pdl;
      r.validation = "not-applicable";
      recs.push_back(r);
      continue;
    }
    if (k == "graph" && !graph) graph = std::make_unique<ChainGraph>(state.data(), t_entry.data(), t_ready.data(), n, s);
    auto enqueue = [&] {
      if (k == "stream") launch_chain_stream(state.data(), t_entry.data(), t_ready.data(), n, s);
      else if (k == "graph") graph->launch(s);
      else launch_chain_pdl(state.data(), t_entry.data(), t_ready.data(), n, s);
    };
    std::vector<double> host_samples, event_samples, entry_samples;
    Checker chk("chain");
    auto one = [&] {
      const std::uint32_t one_word = 1;
      state.copy_from_host(&one_word, 1, s);
      t_entry.poison(s, 0xFF);
      t_ready.poison(s, 0xFF);
      g.sync();
      ev.start(s);
      const double h0 = host_s();
      enqueue();
      const double h1 = host_s();
      ev.stop(s);
      const double ev_s = ev.seconds();
      host_samples.push_back((h1 - h0) / n);
      event_samples.push_back(ev_s / n);
      const auto st = to_host(state, 1, s);
      const auto te = to_host(t_entry, static_cast<std::size_t>(n), s);
      const auto tr = to_host(t_ready, static_cast<std::size_t>(n), s);
      if (chk.ok()) {
        chk.expect(st[0], want, "state after the chain (order of the kernels)");
        for (int i = 1; i < n && chk.ok(); ++i) chk.expect(tr[i] >= tr[i - 1], true, fmt::format("t_ready[{}] in order", i));
        chk.expect(te[n - 1] != ~0ull, true, "last kernel's timestamp written");
      }
      entry_samples.push_back(static_cast<double>(te[n - 1] - te[0]) * 1e-9 / (n - 1));
      // ready to ready: when each kernel may start its dependent work (after griddepcontrol.wait for PDL)
      return static_cast<double>(tr[n - 1] - tr[0]) * 1e-9 / (n - 1);
    };
    const auto m = measure_values(one, lr);
    r.validation = chk.text();
    if (!chk.ok()) {
      r.skipped = "validation failed";
      recs.push_back(r);
      continue;
    }
    r.unit = "s";
    r.set_measurement(m);
    gpu_ns[k] = m.stats.median * 1e9;
    host_ns[k] = measure::median_of(host_samples) * 1e9;
    r.extra["gpu_interval_globaltimer_s"] = m.stats.median;
    r.extra["gpu_interval_events_s"] = measure::median_of(event_samples);
    r.extra["gpu_interval_entry_s"] = measure::median_of(entry_samples);  // kernel entry to entry (PDL: before the wait)
    r.extra["host_enqueue_per_kernel_s"] = host_ns[k] * 1e-9;
    r.extra["display"] = fmt::format("GPU {:.2f} us per kernel (events {:.2f} us); host enqueue {:.2f} us per kernel",
                                     gpu_ns[k] / 1e3, measure::median_of(event_samples) * 1e6, host_ns[k] / 1e3);
    recs.push_back(r);
  }
  if (gpu_ns.count("stream") && gpu_ns.count("graph")) {
    std::string fig = fmt::format("GPU interval per kernel ({} tiny kernels, %globaltimer): stream {:.2f} us, graph {:.2f} us",
                                  n, gpu_ns["stream"] / 1e3, gpu_ns["graph"] / 1e3);
    if (gpu_ns.count("pdl")) fig += fmt::format(", PDL {:.2f} us", gpu_ns["pdl"] / 1e3);
    fig += fmt::format("; host enqueue per kernel: stream {:.2f} us, graph {:.3f} us", host_ns["stream"] / 1e3,
                       host_ns["graph"] / 1e3);
    if (host_ns.count("pdl")) fig += fmt::format(", PDL {:.2f} us", host_ns["pdl"] / 1e3);
    // Where the GPU interval is the host's enqueue time, the GPU waited for the host: the chain is host-bound.
    std::string bound;
    for (const char* k : {"stream", "pdl"})
      if (gpu_ns.count(k) && host_ns.count(k) && host_ns[k] > 0.9 * gpu_ns[k])
        bound += fmt::format("{}{}", bound.empty() ? "" : ", ", k);
    if (!bound.empty())
      fig += fmt::format(". Host-bound: for {} the GPU interval equals the host's enqueue time per kernel (the GPU "
                         "waits for the next launch); a graph is enqueued once", bound);
    const double best = std::min(gpu_ns["graph"], gpu_ns.count("pdl") ? gpu_ns["pdl"] : gpu_ns["graph"]);
    recs.push_back(verdict_record("launch", "graphs",
                                  "a CUDA graph or a programmatic dependent launch shortens the GPU-side gap between "
                                  "dependent kernels",
                                  best < 0.85 * gpu_ns["stream"] ? Verdict::Holds
                                  : best > 0.97 * gpu_ns["stream"] ? Verdict::DoesNotHold : Verdict::Depends,
                                  fig, best * 1e-9, "s (best GPU interval per kernel)"));
  }
}

// The head (issue 19, r68): what a cold GPU_COMPUTE figure holds before its first kernel runs. One tiny kernel timed as
// every cold figure is (the L2 flushed on the stream, the start event, the launch, the stop event; the launch enqueued
// while the flush runs, so no host gap is timed), launched on the stream and as a one-node CUDA graph. What one kernel
// takes is the same both ways: the difference is the graph's start on the GPU. Checked: the kernel ran every time (its
// entry stamp is written again after being poisoned, and the chain's word advanced once a launch).
void head_records(GpuContext& g, const ProbeOptions& o, std::vector<Record>& recs) {
  const cudaStream_t s = g.stream();
  cuda::DeviceBuffer<std::uint32_t> state(1);
  cuda::DeviceBuffer<unsigned long long> t_entry(1), t_ready(1);
  ChainGraph graph(state.data(), t_entry.data(), t_ready.data(), 1, s);
  std::map<std::string, double> med;
  for (const char* kind : {"stream", "graph"}) {
    const std::string k = kind;
    Record r = make_record("launch", "head_" + k,
                           k == "stream" ? "one tiny kernel, a stream launch, timed cold as every GPU_COMPUTE figure "
                                           "(L2 flush, start event, launch, stop event)"
                                         : "the same kernel as a one-node CUDA graph (cudaGraphLaunch), timed cold",
                           Scope::GpuCompute, "cold");
    // The kernel folds index 0 into the word: state = state * 31 each launch, so from 1 the word is 31^launches.
    const std::uint32_t one_word = 1;
    state.copy_from_host(&one_word, 1, s);
    t_entry.poison(s, 0xFF);
    g.sync();
    int launches = 0;
    const auto m = g.timer().measure(
        [&](cudaStream_t st) {
          ++launches;
          if (k == "stream") launch_chain_stream(state.data(), t_entry.data(), t_ready.data(), 1, st);
          else graph.launch(st);
        },
        measure::Mode::Cold, o.rule);
    std::uint32_t want = 1;
    for (int i = 0; i < launches; ++i) want *= 31u;
    Checker chk("head");
    chk.expect(to_host(state, 1, s)[0], want, fmt::format("the word after {} launches", launches));
    chk.expect(to_host(t_entry, 1, s)[0] != ~0ull, true, "the kernel's entry stamp written");
    r.validation = chk.text();
    if (!chk.ok()) {
      r.skipped = "validation failed";
      recs.push_back(r);
      continue;
    }
    r.unit = "s";
    r.set_measurement(m);
    med[k] = m.stats.median;
    r.extra["display"] = fmt::format("{:.2f} us from the start event to the stop event", m.stats.median * 1e6);
    recs.push_back(r);
  }
  if (med.count("stream") && med.count("graph"))
    recs.push_back(verdict_record(
        "launch", "graph_head",
        "a CUDA graph starts as fast as a stream launch (a one-shot solve as one graph pays nothing at its head)",
        med["graph"] < med["stream"] + 0.5e-6 ? Verdict::Holds
        : med["graph"] > med["stream"] + 1.5e-6 ? Verdict::DoesNotHold
                                                 : Verdict::Depends,
        fmt::format("one tiny kernel timed cold: stream launch {:.2f} us, one-node graph {:.2f} us ({:+.2f} us)",
                    med["stream"] * 1e6, med["graph"] * 1e6, (med["graph"] - med["stream"]) * 1e6),
        med["graph"] - med["stream"], "s (graph head - stream head)"));
}

std::vector<Record> run_launch(const ProbeOptions& o) {
  auto [g, s, d] = GpuProbeRun(o.device);
  std::vector<Record> recs;
  cuda::EventPair ev;
  double gpu_interval = 0, roundtrip = 0;
  for (const cuda::LaunchLatency& l : cuda::launch_latencies(s, ev, 1000)) {
    Record r = make_record("launch", l.variant, l.technique, l.scope, "hot");
    const auto m = measure::measure(l.sample, nullptr, o.rule);
    r.set_measurement(m);
    r.validation = "not-applicable";
    recs.push_back(r);
    if (std::string(l.variant) == "launch_gpu_interval") {
      gpu_interval = m.stats.median;
      add_unit_cost(recs.back(), "launch_s", gpu_interval);
    }
    if (std::string(l.variant) == "launch_roundtrip") roundtrip = m.stats.median;
  }

  chain_records(g, o, recs);
  head_records(g, o, recs);

  // Copies: the host data are random, checked after the round trip H2D -> D2H.
  const std::vector<std::size_t> sizes = o.quick ? std::vector<std::size_t>{4096, 1 << 20, 64 << 20}
                                                 : std::vector<std::size_t>{4096, 65536, 1 << 20, 16 << 20, 256 << 20};
  const std::size_t max_bytes = sizes.back();
  cuda::DeviceBuffer<unsigned char> dbuf(max_bytes);
  cuda::PinnedBuffer<unsigned char> pinned(max_bytes);
  std::vector<unsigned char> pageable(max_bytes);
  auto byte_at = [](std::size_t i) { return static_cast<int>((mix32(i / 4, run_seed()) >> (8 * (i % 4))) & 0xFFu); };
  for (std::size_t w = 0; w < max_bytes / 4; ++w) {
    const std::uint32_t v = mix32(w, run_seed());
    std::memcpy(&pageable[4 * w], &v, 4);  // little-endian: byte i is byte_at(i)
  }
  std::memcpy(pinned.data(), pageable.data(), max_bytes);
  std::map<std::string, double> bw;
  for (std::size_t bytes : sizes)
    for (int pin : {0, 1})
      for (int h2d : {1, 0}) {
        unsigned char* host = pin ? pinned.data() : pageable.data();
        const std::string variant = fmt::format("{}_{}", h2d ? "h2d" : "d2h", pin ? "pinned" : "pageable");
        Record r = make_record("launch", variant, fmt::format("cudaMemcpy, {} host memory, host clock", pin ? "pinned" : "pageable"),
                               Scope::CpuCompute, "hot");
        r.axes.set("bytes", static_cast<std::int64_t>(bytes));
        auto copy = [&] {
          const double t0 = host_s();
          if (h2d)
            JOSEKI_CUDA_CHECK(cudaMemcpy(dbuf.data(), host, bytes, cudaMemcpyHostToDevice));
          else
            JOSEKI_CUDA_CHECK(cudaMemcpy(host, dbuf.data(), bytes, cudaMemcpyDeviceToHost));
          return host_s() - t0;
        };
        const auto m = measure::measure(copy, nullptr, light_rule(o.rule, o.quick));  // host copies are noisy
        r.set_measurement(m);
        r.throughput = measure::throughput({static_cast<double>(bytes), static_cast<double>(bytes)}, m.stats.median);
        // Round trip check: after D2H the host buffer must again hold the original bytes.
        if (!h2d) {
          Checker chk("host bytes after H2D + D2H");
          for (std::size_t i = 0; i < bytes; i += 4093) 
            chk.expect(static_cast<int>(host[i]), byte_at(i), fmt::format("byte {}", i));
          r.validation = chk.text();
        } else {
          r.validation = "not-checked";
        }
        r.extra["display"] = measure::format_rate(r.throughput->bytes_per_s);
        if (bytes == max_bytes) bw[variant] = r.throughput->bytes_per_s;
        recs.push_back(r);
      }
  using measure::format_rate;
  using measure::format_time;
  const double ph = bw["h2d_pinned"] / bw["h2d_pageable"], pd = bw["d2h_pinned"] / bw["d2h_pageable"];
  recs.push_back(verdict_record(
      "launch", "pinned", "pinned (page-locked) host memory copies faster than pageable memory",
      ph >= 1.5 && pd >= 1.5 ? Verdict::Holds : (ph < 1.1 && pd < 1.1 ? Verdict::DoesNotHold : Verdict::Depends),
      fmt::format("{} MiB: H2D pinned {} vs pageable {} ({:.1f} x), D2H pinned {} vs pageable {} ({:.1f} x)",
                  max_bytes >> 20, format_rate(bw["h2d_pinned"]), format_rate(bw["h2d_pageable"]), ph,
                  format_rate(bw["d2h_pinned"]), format_rate(bw["d2h_pageable"]), pd),
      ph, "x"));
  recs.push_back(verdict_record(
      "launch", "latency", "a kernel launch costs microseconds: tiny kernels are launch-bound",
      gpu_interval > 1e-6 ? Verdict::Holds : Verdict::Depends,
      fmt::format("back-to-back empty kernels {} each on the GPU; launch + synchronize round trip {}",
                  format_time(gpu_interval), format_time(roundtrip)),
      gpu_interval, "s"));
  return recs;
}
#endif

}  // namespace

}  // namespace joseki::probes
