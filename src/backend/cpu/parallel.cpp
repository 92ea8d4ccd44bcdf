#include "backend/cpu/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>

#include <fmt/format.h>

#include "backend/cpu/cpu_info.hpp"
#include "measure/errors.hpp"

namespace joseki::cpu {

ThreadPool::ThreadPool(int threads) : m_threads(threads) {
  if (threads < 1 || threads > kMaxThreads)
    throw InputError(fmt::format("threads: {} is not a thread count in 1..{}", threads, kMaxThreads));
}

void ThreadPool::parallel_for(std::int64_t tasks, const std::function<void(std::int64_t)>& fn) {
  if (tasks <= 0) return;
  const int team = static_cast<int>(std::min<std::int64_t>(tasks, m_threads));
  if (team == 1) {
    for (std::int64_t t = 0; t < tasks; ++t) fn(t);
    return;
  }
  std::atomic<std::int64_t> next{0};
  std::mutex mu;
  std::exception_ptr error;
#pragma omp parallel num_threads(team)
  {
    for (;;) {
      const std::int64_t t = next.fetch_add(1, std::memory_order_relaxed);
      if (t >= tasks) break;
      try {
        fn(t);
      } catch (...) {
        std::lock_guard lk(mu);
        if (!error) error = std::current_exception();
        next.store(tasks, std::memory_order_relaxed);  // stop handing out work
      }
    }
  }
  if (error) std::rethrow_exception(error);
}

ThreadPool& ThreadPool::global() {
  static ThreadPool pool([] {
    if (const char* e = std::getenv("JOSEKI_THREADS"); e && *e) {
      char* end = nullptr;
      errno = 0;
      const long n = std::strtol(e, &end, 10);
      if (*end != '\0' || errno != 0 || n < 1 || n > kMaxThreads)
        throw InputError(fmt::format("JOSEKI_THREADS={}: not a thread count in 1..{}", e, kMaxThreads));
      return static_cast<int>(n);
    }
    return std::clamp(cpu_features().logical_cpus, 1, kMaxThreads);
  }());
  return pool;
}

}  // namespace joseki::cpu
