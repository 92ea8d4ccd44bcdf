// Environment of a timed block (environment.hpp).
#include "measure/environment.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "measure/stopping.hpp"

namespace joseki::measure {

using json = nlohmann::json;

namespace throttle {
std::vector<std::string> names(std::uint64_t mask) {
  static const std::pair<std::uint64_t, const char*> kNames[] = {
      {kGpuIdle, "gpu_idle"},     {kAppClocksSetting, "applications_clocks"}, {kSwPowerCap, "sw_power_cap"},
      {kHwSlowdown, "hw_slowdown"}, {kSyncBoost, "sync_boost"},               {kSwThermal, "sw_thermal"},
      {kHwThermal, "hw_thermal"}, {kHwPowerBrake, "hw_power_brake"},          {kDisplayClocks, "display_clocks"}};
  std::vector<std::string> out;
  std::uint64_t known = 0;
  for (auto [bit, name] : kNames) {
    known |= bit;
    if (mask & bit) out.emplace_back(name);
  }
  if (mask & ~known) out.push_back(fmt::format("other_0x{:x}", mask & ~known));
  return out;
}
}  // namespace throttle

json to_json(const EnvReading& r) {
  json j = {{"sm_clock_mhz", r.sm_clock_mhz},
            {"mem_clock_mhz", r.mem_clock_mhz},
            {"power_w", r.power_w},
            {"temperature_c", r.temperature_c},
            {"throttle_mask", r.throttle_mask}};
  j["throttle_reasons"] = r.throttle_mask < 0 ? json::array() : json(throttle::names(static_cast<std::uint64_t>(r.throttle_mask)));
  return j;
}

EnvReading env_reading_from_json(const json& j) {
  EnvReading r;
  r.sm_clock_mhz = j.at("sm_clock_mhz").get<int>();
  r.mem_clock_mhz = j.at("mem_clock_mhz").get<int>();
  r.power_w = j.at("power_w").get<double>();
  r.temperature_c = j.at("temperature_c").get<int>();
  r.throttle_mask = j.at("throttle_mask").get<std::int64_t>();
  return r;
}

json to_json(const Environment& e) {
  json j = {{"source", e.source},
            {"readings", e.readings},
            {"sm_clock_drop_pct", e.sm_clock_drop_pct},
            {"flagged", e.flagged()},
            {"flags", e.flags},
            {"flagged_samples", e.flagged_samples}};
  j["before"] = e.before ? to_json(*e.before) : json(nullptr);
  j["after"] = e.after ? to_json(*e.after) : json(nullptr);
  if (!e.discarded_samples.empty()) j["discarded_samples"] = e.discarded_samples;  // absent: none dropped
  return j;
}

Environment environment_from_json(const json& j) {
  Environment e;
  e.source = j.at("source").get<std::string>();
  e.readings = j.at("readings").get<int>();
  e.sm_clock_drop_pct = j.at("sm_clock_drop_pct").get<double>();
  e.flags = j.at("flags").get<std::vector<std::string>>();
  e.flagged_samples = j.at("flagged_samples").get<std::vector<int>>();
  if (!j.at("before").is_null()) e.before = env_reading_from_json(j.at("before"));
  if (!j.at("after").is_null()) e.after = env_reading_from_json(j.at("after"));
  if (j.contains("discarded_samples")) e.discarded_samples = j.at("discarded_samples").get<std::vector<double>>();
  return e;
}

EnvironmentLog::EnvironmentLog(std::shared_ptr<EnvironmentProbe> probe, double min_interval_s, double clock_drop_limit)
    : m_probe(std::move(probe)), m_min_interval_s(min_interval_s), m_drop_limit(clock_drop_limit) {
  if (!m_probe)
    m_env.source = "unavailable: no probe";
  else if (std::string why = m_probe->unavailable(); !why.empty())
    m_env.source = "unavailable: " + why;
  else
    m_env.source = m_probe->source();
}

void EnvironmentLog::begin() {
  m_runs = 0;
  m_by_run.clear();
  if (!m_probe || m_env.source.rfind("unavailable", 0) == 0) return;
  m_env.before = m_probe->read();
  m_latest = m_env.before;
  if (m_env.before) ++m_env.readings;
  m_last_read_s = steady_seconds();
}

void EnvironmentLog::before_run() {
  if (m_probe && m_env.before) {
    const double now = steady_seconds();
    if (now - m_last_read_s >= m_min_interval_s) {
      if (auto r = m_probe->read()) {
        m_latest = r;
        ++m_env.readings;
      }
      m_last_read_s = steady_seconds();  // the read's own time is not counted against the interval
    }
    if (m_latest) m_by_run.emplace_back(m_runs, *m_latest);
  }
  ++m_runs;
}

bool EnvironmentLog::current_flagged() const {
  if (!m_env.before || !m_latest) return false;
  const EnvReading& r = *m_latest;
  if (r.throttle_mask > 0 && (static_cast<std::uint64_t>(r.throttle_mask) & throttle::kSlowdown)) return true;
  const int start_clock = m_env.before->sm_clock_mhz;
  return start_clock > 0 && r.sm_clock_mhz > 0 && 1.0 - static_cast<double>(r.sm_clock_mhz) / start_clock > m_drop_limit;
}

void EnvironmentLog::end(int warmup_runs, int samples, const std::vector<int>& discarded_at) {
  if (!m_probe || !m_env.before) return;
  m_env.after = m_probe->read();
  if (m_env.after) ++m_env.readings;
  const int start_clock = m_env.before->sm_clock_mhz;
  auto judge = [&](const EnvReading& r, const std::string& where) -> bool {
    bool bad = false;
    if (r.throttle_mask > 0 && (static_cast<std::uint64_t>(r.throttle_mask) & throttle::kSlowdown)) {
      const auto n = throttle::names(static_cast<std::uint64_t>(r.throttle_mask) & throttle::kSlowdown);
      std::string list;
      for (const auto& s : n) list += (list.empty() ? "" : "+") + s;
      m_env.flags.push_back(fmt::format("{} {}", list, where));
      bad = true;
    }
    if (start_clock > 0 && r.sm_clock_mhz > 0) {
      const double drop = 1.0 - static_cast<double>(r.sm_clock_mhz) / start_clock;
      m_env.sm_clock_drop_pct = std::max(m_env.sm_clock_drop_pct, 100.0 * drop);
      if (drop > m_drop_limit) {
        m_env.flags.push_back(fmt::format("SM clock {} MHz, {:.1f} % below the block's start ({} MHz), {}",
                                          r.sm_clock_mhz, 100.0 * drop, start_clock, where));
        bad = true;
      }
    }
    return bad;
  };
  // Each sample is judged by the reading in force just before it; one flag line per reading.
  std::optional<EnvReading> judged;
  bool judged_bad = false;
  for (const auto& [run, r] : m_by_run) {
    if (run < warmup_runs || run - warmup_runs >= samples) continue;
    const int sample = run - warmup_runs;
    const bool same = judged && judged->sm_clock_mhz == r.sm_clock_mhz && judged->throttle_mask == r.throttle_mask;
    if (!same) {
      judged = r;
      judged_bad = judge(r, fmt::format("before sample {}", sample));
    }
    if (!judged_bad) continue;
    // Index among the kept samples; a discarded one is not in the record's samples.
    const auto before = std::lower_bound(discarded_at.begin(), discarded_at.end(), sample);
    if (before != discarded_at.end() && *before == sample) continue;
    m_env.flagged_samples.push_back(sample - static_cast<int>(before - discarded_at.begin()));
  }
  const int kept = samples - static_cast<int>(discarded_at.size());
  if (m_env.after && judge(*m_env.after, "after the block") && kept > 0 &&
      (m_env.flagged_samples.empty() || m_env.flagged_samples.back() != kept - 1))
    m_env.flagged_samples.push_back(kept - 1);  // the last sample ran next to the slowdown
}

json to_json(const NvmlFacts& f) {
  json procs = json::array();
  for (const auto& p : f.other_compute_processes) procs.push_back({{"pid", p.pid}, {"used_memory_bytes", p.used_memory_bytes}});
  return {{"status", f.status},
          {"persistence_mode", f.persistence_mode},
          {"ecc_mode", f.ecc_mode},
          {"power_limit_w", f.power_limit_w},
          {"processes_known", f.processes_known},
          {"other_compute_processes", procs}};
}

NvmlFacts nvml_facts_from_json(const json& j) {
  NvmlFacts f;
  f.status = j.at("status").get<std::string>();
  f.persistence_mode = j.at("persistence_mode").get<int>();
  f.ecc_mode = j.at("ecc_mode").get<int>();
  f.power_limit_w = j.at("power_limit_w").get<double>();
  f.processes_known = j.at("processes_known").get<bool>();
  for (const auto& p : j.at("other_compute_processes"))
    f.other_compute_processes.push_back({p.at("pid").get<std::int64_t>(), p.at("used_memory_bytes").get<std::int64_t>()});
  return f;
}

}  // namespace joseki::measure
