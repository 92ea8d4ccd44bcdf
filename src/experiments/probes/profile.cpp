// Probe "profile": the cost-ratio profile. The unit costs the other probes measured (one
// same-address atomic, one barrier, a shared and a global load per element, a launch) side
// by side with their ratios; from them a predicted ranking of the reduction ladder's first
// three rungs for 2^24 u32 (analysis.hpp: predict_reduce, the arithmetic is recorded), and
// the measured ranking from `joseki reduce --rungs r01,r02,r03` when this build has it.
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "backend/gpu.hpp"
#include "experiments/probes/probe.hpp"
#include "measure/errors.hpp"
#include "measure/spawn.hpp"
#include "measure/table.hpp"

namespace joseki::probes {
namespace {

struct Cost {
  const char* key;
  const char* probe;
  const char* what;
};
constexpr Cost COSTS[] = {
    {"global_load_elem_s", "coalescing", "global load, per 4-byte element, device-wide (stride-1 bandwidth)"},
    {"shared_load_elem_s", "banks", "shared load, per 4-byte element, device-wide (conflict-free)"},
    {"shared_load_warp_s", "banks", "shared load, one warp-wide access on one SM"},
    {"atomic_same_op_s", "atomics", "same-address atomicAdd from one lane, serialized at the L2"},
    {"barrier_s", "barriers", "__syncthreads of a 256-thread block"},
    {"launch_s", "launch", "kernel launch (GPU interval between back-to-back kernels)"},
};

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Runs `joseki reduce --rungs r01,r02,r03 --n N` and returns the rung -> median GPU_COMPUTE
// time, or the reason it could not.
std::map<std::string, double> measured_reduce(const ProbeOptions& o, double n, std::string& why) {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string json = (dir / fmt::format("joseki-profile-reduce-{}.json", getpid())).string();
  const std::string err = (dir / fmt::format("joseki-profile-reduce-{}.err", getpid())).string();
  measure::SpawnOptions so;
  so.argv = {o.self_exe, "--device", std::to_string(o.device), "--quiet", "--json", json, "reduce", "--rungs",
             "r01,r02,r03", "--n", fmt::format("{:.0f}", n)};
  so.stderr_path = err;
  so.timeout_s = 150;  // `probe all` must finish in 5 minutes
  so.want_report = false;
  std::map<std::string, double> out;
  const measure::ExternalResult r = measure::run_external(so);
  const std::string msg = slurp(err);
  std::remove(err.c_str());
  if (r.exit_code != 0 || r.timed_out) {
    std::string last = msg.substr(0, msg.find('\n'));
    why = r.timed_out ? "joseki reduce timed out" : fmt::format("`joseki reduce --rungs r01,r02,r03` exited with code {}: {}", r.exit_code, last.empty() ? "(no message)" : last);
    if (msg.find("unknown command 'reduce'") != std::string::npos) why = "the reduce experiment is not in this build (joseki reduce: unknown command)";
    std::remove(json.c_str());
    return out;
  }
  std::map<std::string, bool> chosen;
  try {
    for (const Record& rec : measure::read_records(json).records) {
      if (rec.experiment != "reduce" || rec.skipped || !rec.summary || !rec.scope_is(Scope::GpuCompute)) continue;
      const std::string rung = rec.variant.substr(0, 3);
      if (rung != "r01" && rung != "r02" && rung != "r03") continue;
      if (rec.variant.size() > 3 && std::isalpha(static_cast<unsigned char>(rec.variant[3]))) continue;  // r01b: another rung
      const bool ch = rec.ladder.chosen;
      if (!out.count(rung) || (ch && !chosen[rung]) || (ch == chosen[rung] && rec.summary->median < out[rung])) {
        out[rung] = rec.summary->median;
        chosen[rung] = ch;
      }
    }
  } catch (const std::exception& e) {
    why = std::string("cannot read the reduce records: ") + e.what();
  }
  std::remove(json.c_str());
  if (out.size() < 3 && why.empty()) why = "the reduce records lack a GPU_COMPUTE time for r01, r02 or r03";
  return out;
}

std::vector<Record> run_profile(const ProbeOptions& o) {
  std::vector<Record> recs;  // sub-probe records (when they had to run here) + the profile's
  std::vector<Record> seen = o.earlier ? *o.earlier : std::vector<Record>{};
  for (const Cost& c : COSTS)
    if (find_unit_cost(seen, c.key) < 0) {
      const ProbeInfo* p = ProbeRegistry::find(c.probe);
      if (!p) throw RunError(fmt::format("profile: probe '{}' is missing from this build", c.probe));
      ProbeOptions q = o;
      q.quick = true;
      q.earlier = nullptr;
      for (auto& r : p->run(q)) {
        seen.push_back(r);
        recs.push_back(std::move(r));
      }
    }
  std::map<std::string, double> cost;
  for (const Cost& c : COSTS) {
    cost[c.key] = find_unit_cost(seen, c.key);
    if (cost[c.key] <= 0) throw RunError(fmt::format("profile: unit cost {} not measured (probe {})", c.key, c.probe));
  }
  const double g = cost["global_load_elem_s"];
  for (const Cost& c : COSTS) {
    Record r = value_record("profile", c.key, c.what, cost[c.key], "s");
    r.extra["x_global_load_elem"] = cost[c.key] / g;
    r.extra["source_probe"] = c.probe;
    r.extra["display"] = fmt::format("{} = {:.3g} x a global load per element", unit_time(cost[c.key]), cost[c.key] / g);
    recs.push_back(r);
  }

  // Prediction for r01 (one atomic per element, warp-aggregated by nvcc), r02 (tree, 8
  // barriers, one atomic per 256-thread block) and r03 (one wave, register sums, one tree).
  const double n = 16777216;
  UnitCosts u;
  u.global_load_elem_s = g;
  u.atomic_same_op_s = cost["atomic_same_op_s"];
  u.barrier_s = cost["barrier_s"];
  u.launch_s = cost["launch_s"];
  u.sms = gpu::device_facts(o.device).sm_count;
  const ReducePrediction pred = predict_reduce(u, n);
  std::string ranking;
  for (const auto& s : pred.ranking) ranking += (ranking.empty() ? "" : " < ") + s;
  for (const auto& rp : pred.rungs) {
    Record r = value_record("profile", "predicted_" + rp.rung, "predicted time from the unit costs", rp.time_s, "s");
    r.axes.set("n", static_cast<std::int64_t>(n));
    r.extra["arithmetic"] = rp.arithmetic;
    r.extra["display"] = measure::format_time(rp.time_s) + ": " + rp.arithmetic;
    recs.push_back(r);
  }
  std::string why;
  const auto meas = o.self_exe.empty() ? std::map<std::string, double>{} : measured_reduce(o, n, why);
  if (o.self_exe.empty()) why = "no joseki binary to spawn (self_exe unknown)";
  const std::string rule = "the unit-cost ratios predict the ranking of the reduction ladder's first three rungs";
  if (meas.size() < 3) {
    recs.push_back(skipped_record("profile", "verdict:prediction", rule, "measured ranking unavailable: " + why, Scope::Value));
    recs.back().extra["predicted_ranking"] = ranking;
    return recs;
  }
  std::vector<std::pair<std::string, double>> mt(meas.begin(), meas.end());
  std::string measured;
  for (const auto& s : ranking_of(mt)) measured += (measured.empty() ? "" : " < ") + s;
  for (const auto& [rung, t] : meas) {
    Record r = value_record("profile", "measured_" + rung, "joseki reduce, GPU_COMPUTE median", t, "s");
    r.axes.set("n", static_cast<std::int64_t>(n));
    recs.push_back(r);
  }
  std::string fig = fmt::format("predicted {} (", ranking);
  for (const auto& rp : pred.rungs) fig += fmt::format("{}{} {}", rp.rung == "r01" ? "" : ", ", rp.rung, measure::format_time(rp.time_s));
  fig += fmt::format("); measured {} (", measured);
  for (const auto& [rung, t] : meas) fig += fmt::format("{}{} {}", rung == "r01" ? "" : ", ", rung, measure::format_time(t));
  fig += ")";
  Record v = verdict_record("profile", "prediction", rule, ranking == measured ? Verdict::Holds : Verdict::DoesNotHold, fig,
                            ranking == measured ? 1 : 0, "match");
  v.extra["predicted_ranking"] = ranking;
  v.extra["measured_ranking"] = measured;
  recs.push_back(v);
  return recs;
}

}  // namespace

JOSEKI_REGISTER_HOST_PROBE(profile, "cost-ratio profile and the predicted reduction ranking",
                           "unit-cost ratios predict r01 / r02 / r03's ranking", true, 100, 20);

}  // namespace joseki::probes
