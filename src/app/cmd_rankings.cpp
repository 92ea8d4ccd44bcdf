// `joseki rankings A B ...` (issue 16): the reduction ladder's ranking and the cost ratios of
// several record sets side by side -- one column per (set, device, backend, n, mode) -- with each
// rule marked where it flips between columns. Seed 000's Apple M4 (wgpu) and seed 001's RTX 3060
// Laptop appear as reference columns, marked "from the seed, not measured here".
//
// The table itself is built in src/report/rankings.cpp (shared with the report).
// Rungs are matched across APIs by what they do: v1 = one atomic per element (r01_atomic,
// vk_v1_atomic), v2 = shared/workgroup tree (r02_shared_tree, vk_v2_tree), v3 = coarsened + tree
// (r03_coarsen, vk_v3_coarsen), v4 = warp/subgroup sums (r04_warp_shuffle, vk_v4_subgroup),
// v5 = 16-byte loads (r05_vector_loads, vk_v5_vec4), v6 = single pass (r06_single_pass,
// vk_v6_single_pass).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "app/context.hpp"
#include "measure/errors.hpp"
#include "measure/table.hpp"
#include "report/rankings.hpp"

namespace joseki::app {
namespace {

namespace fs = std::filesystem;
using measure::Record;

std::vector<std::string> files_of(const std::string& arg) {
  std::vector<std::string> v;
  if (fs::is_directory(arg)) {
    for (const auto& e : fs::recursive_directory_iterator(arg))
      if (e.is_regular_file() && e.path().extension() == ".json") v.push_back(e.path().string());
    std::sort(v.begin(), v.end());
    if (v.empty()) throw InputError(fmt::format("rankings: '{}' holds no .json record files", arg));
  } else if (fs::exists(arg)) {
    v.push_back(arg);
  } else {
    throw InputError(fmt::format("rankings: '{}' is neither a record file nor a folder", arg));
  }
  return v;
}

struct Opts {
  std::vector<std::string> sets;
  std::vector<std::string> sizes;
  std::string mode = "cold";
  bool no_seed = false;
};

// The measured columns of one set: its record files read (other JSON in a results folder skipped).
std::vector<report::RankColumn> columns_of(const std::string& set, const std::set<std::int64_t>& sizes, const std::string& mode) {
  std::vector<Record> records;
  for (const std::string& f : files_of(set)) {
    try {
      measure::RecordSet rs = measure::read_records(f);
      records.insert(records.end(), rs.records.begin(), rs.records.end());
    } catch (const InputError&) {
      if (fs::is_directory(set)) continue;  // other JSON in a results folder
      throw;
    }
  }
  return report::rank_columns(fs::path(set).filename().string(), records, sizes, mode);
}

void add_rankings_command(CLI::App& app, Context&) {
  auto o = std::make_shared<Opts>();
  auto* cmd = app.add_subcommand("rankings", "the reduction ladder's rankings and cost ratios of several record sets "
                                             "side by side (devices x APIs), each rule that flips marked; the seeds' "
                                             "figures as reference columns");
  cmd->add_option("sets", o->sets, "record files or folders (searched for .json)")->required();
  cmd->add_option("--n", o->sizes, "sizes to show (comma list, e.g. 2^24; default all)")->delimiter(',');
  cmd->add_option("--mode", o->mode, "cold or hot")->check(CLI::IsMember({"cold", "hot"}))->capture_default_str();
  cmd->add_flag("--no-seed", o->no_seed, "leave out the seeds' reference columns");
  cmd->callback([o] {
    std::set<std::int64_t> sizes;
    for (const auto& s : o->sizes) {
      std::size_t n = 0;
      if (s.rfind("2^", 0) == 0) {
        int e = -1;
        try {
          e = std::stoi(s.substr(2));
        } catch (...) {
        }
        if (e < 0 || e > 36) throw InputError(fmt::format("--n: '{}' is not a size", s));
        n = std::size_t{1} << e;
      } else {
        try {
          n = std::stoull(s);
        } catch (...) {
          throw InputError(fmt::format("--n: '{}' is not a size", s));
        }
      }
      sizes.insert(static_cast<std::int64_t>(n));
    }
    std::vector<report::RankColumn> cols;
    if (!o->no_seed) cols = report::seed_rank_columns();
    for (const auto& s : o->sets)
      for (report::RankColumn& c : columns_of(s, sizes, o->mode)) cols.push_back(std::move(c));
    if (cols.size() == (o->no_seed ? 0u : 2u))
      throw InputError("rankings: no timed reduce ladder records (cuda or vulkan) in the given sets at that size/mode");
    std::cout << report::rankings_markdown(cols, "## the reduction ladder across devices and APIs");
  });
}

JOSEKI_REGISTER_COMMAND(95, add_rankings_command);

}  // namespace
}  // namespace joseki::app
