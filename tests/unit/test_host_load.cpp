// measure/host_load: the share of the machine's CPUs that other processes used over a window (calibrate's warning).
#include <gtest/gtest.h>

#include "measure/host_load.hpp"

namespace m = joseki::measure;

TEST(HostLoad, ProcStatFirstLineGivesBusySeconds) {
  // user nice system idle iowait irq softirq steal guest guest_nice, at 100 ticks a second
  const auto busy = m::parse_proc_stat_busy("cpu  100 5 50 1000 20 3 2 1 7 0", 100);
  ASSERT_TRUE(busy.has_value());
  EXPECT_DOUBLE_EQ(*busy, (100 + 5 + 50 + 3 + 2 + 1) / 100.0) << "idle, iowait and guest (already in user) left out";
  EXPECT_DOUBLE_EQ(*m::parse_proc_stat_busy("cpu 10 0 10 500", 10), 2.0) << "an old kernel's four fields";
  EXPECT_FALSE(m::parse_proc_stat_busy("cpu0 1 2 3 4 5 6 7 8", 100)) << "a single CPU's line";
  EXPECT_FALSE(m::parse_proc_stat_busy("intr 1 2 3", 100));
  EXPECT_FALSE(m::parse_proc_stat_busy("cpu 1 2", 100)) << "too few fields";
  EXPECT_FALSE(m::parse_proc_stat_busy("cpu 1 2 3 4", 0)) << "no tick rate";
}

TEST(HostLoad, OthersShareIsTheirTimeOverAllCpus) {
  m::HostCpuSample a{true, 10.0, 1.0, 100.0, 2};
  m::HostCpuSample b{true, 12.0, 1.5, 101.0, 2};
  ASSERT_TRUE(m::others_cpu_share(a, b).has_value());
  EXPECT_DOUBLE_EQ(*m::others_cpu_share(a, b), 0.75) << "(2.0 - 0.5) s over 1 s x 2 CPUs";
  b.own_s = 3.5;  // tick rounding can put this process's time above the machine's
  EXPECT_DOUBLE_EQ(*m::others_cpu_share(a, b), 0.0);
  b.own_s = 1.0;
  b.machine_busy_s = 20.0;
  EXPECT_DOUBLE_EQ(*m::others_cpu_share(a, b), 1.0) << "clamped";
  b.wall_s = 100.005;
  EXPECT_FALSE(m::others_cpu_share(a, b)) << "a window under one tick says nothing";
  b.wall_s = 101.0;
  a.valid = false;
  EXPECT_FALSE(m::others_cpu_share(a, b)) << "no /proc/stat";
}

TEST(HostLoad, SamplingThisMachineWorksOnLinux) {
  const m::HostCpuSample a = m::sample_host_cpu();
#ifdef __linux__
  ASSERT_TRUE(a.valid);
  EXPECT_GE(a.cpus, 1);
  EXPECT_GT(a.machine_busy_s, 0);
  volatile double x = 0;  // ~50 ms of this process's own CPU time: never counted as another process's
  m::HostCpuSample b = m::sample_host_cpu();
  while (b.wall_s - a.wall_s < 0.05) {
    for (int i = 0; i < 100000; ++i) x = x + 1;
    b = m::sample_host_cpu();
  }
  const auto share = m::others_cpu_share(a, b);
  ASSERT_TRUE(share.has_value());
  EXPECT_GE(*share, 0.0);
  EXPECT_LE(*share, 1.0);
  EXPECT_GE(b.own_s, a.own_s);
#else
  GTEST_SKIP() << "no /proc/stat on this system";
#endif
}
