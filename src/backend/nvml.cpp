// NVML loaded at run time (nvml.hpp). The toolkit image here has no nvml.h, so the few entry points
// used are declared below with the C signatures of NVML's public API (nvml.h, "NVML API Reference";
// the _v2/_v3 names are the versioned symbols every driver since R450 exports).
#include "backend/nvml.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <vector>

#include "backend/dynlib.hpp"

namespace joseki::nvml {
namespace {

using Ret = int;  // nvmlReturn_t: 0 success
using Device = struct NvmlDeviceOpaque*;
constexpr Ret kSuccess = 0;
constexpr Ret kInsufficientSize = 7;
constexpr int kClockSm = 1, kClockMem = 2;  // nvmlClockType_t
constexpr int kTemperatureGpu = 0;          // nvmlTemperatureSensors_t

struct ProcessInfo {  // nvmlProcessInfo_t as the _v3 call fills it
  unsigned int pid;
  unsigned long long used_gpu_memory;
  unsigned int gpu_instance_id;
  unsigned int compute_instance_id;
};

struct Api {
  Ret (*init)() = nullptr;
  Ret (*by_pci)(const char*, Device*) = nullptr;
  Ret (*clock)(Device, int, unsigned int*) = nullptr;
  Ret (*power)(Device, unsigned int*) = nullptr;
  Ret (*temperature)(Device, int, unsigned int*) = nullptr;
  Ret (*throttle)(Device, unsigned long long*) = nullptr;
  Ret (*persistence)(Device, int*) = nullptr;
  Ret (*ecc)(Device, int*, int*) = nullptr;
  Ret (*power_limit)(Device, unsigned int*) = nullptr;
  Ret (*processes)(Device, unsigned int*, ProcessInfo*) = nullptr;
  Ret (*count)(unsigned int*) = nullptr;
  Ret (*by_index)(unsigned int, Device*) = nullptr;
  std::string why;  // "" when usable
};

const Api& api() {
  static Api a;
  static std::once_flag once;
  std::call_once(once, [] {
    const char* env = std::getenv("JOSEKI_NVML");
    if (env && std::strcmp(env, "off") == 0) {
      a.why = "NVML disabled (JOSEKI_NVML=off)";
      return;
    }
    std::string why;
    dynlib::Library lib = dynlib::open_first(
        "libnvidia-ml.so.1", "JOSEKI_NVML", {},
        [](void* h, std::string* reason) {
          bool ok = dynlib::symbol(h, "nvmlInit_v2", a.init) &&
                    dynlib::symbol(h, "nvmlDeviceGetHandleByPciBusId_v2", a.by_pci) &&
                    dynlib::symbol(h, "nvmlDeviceGetClockInfo", a.clock);
          if (!ok) *reason = "lacks nvmlInit_v2 / nvmlDeviceGetHandleByPciBusId_v2 / nvmlDeviceGetClockInfo";
          return ok;
        },
        &why);
    if (!lib.handle) {
      a.why = why;
      return;
    }
    void* h = lib.handle;
    // Optional entry points: a missing one leaves its field unknown (-1).
    dynlib::symbol(h, "nvmlDeviceGetPowerUsage", a.power);
    dynlib::symbol(h, "nvmlDeviceGetTemperature", a.temperature);
    if (!dynlib::symbol(h, "nvmlDeviceGetCurrentClocksEventReasons", a.throttle))
      dynlib::symbol(h, "nvmlDeviceGetCurrentClocksThrottleReasons", a.throttle);
    dynlib::symbol(h, "nvmlDeviceGetPersistenceMode", a.persistence);
    dynlib::symbol(h, "nvmlDeviceGetEccMode", a.ecc);
    dynlib::symbol(h, "nvmlDeviceGetEnforcedPowerLimit", a.power_limit);
    dynlib::symbol(h, "nvmlDeviceGetComputeRunningProcesses_v3", a.processes);
    dynlib::symbol(h, "nvmlDeviceGetCount_v2", a.count);
    dynlib::symbol(h, "nvmlDeviceGetHandleByIndex_v2", a.by_index);
    if (Ret r = a.init(); r != kSuccess) a.why = "nvmlInit_v2 returned " + std::to_string(r) + " (" + lib.path + ")";
  });
  return a;
}

// NVML's PCI bus ids have 8 hex digits of domain ("00000000:00:06.0"); CUDA's have 4. It accepts both.
bool handle(const std::string& bus, Device* d, std::string* why) {
  const Api& a = api();
  if (!a.why.empty()) {
    *why = a.why;
    return false;
  }
  if (Ret r = a.by_pci(bus.c_str(), d); r != kSuccess) {
    *why = "nvmlDeviceGetHandleByPciBusId_v2(" + bus + ") returned " + std::to_string(r);
    return false;
  }
  return true;
}

class NvmlProbe : public measure::EnvironmentProbe {
 public:
  explicit NvmlProbe(const std::string& bus) { m_ok = handle(bus, &m_dev, &m_why); }
  std::optional<measure::EnvReading> read() override {
    if (!m_ok) return std::nullopt;
    const Api& a = api();
    measure::EnvReading r;
    unsigned int v = 0;
    if (a.clock(m_dev, kClockSm, &v) == kSuccess) r.sm_clock_mhz = static_cast<int>(v);
    if (a.clock(m_dev, kClockMem, &v) == kSuccess) r.mem_clock_mhz = static_cast<int>(v);
    if (a.power && a.power(m_dev, &v) == kSuccess) r.power_w = v * 1e-3;
    if (a.temperature && a.temperature(m_dev, kTemperatureGpu, &v) == kSuccess) r.temperature_c = static_cast<int>(v);
    unsigned long long mask = 0;
    if (a.throttle && a.throttle(m_dev, &mask) == kSuccess) r.throttle_mask = static_cast<std::int64_t>(mask);
    return r;
  }
  std::string source() const override { return "nvml"; }
  std::string unavailable() const override { return m_ok ? "" : m_why; }

 private:
  Device m_dev = nullptr;
  bool m_ok = false;
  std::string m_why;
};

// The compute processes holding a context on d; nullopt when NVML cannot say.
std::optional<std::vector<ProcessInfo>> processes_on(Device d) {
  const Api& a = api();
  if (!a.processes) return std::nullopt;
  std::vector<ProcessInfo> infos(64);
  unsigned int n = static_cast<unsigned int>(infos.size());
  Ret r = a.processes(d, &n, infos.data());
  if (r == kInsufficientSize) {
    infos.resize(n + 16);
    n = static_cast<unsigned int>(infos.size());
    r = a.processes(d, &n, infos.data());
  }
  if (r != kSuccess) return std::nullopt;
  infos.resize(n);
  return infos;
}

}  // namespace

std::string unavailable() { return api().why; }

std::optional<int> contexts_anywhere() {
  const Api& a = api();
  if (!a.why.empty() || !a.count || !a.by_index) return std::nullopt;
  unsigned int gpus = 0;
  if (a.count(&gpus) != kSuccess) return std::nullopt;
  int total = 0;
  for (unsigned int i = 0; i < gpus; ++i) {
    Device d = nullptr;
    if (a.by_index(i, &d) != kSuccess) return std::nullopt;
    const auto p = processes_on(d);
    if (!p) return std::nullopt;
    total += static_cast<int>(p->size());
  }
  return total;
}

std::shared_ptr<measure::EnvironmentProbe> probe_for(const std::string& pci_bus_id) {
  return std::make_shared<NvmlProbe>(pci_bus_id);
}

measure::NvmlFacts device_facts(const std::string& pci_bus_id) {
  measure::NvmlFacts f;
  Device d = nullptr;
  if (!handle(pci_bus_id, &d, &f.status)) return f;
  f.status = "ok";
  const Api& a = api();
  int mode = -1, pending = -1;
  if (a.persistence && a.persistence(d, &mode) == kSuccess) f.persistence_mode = mode;
  if (a.ecc && a.ecc(d, &mode, &pending) == kSuccess) f.ecc_mode = mode;
  unsigned int mw = 0;
  if (a.power_limit && a.power_limit(d, &mw) == kSuccess) f.power_limit_w = mw * 1e-3;
  if (const auto infos = processes_on(d)) {
    f.processes_known = true;
    const auto self = static_cast<unsigned int>(getpid());
    for (const ProcessInfo& p : *infos)
      if (p.pid != self)
        f.other_compute_processes.push_back(
            {static_cast<std::int64_t>(p.pid),
             p.used_gpu_memory == ~0ull ? -1 : static_cast<std::int64_t>(p.used_gpu_memory)});
  }
  return f;
}

}  // namespace joseki::nvml
