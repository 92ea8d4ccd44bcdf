// A small persistent thread pool: parallel_for over task indices, blocking until all
// tasks are done. Workers are created once, so a benchmark sample does not pay for
// thread creation. Tasks are handed out by an atomic counter (dynamic balance).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace joseki::cpu {

class ThreadPool {
 public:
  explicit ThreadPool(int threads);  // threads >= 1; the calling thread also works
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return m_threads; }
  // Runs fn(task) for task in [0, tasks) on up to size() threads; rethrows the first exception.
  void parallel_for(std::int64_t tasks, const std::function<void(std::int64_t)>& fn);

  // One pool per process with one thread per logical CPU (JOSEKI_THREADS overrides).
  static ThreadPool& global();

 private:
  void worker_loop();
  void drain();

  int m_threads;
  std::vector<std::thread> m_workers;
  std::mutex m_mu;
  std::condition_variable m_cv_start, m_cv_done;
  const std::function<void(std::int64_t)>* m_fn = nullptr;
  std::int64_t m_tasks = 0;
  std::int64_t m_next = 0;
  int m_active = 0;
  std::uint64_t m_generation = 0;
  bool m_stop = false;
  std::exception_ptr m_error;
};

}  // namespace joseki::cpu
