// `joseki abc471g scale hopper` (bench_hopper.hpp): issue 19's floor and rungs beside r04.
#include "experiments/abc471g/gpu_pairs/bench_hopper.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_pairs/bench_util.hpp"
#include "experiments/abc471g/gpu_pairs/combine_trace.hpp"
#include "experiments/abc471g/gpu_pairs/dsmem_plan.hpp"
#include "experiments/abc471g/gpu_pairs/ladder.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "experiments/abc471g/gpu_pairs/r09_wgmma_math.hpp"
#include "measure/errors.hpp"
#include "measure/sweep.hpp"
#include "measure/throughput.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "backend/cuda/check.hpp"
#include "backend/cuda/timing.hpp"
#include "experiments/abc471g/gpu_pairs/hopper_kernels.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline_cuda.hpp"
#endif

namespace joseki::abc471g::pairs {

using bench::base_record;
using measure::Record;
using measure::Scope;

std::uint32_t cpu_element_sum32(const Problem& p) {
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const std::uint64_t per = std::max<std::uint64_t>((p.n + hw - 1) / hw, 1);
  std::vector<std::uint32_t> part(hw, 0);
  std::vector<std::thread> ts;
  for (unsigned t = 0; t < hw; ++t)
    ts.emplace_back([&, t] {
      const std::uint64_t b = std::min<std::uint64_t>(p.n, t * per), e = std::min<std::uint64_t>(p.n, b + per);
      std::vector<std::uint32_t> buf(1u << 16);
      std::uint32_t s = 0;
      for (std::uint64_t i = b; i < e; i += buf.size()) {
        const std::uint64_t c = std::min<std::uint64_t>(buf.size(), e - i);
        generate(p, i, c, buf.data());
        for (std::uint64_t j = 0; j < c; ++j) s += buf[j];
      }
      part[t] = s;
    });
  for (auto& t : ts) t.join();
  std::uint32_t s = 0;
  for (std::uint32_t x : part) s += x;
  return s;
}

void add_floor_ratios(std::vector<Record>& recs, const Record& floor) {
  if (!floor.summary) return;
  const double f = floor.summary->median;
  for (Record& r : recs) {
    if (&r == &floor || r.variant == floor.variant || !r.summary || !r.scope_is(Scope::GpuCompute)) continue;
    r.extra["floor_s"] = f;
    r.extra["floor_x"] = r.summary->median / f;
  }
}

Record bench_generation_floor(const Problem& p, const BenchOptions& o, bool lean) {
  Record r = lean ? base_record("pairs.floor.generate_lean",
                                "generation floor with r16's generator (LCG steps in PTX, PCG output from the state's "
                                "halves, one-product mod): the same values, summed, no pair formed",
                                "cuda", Scope::GpuCompute, "cold")
                  : base_record("pairs.floor.generate",
                                "generation floor: A_0..A_{N-1} generated as the counts do (jump-ahead, PCG, fastmod), "
                                "summed (one atomic per warp), no pair formed",
                                "cuda", Scope::GpuCompute, "cold");
  bench::set_problem_axes(r, p);
#ifdef JOSEKI_HAVE_CUDA
  const gpu::Availability av = gpu::availability();
  if (!av.ok) return bench::skipped_record(r, "no GPU: " + av.reason);
  JOSEKI_CUDA_CHECK(cudaSetDevice(o.device));
  cuda::GpuTimer timer(o.device);
  const cudaStream_t s = timer.stream();
  cuda::DeviceBuffer<std::uint32_t> d_b(std::max<std::size_t>(p.b.size(), 1));
  if (!p.b.empty()) d_b.copy_from_host(p.b.data(), p.b.size());
  cuda::DeviceBuffer<std::uint32_t> d_sum(1);
  FloorArgs a;
  a.d_b = d_b.data();
  a.m = p.m();
  a.seed = p.seed;
  a.k = p.k;
  a.fastmod_m = make_fastmod(p.k).m;
  a.n = p.n;
  const std::uint64_t resident = floor_resident_threads(o.device);
  a.run = std::max<std::uint64_t>((p.n + resident - 1) / resident, 1);
  a.d_sum = d_sum.data();
  a.lean = lean;
  JOSEKI_CUDA_CHECK(cudaDeviceSynchronize());
  auto check = [&]() -> std::string {
    d_sum.poison(s);
    launch_generate_floor(a, s);
    std::uint32_t got = 0;
    d_sum.copy_to_host(&got, 1, s);
    JOSEKI_CUDA_CHECK(cudaStreamSynchronize(s));
    const std::uint32_t want = cpu_element_sum32(p);
    return got == want ? "" : fmt::format("sum of A mod 2^32: got {}, expected {} (CPU generator)", got, want);
  };
  const std::string bad = check();
  r.validation = bad.empty() ? "exact" : "failed: " + bad;
  r.extra["elements_per_thread"] = a.run;
  r.extra["resident_threads"] = resident;
  if (!bad.empty()) return r;
  a.zero_sum = false;  // the timed runs: the kernel alone
  r.set_measurement(timer.measure([&](cudaStream_t st) { launch_generate_floor(a, st); }, measure::Mode::Cold, o.rule));
  r.throughput = measure::throughput({static_cast<double>(p.n), 0}, r.summary->median);
  r.extra["elements_per_s"] = r.throughput->elements_per_s;
#else
  (void)o;
  r = bench::skipped_record(r, "this joseki was built without CUDA");
#endif
  return r;
}

std::vector<Record> bench_hopper(const Problem& p, const std::string& case_name, const BenchOptions& o) {
  std::vector<Record> out;
  // --rungs: only these rungs (and their splits), no sweeps; every name checked before anything runs.
  [[maybe_unused]] const bool only = !o.rungs.empty();
  std::set<int> picked;
  for (const std::string& name : o.rungs) picked.insert(find_rung(name, "--rungs").position);
  [[maybe_unused]] const auto chosen = [&](const PairsRung& r) { return !only || picked.count(r.position) > 0; };
  std::ofstream trace_out;
  if (!o.trace_csv.empty()) {  // opened before anything runs: a path that cannot be written is the user's error
    trace_out.open(o.trace_csv, std::ios::trunc);
    if (!trace_out) throw InputError("--trace-csv " + o.trace_csv + ": cannot be written");
    trace_out << TRACE_CSV_HEADER << std::flush;
  }
  // The count's trace (the lean partition kernel and the fused histograms) beside it: FILE.csv -> FILE.count.csv.
  std::ofstream count_out;
  if (!o.trace_csv.empty()) {
    const std::string& t = o.trace_csv;
    const std::string path =
        (t.size() > 4 && t.compare(t.size() - 4, 4, ".csv") == 0 ? t.substr(0, t.size() - 4) : t) + ".count.csv";
    count_out.open(path, std::ios::trunc);
    if (!count_out) throw InputError("--trace-csv " + o.trace_csv + ": " + path + " cannot be written");
    count_out << COUNT_TRACE_CSV_HEADER << std::flush;
  }
  const std::string set_id = "pairs-hopper " + case_name + " " + bench::now_id();
  auto stamp = [&](Record& r) {
    bench::set_problem_axes(r, p);
    r.axes.set("case", case_name);
    r.ladder.scope_set = set_id;
  };
  o.say(fmt::format("gpu-pairs, issue 19, {}: N = {}, K = {}; the generation floor ...", case_name, p.n, p.k));
  Record floor = bench_generation_floor(p, o);
  stamp(floor);
  o.say(fmt::format("  floor: {}", floor.summary ? fmt::format("{:.2f} us", floor.summary->median * 1e6)
                                   : floor.skipped ? "skipped: " + *floor.skipped : floor.validation));
  out.push_back(floor);
  Record lean_floor = bench_generation_floor(p, o, true);  // r16's generator, beside the floor
  stamp(lean_floor);
  o.say(fmt::format("  floor, r16's generator: {}", lean_floor.summary ? fmt::format("{:.2f} us", lean_floor.summary->median * 1e6)
                                                    : lean_floor.skipped ? "skipped: " + *lean_floor.skipped
                                                                         : lean_floor.validation));
  out.push_back(lean_floor);
#ifdef JOSEKI_HAVE_CUDA
  const gpu::Availability av = gpu::availability();
  if (!av.ok) return out;
  const Reference ref = reference_answer(p);
  o.say(fmt::format("  reference: {} ({:.3f} s)", ref.name, ref.seconds));
  cuda::GpuTimer timer(o.device);
  const cudaStream_t s = timer.stream();
  const int r04_position = find_rung("r04_partition_gemm").position;
  for (const PairsRung& rung : pairs_ladder()) {
    if (!rung.combiner || rung.position < r04_position || !chosen(rung)) continue;
    Record r = base_record(rung.variant(), rung.technique, "cuda", Scope::GpuCompute, "cold");
    r.rung = rung.position;
    stamp(r);
    r.extra["reference"] = ref.name;
    if (const std::string why = rung.precondition(p); !why.empty()) {
      out.push_back(bench::skipped_record(r, why));
      continue;
    }
    if (auto why = measure::unmet(combiner_needs(*rung.combiner, p.k), gpu::needs_facts(o.device))) {
      out.push_back(bench::skipped_record(r, *why));
      continue;
    }
    if (auto why = measure::unmet(rung.needs, gpu::needs_facts(o.device))) {
      out.push_back(bench::skipped_record(r, *why));
      continue;
    }
    PairsConfig cfg = rung.config();  // combiner, counter, the rung's kinds and knobs
    cfg.progress = false;
    r = bench::time_solve(p, cfg, ref.answer, timer, o, r);
    if (cfg.gemm_panels > 1) r.extra["gemm_panel_rows"] = PairsDevice(p, cfg, o.device).gemm_panel_rows();
    if (cfg.graph) {  // the launches the graph holds (r04's per solve) and whether it was used
      PairsDevice d(p, cfg, o.device);
      d.enqueue_solve(s);  // kernel by kernel (zeroing), then captured and replayed
      d.enqueue_solve(s);
      d.enqueue_solve(s);
      if (const std::string diff = compare_answers(d.download(s), ref.answer); !diff.empty())
        r.validation = "failed on graph replay: " + diff;
      r.extra["graph_kernel_nodes"] = d.graph_kernel_nodes();
      r.extra["graph_nodes"] = d.graph_nodes();
      r.extra["graph_captures"] = d.graph_captures();
      if (!d.graph_unavailable().empty()) r.extra["graph_unavailable"] = d.graph_unavailable();
    }
    r.extra["gemm_panels"] = cfg.gemm_panels;
    o.say(fmt::format("  {:<20} {}", rung.slug, r.summary ? fmt::format("{:.2f} us", r.summary->median * 1e6) : r.validation));
    if (trace_out.is_open() && cfg.combine_kind == "wgmma_skew" && cfg.wgmma.tma == 1 &&
        cfg.wgmma.warpgroups == 4) {
      PairsConfig tc = cfg;
      tc.trace_combine = true;
      tc.trace_count = cfg.partition_lean > 0;  // the lean partition kernel's and the fused histograms' blocks too
      PairsDevice d(p, tc, o.device);
      // The third solve's trace (the graph, if any, replayed), cold as the timed solves are: the L2 flushed before it,
      // then a mark on the global timer just before the solve, so that the combine's entries and ends are also timed
      // from the solve's start (the count's part is the first entry).
      cuda::DeviceBuffer<std::uint64_t> mark(1);
      for (int i = 0; i < 3; ++i) {
        if (i == 2) {
          timer.flush_l2();
          launch_timer_stamp(mark.data(), s);
        }
        d.enqueue_solve(s);
      }
      if (const std::string diff = compare_answers(d.download(s), ref.answer); !diff.empty())
        r.validation = "failed with the trace: " + diff;
      const std::vector<std::uint64_t> words = d.combine_trace(s);
      std::uint64_t start = 0;
      mark.copy_to_host(&start, 1, s);
      JOSEKI_CUDA_CHECK(cudaStreamSynchronize(s));
      const std::vector<TraceBlock> blocks = parse_combine_trace(words);
      const TraceSummary ts = summarize_trace(blocks);
      const std::optional<TraceFromMark> from = trace_from_mark(words, start);
      o.say("    trace: " + describe_trace(ts) +
            (from ? fmt::format("; from the solve's start: first entry {:.2f} us, last end {:.2f} us", from->first_entry,
                                from->last_end)
                  : ""));
      if (from)
        r.extra["combine_trace_from_start"] = {{"first_entry_us", from->first_entry}, {"last_end_us", from->last_end}};
      r.extra["combine_trace"] = {{"blocks", ts.blocks},
                                  {"entry_spread_us", ts.entry_spread}, {"prologue_us", ts.prologue},
                                  {"last_go_us", ts.last_go},      {"end_min_us", ts.end_min},
                                  {"end_median_us", ts.end_median}, {"end_max_us", ts.end_max},
                                  {"stage_us", ts.stage},          {"epilogue_us", ts.epilogue},
                                  {"end_one_segment_us", ts.end_one_segment},
                                  {"end_two_segments_us", ts.end_two_segments}};
      trace_out << trace_csv_rows(rung.slug, blocks) << std::flush;
      if (const std::vector<std::uint64_t> cw = d.count_trace(s); !cw.empty()) {
        const std::vector<CountTraceBlock> cb = parse_count_trace(cw, PairsDevice::COUNT_TRACE_BLOCKS, start);
        const CountTraceSummary cs = summarize_count_trace(cb);
        o.say("    count trace: " + describe_count_trace(cs));
        r.extra["count_trace"] = {{"partition_blocks", cs.partition_blocks}, {"sms", cs.sms},
                                  {"part_end_min_us", cs.part_end_min},   {"part_end_median_us", cs.part_end_median},
                                  {"part_end_max_us", cs.part_end_max},   {"part_run_median_us", cs.part_run_median},
                                  {"sm_end_min_us", cs.sm_end_min},       {"sm_end_median_us", cs.sm_end_median},
                                  {"sm_end_max_us", cs.sm_end_max},       {"late_sms", cs.late_sms},
                                  {"hist_blocks", cs.hist_blocks},        {"hist_counted_max_us", cs.hist_counted_max},
                                  {"hist_end_max_us", cs.hist_end_max}};
        count_out << count_trace_csv_rows(rung.slug, cb) << std::flush;
      }
    }
    out.push_back(r);
  }
  // Sweep: panels of the GEMM combine (r06's knob, with r05's graph); tie rule: within 2 %, fewer panels.
  if (!only && find_rung("r04_partition_gemm").precondition(p).empty() &&
      !measure::unmet(combiner_needs(Combiner::Gemm, p.k), gpu::needs_facts(o.device))) {
    std::vector<Record> pts;
    for (const int panels : {1, 2, 3, 4, 6}) {
      Record r = base_record("pairs.sweep.gemm_panels", "full solve (r05's graph), the GEMM combine in row panels",
                             "cuda", Scope::GpuCompute, "cold");
      stamp(r);
      r.axes.set("gemm_panels", static_cast<std::int64_t>(panels));
      r.ladder.sweep = "gemm_panels";
      PairsConfig c;
      c.progress = false;
      c.combiner = Combiner::Gemm;
      c.graph = true;
      c.gemm_panels = panels;
      r = bench::time_solve(p, c, ref.answer, timer, o, r);
      r.extra["gemm_panel_rows"] = PairsDevice(p, c, o.device).gemm_panel_rows();
      pts.push_back(r);
    }
    bench::mark_choice(pts, measure::TieRule::prefer_smaller("gemm_panels"));
    out.insert(out.end(), pts.begin(), pts.end());
  }
  // Sweep: pairs per partition tile (r07's knob, with r05's graph); tie rule: within 2 %, r03's tiles.
  if (!only && find_rung("r04_partition_gemm").precondition(p).empty() &&
      !measure::unmet(combiner_needs(Combiner::Gemm, p.k), gpu::needs_facts(o.device))) {
    std::vector<Record> pts;
    for (const int tile : {0, 20, 24}) {
      Record r = base_record("pairs.sweep.partition_tile",
                             "full solve (r05's graph), pairs per thread and partition tile (0: 16, 18 on a short run)",
                             "cuda", Scope::GpuCompute, "cold");
      stamp(r);
      r.axes.set("partition_tile", static_cast<std::int64_t>(tile));
      r.ladder.sweep = "partition_tile";
      PairsConfig c;
      c.progress = false;
      c.combiner = Combiner::Gemm;
      c.graph = true;
      c.partition_tile = tile;
      pts.push_back(bench::time_solve(p, c, ref.answer, timer, o, r));
    }
    bench::mark_choice(pts, measure::TieRule::prefer_smaller("partition_tile"));
    out.insert(out.end(), pts.begin(), pts.end());
  }
  // Sweep: the partition kernel (r16's knob: 0 r03's, 1 lean, 2 lean + gathered scatter, 3 + overlapped
  // write-out) in r03's tiles and in r07's tiles of 24 (and r16's kernel in tiles of 32), each with r15's
  // combine and graph; tie rule: within 2 %, the lower variant. Each point is the whole solve, validated.
  if (const PairsRung& r15 = find_rung("r15_tma_eight_slots");
      !only && r15.precondition(p).empty() && !measure::unmet(r15.needs, gpu::needs_facts(o.device))) {
    for (const int tile : {0, 24, 32}) {
      std::vector<Record> pts;
      for (const int lean : {0, 1, 2, 3, 4}) {
        if (tile == 32 && lean != 1) continue;  // tiles of 32: r16's kernel only
        Record r = base_record("pairs.sweep.partition_kernel",
                               "full solve (r15's combine and graph), partition kernel variant (0: r03's; 1-3: r16's)",
                               "cuda", Scope::GpuCompute, "cold");
        stamp(r);
        r.axes.set("partition_lean", static_cast<std::int64_t>(lean));
        r.axes.set("partition_tile", static_cast<std::int64_t>(tile));
        r.ladder.sweep = "partition_lean";
        PairsConfig c = r15.config();
        c.progress = false;
        c.partition_tile = tile;
        c.partition_lean = lean;
        r = bench::time_solve(p, c, ref.answer, timer, o, r);
        o.say(fmt::format("  partition kernel {} tile {:<2}  {}", lean, tile,
                          r.summary ? fmt::format("{:.2f} us", r.summary->median * 1e6) : r.validation));
        pts.push_back(r);
      }
      bench::mark_choice(pts, measure::TieRule::prefer_smaller("partition_lean"));
      out.insert(out.end(), pts.begin(), pts.end());
    }
    // Session 10: fewer, larger slices (PairsConfig::slices_per_sm; 0: plan_slices' rule of <= 2^14 cells, 3 a
    // SM on the H200 at K = 2300), r16's kernel (variant 4) in r03's tiles and in tiles of 24 (r17), and in
    // partition blocks of 256 and 128 where the slices number <= 256 (one a SM), histogram blocks of 512 and 1024,
    // and tiles of 28 (four blocks of 256 a SM) and of 32 (three, 85 registers allowed). Tie rule: within 2 %, the
    // smaller spread.
    for (const int tile : {0, 24, 28, 32}) {
      std::vector<Record> pts;
      struct Point {
        std::uint32_t spread;
        int threads, hist;  // partition and histogram blocks
        int lean = 4;       // 5 .. 12: r20 .. r24's, r28's, r30's and r31's kernels (blocks of 256)
      };
      for (const Point pt : {Point{0, 512, 512}, Point{2, 512, 512}, Point{1, 512, 512}, Point{1, 512, 1024},
                             Point{1, 256, 512}, Point{1, 256, 1024}, Point{1, 128, 512}, Point{1, 128, 1024},
                             Point{1, 256, 1024, 5}, Point{1, 256, 1024, 6}, Point{1, 256, 1024, 7},
                             Point{1, 256, 1024, 8}, Point{1, 256, 1024, 9}, Point{1, 256, 1024, 10},
                             Point{1, 256, 1024, 11}, Point{1, 256, 1024, 12}}) {
          const std::uint32_t spread = pt.spread;
          // tiles of 28 (four blocks of 256 a SM, 64 registers) and of 32 (three, 80 registers): r19's blocks only
          if (tile >= 28 && (pt.spread != 1 || pt.threads != 256 || pt.hist != 1024)) continue;
          if (pt.lean >= 5 && (tile == 0 || tile == 32)) continue;  // variants 5 .. 12: tiles of 24 and 28
          Record r = base_record("pairs.sweep.slices_per_sm",
                                 "full solve (r15's combine and graph, r16's partition kernel), histogram blocks "
                                 "(slices) a SM (0: the 2^14-cell plan)", "cuda", Scope::GpuCompute, "cold");
          stamp(r);
          r.axes.set("slices_per_sm", static_cast<std::int64_t>(spread));
          r.axes.set("partition_threads", static_cast<std::int64_t>(pt.threads));
          r.axes.set("hist_threads", static_cast<std::int64_t>(pt.hist));
          r.axes.set("partition_tile", static_cast<std::int64_t>(tile));
          r.axes.set("partition_lean", static_cast<std::int64_t>(pt.lean));
          r.ladder.sweep = "slices_per_sm";
          PairsConfig c = r15.config();
          c.progress = false;
          c.partition_tile = tile;
          c.partition_lean = pt.lean;
          c.slices_per_sm = spread;
          c.partition_threads = pt.threads;
          c.hist_threads = pt.hist;
          try {
            r = bench::time_solve(p, c, ref.answer, timer, o, r);
          } catch (const InputError& e) {  // a spread whose slices this GPU's shared memory cannot hold
            r.validation = std::string("not run: ") + e.what();
          }
          o.say(fmt::format("  slices a SM {} threads {} hist {} tile {:<2} lean {}  {}", spread, c.partition_threads,
                            c.hist_threads, tile, pt.lean,
                            r.summary ? fmt::format("{:.2f} us", r.summary->median * 1e6) : r.validation));
          pts.push_back(r);
        }
      bench::mark_choice(pts, measure::TieRule::prefer_smaller("slices_per_sm"));
      out.insert(out.end(), pts.begin(), pts.end());
    }
    // Chunk size with r16's kernel in tiles of 24 (variants 1 and 4): one chunk up to 2^30 pairs makes
    // N = 10^9 a single fused chunk (the histograms write the planes; 2 GB of buckets) instead of four.
    // lean 19 and 21: r19's and r21's counts (session 11: r21 wins at 10^8, one fused chunk, and loses at 10^9
    // in chunks of 2^28; chunks of 2^27 and 2^30 tell the run's length and the fused histograms apart).
    if (p.n > (1ULL << 28)) {
      std::vector<Record> pts;
      for (const int lean : {1, 4, 19, 21, 23, 24})
        for (const int lg : {27, 28, 29, 30}) {
          if (lg == 27 && lean < 19) continue;
          Record r = base_record("pairs.sweep.chunk_pairs", "full solve (r15's combine and graph, r16's kernel in tiles "
                                 "of 24; 19, 21, 23, 24: r19's, r21's, r23's, r24's count), pairs per chunk", "cuda", Scope::GpuCompute,
                                 "cold");
          stamp(r);
          r.axes.set("chunk_pairs", static_cast<std::int64_t>(1) << lg);
          r.axes.set("partition_lean", static_cast<std::int64_t>(lean));
          r.ladder.sweep = "chunk_pairs";
          PairsConfig c = lean == 19   ? find_rung("r19_small_partition_blocks").config()
                          : lean == 21 ? find_rung("r21_no_tile_end_barrier").config()
                          : lean == 23 ? find_rung("r23_prefetch_given_values").config()
                          : lean == 24 ? find_rung("r24_prefetch_barrier_back").config()
                                       : r15.config();
          c.progress = false;
          c.partition_tile = 24;
          if (lean < 19) c.partition_lean = lean;
          c.chunk_pairs = 1ULL << lg;
          r = bench::time_solve(p, c, ref.answer, timer, o, r);
          o.say(fmt::format("  chunk 2^{} lean {}  {}", lg, lean,
                            r.summary ? fmt::format("{:.2f} us", r.summary->median * 1e6) : r.validation));
          pts.push_back(r);
        }
      out.insert(out.end(), pts.begin(), pts.end());
    }
    // r19's and r21's counts with the histograms fused (one chunk: they write the product's planes, launched as
    // programmatic dependents) and not (they add into the table in stream order, as at 10^9 in chunks of 2^28).
    if (p.n <= (1ULL << 28)) {
      for (const char* slug : {"r19_small_partition_blocks", "r21_no_tile_end_barrier", "r23_prefetch_given_values"})
        for (const bool fuse : {true, false}) {
          Record r = base_record("pairs.sweep.fuse", "full solve of a rung, histograms fused into the planes or not",
                                 "cuda", Scope::GpuCompute, "cold");
          stamp(r);
          PairsConfig c = find_rung(slug).config();
          c.progress = false;
          c.fuse = fuse;
          r.axes.set("fuse", static_cast<std::int64_t>(fuse));
          r.axes.set("partition_lean", static_cast<std::int64_t>(c.partition_lean));
          r.ladder.sweep = "fuse";
          r = bench::time_solve(p, c, ref.answer, timer, o, r);
          o.say(fmt::format("  fuse {} lean {}  {}", fuse, c.partition_lean,
                            r.summary ? fmt::format("{:.2f} us", r.summary->median * 1e6) : r.validation));
          out.push_back(r);
        }
    }
  }
  // r29's knob (PairsConfig::hist_loads): 16-byte loads a histogram thread has in flight, on r27's solve (one chunk
  // up to 2^30 pairs, one slice a SM, histogram blocks of 1024). Tie rule: within 2 %, fewer loads.
  if (const PairsRung& r27 = find_rung("r27_one_chunk_no_tile_end_barrier");
      !only && r27.precondition(p).empty() && !measure::unmet(r27.needs, gpu::needs_facts(o.device))) {
    std::vector<Record> pts;
    for (const int loads : {1, 2, 4}) {
      Record r = base_record("pairs.sweep.hist_loads",
                             "full solve (r27's), 16-byte loads each histogram thread issues before it counts them",
                             "cuda", Scope::GpuCompute, "cold");
      stamp(r);
      r.axes.set("hist_loads", static_cast<std::int64_t>(loads));
      r.ladder.sweep = "hist_loads";
      PairsConfig c = r27.config();
      c.progress = false;
      c.hist_loads = loads;
      r = bench::time_solve(p, c, ref.answer, timer, o, r);
      o.say(fmt::format("  hist loads {}  {}", loads, r.summary ? fmt::format("{:.2f} us", r.summary->median * 1e6) : r.validation));
      pts.push_back(r);
    }
    bench::mark_choice(pts, measure::TieRule::prefer_smaller("hist_loads"));
    out.insert(out.end(), pts.begin(), pts.end());
  }
  // A rung's count alone and its combine alone, one device (validated through the whole solve before the
  // timed runs and again after them): records pairs.hopper.count_<tag> and pairs.hopper.combine_<tag>.
  auto split = [&](const PairsConfig& cfg, const std::string& tag, const std::string& count_what,
                   const std::string& combine_what, const std::string& phase_of, bool say) {
    PairsDevice fd(p, cfg, o.device);
    fd.poison(s);
    fd.enqueue_solve(s);
    const std::string diff = compare_answers(fd.download(s), ref.answer);
    for (int phase = 0; phase < 2; ++phase) {
      Record r = base_record(phase == 0 ? "pairs.hopper.count_" + tag : "pairs.hopper.combine_" + tag,
                             phase == 0 ? count_what : combine_what, "cuda", Scope::GpuCompute, "cold");
      stamp(r);
      r.extra["phase_of"] = phase_of;
      r.extra["fused"] = fd.fused();
      r.validation = diff.empty() ? "exact" : "failed: " + diff;
      if (diff.empty()) {
        if (phase == 0) {
          r.set_measurement(timer.measure([&](cudaStream_t st) { fd.enqueue_count(st); }, measure::Mode::Cold, o.rule));
        } else {
          fd.enqueue_count(s);
          r.set_measurement(timer.measure([&](cudaStream_t st) { fd.enqueue_combine(st); }, measure::Mode::Cold, o.rule));
        }
      }
      if (say)
        o.say(fmt::format("  {:<20} {}", r.variant.substr(6),
                          r.summary ? fmt::format("{:.2f} us", r.summary->median * 1e6) : r.validation));
      out.push_back(r);
    }
    fd.enqueue_count(s);
    fd.enqueue_combine(s);
    if (const std::string again = compare_answers(fd.download(s), ref.answer); !again.empty() && diff.empty())
      out.back().validation = out[out.size() - 2].validation = "failed after the timed runs: " + again;
  };
  // r04 split.
  if (!only && find_rung("r04_partition_gemm").precondition(p).empty() &&
      !measure::unmet(combiner_needs(Combiner::Gemm, p.k), gpu::needs_facts(o.device))) {
    PairsConfig gc;
    gc.progress = false;
    gc.combiner = Combiner::Gemm;
    split(gc, "r04", "r04's count alone (partition + histograms; fused: they write the planes)",
          "r04's combine alone (prep, cuBLASLt GEMM, masked column sum, upper planes)", "pairs.r04_partition_gemm", false);
  }
  // Every rung from r16 on with joseki's wgmma combine (r15's kernel; r33, r34, r37 skewed; r35, r36 on the Hankel
  // view) split, kernel by kernel, so that the count and the combine can be timed apart: a new rung is measured here
  // without a line of its own.
  for (const PairsRung& rung : pairs_ladder()) {
    if (rung.position < 16 || (rung.combine_kind != "wgmma" && rung.combine_kind != "wgmma_skew") || !chosen(rung)) continue;
    const char* slug = rung.slug.c_str();
    if (!rung.precondition(p).empty() || measure::unmet(rung.needs, gpu::needs_facts(o.device))) continue;
    PairsConfig gc = rung.config();
    gc.progress = false;
    gc.graph = false;
    const std::string tag = std::string(slug).substr(0, 3);
    split(gc, tag, tag + "'s count alone (lean partition + histograms; fused: they write the planes)",
          tag + (rung.combine_kind == "wgmma_skew"       ? "'s combine alone (r33's skewed wgmma combine, the first terms)"
                 : gc.wgmma.op == WgmmaOperand::Ss ? "'s combine alone (r15's wgmma combine on the Hankel view, the first terms)"
                                                   : "'s combine alone (r15's wgmma combine, the first terms)"),
          "pairs." + std::string(slug), true);
  }
  // r08 split, clusters of 8 and 16: the DSMEM count alone (route + tables, zeroing included), and for
  // one chunk its route kernel alone and its table kernel alone (remote shared-memory adds per second:
  // the figure r08's prediction turns on). Validated through the whole solve before and after.
  if (!only && find_rung("r08_dsmem_count").precondition(p).empty() &&
      !measure::unmet(combiner_needs(Combiner::Gemm, p.k), gpu::needs_facts(o.device)) &&
      !measure::unmet(dsmem_needs(), gpu::needs_facts(o.device))) {
    for (const std::uint32_t cluster : {8u, 16u}) try {
      PairsConfig gc;
      gc.progress = false;
      gc.combiner = Combiner::Gemm;
      gc.count_kind = "dsmem";
      gc.dsmem_cluster = cluster;
      PairsDevice fd(p, gc, o.device);
      fd.poison(s);
      fd.enqueue_solve(s);
      const std::string diff = compare_answers(fd.download(s), ref.answer);
      const bool split = fd.rounds() == 1 && fd.chunks() == 1 && fd.pairs() > 0;
      const std::size_t first = out.size();
      // Clusters of 8 only: phase 3, the table kernel with debug call 1's generic atom.add (beside phase 2's
      // red.shared::cluster); phase 4, the route kernel ranking with __match_any_sync (beside phase 1's ballots).
      for (int phase = 0; phase < (split ? (cluster == 8 ? 5 : 3) : 1); ++phase) {
        static const char* const names[] = {"pairs.hopper.count_r08", "pairs.hopper.route_r08", "pairs.hopper.tables_r08",
                                            "pairs.hopper.tables_r08", "pairs.hopper.route_r08"};
        static const char* const what[] = {
            "r08's count alone (table zeroing, route kernel, DSMEM table kernel)",
            "r08's route kernel alone (generate, rank by row range, 4-byte entries into the buckets)",
            "r08's table kernel alone (the buckets counted through remote shared-memory adds, rows added into the table)",
            "r08's table kernel alone, the add as a generic atom.add through cluster.map_shared_rank (debug call 1's form)",
            "r08's route kernel alone, ranking by __match_any_sync instead of warp ballots"};
        Record r = base_record(names[phase], what[phase], "cuda", Scope::GpuCompute, "cold");
        stamp(r);
        r.axes.set("dsmem_cluster", static_cast<std::int64_t>(cluster));
        if (phase == 2 || phase == 3)
          r.axes.set("dsmem_add", std::string(phase == 3 ? "generic_atom" : "red_shared_cluster"));
        if (phase == 1 || phase == 4) r.axes.set("dsmem_add", std::string(phase == 4 ? "rank_match" : "rank_ballot"));
        r.extra["phase_of"] = "pairs.r08_dsmem_count";
        r.extra["dsmem_ranges"] = fd.count_extra("dsmem_ranges");
        r.extra["dsmem_rows"] = fd.count_extra("dsmem_rows");
        r.extra["dsmem_cluster"] = cluster;
        r.extra["dsmem_block_bytes"] = fd.count_extra("dsmem_block_bytes");
        r.validation = diff.empty() ? "exact" : "failed: " + diff;
        if (diff.empty()) {
          if (phase == 0) {
            r.set_measurement(timer.measure([&](cudaStream_t st) { fd.enqueue_count(st); }, measure::Mode::Cold, o.rule));
          } else if (phase == 1 || phase == 4) {
            const bool match = phase == 4;
            r.set_measurement(timer.measure([&](cudaStream_t st) { fd.enqueue_count_phase(st, 1, match); },
                                            measure::Mode::Cold, o.rule));
            if (match) {  // the match-ranked buckets counted by the table kernel: the table must still be exact
              fd.poison(s);
              fd.enqueue_zero(s);
              fd.enqueue_count_phase(s, 1, true);
              fd.enqueue_count_phase(s, 2);
              fd.enqueue_combine(s);
              if (const std::string d2 = compare_answers(fd.download(s), ref.answer); !d2.empty())
                r.validation = "failed (match-ranked route): " + d2;
            }
          } else {
            const bool generic = phase == 3;
            fd.enqueue_count_phase(s, 1);  // full buckets, kept full by every timed run
            r.set_measurement(timer.measure([&](cudaStream_t st) { fd.enqueue_count_phase(st, 2, generic); },
                                            measure::Mode::Cold, o.rule));
            if (r.summary && r.summary->median > 0)
              r.extra["remote_adds_per_s"] = static_cast<double>(fd.pairs()) / r.summary->median;
          }
        }
        out.push_back(r);
      }
      fd.poison(s);
      fd.enqueue_solve(s);
      if (const std::string again = compare_answers(fd.download(s), ref.answer); !again.empty() && diff.empty())
        for (std::size_t i = first; i < out.size(); ++i) out[i].validation = "failed after the timed runs: " + again;
    } catch (const GpuUnavailable& e) {  // e.g. no cluster of 16 fits: a skipped row, the other records kept
      Record r = base_record("pairs.hopper.count_r08", "r08's count alone", "cuda", Scope::GpuCompute, "cold");
      stamp(r);
      r.axes.set("dsmem_cluster", static_cast<std::int64_t>(cluster));
      out.push_back(bench::skipped_record(r, e.what()));
    }
  }
#endif
  add_floor_ratios(out, out.front());
  return out;
}

}  // namespace joseki::abc471g::pairs
