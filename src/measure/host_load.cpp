#include "measure/host_load.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "measure/stopping.hpp"

namespace joseki::measure {

std::optional<double> parse_proc_stat_busy(const std::string& line, double ticks_per_s) {
  std::istringstream in(line);
  std::string tag;
  in >> tag;
  if (tag != "cpu" || ticks_per_s <= 0) return std::nullopt;
  // user nice system idle iowait irq softirq steal (guest time is already in user and nice)
  double v[8] = {};
  int n = 0;
  while (n < 8 && in >> v[n]) ++n;
  if (n < 4) return std::nullopt;
  const double busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
  return busy / ticks_per_s;
}

namespace {
double rusage_s(int who) {
  rusage u{};
  if (::getrusage(who, &u) != 0) return 0;
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}
}  // namespace

HostCpuSample sample_host_cpu() {
  HostCpuSample s;
  s.wall_s = steady_seconds();
  s.own_s = rusage_s(RUSAGE_SELF) + rusage_s(RUSAGE_CHILDREN);
  const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
  const long tck = ::sysconf(_SC_CLK_TCK);
  std::ifstream in("/proc/stat");
  std::string first;
  if (cpus <= 0 || tck <= 0 || !in || !std::getline(in, first)) return s;
  const auto busy = parse_proc_stat_busy(first, static_cast<double>(tck));
  if (!busy) return s;
  s.machine_busy_s = *busy;
  s.cpus = static_cast<int>(cpus);
  s.valid = true;
  return s;
}

std::optional<double> others_cpu_share(const HostCpuSample& a, const HostCpuSample& b) {
  if (!a.valid || !b.valid || a.cpus <= 0) return std::nullopt;
  const double wall = b.wall_s - a.wall_s;
  if (wall < 0.01) return std::nullopt;
  const double others = (b.machine_busy_s - a.machine_busy_s) - (b.own_s - a.own_s);
  return std::clamp(others / (wall * a.cpus), 0.0, 1.0);
}

}  // namespace joseki::measure
