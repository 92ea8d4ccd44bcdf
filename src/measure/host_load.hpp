// How busy the rest of the machine was while this process measured something on the CPU: the CPU time that other
// processes used over a window, as a share of all the machine's CPUs. A calibration that ran beside other work fits
// slow coefficients and says nothing; with this it says how loaded the machine was (Linux: /proc/stat and getrusage;
// elsewhere the share is unknown).
//
//   const HostCpuSample a = sample_host_cpu();
//   ... measure ...
//   const std::optional<double> others = others_cpu_share(a, sample_host_cpu());  // 0.48: 48 % of all CPUs
#pragma once

#include <optional>
#include <string>

namespace joseki::measure {

struct HostCpuSample {
  bool valid = false;        // false where /proc/stat could not be read
  double machine_busy_s = 0;  // CPU seconds every CPU spent not idle (user, nice, system, irq, softirq, steal), since boot
  double own_s = 0;           // CPU seconds of this process and its waited-for children (getrusage)
  double wall_s = 0;          // steady clock
  int cpus = 0;               // CPUs online
};

HostCpuSample sample_host_cpu();

// The other processes' CPU time between a and b over (wall time x CPUs), clamped to [0, 1]; nullopt when either
// sample is invalid or the window is shorter than 10 ms (the kernel counts in ticks of 10 ms).
std::optional<double> others_cpu_share(const HostCpuSample& a, const HostCpuSample& b);

// Parses /proc/stat's first ("cpu ") line into busy seconds at `ticks_per_s`; nullopt if it is not that line.
std::optional<double> parse_proc_stat_busy(const std::string& first_line, double ticks_per_s);

}  // namespace joseki::measure
