// The GPU's environment around a timed block (issue 17, item 3): SM and memory clocks, power draw,
// temperature and throttle reasons, read before and after the block and (rate-limited, untimed)
// before samples inside it. A sample taken while a slowdown reason was active, or while the SM
// clock stood more than 5 % below its value at the start of the block, is flagged; the record
// says which. Pure C++: the readings come from an EnvironmentProbe (backend/nvml.hpp reads NVML,
// loaded at run time; tests use a fake).
//
//   EnvironmentLog log(probe);          // probe may be null: then the record says "unavailable"
//   log.begin();                        // before the block
//   ... for each warm-up run and sample: log.before_run(); run ...
//   log.end(warmup_runs, n_samples);    // after the block
//   record.environment = log.result();
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace joseki::measure {

// Clock-event ("throttle") reason bits as NVML reports them (nvmlClocksEventReason*).
namespace throttle {
inline constexpr std::uint64_t kGpuIdle = 0x1;
inline constexpr std::uint64_t kAppClocksSetting = 0x2;
inline constexpr std::uint64_t kSwPowerCap = 0x4;
inline constexpr std::uint64_t kHwSlowdown = 0x8;
inline constexpr std::uint64_t kSyncBoost = 0x10;
inline constexpr std::uint64_t kSwThermal = 0x20;
inline constexpr std::uint64_t kHwThermal = 0x40;
inline constexpr std::uint64_t kHwPowerBrake = 0x80;
inline constexpr std::uint64_t kDisplayClocks = 0x100;
// The reasons that slow a running kernel down (idle, application clocks and display clocks do not).
inline constexpr std::uint64_t kSlowdown = kSwPowerCap | kHwSlowdown | kSwThermal | kHwThermal | kHwPowerBrake;
std::vector<std::string> names(std::uint64_t mask);  // "sw_power_cap", "hw_slowdown", ...
}  // namespace throttle

// One reading. A field the probe could not read is -1.
struct EnvReading {
  int sm_clock_mhz = -1;
  int mem_clock_mhz = -1;
  double power_w = -1;
  int temperature_c = -1;
  std::int64_t throttle_mask = -1;  // -1: unknown
};

class EnvironmentProbe {
 public:
  virtual ~EnvironmentProbe() = default;
  // A reading now; nullopt when the probe cannot read (the reason in unavailable()).
  virtual std::optional<EnvReading> read() = 0;
  virtual std::string source() const = 0;       // e.g. "nvml"
  virtual std::string unavailable() const = 0;  // why read() fails; "" when it works
};

// What a record carries in "environment".
struct Environment {
  std::string source;  // "nvml", or "unavailable: <reason>"
  std::optional<EnvReading> before, after;
  int readings = 0;                        // readings taken, before and after included
  double sm_clock_drop_pct = 0;            // lowest SM clock seen vs the one at the start, in %
  std::vector<int> flagged_samples;        // indices into the record's samples
  std::vector<std::string> flags;          // why, in words ("hw_slowdown before sample 12", ...; sample
                                           // numbers count the discarded samples too)
  std::vector<double> discarded_samples;   // samples the stopping rule dropped as flagged (not in the record's samples)
  bool flagged() const { return !flags.empty(); }
};

nlohmann::json to_json(const EnvReading& r);
EnvReading env_reading_from_json(const nlohmann::json& j);
nlohmann::json to_json(const Environment& e);
Environment environment_from_json(const nlohmann::json& j);

// Collects the readings of one timed block and judges them.
class EnvironmentLog {
 public:
  // probe: may be null. min_interval_s: readings inside the block at most this often (a reading
  // costs tens of microseconds of host time; it is taken before a run, never inside one).
  explicit EnvironmentLog(std::shared_ptr<EnvironmentProbe> probe, double min_interval_s = 0.01,
                          double clock_drop_limit = 0.05);
  void begin();
  void before_run();  // call before every warm-up run and every sample, in order
  // Whether the reading in force now (the one before_run took or kept for the coming run) shows a
  // slowdown: a throttle reason, or the SM clock more than the limit below the block's start.
  bool current_flagged() const;
  // samples: every sample taken, discarded ones included; discarded_at: the indices (in the order
  // taken) the stopping rule dropped. flagged_samples then index the kept samples.
  void end(int warmup_runs, int samples, const std::vector<int>& discarded_at = {});
  const Environment& result() const { return m_env; }

 private:
  std::shared_ptr<EnvironmentProbe> m_probe;
  double m_min_interval_s, m_drop_limit;
  double m_last_read_s = -1e30;
  int m_runs = 0;
  std::optional<EnvReading> m_latest;
  std::vector<std::pair<int, EnvReading>> m_by_run;  // run index -> the reading in force before it
  Environment m_env;
};

// The devices' facts NVML adds (persistence and ECC mode, power limit, other processes holding the GPU).
struct ProcessUse {
  std::int64_t pid = 0;
  std::int64_t used_memory_bytes = -1;
};
struct NvmlFacts {
  std::string status;            // "ok", or why NVML could not say
  int persistence_mode = -1;     // 1 on, 0 off, -1 unknown
  int ecc_mode = -1;             // current ECC mode: 1 on, 0 off, -1 unknown / not supported
  double power_limit_w = -1;     // enforced power limit
  bool processes_known = false;  // false: the list below could not be read
  std::vector<ProcessUse> other_compute_processes;  // compute processes on this GPU other than this one
};
nlohmann::json to_json(const NvmlFacts& f);
NvmlFacts nvml_facts_from_json(const nlohmann::json& j);

}  // namespace joseki::measure
