// The combine kernel's trace, read on the host (a diagnostic: `joseki abc471g scale hopper --trace-csv FILE`): each
// block's entry, the end of its prologue, its release by the previous kernel (r38's griddepcontrol.wait) and its end on
// one time line, with what its main loops and epilogues took, its SM, segments and stages
// (WgmmaCombineArgs::d_trace, r09_wgmma_math.hpp CombineTrace). It answers where the combine's part of a solve goes:
// how late the blocks start (the histograms' last blocks hold their SMs), what a stage and an epilogue cost, and which
// blocks end last.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace joseki::abc471g::pairs {

struct TraceBlock {
  std::uint32_t block = 0, sm = 0, segments = 0;
  std::uint64_t stages = 0;
  // us from the earliest entry of any block (the global timer), the SM clock's parts converted at the trace's rate
  double entry = 0, ready = 0, go = 0, end = 0;
  double loops = 0, epilogues = 0;  // us summed over the block's segments
};

struct TraceSummary {
  std::size_t blocks = 0;
  double entry_spread = 0;             // us between the first and the last block's entry
  double prologue = 0;                 // median us from entry to the prologue's end
  double last_go = 0;                  // us: the last block's release
  double end_min = 0, end_median = 0, end_max = 0;  // us, block ends from the earliest entry
  double stage = 0, epilogue = 0;      // median us a stage (main loops / stages), an epilogue (epilogues / segments)
  double end_one_segment = 0, end_two_segments = 0;  // latest end of the blocks with one segment, with two or more
  double last_entry = 0;               // when the block that ends last entered
  std::uint32_t last_segments = 0;     // and its segments
};

// words: COMBINE_TRACE_SLOTS a block, as PairsDevice::combine_trace returns them; blocks that wrote nothing (all
// zeros) are left out. Throws RunError when a block's words contradict each other (its clocks running backwards).
std::vector<TraceBlock> parse_combine_trace(const std::vector<std::uint64_t>& words);
TraceSummary summarize_trace(const std::vector<TraceBlock>& blocks);
// The combine's first entry and last end in us after `mark`, a global-timer word written just before the solve (the
// traced solve of `scale hopper --trace-csv`): the count's part of the solve is the first entry. nullopt when no block
// wrote both its entry and its end, or when an entry precedes the mark (the mark is not this solve's).
struct TraceFromMark {
  double first_entry = 0, last_end = 0;
};
std::optional<TraceFromMark> trace_from_mark(const std::vector<std::uint64_t>& words, std::uint64_t mark);
std::string describe_trace(const TraceSummary& s);
// CSV rows (no header) of one rung's blocks: rung,block,sm,segments,stages,entry_us,ready_us,go_us,end_us,loops_us,
// epilogues_us.
std::string trace_csv_rows(const std::string& rung, const std::vector<TraceBlock>& blocks);
inline constexpr const char* TRACE_CSV_HEADER =
    "rung,block,sm,segments,stages,entry_us,ready_us,go_us,end_us,loops_us,epilogues_us\n";

// The count's trace (a diagnostic of the same `--trace-csv`, PairsConfig::trace_count): the lean partition kernel's
// blocks write COUNT_TRACE_PARTITION_WORDS words each (entry and end on the global timer, the SM), then the fused
// histogram blocks COUNT_TRACE_HIST_WORDS each (entry, the end of their counting past the wait for the partition, end,
// the SM), as PairsDevice::count_trace returns them (`partition_blocks` partition blocks' room first). It answers where
// the count's part of a solve goes: when the partition's blocks end, SM by SM, and when the histograms are released.
inline constexpr std::uint32_t COUNT_TRACE_PARTITION_WORDS = 3, COUNT_TRACE_HIST_WORDS = 4;
struct CountTraceBlock {
  bool histogram = false;  // else a partition block
  std::uint32_t block = 0, sm = 0;
  double entry = 0, counted = 0, end = 0;  // us after the mark (counted: histograms only; a partition block's end)
};
struct CountTraceSummary {
  std::size_t partition_blocks = 0, hist_blocks = 0, sms = 0;
  double part_entry_first = 0, part_entry_last = 0;         // us after the mark
  double part_end_min = 0, part_end_median = 0, part_end_max = 0;
  double part_run_min = 0, part_run_median = 0, part_run_max = 0;  // a block's end - entry
  double sm_end_min = 0, sm_end_median = 0, sm_end_max = 0;  // each SM's last partition block's end
  double hist_entry_first = 0, hist_entry_last = 0;
  double hist_counted_min = 0, hist_counted_max = 0;
  double hist_end_min = 0, hist_end_median = 0, hist_end_max = 0;
  std::vector<std::uint32_t> late_sms;  // the SMs whose last partition block ends last, latest first (at most 8)
};
// Blocks whose entry word is zero did not run (or were not traced) and are left out. Throws RunError when a block's words
// contradict each other (an end before its entry, an entry before the mark).
std::vector<CountTraceBlock> parse_count_trace(const std::vector<std::uint64_t>& words, std::uint32_t partition_blocks,
                                               std::uint64_t mark);
CountTraceSummary summarize_count_trace(const std::vector<CountTraceBlock>& blocks);
std::string describe_count_trace(const CountTraceSummary& s);
// CSV rows (no header) of one rung's blocks: rung,kernel,block,sm,entry_us,counted_us,end_us.
std::string count_trace_csv_rows(const std::string& rung, const std::vector<CountTraceBlock>& blocks);
inline constexpr const char* COUNT_TRACE_CSV_HEADER = "rung,kernel,block,sm,entry_us,counted_us,end_us\n";

}  // namespace joseki::abc471g::pairs
