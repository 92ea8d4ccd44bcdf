// Probe "diagnose": the guide's symptom -> cause -> check table, shown. For each symptom a
// deliberately bad kernel and its fix (diagnose_kernels.hpp), both validated, timed side by
// side, and profiled by Nsight Compute (ncu --clock-control none, a child `joseki probe
// diagnose --run-kernels` that runs each kernel once): the metric that detects the symptom,
// for the bad kernel and the fix. Without ncu (or without counter permission) the ncu part
// is recorded as skipped with the reason; the timings remain.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "experiments/probes/device_common.hpp"
#include "experiments/probes/ncu.hpp"
#include "experiments/probes/probe.hpp"
#include "measure/errors.hpp"
#include "measure/table.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "backend/gpu.hpp"
#include "experiments/probes/common_kernels.hpp"
#include "experiments/probes/diagnose_kernels.hpp"
#include "experiments/probes/gpu_util.hpp"
#include "experiments/probes/mirrors.hpp"
#endif

namespace joseki::probes {
namespace {

JOSEKI_REGISTER_GPU_PROBE(diagnose, "diagnosis table: bad kernel vs fix per symptom, with ncu metrics",
                          "each symptom's ncu metric tells the bad kernel from its fix", 110, 60);

struct Launch {
  int kernel;
  std::size_t stride;
};
// The launches of `--run-kernels`, in order (ncu's results are matched to them by kernel name
// and occurrence). Kernel ids are diagnose_kernels.hpp's DiagKernel values.
constexpr Launch LAUNCHES[] = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {1, 1},
                               {2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1}, {7, 1}, {8, 1}};
constexpr int N_LAUNCHES = sizeof(LAUNCHES) / sizeof(LAUNCHES[0]);

#ifdef JOSEKI_HAVE_CUDA
struct Symptom {
  const char* id;
  const char* symptom;
  const char* cause;
  int bad, fix;                       // indices into LAUNCHES
  std::vector<std::string> keys;      // detecting metrics, by preference ("sectors_per_request" is derived)
  int direction;                      // +1: the bad kernel's value is higher; -1: lower
  const char* probe_verdict;          // the probe's verdict whose figure this symptom illustrates
};
const std::vector<Symptom>& symptoms() {
  static const std::vector<Symptom> s = {
      {"dram", "low DRAM throughput (useful bytes)", "uncoalesced access (stride 32 words)", 5, 0,
       {"sectors_per_request", "dram__throughput.avg.pct_of_peak_sustained_elapsed"}, +1, "probe.coalescing/verdict:stride"},
      {"smem", "shared-load stalls", "bank conflicts (column reads of tile[32][32])", 6, 7,
       {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"},
       +1, "probe.banks/verdict:padding"},
      {"barrier", "many barrier stalls", "a __syncthreads per tree level while most warps idle", 8, 9,
       {"smsp__warp_issue_stalled_barrier_per_warp_active.pct", "gpu__time_duration.sum"}, +1, "probe.barriers/verdict:cost"},
      {"atomic", "atomic bottleneck", "contended atomics on one address (no aggregation)", 10, 11,
       {"lts__t_sectors_op_red.sum", "lts__t_sectors_op_atom.sum", "smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct",
        "gpu__time_duration.sum"},
       +1, "probe.atomics/verdict:contention"},
      {"occupancy", "low occupancy", "shared memory per block (one 128-thread block per SM)", 12, 13,
       {"sm__warps_active.avg.pct_of_peak_sustained_active", "sm__maximum_warps_per_active_cycle_pct"}, -1,
       "probe.occupancy/verdict:memory"},
  };
  return s;
}

const std::vector<std::string>& all_metrics() {
  static const std::vector<std::string> m = {
      "gpu__time_duration.sum",
      "dram__throughput.avg.pct_of_peak_sustained_elapsed",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
      "smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct",
      "smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct",
      "smsp__warp_issue_stalled_barrier_per_warp_active.pct",
      "smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct",
      "lts__t_sectors_op_red.sum",
      "lts__t_sectors_op_atom.sum",
      "sm__warps_active.avg.pct_of_peak_sustained_active",
      "sm__maximum_warps_per_active_cycle_pct",
      "launch__occupancy_limit_shared_mem",
      "launch__registers_per_thread",
  };
  return m;
}
// ncu's time box inside the probe: the metric query, then the profiles (with fallbacks).
constexpr double NCU_QUERY_S = 20;
constexpr double NCU_BUDGET_S = 80;

// The guide's own metrics and the basics: retried alone when the full list is refused.
const std::vector<std::string> CORE_METRICS = {
    "gpu__time_duration.sum", "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "sm__warps_active.avg.pct_of_peak_sustained_active"};

// Buffers and arguments of every launch, and its validation against the CPU.
class Setup {
 public:
  Setup(const measure::DeviceFacts& d, cudaStream_t s) : m_d(d), m_s(s) {
    m_words = N * 32 + 64;
    m_data = cuda::DeviceBuffer<std::uint32_t>(m_words);
    m_slot = cuda::DeviceBuffer<std::uint32_t>(N);
    const std::size_t outs = std::max<std::size_t>({static_cast<std::size_t>(d.sm_count) * 1024, (N + 1023) / 1024,
                                                     static_cast<std::size_t>(d.sm_count) * 16});
    m_out = cuda::DeviceBuffer<std::uint32_t>(outs);
    launch_fill_mix32(m_data.data(), m_words, run_seed(), s);
    JOSEKI_CUDA_CHECK(cudaMemsetAsync(m_slot.data(), 0, m_slot.bytes(), s));
    // The bad occupancy kernel asks for the most dynamic shared memory it may (the opt-in
    // maximum per block minus its static shared memory): one block per SM.
    m_occ_bad_smem = diag_occupancy(DIAG_OCC_BAD, 128, 0).max_dynamic_smem;
  }
  DiagArgs args(int li) const {
    const Launch& l = LAUNCHES[li];
    DiagArgs a;
    a.d_in = m_data.data();
    a.d_slot = m_slot.data();
    a.d_out = m_out.data();
    a.n = N;
    a.stride = l.stride;
    switch (l.kernel) {
      case DIAG_COALESCE: a.blocks = m_d.sm_count * 8; a.threads = 256; break;
      case DIAG_SMEM_BAD:
      case DIAG_SMEM_FIX: a.blocks = m_d.sm_count; a.threads = 1024; a.reps = 64; break;
      case DIAG_BARRIER_BAD:
      case DIAG_BARRIER_FIX: a.threads = 1024; a.blocks = static_cast<int>((N + 1023) / 1024); break;
      case DIAG_ATOMIC_BAD:
      case DIAG_ATOMIC_FIX: a.threads = 256; a.blocks = static_cast<int>((N + 255) / 256); break;
      case DIAG_OCC_BAD:
        a.n = N16;
        a.threads = 128;
        a.blocks = m_d.sm_count;
        a.smem_bytes = m_occ_bad_smem;  // one block per SM
        break;
      default: a.n = N16; a.threads = 128; a.blocks = m_d.sm_count * (m_d.max_threads_per_sm / 128); break;
    }
    return a;
  }
  void launch(int li, cudaStream_t s) const { launch_diag(LAUNCHES[li].kernel, args(li), s); }
  // Poisons the output, runs once, compares with the CPU: "exact" or "failed: ...".
  std::string validate(int li) {
    const DiagArgs a = args(li);
    const int k = LAUNCHES[li].kernel;
    m_out.poison(m_s);
    launch_diag(k, a, m_s);
    Checker chk(diag_kernel_name(k));
    if (k == DIAG_COALESCE || k == DIAG_BARRIER_BAD || k == DIAG_BARRIER_FIX) {
      const auto got = to_host(m_out, static_cast<std::size_t>(a.blocks), m_s);
      const auto want = mirror::strided_partials(a.n, a.stride, 0, run_seed(), a.blocks, a.threads);
      for (std::size_t b = 0; b < got.size(); ++b) chk.expect(got[b], want[b], fmt::format("block {}", b));
    } else if (k == DIAG_SMEM_BAD || k == DIAG_SMEM_FIX) {
      const auto got = to_host(m_out, static_cast<std::size_t>(a.blocks) * a.threads, m_s);
      for (std::size_t t = 0; t < got.size(); ++t)
        chk.expect(got[t], mirror::tile_sum(run_seed(), t / a.threads, static_cast<int>(t % 32), true, a.reps),
                   fmt::format("thread {}", t));
    } else if (k == DIAG_ATOMIC_BAD || k == DIAG_ATOMIC_FIX) {
      chk.expect(to_host(m_out, 1, m_s)[0], POISON_U32 + total(N), "sum");
    } else {
      const auto got = to_host(m_out, static_cast<std::size_t>(a.blocks), m_s);
      std::uint32_t sum = 0;
      for (auto v : got) sum += v;
      chk.expect(sum, total(N16 * 4), "sum of block sums");
    }
    return chk.text();
  }

  static constexpr std::size_t N = (std::size_t{1} << 22) + 3;  // elements (stride 32: a 512 MiB buffer)
  static constexpr std::size_t N16 = std::size_t{1} << 24;      // 16-byte words of the occupancy pair (256 MiB)

 private:
  std::uint32_t total(std::size_t n) {
    if (!m_totals.count(n)) m_totals[n] = mirror::total(n, run_seed());
    return m_totals[n];
  }
  measure::DeviceFacts m_d;
  cudaStream_t m_s;
  std::size_t m_occ_bad_smem = 0;
  std::size_t m_words = 0;
  cuda::DeviceBuffer<std::uint32_t> m_data, m_slot, m_out;
  std::map<std::size_t, std::uint32_t> m_totals;
};

// ncu rows -> launch index -> metric -> value.
std::map<int, std::map<std::string, double>> by_launch(const std::vector<NcuRow>& rows) {
  std::map<int, std::map<std::string, double>> out;
  std::vector<std::string> ids;
  std::map<std::string, int> launch_of_id, seen_per_kernel;
  for (const NcuRow& r : rows) {
    if (!launch_of_id.count(r.id)) {
      int kernel = -1;
      for (int k = 0; k < 9; ++k)
        if (r.kernel.find(DIAG_KERNEL_NAMES[k]) != std::string::npos) kernel = k;
      int occurrence = seen_per_kernel[std::to_string(kernel)]++, li = -1;
      for (int i = 0; i < N_LAUNCHES && li < 0; ++i)
        if (LAUNCHES[i].kernel == kernel && occurrence-- == 0) li = i;
      launch_of_id[r.id] = li;
    }
    const int li = launch_of_id[r.id];
    if (li >= 0 && r.value) out[li][r.metric] = *r.value;
  }
  for (auto& [li, m] : out)
    if (m.count("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") && m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] > 0)
      m["sectors_per_request"] = m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] /
                                 m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"];
  return out;
}

std::string metric_text(const std::map<std::string, double>& m, const std::string& key) {
  if (!m.count(key)) return "-";
  const double v = m.at(key);
  return std::fabs(v) >= 1e5 ? measure::format_count(v) : fmt::format("{:.3g}", v);
}

const Record* find_verdict(const std::vector<Record>* earlier, const std::string& where) {
  if (!earlier) return nullptr;
  const std::string exp = where.substr(0, where.find('/')), var = where.substr(where.find('/') + 1);
  for (const Record& r : *earlier)
    if (r.experiment == exp && r.variant == var && r.extra.contains("figure")) return &r;
  return nullptr;
}

std::vector<Record> run_diagnose(const ProbeOptions& o) {
  auto [g, s, d] = GpuProbeRun(o.device);
  Setup setup(g.facts(), s);
  std::vector<Record> recs;
  std::map<int, double> t;  // launch -> median time
  std::map<int, std::string> valid;
  for (const Symptom& sy : symptoms())
    for (int li : {sy.bad, sy.fix}) {
      const bool bad = li == sy.bad;
      Record r = make_record("diagnose", fmt::format("{}_{}", sy.id, bad ? "bad" : "fix"),
                             fmt::format("{}: {}", DIAG_KERNEL_NAMES[LAUNCHES[li].kernel],
                                         bad ? sy.cause : "the fix"),
                             Scope::GpuCompute, "cold");
      r.axes.set("kernel", std::string(DIAG_KERNEL_NAMES[LAUNCHES[li].kernel]))
          .set("stride", static_cast<std::int64_t>(LAUNCHES[li].stride));
      {  // the launch and its theoretical occupancy (the occupancy API), for every kernel
        const DiagArgs a = setup.args(li);
        const DiagOcc oc = diag_occupancy(LAUNCHES[li].kernel, a.threads, a.smem_bytes);
        r.extra["blocks"] = a.blocks;
        r.extra["threads"] = a.threads;
        r.extra["dynamic_smem_bytes"] = a.smem_bytes;
        r.extra["blocks_per_sm"] = oc.blocks_per_sm;
        r.extra["registers"] = oc.regs;
        r.extra["theoretical_occupancy_pct"] =
            100.0 * oc.blocks_per_sm * a.threads / std::max(1, g.facts().max_threads_per_sm);
      }
      r.validation = valid[li] = setup.validate(li);
      if (r.validation != "exact") {
        r.skipped = "not timed: validation failed";
        recs.push_back(r);
        continue;
      }
      const auto m = g.timer().measure([&](cudaStream_t st) { setup.launch(li, st); }, measure::Mode::Cold, o.rule);
      r.set_measurement(m);
      t[li] = m.stats.median;
      recs.push_back(r);
    }

  // ncu on the same kernels, in a child process.
  const std::string ncu = find_ncu();
  std::string why;
  NcuRun run;
  if (ncu.empty()) {
    why = "ncu not found ($JOSEKI_NCU, PATH, /usr/local/cuda/bin, /opt/nvidia/nsight-compute/*/ncu)";
  } else if (o.self_exe.empty()) {
    why = "no joseki binary to profile (self_exe unknown)";
  } else {
    // Time-boxed so that `probe all` (and the tour's full run) stays within its budget.
    const std::set<std::string> known = query_ncu_metrics(ncu, o.device, NCU_QUERY_S);
    const std::vector<std::string> app = {o.self_exe, "--device", std::to_string(o.device), "--quiet", "probe",
                                          "diagnose", "--run-kernels"};
    run = run_ncu_with_fallbacks(ncu, all_metrics(), CORE_METRICS, known, "diag_", app, NCU_BUDGET_S);
    if (!run.ok) why = run.error;
  }
  const auto values = run.ok ? by_launch(run.rows) : std::map<int, std::map<std::string, double>>{};
  Record info = value_record("diagnose", "ncu", ncu.empty() ? "ncu: not found" : "ncu: " + run.command,
                             run.ok ? static_cast<double>(run.rows.size()) : 0.0, "metric rows");
  info.extra["ncu"] = ncu;
  info.extra["dropped_metrics"] = run.dropped;
  if (!run.warning.empty()) info.extra["warning"] = run.warning;
  info.extra["metrics"] = run.metrics;
  if (!run.ok) info.skipped = "ncu: " + why;
  if (info.skipped) {
    info.samples.clear();
    info.summary.reset();
    info.stop_reason = "";
  }
  info.extra["seconds"] = run.seconds;
  recs.push_back(info);
  if (run.ok)
    for (int li = 0; li < 6; ++li) {  // sectors per request over the strides
      if (!values.count(li) || !values.at(li).count("sectors_per_request")) continue;
      Record r = value_record("diagnose", "ncu_sectors_per_request", "ncu: l1tex global-load sectors / requests",
                              values.at(li).at("sectors_per_request"), "sectors/request");
      r.axes.set("stride_words", static_cast<std::int64_t>(LAUNCHES[li].stride));
      r.extra["model"] = sectors_per_request(static_cast<std::int64_t>(LAUNCHES[li].stride));
      r.extra["display"] = fmt::format("{:.2f} measured, {} modelled", r.summary->median, r.extra["model"].get<int>());
      recs.push_back(r);
    }

  for (const Symptom& sy : symptoms()) {
    const double tb = t.count(sy.bad) ? t.at(sy.bad) : 0, tf = t.count(sy.fix) ? t.at(sy.fix) : 0;
    const Record* pv = find_verdict(o.earlier, sy.probe_verdict);
    const std::string probe_fig = pv ? pv->extra.value("figure", "") : "";
    const std::string rule = fmt::format("{}: cause {}; ncu detects it", sy.symptom, sy.cause);
    if (!run.ok || !values.count(sy.bad) || !values.count(sy.fix)) {
      Record r = skipped_record("diagnose", std::string("verdict:") + sy.id, rule,
                                run.ok ? "ncu returned no values for these kernels" : "ncu: " + why, Scope::Value);
      r.extra["time_bad_over_fix"] = tf > 0 ? tb / tf : 0.0;
      r.extra["probe_figure"] = probe_fig;
      recs.push_back(r);
      continue;
    }
    const auto& vb = values.at(sy.bad);
    const auto& vf = values.at(sy.fix);
    std::string key;
    for (const auto& k : sy.keys)
      if (key.empty() && vb.count(k) && vf.count(k)) key = k;
    for (int side = 0; side < 2; ++side) {
      const auto& v = side ? vf : vb;
      Record r = value_record("diagnose", fmt::format("ncu_{}_{}", sy.id, side ? "fix" : "bad"),
                              fmt::format("ncu metrics of {}", DIAG_KERNEL_NAMES[LAUNCHES[side ? sy.fix : sy.bad].kernel]),
                              key.empty() ? 0.0 : v.at(key), key.empty() ? "none" : key);
      for (const auto& [name, x] : v) r.extra["metrics"][name] = x;
      r.extra["display"] = key.empty() ? "no detecting metric returned" : key + " = " + metric_text(v, key);
      recs.push_back(r);
    }
    if (key.empty()) continue;
    const double b = vb.at(key), f = vf.at(key);
    const bool detects = sy.direction > 0 ? b >= 1.5 * f && b > 0 : f >= 1.5 * b && f > 0;
    std::string fig = fmt::format("{}: bad {} vs fix {}; time bad/fix {:.2f} x", key, metric_text(vb, key),
                                  metric_text(vf, key), tf > 0 ? tb / tf : 0.0);
    if (!probe_fig.empty()) fig += "; probe: " + probe_fig;
    Record v = verdict_record("diagnose", sy.id, rule, detects ? Verdict::Holds : Verdict::DoesNotHold, fig,
                              f != 0 ? b / f : b, "bad/fix");
    v.extra["symptom"] = sy.symptom;
    v.extra["cause"] = sy.cause;
    v.extra["metric"] = key;
    v.extra["bad"] = b;
    v.extra["fix"] = f;
    v.extra["time_bad_over_fix"] = tf > 0 ? tb / tf : 0.0;
    recs.push_back(v);
  }
  return recs;
}
#endif

}  // namespace

void run_diagnose_kernels(int device) {
#ifdef JOSEKI_HAVE_CUDA
  gpu::require_device(device);
  const measure::DeviceFacts d = gpu::device_facts(device);
  cuda::Stream s;
  Setup setup(d, s);
  std::vector<std::string> bad;
  for (int li = 0; li < N_LAUNCHES; ++li) {
    const std::string v = setup.validate(li);  // one launch each: what ncu profiles
    if (v != "exact") bad.push_back(v);
  }
  s.sync();
  if (!bad.empty()) throw ValidationError("diagnose kernels: " + bad.front());
#else
  (void)device;
  throw GpuUnavailable(NO_CUDA);
#endif
}


}  // namespace joseki::probes
