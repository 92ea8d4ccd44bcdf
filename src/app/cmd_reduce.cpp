// `joseki reduce`: the reduction ladder (issue 3). u32 sum mod 2^32, every rung checked
// exactly against the CPU reference, timed cold and/or hot beside CUB and the stream-read
// ceiling; markdown tables on stdout, records to --json. Without a GPU the CPU rungs run and
// every GPU rung is a skipped record saying why (exit 0).
#include <algorithm>
#include <iostream>
#include <random>

#include <fmt/format.h>

#include "app/context.hpp"
#include "app/reduce_vulkan.hpp"
#include "experiments/reduce/harness.hpp"
#include "measure/errors.hpp"
#include "measure/ladder.hpp"
#include "measure/table.hpp"

namespace joseki::app {

void print_ladder_tables(const std::vector<measure::Record>& records, const std::vector<std::size_t>& sizes,
                         const std::vector<std::size_t>& offsets, const std::vector<measure::Mode>& modes,
                         const std::string& title) {
  for (std::size_t n : sizes)
    for (std::size_t off : offsets)
      for (measure::Mode mode : modes) {
        const std::string m = measure::to_string(mode);
        std::vector<measure::Record> group, ceilings;  // the ladder's rows, then the ceiling measured beside them
        for (const measure::Record& r : records)
          if (r.mode == m && r.axes.has("n") && r.axes.get_int("n") == static_cast<std::int64_t>(n) &&
              ((r.rung < 0 && r.ladder.sweep.empty()) || r.axes.get_int("offset") == static_cast<std::int64_t>(off)))
            (r.rung < 0 && r.ladder.sweep.empty() ? ceilings : group).push_back(r);
        group.insert(group.end(), ceilings.begin(), ceilings.end());
        // Sweeps first: they chose the configurations the ladder below uses.
        const std::string sweeps = measure::sweep_table(group, {"n", "offset"});
        std::cout << fmt::format("## {}: n = {}, {:.1f} MiB, offset {}, {}\n\n", title, reduce::size_label(n),
                                 n * 4.0 / 1048576.0, off, m)
                  << sweeps << (sweeps.empty() ? "" : "\n") << measure::ladder_table(group, {"n", "offset"}) << "\n";
      }
}

void print_validation_table(const std::vector<reduce::ValidationRow>& rows, const std::string& title) {
  measure::Table t({"Rung", "n", "offset", "Config", "result", "status"});
  for (const auto& v : rows)
    t.add_row({v.variant, std::to_string(v.n), std::to_string(v.offset), v.config,
               v.message.rfind("skipped", 0) == 0 ? "" : fmt::format("{:#010x}", v.got),
               v.ok ? (v.message.empty() ? "exact" : v.message) : "FAILED: " + v.message});
  std::cout << "## " << title << ": validation against the CPU reference\n\n" << t.markdown() << std::endl;
}

void record_ladder_run(Context& ctx, std::vector<measure::Record> records, const measure::DeviceFacts& device,
                       const std::function<void()>& print) {
  for (measure::Record& r : records) Context::stamp(r, device);
  print();
  ctx.add(std::move(records));
}

namespace {

using measure::Record;
using reduce::Rung;

struct ReduceOpts {
  std::vector<std::string> sizes, offsets, rungs, sweep_rungs;
  std::string mode = "cold";
  std::string backend = "cuda";
  bool sweep = false, validate_only = false, list = false;
  std::uint64_t seed = 0;
  measure::StoppingRule rule;
};

std::vector<measure::Mode> parse_modes(const std::string& m) {
  if (m == "both") return {measure::Mode::Cold, measure::Mode::Hot};
  if (m == "cold" || m == "hot") return {measure::mode_from_string(m)};
  throw InputError(fmt::format("--mode: '{}' is not a mode (expected cold, hot or both)", m));
}

std::string header_line(const reduce::RunResult& res) {
  const measure::BuildInfo& b = measure::build_info();
  const std::string commit = fmt::format("commit {}{}", b.git_commit.substr(0, 12), b.git_dirty ? " (dirty)" : "");
  if (!res.device.present)
    return fmt::format("device: none ({}) · {}", res.gpu_skip_reason.empty() ? "GPU rungs not selected" : res.gpu_skip_reason,
                       commit);
  return fmt::format("device: {} ({} SMs, datasheet {}) · {}", res.device.name, res.device.sm_count,
                     measure::format_rate(res.device.datasheet_bw_Bps()), commit);
}

void print_tables(const reduce::RunOptions& o, const reduce::RunResult& res) {
  std::cout << header_line(res) << "\n\n";
  print_ladder_tables(res.records, o.sizes, o.offsets, o.modes, "reduce");
}

void print_validations(const reduce::RunResult& res) {
  std::cout << header_line(res) << "\n\n";
  print_validation_table(res.validations, "reduce");
}

void print_list() {
  measure::Table t({"Rung", "id", "Name", "Technique", "Previous", "Backend", "Knobs (default)", "Preconditions"});
  for (const Rung& r : reduce::rungs())
    t.add_row({r.slug, r.id, r.name, r.technique, r.predecessor.empty() ? "-" : r.predecessor,
               r.is_gpu() ? "cuda" : "cpu",
               (r.config_from.empty() ? "" : "from " + r.config_from + ": ") + reduce::knobs_point(r, r.defaults).label() +
                   (r.swept ? " (swept)" : ""),
               r.preconditions});
  std::cout << t.markdown();
}

reduce::RunResult run_and_record(Context& ctx, reduce::RunOptions o) {
  o.progress = [&ctx](const std::string& line) { ctx.note(line); };
  reduce::RunResult res = reduce::run(o);
  record_ladder_run(ctx, res.records, res.device, [&] { o.validate_only ? print_validations(res) : print_tables(o, res); });
  return res;
}

void fail_if_wrong(const reduce::RunResult& res) {
  if (res.failures.empty()) return;
  throw ValidationError(fmt::format("reduce: {} failure(s); first: {}", res.failures.size(), res.failures.front()));
}

std::uint64_t fresh_seed() { return (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}(); }

void add_reduce_command(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("reduce", "the reduction ladder: u32 sum (mod 2^32) from one atomic per element to "
                                           "the bandwidth limit, every rung exact, beside CUB and the stream-read "
                                           "ceiling");
  auto o = std::make_shared<ReduceOpts>();
  cmd->add_option("--n", o->sizes, "sizes in elements, e.g. 16777216, 2^24, 2^20+3 (repeatable or a comma list; "
                                   "default 2^24)")
      ->delimiter(',');
  cmd->add_option("--mode", o->mode, "cold (L2 flushed before each sample), hot, or both")->capture_default_str();
  cmd->add_option("--rungs", o->rungs, "rungs to run, by name or id (comma list; default all; see --list)")
      ->delimiter(',');
  cmd->add_option("--offset", o->offsets, "start the input this many elements into its buffer, e.g. 1 for an input "
                                          "not aligned to 16 bytes (comma list; default 0)")
      ->delimiter(',');
  cmd->add_flag("--sweep", o->sweep, "sweep the knobs of the swept rungs (r03: block x blocks per SM, as the seed "
                                     "did; r06, r07, r08, r11) and use the tie rule's choice in the ladder");
  cmd->add_option("--sweep-rungs", o->sweep_rungs, "sweep only these rungs (comma list)")->delimiter(',');
  cmd->add_flag("--validate-only", o->validate_only, "check every rung against the CPU reference, time nothing "
                                                     "(default sizes 1, 31, 255, 2^20+3, 2^24; offsets 0..3)");
  cmd->add_option("--seed", o->seed, "random seed of the input (default: fresh each run; recorded)")
      ->check(non_negative_integer());
  cmd->add_flag("--list", o->list, "list the rungs (registry) and exit");
  cmd->add_option("--backend", o->backend, "cuda (the ladder r00..r11 beside CUB) or vulkan (seed 000's v1..v3 and "
                                            "v4..v6 in Vulkan compute; --device picks the Vulkan device)")
      ->check(CLI::IsMember({"cuda", "vulkan"}))
      ->capture_default_str();
  add_rule_options(cmd, o->rule);
  cmd->callback([&ctx, o] {
    if (o->backend == "vulkan") {
      VulkanReduceArgs v;
      v.modes = parse_modes(o->mode);
      for (const auto& s : o->sizes) v.sizes.push_back(reduce::parse_size(s));
      for (const auto& s : o->offsets) v.offsets.push_back(reduce::parse_offset(s));
      if (o->validate_only && v.sizes.empty()) v.sizes = {1, 31, 255, (1u << 20) + 3, 1u << 24};
      if (o->validate_only && v.offsets.empty()) v.offsets = {0, 1, 2, 3};
      if (v.sizes.empty()) v.sizes = {1u << 24};
      if (v.offsets.empty()) v.offsets = {0};
      v.rungs = o->rungs;
      v.sweep = o->sweep;
      v.validate_only = o->validate_only;
      v.list = o->list;
      v.rule = o->rule;
      v.rule.validate();
      v.seed = o->seed ? o->seed : fresh_seed();
      return run_vulkan_reduce(ctx, v);
    }
    if (o->list) return print_list();
    reduce::RunOptions r;
    r.modes = parse_modes(o->mode);
    for (const auto& s : o->sizes) r.sizes.push_back(reduce::parse_size(s));
    r.offsets.clear();
    for (const auto& s : o->offsets) r.offsets.push_back(reduce::parse_offset(s));
    if (o->validate_only && r.sizes.empty()) r.sizes = {1, 31, 255, (1u << 20) + 3, 1u << 24};
    if (o->validate_only && r.offsets.empty()) r.offsets = {0, 1, 2, 3};
    if (r.sizes.empty()) r.sizes = {1u << 24};
    if (r.offsets.empty()) r.offsets = {0};
    r.rungs = reduce::select_rungs(o->rungs);
    for (const auto& s : o->sweep_rungs) {
      const Rung* found = nullptr;
      try {
        found = &reduce::find_rung(s);
      } catch (const InputError& e) {  // find_rung names --rungs; this is --sweep-rungs
        std::string m = e.what();
        if (m.rfind("--rungs:", 0) == 0) m = "--sweep-rungs:" + m.substr(8);
        throw InputError(m);
      }
      const Rung& sr = *found;
      if (!sr.swept) throw InputError(fmt::format("--sweep-rungs: {} has no sweep", s));
      r.sweep_rungs.push_back(sr.slug);
    }
    r.sweep = o->sweep || !r.sweep_rungs.empty();
    r.validate_only = o->validate_only;
    r.rule = o->rule;
    r.rule.validate();  // e.g. --max-samples below --min-samples: bad input before any work
    r.device = ctx.device;
    r.seed = o->seed ? o->seed : fresh_seed();
    r.slow = reduce::slow_variants_from_env();
    fail_if_wrong(run_and_record(ctx, r));
  });
}

JOSEKI_REGISTER_COMMAND(20, add_reduce_command);

// The tour's plan. Full: the complete set of records the report and results/h200/ use -- 2^20,
// 2^24 and 2^28 cold with every sweep (the ladder then uses the tie rule's choices), 2^24 hot,
// and 2^24 cold on an input that is not 16-byte aligned (offset 1), both with the default knobs.
// About 2 minutes on an H200 host with the default stopping rule (docs/REDUCE.md). Quick: 2^24
// cold, default knobs, a few seconds.
std::vector<reduce::RunOptions> tour_plan(const reduce::RunOptions& base, bool quick) {
  std::vector<reduce::RunOptions> runs;
  auto add = [&](std::vector<std::size_t> sizes) -> reduce::RunOptions& {
    runs.push_back(base);
    runs.back().sizes = std::move(sizes);
    return runs.back();
  };
  if (quick) {
    add({1u << 24});
    return runs;
  }
  add({1u << 20, 1u << 24, std::size_t{1} << 28}).sweep = true;
  add({1u << 24}).modes = {measure::Mode::Hot};
  add({1u << 24}).offsets = {1};
  return runs;
}

std::vector<Record> tour_reduce(Context& ctx, const TourOptions& t) {
  reduce::RunOptions base;
  base.rungs = reduce::select_rungs({});
  base.rule = t.rule;
  base.device = ctx.device;
  base.seed = fresh_seed();
  base.slow = reduce::slow_variants_from_env();
  const std::vector<reduce::RunOptions> runs = tour_plan(base, t.quick);
  const std::size_t before = ctx.records.size();
  std::vector<std::string> failures;
  for (const auto& r : runs) {
    const auto res = run_and_record(ctx, r);
    failures.insert(failures.end(), res.failures.begin(), res.failures.end());
  }
  // On a failure the records stay in ctx (so that --json keeps them) and the tour stops with exit 1.
  if (!failures.empty())
    throw ValidationError(fmt::format("reduce: {} failure(s); first: {}", failures.size(), failures.front()));
  // run_and_record added the records to ctx already; hand them back to the tour instead.
  std::vector<Record> out(ctx.records.begin() + static_cast<std::ptrdiff_t>(before), ctx.records.end());
  ctx.records.resize(before);
  return out;
}

JOSEKI_REGISTER_TOUR_STEP(reduce, "reduce", "the reduction ladder (u32 sum): rungs, CUB, stream-read ceiling", 20, 5,
                          115, tour_reduce, false);

}  // namespace
}  // namespace joseki::app
