#include "backend/cpu/parallel.hpp"

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>

#include <fmt/format.h>

#include "backend/cpu/cpu_info.hpp"
#include "measure/errors.hpp"

namespace joseki::cpu {

namespace {

// The most threads a parallel region has had (libgomp keeps its threads, so a team of this size or less starts
// no new one).
std::atomic<int> g_started{1};

// Under an address-space limit (ulimit -v, RLIMIT_AS) a team whose thread stacks do not fit would end in
// libgomp's fatal error, and that message itself can crash (SIGSEGV) when the main thread's stack has no
// address space left to grow into (measured: about half the runs of cli.test_hardening_solve's case, 4096
// threads of 8 MiB under 4 GiB). So such a team is refused before any thread starts, with the numbers.
// Other causes (a process or pid limit) still reach libgomp's message and exit code 1.
void check_room_for_threads(int team) {
  const int started = g_started.load(std::memory_order_relaxed);
  if (team <= started) return;
  rlimit as{};
  if (getrlimit(RLIMIT_AS, &as) != 0 || as.rlim_cur == RLIM_INFINITY) return;
  std::size_t stack = 0;
  pthread_attr_t attr;
  if (pthread_getattr_default_np(&attr) != 0) return;
  const bool have_stack = pthread_attr_getstacksize(&attr, &stack) == 0;
  pthread_attr_destroy(&attr);
  if (const char* e = std::getenv("OMP_STACKSIZE"); e && *e) return;  // libgomp's own size: not modelled here
  if (const char* e = std::getenv("GOMP_STACKSIZE"); e && *e) return;
  if (!have_stack || stack == 0) return;
  unsigned long long pages = 0;  // the process's virtual size now, in pages (/proc/self/statm's first field)
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%llu", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  const long page = sysconf(_SC_PAGESIZE);
  if (pages == 0 || page <= 0) return;
  const unsigned long long used = pages * static_cast<unsigned long long>(page);
  const unsigned long long headroom = 64ULL << 20;  // the tasks' own memory and the main thread's stack
  const unsigned long long per_thread = stack + static_cast<unsigned long long>(page);  // stack and guard page
  const unsigned long long limit = as.rlim_cur;
  const unsigned long long room = limit > used + headroom ? (limit - used - headroom) / per_thread : 0;
  const auto wanted = static_cast<unsigned long long>(team - started);
  if (wanted <= room) return;
  throw RunError(fmt::format(
      "cannot start {} threads: the address-space limit ({} MiB, ulimit -v) leaves room for {} more thread stacks "
      "of {} MiB beside the {} MiB in use; use --threads {} or fewer, or raise the limit",
      team, limit >> 20, room, stack >> 20, used >> 20, static_cast<unsigned long long>(started) + room));
}

}  // namespace

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
  check_room_for_threads(team);
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
  for (int s = g_started.load(std::memory_order_relaxed); s < team && !g_started.compare_exchange_weak(s, team);) {
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
