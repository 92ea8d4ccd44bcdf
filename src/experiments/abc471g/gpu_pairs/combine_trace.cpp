#include "experiments/abc471g/gpu_pairs/combine_trace.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "experiments/abc471g/gpu_pairs/r09_wgmma_math.hpp"
#include "measure/errors.hpp"

namespace joseki::abc471g::pairs {

namespace {

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

std::optional<TraceFromMark> trace_from_mark(const std::vector<std::uint64_t>& words, std::uint64_t mark) {
  using namespace r09;
  std::uint64_t first = ~std::uint64_t{0}, last = 0;
  for (std::size_t b = 0; b + COMBINE_TRACE_SLOTS <= words.size(); b += COMBINE_TRACE_SLOTS)
    if (words[b + TRACE_GT_ENTRY] && words[b + TRACE_GT_END]) {
      first = std::min(first, words[b + TRACE_GT_ENTRY]);
      last = std::max(last, words[b + TRACE_GT_END]);
    }
  if (last == 0 || first < mark || last < first) return std::nullopt;
  return TraceFromMark{static_cast<double>(first - mark) * 1e-3, static_cast<double>(last - mark) * 1e-3};
}

std::vector<TraceBlock> parse_combine_trace(const std::vector<std::uint64_t>& words) {
  using namespace r09;
  const std::size_t n = words.size() / COMBINE_TRACE_SLOTS;
  struct Raw {
    std::uint32_t block;
    const std::uint64_t* w;
  };
  std::vector<Raw> raw;
  for (std::size_t b = 0; b < n; ++b) {
    const std::uint64_t* w = words.data() + b * COMBINE_TRACE_SLOTS;
    if (std::all_of(w, w + COMBINE_TRACE_SLOTS, [](std::uint64_t x) { return x == 0; })) continue;
    const bool ordered = w[TRACE_GT_END] >= w[TRACE_GT_ENTRY] && w[TRACE_CLK_READY] >= w[TRACE_CLK_ENTRY] &&
                         w[TRACE_CLK_GO] >= w[TRACE_CLK_READY] && w[TRACE_CLK_END] >= w[TRACE_CLK_GO];
    if (!ordered) throw RunError(fmt::format("combine trace: block {}'s clocks run backwards", b));
    raw.push_back({static_cast<std::uint32_t>(b), w});
  }
  if (raw.empty()) return {};
  // One clock rate for every SM: the median over the blocks long enough for the global timer's resolution.
  std::vector<double> rates;
  for (const Raw& r : raw) {
    const double ns = static_cast<double>(r.w[TRACE_GT_END] - r.w[TRACE_GT_ENTRY]);
    if (ns >= 2000) rates.push_back(static_cast<double>(r.w[TRACE_CLK_END] - r.w[TRACE_CLK_ENTRY]) / ns);
  }
  const double ghz = rates.empty() ? 1.98 : median_of(rates);  // the H200's boost clock when every block is short
  std::uint64_t t0 = raw.front().w[TRACE_GT_ENTRY];
  for (const Raw& r : raw) t0 = std::min(t0, r.w[TRACE_GT_ENTRY]);
  std::vector<TraceBlock> out;
  for (const Raw& r : raw) {
    const std::uint64_t* w = r.w;
    TraceBlock b;
    b.block = r.block;
    b.sm = static_cast<std::uint32_t>(w[TRACE_WHERE] & 0xFFFF);
    b.segments = static_cast<std::uint32_t>((w[TRACE_WHERE] >> 16) & 0xFFFF);
    b.stages = w[TRACE_WHERE] >> 32;
    const auto us = [&](std::uint64_t cycles) { return static_cast<double>(cycles) / ghz / 1000.0; };
    b.entry = static_cast<double>(w[TRACE_GT_ENTRY] - t0) / 1000.0;
    b.ready = b.entry + us(w[TRACE_CLK_READY] - w[TRACE_CLK_ENTRY]);
    b.go = b.entry + us(w[TRACE_CLK_GO] - w[TRACE_CLK_ENTRY]);
    b.end = b.entry + us(w[TRACE_CLK_END] - w[TRACE_CLK_ENTRY]);
    b.loops = us(w[TRACE_CLK_LOOPS]);
    b.epilogues = us(w[TRACE_CLK_EPILOGUES]);
    out.push_back(b);
  }
  return out;
}

TraceSummary summarize_trace(const std::vector<TraceBlock>& blocks) {
  TraceSummary s;
  s.blocks = blocks.size();
  if (blocks.empty()) return s;
  std::vector<double> prologues, ends, stages, epilogues;
  double first_entry = blocks.front().entry, last_entry = first_entry;
  const TraceBlock* last = &blocks.front();
  for (const TraceBlock& b : blocks) {
    first_entry = std::min(first_entry, b.entry);
    last_entry = std::max(last_entry, b.entry);
    prologues.push_back(b.ready - b.entry);
    ends.push_back(b.end);
    s.last_go = std::max(s.last_go, b.go);
    if (b.stages) stages.push_back(b.loops / static_cast<double>(b.stages));
    if (b.segments) epilogues.push_back(b.epilogues / b.segments);
    (b.segments >= 2 ? s.end_two_segments : s.end_one_segment) =
        std::max(b.segments >= 2 ? s.end_two_segments : s.end_one_segment, b.end);
    if (b.end > last->end) last = &b;
  }
  s.entry_spread = last_entry - first_entry;
  s.prologue = median_of(prologues);
  s.end_min = *std::min_element(ends.begin(), ends.end());
  s.end_max = *std::max_element(ends.begin(), ends.end());
  s.end_median = median_of(ends);
  s.stage = median_of(stages);
  s.epilogue = median_of(epilogues);
  s.last_entry = last->entry;
  s.last_segments = last->segments;
  return s;
}

std::string describe_trace(const TraceSummary& s) {
  if (s.blocks == 0) return "no block traced";
  return fmt::format(
      "{} blocks; entries over {:.2f} us, prologue {:.2f} us (median), last release at {:.2f} us; ends {:.2f} / {:.2f} / "
      "{:.2f} us (min / median / max); a stage {:.3f} us, an epilogue {:.2f} us (medians); latest end with one segment "
      "{:.2f} us, with two or more {:.2f} us; the last block entered at {:.2f} us with {} segment(s)",
      s.blocks, s.entry_spread, s.prologue, s.last_go, s.end_min, s.end_median, s.end_max, s.stage, s.epilogue,
      s.end_one_segment, s.end_two_segments, s.last_entry, s.last_segments);
}

std::string trace_csv_rows(const std::string& rung, const std::vector<TraceBlock>& blocks) {
  std::string out;
  for (const TraceBlock& b : blocks)
    out += fmt::format("{},{},{},{},{},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f}\n", rung, b.block, b.sm, b.segments,
                       b.stages, b.entry, b.ready, b.go, b.end, b.loops, b.epilogues);
  return out;
}

std::vector<CountTraceBlock> parse_count_trace(const std::vector<std::uint64_t>& words, std::uint32_t partition_blocks,
                                               std::uint64_t mark) {
  std::vector<CountTraceBlock> out;
  const std::size_t part_words = static_cast<std::size_t>(partition_blocks) * COUNT_TRACE_PARTITION_WORDS;
  if (words.size() < part_words) throw RunError("count trace: fewer words than the partition blocks' room");
  const auto us = [mark](std::uint64_t t) { return static_cast<double>(t - mark) * 1e-3; };
  const auto check = [mark](const char* kernel, std::size_t b, std::uint64_t entry, std::uint64_t end) {
    if (entry < mark || end < entry)
      throw RunError(fmt::format("count trace: {} block {}: entry {} and end {} against the mark {}", kernel, b, entry, end,
                                 mark));
  };
  for (std::size_t b = 0; b < partition_blocks; ++b) {
    const std::uint64_t* w = words.data() + b * COUNT_TRACE_PARTITION_WORDS;
    if (w[0] == 0) continue;
    check("partition", b, w[0], w[1]);
    out.push_back({false, static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(w[2]), us(w[0]), us(w[1]), us(w[1])});
  }
  for (std::size_t b = 0; part_words + (b + 1) * COUNT_TRACE_HIST_WORDS <= words.size(); ++b) {
    const std::uint64_t* w = words.data() + part_words + b * COUNT_TRACE_HIST_WORDS;
    if (w[0] == 0) continue;
    check("histogram", b, w[0], w[2]);
    if (w[1] < w[0] || w[2] < w[1]) throw RunError(fmt::format("count trace: histogram block {}: counted out of order", b));
    out.push_back({true, static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(w[3]), us(w[0]), us(w[1]), us(w[2])});
  }
  return out;
}

CountTraceSummary summarize_count_trace(const std::vector<CountTraceBlock>& blocks) {
  CountTraceSummary s;
  std::vector<double> part_end, runs, hist_end;
  std::vector<std::pair<double, std::uint32_t>> sm_end;  // (end, sm), one a SM
  bool first_part = true, first_hist = true;
  for (const CountTraceBlock& b : blocks) {
    if (b.histogram) {
      ++s.hist_blocks;
      s.hist_entry_first = first_hist ? b.entry : std::min(s.hist_entry_first, b.entry);
      s.hist_entry_last = first_hist ? b.entry : std::max(s.hist_entry_last, b.entry);
      s.hist_counted_min = first_hist ? b.counted : std::min(s.hist_counted_min, b.counted);
      s.hist_counted_max = first_hist ? b.counted : std::max(s.hist_counted_max, b.counted);
      first_hist = false;
      hist_end.push_back(b.end);
      continue;
    }
    ++s.partition_blocks;
    s.part_entry_first = first_part ? b.entry : std::min(s.part_entry_first, b.entry);
    s.part_entry_last = first_part ? b.entry : std::max(s.part_entry_last, b.entry);
    first_part = false;
    part_end.push_back(b.end);
    runs.push_back(b.end - b.entry);
    auto it = std::find_if(sm_end.begin(), sm_end.end(), [&](const auto& e) { return e.second == b.sm; });
    if (it == sm_end.end())
      sm_end.emplace_back(b.end, b.sm);
    else
      it->first = std::max(it->first, b.end);
  }
  const auto spread = [](std::vector<double>& v, double& lo, double& mid, double& hi) {
    if (v.empty()) return;
    lo = *std::min_element(v.begin(), v.end());
    hi = *std::max_element(v.begin(), v.end());
    mid = median_of(v);
  };
  spread(part_end, s.part_end_min, s.part_end_median, s.part_end_max);
  spread(runs, s.part_run_min, s.part_run_median, s.part_run_max);
  spread(hist_end, s.hist_end_min, s.hist_end_median, s.hist_end_max);
  std::vector<double> sm_ends;
  for (const auto& e : sm_end) sm_ends.push_back(e.first);
  spread(sm_ends, s.sm_end_min, s.sm_end_median, s.sm_end_max);
  s.sms = sm_end.size();
  std::sort(sm_end.begin(), sm_end.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; i < sm_end.size() && i < 8; ++i) s.late_sms.push_back(sm_end[i].second);
  return s;
}

std::string describe_count_trace(const CountTraceSummary& s) {
  if (s.partition_blocks == 0 && s.hist_blocks == 0) return "no block traced";
  std::string late;
  for (const std::uint32_t sm : s.late_sms) {
    if (!late.empty()) late.push_back(' ');
    late.append(std::to_string(sm));
  }
  return fmt::format(
      "partition: {} blocks on {} SMs, entries {:.2f}-{:.2f} us, a block {:.2f} / {:.2f} / {:.2f} us, ends {:.2f} / {:.2f} "
      "/ {:.2f} us, SMs' last ends {:.2f} / {:.2f} / {:.2f} us (min / median / max; latest SMs {}); histograms: {} blocks, "
      "entries {:.2f}-{:.2f} us, counted {:.2f}-{:.2f} us, ends {:.2f} / {:.2f} / {:.2f} us (from the solve's start)",
      s.partition_blocks, s.sms, s.part_entry_first, s.part_entry_last, s.part_run_min, s.part_run_median, s.part_run_max,
      s.part_end_min, s.part_end_median, s.part_end_max, s.sm_end_min, s.sm_end_median, s.sm_end_max, late, s.hist_blocks,
      s.hist_entry_first, s.hist_entry_last, s.hist_counted_min, s.hist_counted_max, s.hist_end_min, s.hist_end_median,
      s.hist_end_max);
}

std::string count_trace_csv_rows(const std::string& rung, const std::vector<CountTraceBlock>& blocks) {
  std::string out;
  for (const CountTraceBlock& b : blocks)
    out += fmt::format("{},{},{},{},{:.3f},{:.3f},{:.3f}\n", rung, b.histogram ? "histogram" : "partition", b.block, b.sm,
                       b.entry, b.counted, b.end);
  return out;
}

}  // namespace joseki::abc471g::pairs
