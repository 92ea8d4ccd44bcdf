#include "backend/cpu/parallel.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "backend/cpu/cpu_info.hpp"

namespace joseki::cpu {

ThreadPool::ThreadPool(int threads) : m_threads(threads) {
  if (threads < 1) throw std::invalid_argument("ThreadPool needs at least one thread");
  for (int i = 1; i < threads; ++i) m_workers.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lk(m_mu);
    m_stop = true;
  }
  m_cv_start.notify_all();
  for (auto& t : m_workers) t.join();
}

void ThreadPool::drain() {
  for (;;) {
    std::int64_t task;
    {
      std::lock_guard lk(m_mu);
      if (m_next >= m_tasks) return;
      task = m_next++;
    }
    try {
      (*m_fn)(task);
    } catch (...) {
      std::lock_guard lk(m_mu);
      if (!m_error) m_error = std::current_exception();
      m_next = m_tasks;  // stop handing out work
    }
  }
}

void ThreadPool::worker_loop() {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock lk(m_mu);
      m_cv_start.wait(lk, [&] { return m_stop || m_generation != seen; });
      if (m_stop) return;
      seen = m_generation;
      ++m_active;
    }
    drain();
    {
      std::lock_guard lk(m_mu);
      --m_active;
    }
    m_cv_done.notify_all();
  }
}

void ThreadPool::parallel_for(std::int64_t tasks, const std::function<void(std::int64_t)>& fn) {
  if (tasks <= 0) return;
  {
    std::lock_guard lk(m_mu);
    m_fn = &fn;
    m_tasks = tasks;
    m_next = 0;
    m_error = nullptr;
    ++m_generation;
  }
  m_cv_start.notify_all();
  drain();
  std::unique_lock lk(m_mu);
  m_cv_done.wait(lk, [&] { return m_next >= m_tasks && m_active == 0; });
  m_fn = nullptr;
  if (m_error) std::rethrow_exception(m_error);
}

ThreadPool& ThreadPool::global() {
  static ThreadPool pool([] {
    if (const char* e = std::getenv("JOSEKI_THREADS")) {
      const int n = std::atoi(e);
      if (n >= 1) return n;
    }
    return cpu_features().logical_cpus;
  }());
  return pool;
}

}  // namespace joseki::cpu
