// Parsing Nsight Compute's output (experiments/probes/ncu.hpp) on captured samples: the CSV
// of `ncu --csv --metrics ...` with its ==PROF== preamble and program output, quoted kernel
// names with commas, thousands separators and n/a; and `ncu --query-metrics`.
#include <gtest/gtest.h>

#include "experiments/probes/ncu.hpp"

using namespace joseki::probes;

namespace {
// Shape of ncu 2025.x output (columns located by name, so older column sets parse too).
const char* SAMPLE = R"CSV(==PROF== Connected to process 4242 (/opt/joseki/joseki)
==PROF== Profiling "diag_coalesce": 0%....50%....100% - 9 passes
some program output, not CSV
==PROF== Disconnected from process 4242
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"
"0","4242","joseki","127.0.0.1","joseki::probes::<unnamed>::diag_coalesce(const unsigned int *, unsigned long, unsigned long, unsigned int *)","1","13","(256, 1, 1)","(1056, 1, 1)","0","9.0","Command line profiler metrics","dram__throughput.avg.pct_of_peak_sustained_elapsed","%","91.37"
"0","4242","joseki","127.0.0.1","joseki::probes::<unnamed>::diag_coalesce(const unsigned int *, unsigned long, unsigned long, unsigned int *)","1","13","(256, 1, 1)","(1056, 1, 1)","0","9.0","Command line profiler metrics","l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum","sector","524,288"
"0","4242","joseki","127.0.0.1","joseki::probes::<unnamed>::diag_coalesce(const unsigned int *, unsigned long, unsigned long, unsigned int *)","1","13","(256, 1, 1)","(1056, 1, 1)","0","9.0","Command line profiler metrics","l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum","request","131,072"
"1","4242","joseki","127.0.0.1","joseki::probes::<unnamed>::diag_smem_bad(const unsigned int *, unsigned int *, int)","1","13","(1024, 1, 1)","(132, 1, 1)","0","9.0","Command line profiler metrics","l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum","","n/a"
"1","4242","joseki","127.0.0.1","joseki::probes::<unnamed>::diag_smem_bad(const unsigned int *, unsigned int *, int)","1","13","(1024, 1, 1)","(132, 1, 1)","0","9.0","Command line profiler metrics","gpu__time_duration.sum","ns","1,234,567.5"
)CSV";
}  // namespace

TEST(ProbeNcu, SplitsQuotedCsvFields) {
  EXPECT_EQ(split_csv_line(R"("a","b,c","")"), (std::vector<std::string>{"a", "b,c", ""}));
  EXPECT_EQ(split_csv_line(R"("say ""hi""",x)"), (std::vector<std::string>{"say \"hi\"", "x"}));
  EXPECT_EQ(split_csv_line("plain,fields\r"), (std::vector<std::string>{"plain", "fields"}));
}

TEST(ProbeNcu, ParsesNumbers) {
  EXPECT_DOUBLE_EQ(*parse_ncu_number("91.37"), 91.37);
  EXPECT_DOUBLE_EQ(*parse_ncu_number("524,288"), 524288);
  EXPECT_DOUBLE_EQ(*parse_ncu_number("1,234,567.5"), 1234567.5);
  EXPECT_DOUBLE_EQ(*parse_ncu_number("0"), 0);
  EXPECT_FALSE(parse_ncu_number("n/a"));
  EXPECT_FALSE(parse_ncu_number(""));
  EXPECT_FALSE(parse_ncu_number("12 ms"));
}

TEST(ProbeNcu, ParsesCapturedCsv) {
  const auto rows = parse_ncu_csv(SAMPLE);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].id, "0");
  EXPECT_NE(rows[0].kernel.find("diag_coalesce"), std::string::npos);
  EXPECT_EQ(rows[0].metric, "dram__throughput.avg.pct_of_peak_sustained_elapsed");
  EXPECT_EQ(rows[0].unit, "%");
  ASSERT_TRUE(rows[0].value);
  EXPECT_DOUBLE_EQ(*rows[0].value, 91.37);
  EXPECT_DOUBLE_EQ(*rows[1].value, 524288);
  EXPECT_DOUBLE_EQ(*rows[1].value / *rows[2].value, 4.0);  // sectors per request
  EXPECT_EQ(rows[3].id, "1");
  EXPECT_FALSE(rows[3].value);  // n/a
  EXPECT_EQ(rows[3].raw_value, "n/a");
  EXPECT_DOUBLE_EQ(*rows[4].value, 1234567.5);
}

TEST(ProbeNcu, OlderColumnSetAndNoHeader) {
  const char* old = R"CSV("ID","Process ID","Process Name","Host Name","Kernel Name","Kernel Time","Context","Stream","Section Name","Metric Name","Metric Unit","Metric Value"
"3","1","a","h","k","2024-01-01 00:00:00","1","7","Command line profiler metrics","sm__warps_active.avg.pct_of_peak_sustained_active","%","48.5")CSV";
  const auto rows = parse_ncu_csv(old);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].id, "3");
  EXPECT_EQ(rows[0].kernel, "k");
  EXPECT_DOUBLE_EQ(*rows[0].value, 48.5);
  EXPECT_TRUE(parse_ncu_csv("==PROF== nothing profiled\n").empty());
  EXPECT_TRUE(parse_ncu_csv("==ERROR== Failed to find metric foo__bar\n").empty());
}

TEST(ProbeNcu, ParsesQueryMetricsListing) {
  const char* q = R"Q(Device NVIDIA H200 (GH100)
------------------------------------------------- --------------------------------------------
Metric Name                                       Metric Description
------------------------------------------------- --------------------------------------------
dram__throughput                                  DRAM throughput
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld  # of shared memory data bank conflicts
sm__warps_active                                  # of cumulative warps in flight
"smsp__warp_issue_stalled_barrier_per_warp_active","Ratio","..."
)Q";
  const auto names = parse_ncu_query(q);
  EXPECT_TRUE(names.count("dram__throughput"));
  EXPECT_TRUE(names.count("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld"));
  EXPECT_TRUE(names.count("sm__warps_active"));
  EXPECT_TRUE(names.count("smsp__warp_issue_stalled_barrier_per_warp_active"));
  EXPECT_FALSE(names.count("Device"));
  EXPECT_FALSE(names.count("Metric"));
}

TEST(ProbeNcu, MetricBase) {
  EXPECT_EQ(metric_base("dram__throughput.avg.pct_of_peak_sustained_elapsed"), "dram__throughput");
  EXPECT_EQ(metric_base("sm__maximum_warps_per_active_cycle_pct"), "sm__maximum_warps_per_active_cycle_pct");
  EXPECT_EQ(metric_base("smsp__warp_issue_stalled_barrier_per_warp_active.pct"),
            "smsp__warp_issue_stalled_barrier_per_warp_active");
}

TEST(ProbeNcu, UnlistedMetricsAreKeptUnlessStrict) {
  // `ncu --query-metrics` (2025.3.1 on the H200) lists hardware counters only: the launch
  // statistics and the occupancy section's derived metrics are accepted but not listed.
  const std::set<std::string> known = {"dram__throughput", "sm__warps_active"};
  EXPECT_TRUE(is_unlisted_metric("launch__registers_per_thread"));
  EXPECT_TRUE(is_unlisted_metric("launch__occupancy_limit_shared_mem"));
  EXPECT_TRUE(is_unlisted_metric("sm__maximum_warps_per_active_cycle_pct"));
  EXPECT_FALSE(is_unlisted_metric("sm__warps_active.avg.pct_of_peak_sustained_active"));
  EXPECT_FALSE(is_unlisted_metric("smsp__made_up_metric.sum"));
  EXPECT_TRUE(keep_metric("dram__throughput.avg.pct_of_peak_sustained_elapsed", known, true));
  EXPECT_TRUE(keep_metric("launch__registers_per_thread", known, false));
  EXPECT_FALSE(keep_metric("launch__registers_per_thread", known, true));
  EXPECT_FALSE(keep_metric("smsp__made_up_metric.sum", known, false));
  EXPECT_TRUE(keep_metric("smsp__made_up_metric.sum", {}, true));  // no listing: keep everything
}

TEST(ProbeNcu, QueryOfTheH200ListsTheGuideMetrics) {
  // Lines as ncu 2025.3.1 printed them on the H200 (probes_ncu_query_metrics.txt, run 3).
  const char* q = R"Q(Device NVIDIA H200 (GH100)
------------------------------------------------------------------------------------------- --------------- --------------- -----------
Metric Name                                                                                 Metric Type     Metric Unit     Metric Description
------------------------------------------------------------------------------------------- --------------- --------------- -----------
FBSP.TriageCompute.dramc__cycles_elapsed                                                    Counter         cycle
dram__throughput                                                                            Throughput      %               DRAM throughput
l1tex__t_requests_pipe_lsu_mem_global_op_ld                                 Counter                         # of requests sent to T-Stage for global loads
smsp__warp_issue_stalled_barrier_per_warp_active                            Ratio                           proportion of warps per cycle, waiting for sibling warps at a CTA
                                                                                                            (non-exclusively)
==PROF== Note that these metrics must be appended with a valid suffix before profiling them.
)Q";
  const auto names = parse_ncu_query(q);
  EXPECT_TRUE(names.count("dram__throughput"));
  EXPECT_TRUE(names.count("l1tex__t_requests_pipe_lsu_mem_global_op_ld"));
  EXPECT_TRUE(names.count("smsp__warp_issue_stalled_barrier_per_warp_active"));
  EXPECT_FALSE(names.count("dramc__cycles_elapsed"));  // a triage-configuration metric, prefixed
  EXPECT_TRUE(keep_metric("sm__maximum_warps_per_active_cycle_pct", names, false));
}

TEST(ProbeNcu, MissingNcuIsEmptyNotAnError) {
  setenv("JOSEKI_NCU", "/nonexistent/ncu", 1);
  EXPECT_EQ(find_ncu(), "");
  unsetenv("JOSEKI_NCU");
}
