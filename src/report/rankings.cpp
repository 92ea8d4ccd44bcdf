// The cross-device rankings table (issue 16): rankings.hpp. Here in the report engine so that
// `joseki rankings` (app/cmd_rankings.cpp) and the report build the one same table.
//
// Rungs are matched across APIs by what they do: v1 = one atomic per element (r01_atomic,
// vk_v1_atomic), v2 = shared/workgroup tree (r02_shared_tree, vk_v2_tree), v3 = coarsened + tree
// (r03_coarsen, vk_v3_coarsen), v4 = warp/subgroup sums (r04_warp_shuffle, vk_v4_subgroup),
// v5 = 16-byte loads (r05_vector_loads, vk_v5_vec4), v6 = single pass (r06_single_pass,
// vk_v6_single_pass). r01b_atomic_opaque (v1 with an address the compiler cannot prove uniform) has no
// row of its own: over r01 it gives a CUDA column its opaque_over_uniform ratio, which the Vulkan columns
// take from their probes (atomic_opaque / atomic_uniform), and the rule on that ratio.
#include "report/rankings.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "measure/table.hpp"

namespace joseki::report {
namespace {

using measure::Record;

const std::map<std::string, std::string>& rung_alias() {
  static const std::map<std::string, std::string> m = {
      {"r01_atomic", "v1"},        {"vk_v1_atomic", "v1"},      {"r02_shared_tree", "v2"}, {"vk_v2_tree", "v2"},
      {"r03_coarsen", "v3"},       {"vk_v3_coarsen", "v3"},     {"r04_warp_shuffle", "v4"}, {"vk_v4_subgroup", "v4"},
      {"r05_vector_loads", "v5"},  {"vk_v5_vec4", "v5"},        {"r06_single_pass", "v6"}, {"vk_v6_single_pass", "v6"}};
  return m;
}

// "r03 < r02 < r01" (CUDA's profile) -> "v3 < v2 < v1"; Vulkan's are already v-names.
std::string v_names(std::string s) {
  for (std::size_t i = 0; (i = s.find("r0", i)) != std::string::npos;) s.replace(i, 2, "v");
  return s;
}

std::string ranking_of(const std::map<std::string, double>& t, const std::vector<std::string>& keys) {
  std::vector<std::pair<std::string, double>> v;
  for (const auto& k : keys)
    if (t.count(k)) v.emplace_back(k, t.at(k));
  if (v.size() < keys.size()) return "";
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  std::string s;
  for (const auto& [k, x] : v) s += (s.empty() ? "" : " < ") + k;
  return s;
}

// Holds where the compiler merges a warp's same-address atomics only when it can prove the address
// uniform (nvcc: r01b 29x r01 on the H200); does not where it merges them at run time or where nothing
// merges them (both cost the same).
constexpr const char* kOpaqueRule = "an atomic the compiler cannot prove uniform costs >= 2x a uniform one";

void derive_rules(RankColumn& c) {
  auto has = [&](const char* k) { return c.t.count(k) > 0; };
  if (has("v1") && has("v2")) c.rule["one atomic per element (v1) beats the tree (v2)"] = c.t["v1"] < c.t["v2"];
  if (has("v1") && has("v2") && has("v3"))
    c.rule["coarsening (v3) beats v1 and v2"] = c.t["v3"] < c.t["v1"] && c.t["v3"] < c.t["v2"];
  if (has("v3") && has("v4")) c.rule["warp/subgroup sums (v4) beat the tree (v3)"] = c.t["v4"] < c.t["v3"] * 0.98;
  if (has("v4") && has("v5")) c.rule["16-byte loads (v5) beat 4-byte loads (v4)"] = c.t["v5"] < c.t["v4"] * 0.98;
  if (has("v5") && has("v6")) c.rule["one pass (v6) beats fill + dispatch (v5)"] = c.t["v6"] < c.t["v5"] * 0.98;
  // The ladder's own pair (same size and mode as the column) wins over a probe's ratio.
  if (has("v1") && c.opaque_s > 0) c.ratio["opaque_over_uniform"] = c.opaque_s / c.t["v1"];
  if (const auto it = c.ratio.find("opaque_over_uniform"); it != c.ratio.end())
    c.rule[kOpaqueRule] = it->second >= 2.0;
  c.ranking = ranking_of(c.t, {"v1", "v2", "v3"});
}

}  // namespace

std::vector<RankColumn> rank_columns(const std::string& set_name, const std::vector<Record>& records,
                                     const std::set<std::int64_t>& sizes, const std::string& mode) {
  std::map<std::string, RankColumn> cols;  // key: device|backend|n|mode
  std::map<std::string, std::map<std::string, double>> ratios;  // device|backend -> ratios
  std::map<std::string, std::string> predicted;                   // device|backend -> predicted ranking
  auto key_of = [](const Record& r) {
    return fmt::format("{}|{}|{}|{}", r.device.name.empty() ? "?" : r.device.name, r.backend, r.axes.get_int("n"), r.mode);
  };
  for (const Record& r : records) {
    const std::string dev_api = fmt::format("{}|{}", r.device.name, r.backend == "vulkan" ? "vulkan" : "cuda");
    if ((r.experiment == "probe.vulkan" || r.experiment == "probe.profile") && r.variant == "verdict:prediction" &&
        r.extra.contains("predicted_ranking"))
      predicted[dev_api] = v_names(r.extra["predicted_ranking"].get<std::string>());
    if (r.summary && !r.skipped && r.scope_is(measure::Scope::Value)) {
      const double v = r.summary->median;
      if (r.experiment == "probe.vulkan" && r.variant.rfind("ratio:", 0) == 0) ratios[dev_api][r.variant.substr(6)] = v;
      if (r.experiment == "probe.profile") ratios[dev_api]["_" + r.variant] = v;
    }
    if (r.experiment != "reduce" || r.skipped || !r.summary || r.mode != mode || !r.axes.has("n")) continue;
    if (r.axes.has("offset") && r.axes.get_int("offset") != 0) continue;
    if (!sizes.empty() && !sizes.count(r.axes.get_int("n"))) continue;
    if (!r.ladder.sweep.empty() || (r.backend != "cuda" && r.backend != "vulkan")) continue;
    RankColumn& c = cols[key_of(r)];
    if (c.label.empty())
      c.label = fmt::format("{} · {} · n=2^{:.0f} {} ({})", r.device.name, r.backend,
                            std::log2(static_cast<double>(r.axes.get_int("n"))), r.mode, set_name);
    if (r.variant == "stream_read" || r.variant == "vk_stream_read") {
      c.ceiling_Bps = r.extra.value("value", 0.0);
      continue;
    }
    if (r.rung < 1) continue;
    if (r.variant == "r01b_atomic_opaque") c.opaque_s = r.summary->median;
    if (const auto it = rung_alias().find(r.variant); it != rung_alias().end()) c.t[it->second] = r.summary->median;
    if (c.best.empty() || r.summary->median < c.best_s) {
      c.best_s = r.summary->median;
      c.best = r.variant;
      c.best_Bps = r.throughput ? r.throughput->bytes_per_s : 0;
    }
  }
  std::vector<RankColumn> out;
  for (auto& [k, c] : cols) {
    const std::string dev_api = k.substr(0, k.find('|', k.find('|') + 1));
    const auto& rt = ratios[dev_api];
    for (const auto& [name, v] : rt)
      if (name[0] != '_') c.ratio[name] = v;
    // One same-address atomic that nothing merges, over one load: CUDA's probe profile (its same-address
    // atomic with an opaque address, which nvcc does not merge), Vulkan's lone-atomic probe. Not from
    // Vulkan's opaque per-element probe: NVIDIA's driver merges those at run time (docs/VULKAN.md).
    if (rt.count("_global_load_elem_s") && rt.count("_atomic_same_op_s"))
      c.ratio["lone_atomic_over_load"] = rt.at("_atomic_same_op_s") / rt.at("_global_load_elem_s");
    if (rt.count("atomic_over_load") && rt.count("lone_over_uniform"))
      c.ratio["lone_atomic_over_load"] = rt.at("atomic_over_load") * rt.at("lone_over_uniform");
    if (const auto it = predicted.find(dev_api); it != predicted.end()) c.predicted = it->second;
    derive_rules(c);
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<RankColumn> seed_rank_columns() {
  RankColumn m4;
  m4.label = "Apple M4 · wgpu · 16.7 M u32 (seed 000) — from the seed, not measured here";
  m4.reference = true;
  m4.text = {{"v1", "≈ 2–4 ms"}, {"v2", "≈ 5–15 ms"}, {"v3", "≈ 1–2 ms (best 0.98 ms)"}, {"best", "v3"},
             {"GB/s", "50–65"}};
  m4.ranking = "v3 < v1 < v2";
  m4.rule["one atomic per element (v1) beats the tree (v2)"] = true;  // "every run v2 > 2x v1"
  m4.rule["coarsening (v3) beats v1 and v2"] = true;
  RankColumn rtx;
  rtx.label = "RTX 3060 Laptop · CUDA (seed 001) — from the seed, not measured here";
  rtx.reference = true;
  rtx.text = {{"v1", "not in the seed"}, {"v2", "not in the seed"}, {"v3", "not in the seed"},
              {"best", "ABC471G direct ladder: 246 ms → 4.515 ms GPU_COMPUTE (its sweep: within 2 % → larger chunk)"},
              {"GB/s", "not in the seed"}};
  return {m4, rtx};
}

namespace {

std::string cell_time(const RankColumn& c, const std::string& k) {
  if (c.reference) return c.text.count(k) ? c.text.at(k) : "";
  return c.t.count(k) ? measure::format_time(c.t.at(k)) : "";
}

}  // namespace

std::string rankings_markdown(const std::vector<RankColumn>& cols, const std::string& heading) {
  std::vector<std::string> header{"row"};
  for (const RankColumn& c : cols) header.push_back(c.label);
  header.push_back("flips?");
  measure::Table t(header);
  auto row = [&](const std::string& name, auto&& cell, bool flip_check) {
    std::vector<std::string> r{name};
    std::set<std::string> values;
    for (const RankColumn& c : cols) {
      const std::string v = cell(c);
      r.push_back(v);
      if (!v.empty() && v != "not in the seed") values.insert(v);
    }
    r.push_back(flip_check ? (values.size() > 1 ? "**flips**" : values.empty() ? "" : "same") : "");
    t.add_row(r);
  };
  for (const char* k : {"v1", "v2", "v3", "v4", "v5", "v6"})
    row(std::string(k) + " median", [&](const RankColumn& c) { return cell_time(c, k); }, false);
  row("best rung", [](const RankColumn& c) {
    return c.reference ? (c.text.count("best") ? c.text.at("best") : "")
                       : c.best.empty() ? "" : fmt::format("{} {}", c.best, measure::format_time(c.best_s));
  }, false);
  row("best GB/s", [](const RankColumn& c) {
    return c.reference ? (c.text.count("GB/s") ? c.text.at("GB/s") : "") : c.best_Bps > 0 ? fmt::format("{:.1f}", c.best_Bps / 1e9) : "";
  }, false);
  row("stream-read ceiling GB/s",
      [](const RankColumn& c) { return c.ceiling_Bps > 0 ? fmt::format("{:.1f}", c.ceiling_Bps / 1e9) : std::string(); }, false);
  row("ranking v1/v2/v3 (fastest first)", [](const RankColumn& c) { return c.ranking; }, true);
  row("ranking the cost ratios predict (probes)", [](const RankColumn& c) { return c.predicted; }, true);
  row("prediction matches the measured ranking", [](const RankColumn& c) {
    if (c.predicted.empty() || c.ranking.empty()) return std::string();
    return std::string(c.predicted == c.ranking ? "yes" : "no");
  }, false);
  // One row per key that any column's map (rule or ratio) holds; blank where a column lacks it.
  auto keyed_rows = [&](const std::string& prefix, auto map, auto&& text, bool flip_check) {
    std::set<std::string> keys;
    for (const RankColumn& c : cols)
      for (const auto& [k, v] : c.*map) keys.insert(k);
    for (const auto& k : keys)
      row(prefix + k, [&](const RankColumn& c) {
        const auto it = (c.*map).find(k);
        return it == (c.*map).end() ? std::string() : text(it->second);
      }, flip_check);
  };
  keyed_rows("rule: ", &RankColumn::rule, [](bool holds) { return std::string(holds ? "holds" : "does not hold"); },
             true);
  keyed_rows("cost ratio: ", &RankColumn::ratio, [](double r) { return fmt::format("{:.3g}", r); }, false);
  return (heading.empty() ? std::string() : heading + "\n\n") + t.markdown() +
         "\nv1 one atomic per element, v2 shared/workgroup-memory tree, v3 coarsened + tree, v4 warp/subgroup "
               "sums, v5 16-byte loads, v6 single pass (CUDA r01..r06, Vulkan vk_v1..vk_v6). A rule \"flips\" when "
               "the columns disagree. Ratios: probe.vulkan (Vulkan) / probe.profile (CUDA); a CUDA column's "
               "opaque_over_uniform is its ladder's r01b_atomic_opaque / r01_atomic.\n";
}


std::vector<std::string> flipped_rules(const std::vector<RankColumn>& cols) {
  std::set<std::string> rules;
  for (const RankColumn& c : cols)
    for (const auto& [r, v] : c.rule) rules.insert(r);
  std::vector<std::string> out;
  for (const auto& r : rules) {
    std::set<bool> seen;
    for (const RankColumn& c : cols)
      if (const auto it = c.rule.find(r); it != c.rule.end()) seen.insert(it->second);
    if (seen.size() > 1) out.push_back(r);
  }
  return out;
}

namespace {

std::string set_name(const std::string& file) {
  const std::filesystem::path p(file);
  if (p.filename() == "records.json" && p.has_parent_path())
    return std::filesystem::absolute(p).parent_path().filename().string();
  return p.filename().string();
}

// The report's columns: cold where any cold ladder record is present, else hot; every size.
std::vector<RankColumn> report_columns(const std::vector<measure::RecordSet>& sets,
                                       const std::vector<std::string>& files, std::string& mode) {
  mode = "cold";
  for (const char* m : {"cold", "hot"}) {
    std::vector<RankColumn> cols;
    for (std::size_t i = 0; i < sets.size(); ++i)
      for (RankColumn& c : rank_columns(set_name(i < files.size() ? files[i] : ""), sets[i].records, {}, m))
        cols.push_back(std::move(c));
    if (!cols.empty()) {
      mode = m;
      return cols;
    }
  }
  return {};
}

}  // namespace

std::string rankings_report_section(const std::vector<measure::RecordSet>& sets,
                                    const std::vector<std::string>& files) {
  std::string mode;
  std::vector<RankColumn> cols = report_columns(sets, files, mode);
  if (cols.empty()) return "";
  std::vector<RankColumn> all = seed_rank_columns();
  for (RankColumn& c : cols) all.push_back(std::move(c));
  const std::vector<std::string> flips = flipped_rules(all);
  std::string md = "## Rankings across devices and APIs\n\n";
  md += fmt::format(
      "The table `joseki rankings` prints, from the reduce ladder records present ({} mode, offset 0), one column per "
      "(device, API, size); the first two columns are reference rows from the seed, not measured here. ",
      mode);
  std::set<std::string> rankings;
  for (const RankColumn& c : all)
    if (!c.ranking.empty()) rankings.insert(c.ranking);
  md += flips.empty() ? std::string("No rule flips between these columns")
                      : fmt::format("Rules that flip: {}", fmt::join(flips, "; "));
  md += rankings.size() > 1 ? fmt::format("; the v1/v2/v3 ranking flips ({}).\n\n", fmt::join(rankings, " vs "))
                            : std::string(".\n\n");
  return md + rankings_markdown(all, "") + "\n";
}

nlohmann::json rankings_plot_plan(const std::vector<measure::RecordSet>& sets,
                                  const std::vector<std::string>& files) {
  std::string mode;
  std::vector<RankColumn> cols = report_columns(sets, files, mode);
  if (cols.empty()) return nullptr;
  std::vector<RankColumn> all = seed_rank_columns();
  all.insert(all.end(), cols.begin(), cols.end());
  nlohmann::json jc = nlohmann::json::array();
  for (const RankColumn& c : cols) {
    nlohmann::json t = nlohmann::json::object();
    for (const auto& [k, v] : c.t) t[k] = v;
    nlohmann::json rules = nlohmann::json::object();
    for (const auto& [k, v] : c.rule) rules[k] = v;
    jc.push_back({{"label", c.label}, {"t", t}, {"rules", rules}, {"ranking", c.ranking}});
  }
  return {{"mode", mode}, {"columns", jc}, {"flipped", flipped_rules(all)},
          {"reference", {{"label", all.front().label}, {"ranking", all.front().ranking}, {"rules", all.front().rule}}}};
}

}  // namespace joseki::report
