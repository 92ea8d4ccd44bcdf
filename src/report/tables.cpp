// The device facts and measured-ceilings tables (report/tables.hpp).
#include "report/tables.hpp"

#include <fmt/format.h>

#include "measure/build_info.hpp"
#include "measure/needs.hpp"
#include "measure/table.hpp"

namespace joseki::report {

std::string facts_table(const measure::DeviceFacts& d) {
  measure::Table t({"fact", "value"});
  t.add_row({"name", d.name});
  t.add_row({"compute capability", fmt::format("{}.{}", d.cc_major, d.cc_minor)});
  t.add_row({"SMs", std::to_string(d.sm_count)});
  t.add_row({"warp size", std::to_string(d.warp_size)});
  t.add_row({"L2", fmt::format("{:.1f} MiB", d.l2_bytes / 1048576.0)});
  t.add_row({"global memory", fmt::format("{:.1f} GiB", d.global_mem_bytes / 1073741824.0)});
  t.add_row({"shared memory per SM / per block (opt-in)",
             fmt::format("{} KiB / {} KiB", d.smem_per_sm / 1024, d.smem_per_block_optin / 1024)});
  t.add_row({"registers per SM", std::to_string(d.regs_per_sm)});
  t.add_row({"max threads per SM", std::to_string(d.max_threads_per_sm)});
  t.add_row({"SM clock (max)", fmt::format("{} MHz", d.sm_clock_khz / 1000)});
  t.add_row({"memory clock x bus width", fmt::format("{} MHz x {} bit = {}", d.mem_clock_khz / 1000,
                                                      d.bus_width_bits, measure::format_rate(d.clock_bw_Bps()))});
  t.add_row({"datasheet bandwidth", fmt::format("{} ({})", measure::format_rate(d.datasheet_bw_Bps()),
                                                 d.datasheet_source())});
  t.add_row({"driver / runtime", fmt::format("{}.{} / {}.{}", d.driver_version / 1000, d.driver_version % 1000 / 10,
                                              d.runtime_version / 1000, d.runtime_version % 1000 / 10)});
  t.add_row({"PCI bus", d.pci_bus_id});
  t.add_row({"device code", measure::running_code_text(d, measure::build_info().cuda_architectures)});
  return t.markdown();
}

std::string ceilings_table(const std::vector<measure::Record>& recs) {
  measure::Table t({"ceiling", "how", "median", "noise", "figure", "% datasheet"});
  for (const auto& r : recs) {
    std::string fig;
    const double v = r.extra.value("value", 0.0);
    if (r.extra.value("value_unit", "") == "B/s") fig = measure::format_rate(v);
    else fig = measure::format_time(v);
    if (r.variant == "context_creation")
      fig = fmt::format("create {} ; in main {} ; pre-main {} ; post-main {}", measure::format_time(v),
                        measure::format_time(r.extra.value("program_s", 0.0)),
                        measure::format_time(r.extra.value("pre_main_s", 0.0)),
                        measure::format_time(r.extra.value("post_main_s", 0.0)));
    t.add_row({r.variant, r.technique, r.summary ? measure::format_time(r.summary->median) : "-",
               r.summary ? measure::format_pct(100 * r.summary->rel_stdev) : "-", fig,
               r.throughput && r.throughput->pct_datasheet > 0 ? measure::format_pct(r.throughput->pct_datasheet)
                                                               : "-"});
  }
  return t.markdown();
}

}  // namespace joseki::report
