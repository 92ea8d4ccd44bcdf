// Probe "caches_l2" (issue 17, item 6): what the caches probe's one-thread chase averages over.
//  - L2 near and far side per SM: Hopper's L2 is two partitions; a line homed in the SM's own
//    partition answers faster than one homed in the other (Luo et al. report near ≈ 264 and far
//    ≈ 502 cycles on the H800). From every SM (one block per SM), each of 2048 random lines of a
//    16 MiB region is loaded with ld.global.cg (L2, not L1) as a self loop and timed; a two-means
//    split of each SM's latencies says which lines are near and which far for it, and the SMs fall
//    into two groups with complementary far sets. Then each side's lines are read with 16-byte
//    ld.global.cg by one SM alone and by every SM at once: bytes per cycle per SM, near vs far.
//  - HBM latency at a footprint of 1 GiB (and 4 GiB): the pure pointer chase over 2^21 random
//    nodes, so that a quoted HBM figure is not a cache or a 256 MiB figure.
//  - The TLB: one 128-byte node per 2 MiB page, footprints 64 MiB .. 64 GiB (skipped, with the
//    reason, where the device has less free memory). The ring's lines (<= 4 MiB) stay in the L2,
//    so the rise with the footprint is address translation.
// Prediction: near ≈ 260-300, far ≈ 450-550 cycles, far/near ≈ 1.8-2; HBM at 1 GiB ≈ 700-900 cycles;
// TLB: flat up to a few GiB, then a rise. Measured (H200, results/h200/2026-12-01-session5/final-b,
// f65f2d5): near = far = 280.4 cycles on all 132 SMs (no two-sided split found: the prediction's
// far side did not show; see docs/FINDINGS.md R4b); HBM 665.5 cycles at 1 GiB, 668.1 at 4 GiB; the
// page chase 32 cycles to 512 MiB, 43 at 1 GiB, 64 at 2 GiB, 179 at 4 GiB, 290-292 from 8 to 64 GiB.
//  - L2 first touch (truth3, since the self loop found no split): each SM loads 512 lines of its own
//    ONCE after they were rewritten (so no near copy exists), each load timed alone, then again.
//    Prediction: first touch bimodal on most SMs, far / near ~1.8 (the far partition, ~500 cycles at
//    Luo's H800), second touch all near. Measured (H200, results/h200/2026-12-01-truth3-call2,
//    75237e9): two sides on 96 of 132 SMs, near 292 / far 462 cycles (x 1.58), a median 48 % of the
//    lines far; 36 SMs (TPC pairs such as 4/5, 20/21) see every line at ~300; second touch 292
//    everywhere. Both include two clock reads and a shared store (the self loop's near is 280.6).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "experiments/probes/caches_l2_analysis.hpp"
#include "experiments/probes/probe.hpp"
#include "measure/errors.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "experiments/probes/analysis.hpp"
#include "experiments/probes/caches_kernels.hpp"
#include "experiments/probes/caches_l2_kernels.hpp"
#include "experiments/probes/caches_l2_layout.hpp"
#include "experiments/probes/common_kernels.hpp"
#include "experiments/probes/device_common.hpp"
#include "experiments/probes/gpu_util.hpp"
#include "experiments/probes/references.hpp"
#endif

namespace joseki::probes {
namespace {

JOSEKI_REGISTER_GPU_PROBE(caches_l2,
                          "caches_l2: near/far L2 side latency and bandwidth per SM, HBM latency at >= 1 GiB, TLB "
                          "to 64 GiB",
                          "the far L2 side costs about twice the near one; translation beyond the TLB's reach", 51, 20);

#ifdef JOSEKI_HAVE_CUDA
using measure::Record;

constexpr double GiB = 1073741824.0;
std::string gib_text(double b) {
  return b >= GiB ? fmt::format("{:g} GiB", b / GiB) : fmt::format("{:g} MiB", b / 1048576.0);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// ---- L2 near / far ----
struct SideLists {
  int rows = 0;
  std::vector<std::uint32_t> near, far;  // rows x lines line indices
  std::vector<int> near_n, far_n;
};

void l2_sides(const ProbeOptions& o, GpuContext& g, std::vector<Record>& recs) {
  const cudaStream_t s = g.stream();
  const measure::DeviceFacts& d = g.facts();
  const int sms = d.sm_count, lines = o.quick ? 512 : 2048, steps = o.quick ? 16 : 32;
  const std::size_t region = std::min<std::size_t>(std::size_t{16} << 20, static_cast<std::size_t>(d.l2_bytes) / 2);
  const std::size_t region_lines = region / 128;
  cuda::DeviceBuffer<std::uint32_t> buf(region / 4);
  auto* slots = reinterpret_cast<unsigned long long*>(buf.data());
  const std::uint32_t seed = run_seed();
  const auto perm = chase_order(static_cast<std::uint32_t>(region_lines), seed ^ 0x4C32536964657321ULL);
  std::vector<std::uint32_t> line_of(perm.begin(), perm.begin() + lines);
  std::vector<std::uint64_t> line_slots(lines);
  for (int j = 0; j < lines; ++j) line_slots[j] = static_cast<std::uint64_t>(line_of[j]) * 16;
  cuda::DeviceBuffer<std::uint64_t> slots_d(lines);
  slots_d.copy_from_host(line_slots.data(), lines, s);
  launch_l2_self_loops(slots, slots_d.data(), lines, s);
  const std::size_t smem = l2_one_block_per_sm_smem(static_cast<std::size_t>(d.smem_per_sm),
                                                    static_cast<std::size_t>(d.smem_per_block_optin));
  cuda::DeviceBuffer<float> cyc(static_cast<std::size_t>(sms) * lines);
  cuda::DeviceBuffer<int> smid(sms);
  cuda::DeviceBuffer<unsigned long long> check(sms);
  unsigned long long want = 0;
  for (const std::uint64_t x : line_slots) want ^= x;

  // Three passes; per (SM, line) the median (a block's SM may differ from pass to pass).
  std::map<int, std::vector<std::vector<float>>> by_sm;
  Checker chk("self-loop ends");
  int shared_sm_blocks = 0;
  for (int pass = 0; pass < 3; ++pass) {
    cyc.poison(s);
    smid.poison(s);
    check.poison(s);
    launch_l2_line_latency(slots, slots_d.data(), lines, steps, cyc.data(), smid.data(), check.data(), sms, smem, s);
    const auto c = to_host(cyc, cyc.size(), s);
    const auto sm = to_host(smid, smid.size(), s);
    const auto ck = to_host(check, check.size(), s);
    std::set<int> seen;
    for (int b = 0; b < sms; ++b) {
      chk.expect(ck[b], want, fmt::format("pass {} block {}", pass, b));
      if (!seen.insert(sm[b]).second) ++shared_sm_blocks;
      by_sm[sm[b]].push_back(std::vector<float>(c.begin() + static_cast<std::ptrdiff_t>(b) * lines,
                                                c.begin() + static_cast<std::ptrdiff_t>(b + 1) * lines));
    }
  }
  Record nr = make_record("caches_l2", "l2_near_latency",
                          "per SM: the median L2-hit latency (ld.global.cg self loop) of the lines a two-means split "
                          "calls near for that SM; one sample per SM",
                          Scope::GpuCompute, "hot", "cycles");
  Record fr = make_record("caches_l2", "l2_far_latency",
                          "per SM: the median L2-hit latency of the lines the split calls far for that SM; one sample "
                          "per SM",
                          Scope::GpuCompute, "hot", "cycles");
  nr.axes.set("lines", std::int64_t{lines}).set("region_bytes", static_cast<std::int64_t>(region));
  fr.axes = nr.axes;
  nr.validation = fr.validation = chk.text();
  if (!chk.ok()) {
    nr.skipped = fr.skipped = "validation failed";
    recs.push_back(nr);
    recs.push_back(fr);
    return;
  }
  std::vector<int> sm_ids;
  std::vector<TwoSides> sides;
  for (auto& [sm, passes] : by_sm) {
    std::vector<float> med(lines);
    for (int j = 0; j < lines; ++j) {
      std::vector<double> v;
      for (const auto& p : passes) v.push_back(p[j]);
      med[j] = static_cast<float>(median(v));
    }
    sm_ids.push_back(sm);
    sides.push_back(split_two_sides(med));
  }
  const std::vector<int> group = side_groups(sides);
  std::vector<double> near_v, far_v;
  nlohmann::json per_sm = nlohmann::json::array();
  int separated = 0, g0 = 0, g1 = 0;
  for (std::size_t i = 0; i < sides.size(); ++i) {
    near_v.push_back(sides[i].near);
    far_v.push_back(sides[i].far);
    separated += sides[i].separated;
    g0 += group[i] == 0;
    g1 += group[i] == 1;
    per_sm.push_back({{"sm", sm_ids[i]}, {"near_cycles", sides[i].near}, {"far_cycles", sides[i].far},
                      {"far_lines", sides[i].far_lines}, {"group", group[i]}});
  }
  for (auto* r : {&nr, &fr}) {
    r->samples = r == &nr ? near_v : far_v;
    r->summary = measure::summarize(r->samples);
    r->stop_reason = "single";
    r->extra["per_sm"] = per_sm;
    r->extra["sms_measured"] = static_cast<int>(sides.size());
    r->extra["blocks_on_a_shared_sm"] = shared_sm_blocks;
    r->extra["ns_per_load"] = g.cycles_to_s(r->summary->median) * 1e9;
  }
  const double near_med = nr.summary->median, far_med = fr.summary->median;
  nr.extra["display"] = fmt::format("{:.0f} cycles (median of {} SMs)", near_med, sides.size());
  fr.extra["display"] = fmt::format("{:.0f} cycles (median of {} SMs; far / near {:.2f})", far_med, sides.size(),
                                    near_med > 0 ? far_med / near_med : 0.0);
  add_reference(nr, Published{"L2 hit latency, near partition", 264, "cycles", LUO_2024}, near_med,
                "another part (H800 PCIe) and another chase");
  add_reference(fr, Published{"L2 hit latency, far partition", 502, "cycles", LUO_2024}, far_med,
                "another part (H800 PCIe) and another chase");
  recs.push_back(nr);
  recs.push_back(fr);
  const bool two = separated == static_cast<int>(sides.size()) && g0 > 0 && g1 > 0 && g0 + g1 == separated;
  recs.push_back(verdict_record(
      "caches_l2", "l2_sides", "the L2 has two sides: a line homed in the other partition costs ~2x (H800: 264 vs 502)",
      two && far_med >= 1.5 * near_med ? Verdict::Holds : Verdict::Depends,
      fmt::format("near {:.0f} / far {:.0f} cycles (x {:.2f}); {} of {} SMs split in two, groups of {} and {} SMs "
                  "with complementary far lines",
                  near_med, far_med, near_med > 0 ? far_med / near_med : 0.0, separated, sides.size(), g0, g1),
      near_med > 0 ? far_med / near_med : 0.0, "x (far / near)"));

  // ---- bandwidth of each side: one SM alone, then every SM at once ----
  SideLists L;
  L.rows = sm_ids.empty() ? 0 : *std::max_element(sm_ids.begin(), sm_ids.end()) + 1;
  L.near.assign(static_cast<std::size_t>(L.rows) * lines, 0);
  L.far = L.near;
  L.near_n.assign(L.rows, 0);
  L.far_n.assign(L.rows, 0);
  for (std::size_t i = 0; i < sides.size(); ++i) {
    if (!sides[i].separated) continue;
    const int row = sm_ids[i];
    for (int j = 0; j < lines; ++j) {
      auto& n = sides[i].is_far[j] ? L.far_n[row] : L.near_n[row];
      (sides[i].is_far[j] ? L.far : L.near)[static_cast<std::size_t>(row) * lines + n++] = line_of[j];
    }
  }
  launch_fill_mix32(buf.data(), buf.size(), seed, s);  // known words for the read's check (loops overwritten)
  // The mirror: per line, the sum of its 32 words.
  auto line_sum = [&](std::uint32_t line) {
    std::uint32_t t = 0;
    for (std::uint32_t w = 0; w < 32; ++w) t += mix32(static_cast<std::uint64_t>(line) * 32 + w, seed);
    return t;
  };
  const int reps = o.quick ? 8 : 64, threads = 1024;
  for (const bool far_side : {false, true}) {
    const auto& lists = far_side ? L.far : L.near;
    const auto& counts = far_side ? L.far_n : L.near_n;
    std::vector<std::uint32_t> row_sum(L.rows, 0);
    for (int r = 0; r < L.rows; ++r)
      for (int k = 0; k < counts[r]; ++k) row_sum[r] += line_sum(lists[static_cast<std::size_t>(r) * lines + k]);
    cuda::DeviceBuffer<std::uint32_t> lists_d(std::max<std::size_t>(lists.size(), 1));
    cuda::DeviceBuffer<int> counts_d(std::max(L.rows, 1));
    if (!lists.empty()) lists_d.copy_from_host(lists.data(), lists.size(), s);
    if (L.rows) counts_d.copy_from_host(counts.data(), counts.size(), s);
    for (const bool all : {false, true}) {
      const int blocks = all ? sms : 1;
      Record r = make_record("caches_l2", fmt::format("l2_{}_bandwidth_{}", far_side ? "far" : "near", all ? "all_sms" : "one_sm"),
                             fmt::format("{} reads the lines on its {} L2 side ({} per SM) {} times with 16-byte "
                                         "ld.global.cg, 1024 threads; bytes per cycle per SM (median over SMs)",
                                         all ? "every SM at once" : "one SM alone", far_side ? "far" : "near",
                                         "~half of " + std::to_string(lines), reps),
                             Scope::GpuCompute, "hot", "B/cycle");
      cuda::DeviceBuffer<long long> cyc_b(blocks);
      cuda::DeviceBuffer<std::uint32_t> sums(blocks);
      cuda::DeviceBuffer<int> sm_b(blocks);
      Checker bc("block sums");
      auto once = [&]() -> double {
        launch_l2_side_read(reinterpret_cast<const uint4*>(buf.data()), lists_d.data(), counts_d.data(), L.rows, lines,
                            reps, cyc_b.data(), sums.data(), sm_b.data(), blocks, threads, smem, s);
        const auto c = to_host(cyc_b, blocks, s);
        const auto sm = to_host(sm_b, blocks, s);
        std::vector<double> bpc;
        for (int b = 0; b < blocks; ++b) {
          const int n = sm[b] >= 0 && sm[b] < L.rows ? counts[sm[b]] : 0;
          if (n > 0 && c[b] > 0) bpc.push_back(static_cast<double>(reps) * n * 128 / static_cast<double>(c[b]));
        }
        return median(bpc);
      };
      sums.poison(s);
      sm_b.poison(s);
      const double first = once();
      {
        const auto got = to_host(sums, blocks, s);
        const auto sm = to_host(sm_b, blocks, s);
        for (int b = 0; b < blocks; ++b) {
          const bool in = sm[b] >= 0 && sm[b] < L.rows;
          bc.expect(got[b], in ? row_sum[sm[b]] * static_cast<std::uint32_t>(reps) : 0u, fmt::format("block {}", b));
        }
      }
      r.validation = bc.text();
      if (!bc.ok() || first <= 0) {
        r.skipped = first <= 0 ? "no SM had lines on that side (no two-sided split)" : "not timed: validation failed";
        recs.push_back(r);
        continue;
      }
      const auto m = measure_values(once, light_rule(o.rule, o.quick));
      r.set_measurement(m);
      r.extra["GB_per_s_per_sm"] = m.stats.median * g.clock_hz() / 1e9;
      r.extra["display"] = fmt::format("{:.1f} B/cycle per SM ({:.0f} GB/s at {:.0f} MHz)", m.stats.median,
                                       m.stats.median * g.clock_hz() / 1e9, g.clock_hz() / 1e6);
      recs.push_back(r);
    }
  }
}

// ---- L2 first touch (truth3): the far side without a near copy ----
// l2_sides re-reads each line after two warm loads, and every line then answers at ~280 cycles from
// every SM: Hopper's L2 keeps a copy of a far line in the near partition after the first access. Here
// each SM walks lines of its own (no other SM reads them), just rewritten (a write leaves the line in
// its home slice), and times each line's FIRST load alone: a line homed far should cost the far
// latency once. Pass 2 re-reads them (the copy answers near). Per SM, a two-means split of the first
// touches gives its near and far medians; a far / near of ~1.8-2 (Luo et al.: 264 / 502 on the H800)
// on most SMs would be the two partitions. Timing includes the clock reads and the shared store
// (the same in both passes): compare far with pass 2, not with the self-loop figures.
void l2_first_touch(const ProbeOptions& o, GpuContext& g, std::vector<Record>& recs) {
  const cudaStream_t s = g.stream();
  const measure::DeviceFacts& d = g.facts();
  const int sms = d.sm_count;
  const std::size_t smem = l2_one_block_per_sm_smem(static_cast<std::size_t>(d.smem_per_sm),
                                                    static_cast<std::size_t>(d.smem_per_block_optin));
  const int per_block =
      static_cast<int>(std::min<std::size_t>(o.quick ? 128 : 512, smem / 8 > 64 ? smem / 8 - 64 : 0));
  const std::size_t region = std::min<std::size_t>(std::size_t{16} << 20, static_cast<std::size_t>(d.l2_bytes) / 2);
  const std::size_t region_lines = region / 128;
  const std::size_t total = static_cast<std::size_t>(sms) * static_cast<std::size_t>(per_block);
  Record nr = make_record("caches_l2", "l2_first_touch_near",
                          "per SM: each of its own lines (just rewritten, read by no other SM) loaded once and timed "
                          "alone (clock, ld.global.cg, shared store, clock); median of the lines a two-means split "
                          "calls near; one sample per SM",
                          Scope::GpuCompute, "cold", "cycles");
  Record fr = nr;
  fr.variant = "l2_first_touch_far";
  fr.technique = "the same first touches: median of the lines the split calls far; one sample per SM";
  Record sr = nr;
  sr.variant = "l2_second_touch";
  sr.technique = "the same lines loaded a second time from the same SM, timed the same way; median per SM";
  sr.mode = "hot";
  for (Record* r : {&nr, &fr, &sr})
    r->axes.set("lines_per_sm", std::int64_t{per_block}).set("region_bytes", static_cast<std::int64_t>(region));
  if (per_block < 32 || total > region_lines) {
    for (Record* r : {&nr, &fr, &sr}) {
      r->skipped = fmt::format("{} lines per SM x {} SMs do not fit (shared memory {} B, region {} lines)", per_block,
                               sms, smem, region_lines);
      recs.push_back(*r);
    }
    return;
  }
  cuda::DeviceBuffer<std::uint32_t> buf(region / 4);
  auto* slots = reinterpret_cast<unsigned long long*>(buf.data());
  const std::uint32_t seed = run_seed();
  const auto perm = chase_order(static_cast<std::uint32_t>(region_lines), seed ^ 0x4649525354ULL);
  std::vector<std::uint64_t> line_slots(total);
  for (std::size_t j = 0; j < total; ++j) line_slots[j] = static_cast<std::uint64_t>(perm[j]) * 16;
  cuda::DeviceBuffer<std::uint64_t> slots_d(total);
  slots_d.copy_from_host(line_slots.data(), total, s);
  std::vector<unsigned long long> want(sms, 0);
  for (int b = 0; b < sms; ++b)
    for (int j = 0; j < per_block; ++j) want[b] += 2 * line_slots[static_cast<std::size_t>(b) * per_block + j];
  cuda::DeviceBuffer<float> first(total), second(total);
  cuda::DeviceBuffer<int> smid(sms);
  cuda::DeviceBuffer<unsigned long long> check(sms);
  Checker chk("first-touch sums");
  // Three passes, each after a rewrite; per (block, line) the median. A block's SM may change from pass
  // to pass; its lines are its own, so the split is per block (labelled with the SM of the last pass).
  std::vector<std::vector<std::vector<float>>> f(sms), sec(sms);
  std::vector<int> sm_of(sms, -1);
  for (int pass = 0; pass < 3; ++pass) {
    launch_l2_self_loops(slots, slots_d.data(), static_cast<int>(total), s);
    first.poison(s);
    second.poison(s);
    smid.poison(s);
    check.poison(s);
    launch_l2_first_touch(slots, slots_d.data(), per_block, first.data(), second.data(), smid.data(), check.data(), sms,
                          smem, s);
    const auto a = to_host(first, total, s);
    const auto b2 = to_host(second, total, s);
    const auto sm = to_host(smid, sms, s);
    const auto ck = to_host(check, sms, s);
    for (int b = 0; b < sms; ++b) {
      chk.expect(ck[b], want[b], fmt::format("pass {} block {}", pass, b));
      sm_of[b] = sm[b];
      const auto at = static_cast<std::ptrdiff_t>(b) * per_block;
      f[b].emplace_back(a.begin() + at, a.begin() + at + per_block);
      sec[b].emplace_back(b2.begin() + at, b2.begin() + at + per_block);
    }
  }
  for (Record* r : {&nr, &fr, &sr}) r->validation = chk.text();
  if (!chk.ok()) {
    for (Record* r : {&nr, &fr, &sr}) {
      r->skipped = "validation failed";
      recs.push_back(*r);
    }
    return;
  }
  std::vector<double> near_v, far_v, second_v, far_share;
  nlohmann::json per_sm = nlohmann::json::array();
  int separated = 0;
  for (int b = 0; b < sms; ++b) {
    std::vector<float> med(per_block), med2(per_block);
    for (int j = 0; j < per_block; ++j) {
      std::vector<double> v, v2;
      for (std::size_t p = 0; p < f[b].size(); ++p) {
        v.push_back(f[b][p][j]);
        v2.push_back(sec[b][p][j]);
      }
      med[j] = static_cast<float>(median(v));
      med2[j] = static_cast<float>(median(v2));
    }
    const TwoSides t = split_two_sides(med);
    const double again = median(std::vector<double>(med2.begin(), med2.end()));
    near_v.push_back(t.near);
    far_v.push_back(t.far);
    second_v.push_back(again);
    far_share.push_back(static_cast<double>(t.far_lines) / per_block);
    separated += t.separated;
    per_sm.push_back({{"block", b}, {"sm", sm_of[b]}, {"near_cycles", t.near}, {"far_cycles", t.far},
                      {"far_lines", t.far_lines}, {"separated", t.separated}, {"second_touch_cycles", again}});
  }
  // Two SMs' raw first touches with their lines' byte offsets, for a look at which address bits go far.
  nlohmann::json sample = nlohmann::json::array();
  for (int b : {0, sms / 2}) {
    nlohmann::json lines = nlohmann::json::array();
    for (int j = 0; j < per_block; ++j)
      lines.push_back({line_slots[static_cast<std::size_t>(b) * per_block + j] * 8, f[b].back()[j]});
    sample.push_back({{"block", b}, {"sm", sm_of[b]}, {"offset_bytes_and_cycles", lines}});
  }
  for (Record* r : {&nr, &fr, &sr}) {
    r->samples = r == &nr ? near_v : r == &fr ? far_v : second_v;
    r->summary = measure::summarize(r->samples);
    r->stop_reason = "single";
    r->extra["ns_per_load"] = g.cycles_to_s(r->summary->median) * 1e9;
    r->extra["sms_measured"] = sms;
    r->extra["sms_split_in_two"] = separated;
  }
  fr.extra["per_sm"] = per_sm;
  fr.extra["far_share_median"] = median(far_share);
  fr.extra["raw_first_touches"] = sample;
  const double near_med = nr.summary->median, far_med = fr.summary->median, again_med = sr.summary->median;
  nr.extra["display"] = fmt::format("{:.0f} cycles (median of {} SMs)", near_med, sms);
  fr.extra["display"] = fmt::format("{:.0f} cycles (median of {} SMs; far / near {:.2f}; {} SMs split)", far_med, sms,
                                    near_med > 0 ? far_med / near_med : 0.0, separated);
  sr.extra["display"] = fmt::format("{:.0f} cycles (median of {} SMs)", again_med, sms);
  add_reference(nr, Published{"L2 hit latency, near partition", 264, "cycles", LUO_2024}, near_med,
                "another part (H800 PCIe), and joseki's figure includes two clock reads and a shared store");
  add_reference(fr, Published{"L2 hit latency, far partition", 502, "cycles", LUO_2024}, far_med,
                "another part (H800 PCIe), and joseki's figure includes two clock reads and a shared store");
  recs.push_back(nr);
  recs.push_back(fr);
  recs.push_back(sr);
  const bool most = separated * 10 >= sms * 9;
  const double ratio = near_med > 0 ? far_med / near_med : 0.0;
  recs.push_back(verdict_record(
      "caches_l2", "l2_first_touch_sides",
      "a line's first load from an SM costs ~2x where its home is the other L2 partition (H800: 264 vs 502)",
      most && ratio >= 1.5 ? Verdict::Holds : Verdict::Depends,
      fmt::format("first touch near {:.0f} / far {:.0f} cycles (x {:.2f}) on {} of {} SMs split in two (median far "
                  "share {:.0f} %); second touch {:.0f}",
                  near_med, far_med, ratio, separated, sms, 100 * median(far_share), again_med),
      ratio, "x (far / near, first touch)"));
}

// ---- pointer chases over big footprints ----
// One ring walk: warm loads, then `steps` timed; each launch continues where the last stopped.
// slot_of(k) = the slot of ring position k. Returns false (and fills r) when the ends do not match.
template <class SlotOf>
bool chase_and_time(const ProbeOptions& o, GpuContext& g, unsigned long long* slots, std::uint32_t nodes, int warm,
                    int steps, const SlotOf& slot_of, Record& r) {
  const cudaStream_t s = g.stream();
  cuda::DeviceBuffer<long long> cyc(1);
  cuda::DeviceBuffer<unsigned long long> end(1);
  std::size_t pos = 0;
  auto once = [&] {
    launch_ptr_chase(slots, slot_of(pos), warm, steps, cyc.data(), end.data(), s);
    pos = (pos + static_cast<std::size_t>(warm) + static_cast<std::size_t>(steps)) % nodes;
  };
  Checker chk("chase end");
  end.poison(s);
  once();
  chk.expect(to_host(end, 1, s)[0], static_cast<unsigned long long>(slot_of(pos)), "end slot (first run)");
  if (!chk.ok()) {
    r.validation = chk.text();
    r.skipped = "not timed: validation failed";
    return false;
  }
  const auto m = measure_values([&] {
    once();
    return static_cast<double>(to_host(cyc, 1, s)[0]) / steps;
  }, light_rule(o.rule, o.quick));
  chk.expect(to_host(end, 1, s)[0], static_cast<unsigned long long>(slot_of(pos)), "end slot (last sample)");
  r.validation = chk.text();
  if (!chk.ok()) {
    r.skipped = "validation failed after timing";
    return false;
  }
  r.set_measurement(m);
  r.extra["ns_per_load"] = g.cycles_to_s(m.stats.median) * 1e9;
  return true;
}

void hbm_and_tlb(const ProbeOptions& o, GpuContext& g, std::vector<Record>& recs) {
  const cudaStream_t s = g.stream();
  // Memory guard: the sweeps use at most the free memory less 2 GiB.
  const double free_b = static_cast<double>(g.free_bytes());
  const double usable = std::max(0.0, free_b - 2 * GiB);
  const double want_max = o.quick ? 4 * GiB : 64 * GiB;
  double alloc = 0;
  for (double f = 64.0 * 1048576; f <= want_max; f *= 2)
    if (f <= usable) alloc = f;
  if (alloc == 0) {
    recs.push_back(skipped_record("caches_l2", "hbm_latency", "pure pointer chase at 1 GiB",
                                  fmt::format("needs 64 MiB of free device memory beyond a 2 GiB margin ({} free)",
                                              gib_text(free_b))));
    return;
  }
  cuda::DeviceBuffer<unsigned long long> big(static_cast<std::size_t>(alloc / 8));
  const std::uint32_t seed = run_seed();

  // HBM latency: 2^21 nodes (2^18 quick) spread over the footprint.
  for (const double f : {1 * GiB, 4 * GiB}) {
    if (o.quick && f > 1 * GiB) continue;
    Record r = make_record("caches_l2", "hbm_latency",
                           "one thread, pure pointer chase (ld.global, the address is the previous load's value) "
                           "through a random ring of nodes spread over the footprint",
                           Scope::GpuCompute, "hot", "cycles");
    r.axes.set("footprint_bytes", static_cast<std::int64_t>(f));
    if (f > alloc) {
      r.skipped = fmt::format("needs {} of device memory; {} usable ({} free less a 2 GiB margin)", gib_text(f),
                              gib_text(alloc), gib_text(free_b));
      recs.push_back(r);
      continue;
    }
    const std::uint32_t nodes = o.quick ? 1u << 18 : 1u << 21;
    const auto spacing = static_cast<std::uint32_t>(f / 8 / nodes);
    const auto order = chase_order(nodes, seed ^ static_cast<std::uint64_t>(f));
    cuda::DeviceBuffer<std::uint32_t> order_d(nodes);
    order_d.copy_from_host(order.data(), nodes, s);
    launch_ptr_chase_build(big.data(), order_d.data(), nodes, spacing, s);
    r.axes.set("nodes", std::int64_t{nodes}).set("spacing_bytes", std::int64_t{spacing} * 8);
    const int steps = o.quick ? 2048 : 8192;
    if (chase_and_time(o, g, big.data(), nodes, steps, steps,
                       [&](std::size_t k) { return static_cast<std::uint64_t>(order[k]) * spacing; }, r)) {
      r.extra["display"] = cycles_text(r.summary->median, g.clock_hz()) + " at " + gib_text(f);
    }
    recs.push_back(r);
  }

  // TLB: one node per 2 MiB page.
  constexpr std::uint64_t page = 2u << 20, page_slots = page / 8;
  std::vector<double> fp, lat;
  for (double f = 64.0 * 1048576; f <= want_max; f *= 2) {
    Record r = make_record("caches_l2", "tlb_latency",
                           "one thread, pure pointer chase over one 128-byte node per 2 MiB page (random page order; "
                           "the ring's lines stay in the L2, so the rise is address translation)",
                           Scope::GpuCompute, "hot", "cycles");
    const auto pages = static_cast<std::uint32_t>(f / page);
    r.axes.set("footprint_bytes", static_cast<std::int64_t>(f)).set("pages", std::int64_t{pages});
    if (f > alloc) {
      r.skipped = fmt::format("needs {} of device memory; {} usable ({} free less a 2 GiB margin)", gib_text(f),
                              gib_text(alloc), gib_text(free_b));
      recs.push_back(r);
      continue;
    }
    const auto order = chase_order(pages, seed ^ 0x544C42ULL ^ static_cast<std::uint64_t>(f));
    cuda::DeviceBuffer<std::uint32_t> order_d(pages);
    order_d.copy_from_host(order.data(), pages, s);
    launch_page_ring_build(big.data(), order_d.data(), pages, page_slots, s);
    const int steps = o.quick ? 1024 : 4096;
    if (chase_and_time(o, g, big.data(), pages, static_cast<int>(pages), steps,
                       [&](std::size_t k) { return page_slot_of(order[k], page_slots); }, r)) {
      r.extra["display"] = cycles_text(r.summary->median, g.clock_hz()) + " at " + gib_text(f);
      fp.push_back(f);
      lat.push_back(r.summary->median);
    }
    recs.push_back(r);
  }
  if (lat.size() >= 3) {
    const double rise = first_rise(fp, lat);
    recs.push_back(verdict_record(
        "caches_l2", "tlb",
        "beyond the TLB's reach each load pays address translation: latency rises with the footprint (the ring's "
        "lines, pages x 128 B, also outgrow the L1 near 2 GiB: a rise up to the L2 hit latency is that, not "
        "translation; device call 2 saw 32 -> 290 cycles, flat from 8 to 64 GiB)",
        Verdict::Depends,
        fmt::format("{:.0f} cycles at {}, {:.0f} at {}; {}", lat.front(), gib_text(fp.front()), lat.back(),
                    gib_text(fp.back()),
                    rise > 0 ? "stays > 10 % above from " + gib_text(rise) : std::string("no lasting rise in the sweep")),
        lat.back() / lat.front(), "x (largest / smallest footprint)"));
  }
}

std::vector<Record> run_caches_l2(const ProbeOptions& o) {
  GpuContext g(o.device);
  std::vector<Record> recs;
  l2_sides(o, g, recs);
  l2_first_touch(o, g, recs);
  hbm_and_tlb(o, g, recs);
  return recs;
}
#endif

}  // namespace

}  // namespace joseki::probes
