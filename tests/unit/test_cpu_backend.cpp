#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <numeric>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "backend/cpu/cpu_info.hpp"
#include "backend/cpu/parallel.hpp"
#include "backend/gpu.hpp"
#include "measure/errors.hpp"

using namespace joseki::cpu;

TEST(ThreadPool, EveryTaskRunsExactlyOnce) {
  ThreadPool pool(4);
  for (int round = 0; round < 50; ++round) {
    std::vector<std::atomic<int>> hits(1000);
    pool.parallel_for(1000, [&](std::int64_t i) { hits[static_cast<std::size_t>(i)]++; });
    for (auto& h : hits) ASSERT_EQ(h.load(), 1);
  }
}

TEST(ThreadPool, ExceptionPropagatesAndPoolSurvives) {
  ThreadPool pool(3);
  EXPECT_THROW(pool.parallel_for(100, [](std::int64_t i) {
    if (i == 42) throw std::runtime_error("task 42");
  }), std::runtime_error);
  std::atomic<long> sum{0};
  pool.parallel_for(10, [&](std::int64_t i) { sum += i; });
  EXPECT_EQ(sum.load(), 45);
}

TEST(ThreadPool, RunsOnAsManyThreadsAsAskedAndNestsSafely) {
  ThreadPool pool(4);
  std::mutex mu;
  std::set<std::thread::id> ids;
  std::atomic<int> inner{0};
  pool.parallel_for(64, [&](std::int64_t) {
    {
      std::lock_guard lk(mu);
      ids.insert(std::this_thread::get_id());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    pool.parallel_for(3, [&](std::int64_t) { ++inner; });  // nested: runs on the calling thread
  });
  EXPECT_LE(ids.size(), 4u);
  EXPECT_GE(ids.size(), 2u) << "parallel_for ran on one thread only";
  EXPECT_EQ(inner.load(), 64 * 3);
}

TEST(ThreadPool, ThreadCountsOutsideTheRangeAreInputErrors) {
  EXPECT_THROW(ThreadPool{0}, joseki::InputError);
  EXPECT_THROW(ThreadPool{kMaxThreads + 1}, joseki::InputError);
  EXPECT_NO_THROW(ThreadPool{kMaxThreads});  // no thread starts before parallel_for
}

TEST(CpuInfo, SimdLevelNeverExceedsTheCpu) {
  const auto& f = cpu_features();
  EXPECT_GE(f.logical_cpus, 1);
  EXPECT_TRUE(f.has(simd_level())) << to_string(simd_level());
  EXPECT_TRUE(f.has(f.best()));
#if defined(__aarch64__)
  EXPECT_EQ(f.best(), SimdLevel::Neon);  // NEON is part of AArch64; the AVX levels are not there
  EXPECT_FALSE(f.has(SimdLevel::Avx2));
#else
  EXPECT_FALSE(f.has(SimdLevel::Neon));
#endif
}

TEST(GpuBackend, AvailabilityNeverThrowsAndExplainsItself) {
  const auto a = joseki::gpu::availability();
  if (!a.ok) {
    EXPECT_FALSE(a.reason.empty());
  } else {
    EXPECT_GE(a.device_count, 1);
  }
}
