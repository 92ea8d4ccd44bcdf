// parallel_for over task indices on OpenMP (gcc's libgomp, linked statically), blocking until
// all tasks are done. libgomp keeps its threads between parallel regions, so a benchmark sample
// does not pay for thread creation. Tasks are handed out one at a time (dynamic balance).
//
// A team whose thread stacks do not fit under the address-space limit (ulimit -v) is refused before any
// thread starts (RunError, exit code 1, with the numbers and the --threads that would fit); a thread that
// cannot be created for another reason (a process limit) ends the process with libgomp's message
// "libgomp: Thread creation failed: ..." and exit code 1: never a hang. (The hand-written pool this
// replaces deadlocked there: issue 21.)
#pragma once

#include <cstdint>
#include <functional>

namespace joseki::cpu {

inline constexpr int kMaxThreads = 4096;  // --threads and JOSEKI_THREADS accept 1..kMaxThreads

class ThreadPool {
 public:
  explicit ThreadPool(int threads);  // 1 <= threads <= kMaxThreads; the calling thread also works
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return m_threads; }
  // Runs fn(task) for task in [0, tasks) on up to size() threads; rethrows the first exception
  // (the tasks not yet started are then not run).
  void parallel_for(std::int64_t tasks, const std::function<void(std::int64_t)>& fn);

  // One pool per process with one thread per logical CPU (JOSEKI_THREADS overrides; a value
  // that is not an integer in 1..kMaxThreads is an InputError naming it).
  static ThreadPool& global();

 private:
  int m_threads;
};

}  // namespace joseki::cpu
