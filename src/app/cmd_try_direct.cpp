// `joseki try --ladder abc471g-direct`: the parent's output (cmd_try_direct.hpp).
#include "app/cmd_try_direct.hpp"

#include <iostream>

#include <fmt/format.h>

#include "experiments/try/result.hpp"
#include "measure/table.hpp"

namespace joseki::app::trydirect {

using nlohmann::json;

void print_device(const json& doc) {
  const measure::DeviceFacts dev =
      doc.contains("device") ? measure::device_from_json(doc["device"]) : measure::DeviceFacts{};
  std::cout << fmt::format("device: {} ({} SMs, sm_{}{})\n\n", dev.name, dev.sm_count, dev.cc_major, dev.cc_minor);
}

std::string sanitize_scope(double kill_after) {
  return fmt::format(
      "Checked on the edge cases and the small built-in case (N = 5003, K = 300) only, at the file's block and chunk "
      "(and chunk 7), the answer poisoned, in buffers of exactly N and K elements (an access past a[N - 1] or "
      "answer[K - 1] is outside the allocation): the sanitizers are slow (racecheck ~100x); the full validation (the "
      "test vectors and the max case) runs without --sanitize. Each tool is stopped after {:.0f} s (--kill-after).",
      kill_after);
}

void print_ranking(const json& doc, const std::vector<measure::Record>& recs, double wall_s, double compile_s) {
  const std::string variant = doc["variant"];
  const std::int64_t n = doc.value("n", std::int64_t{0});
  print_device(doc);
  if (doc.contains("kernel")) {
    const json& k = doc["kernel"];
    std::cout << fmt::format("loaded: {} registers, {} B static shared memory, {} B local memory per thread; block "
                             "{}, chunk {}; {} resident blocks per SM = {:.0f} % occupancy by threads; output {}\n",
                             k.value("registers", 0), k.value("static_smem_bytes", 0L), k.value("local_bytes", 0L),
                             k.value("block", 0), k.value("chunk", 0L), k.value("resident_blocks_per_sm", 0),
                             k.value("occupancy_pct", 0.0), k.value("output", ""));
  }
  std::size_t checks = 0, mine = 0;
  for (const auto& v : doc.value("validations", json::array()))
    if (v.value("variant", "") == variant) {
      ++mine;
      checks += v.value("ok", false) ? 1 : 0;
    }
  std::cout << fmt::format("validated: exact at {} of {} configurations, each on {} cases (the test vectors and the "
                           "edge cases) and the {} case, answer poisoned before every run\n\n",
                           checks, mine, doc.value("cases", 0), doc.value("case", "max"));
  const std::string base = doc.value("baseline", "g01_lane_per_thread");
  for (const char* mode : {"cold", "hot"}) {
    const trykernel::Ranking k = trykernel::rank(recs, variant, n, mode, base, "");
    if (k.rows.empty()) continue;
    measure::Table t({"#", "variant", "technique", "median", "x best rung", "x g01", "config"});
    for (const auto& r : k.rows) {
      if (r.ceiling) continue;
      const std::string name = r.user ? "**" + r.variant + "** (yours)" : r.variant;
      t.add_row({r.rank ? std::to_string(r.rank) : "", name, r.median_s ? r.technique : r.note,
                 r.median_s ? measure::format_time(*r.median_s) : "-",
                 r.x_best_rung ? measure::format_ratio(*r.x_best_rung) : "",
                 r.x_cub ? measure::format_ratio(*r.x_cub) : "", r.config});
    }
    std::cout << fmt::format("## {} beside the ABC471G direct ladder: case {} (N = {}, K = {}), {}\n\n", variant,
                             doc.value("case", "max"), n, doc.value("k", 0), mode)
              << t.markdown() << "\n";
    if (k.user && k.user->median_s)
      std::cout << fmt::format("yours: rank {} of {} · {} · {} the best rung ({}) · {} g01\n\n", k.user->rank, k.timed,
                               measure::format_time(*k.user->median_s),
                               k.user->x_best_rung ? measure::format_ratio(*k.user->x_best_rung) : "-", k.best_rung,
                               k.user->x_cub ? measure::format_ratio(*k.user->x_cub) : "-");
  }
  std::cout << fmt::format("file to ranked table: {:.2f} s (compiling: {:.2f} s of it)\n", wall_s, compile_s);
}

std::string wrong_message(const json& doc, const std::string& file) {
  const json ff = doc.value("first_failure", json::object());
  return fmt::format("your kernel is wrong: {}{}\n  every case: `joseki try {} --ladder {} --validate-only`; "
                     "out-of-bounds accesses and races: `joseki try {} --ladder {} --sanitize`",
                     ff.value("config", "").empty() ? "" : "at " + ff.value("config", "") + ": ",
                     ff.value("message", "a validation failed"), file, kLadder, file, kLadder);
}

}  // namespace joseki::app::trydirect
