// Context creation on a second thread, and an exit without the CUDA teardown (startup.hpp).
#include "experiments/abc471g/gpu_pairs/startup.hpp"
#include "measure/clock.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>
#include <mutex>
#include <thread>

#include "backend/gpu.hpp"
#include "measure/errors.hpp"

namespace joseki::abc471g::pairs::startup {

namespace {

using measure::now_s;

struct State {
  std::mutex mu;
  std::thread worker;
  std::thread loader;  // gpu::preload_libraries (its users wait on their own once-flag, not on this)
  bool begun = false;
  int device = -1;
  std::exception_ptr error;
  ContextTimes times;
  // A solver that never awaited the context (gpu-direct makes its own; a solve that failed
  // first): join the worker at exit rather than let a joinable std::thread terminate the process.
  ~State() {
    if (worker.joinable()) worker.join();
    if (loader.joinable()) loader.join();
  }
};

State& state() {
  static State s;
  return s;
}

// Driver init then context creation; times both. Throws what backend/gpu.hpp throws.
void create(int device, ContextTimes& t) {
  const double t0 = now_s();
  const gpu::Availability a = gpu::availability();
  const double t1 = now_s();
  t.driver_init_s = t1 - t0;
  if (!a.ok) throw GpuUnavailable(a.reason);
  gpu::create_context_only(device);  // cudaSetDevice + cudaFree(0)
  t.context_s = now_s() - t1;
  t.started = true;
}

}  // namespace

void begin_context_async(int device, bool libraries) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.begun) return;
  s.begun = true;
  if (libraries) s.loader = std::thread([] { gpu::preload_libraries(); });
  s.device = device;
  s.times.async = true;
  s.worker = std::thread([&s, device] {
    ContextTimes t;
    t.async = true;
    std::exception_ptr err;
    try {
      create(device, t);
    } catch (...) {
      err = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(s.mu);
    s.times.driver_init_s = t.driver_init_s;
    s.times.context_s = t.context_s;
    s.times.started = t.started;
    s.error = err;
  });
}

double await_context(int device) {
  State& s = state();
  const double t0 = now_s();
  std::thread worker;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    worker = std::move(s.worker);
  }
  if (worker.joinable()) worker.join();
  std::lock_guard<std::mutex> lock(s.mu);
  if (!s.begun || s.device != device || s.error) {
    // Nothing started, another device, or the background attempt failed: do it here, so that
    // the error (if any) is raised on this thread with its own message.
    s.begun = true;
    s.device = device;
    s.error = nullptr;
    s.times.async = false;
    create(device, s.times);
  } else {
    gpu::require_device(device);  // binds the (existing) primary context to this thread
  }
  s.times.waited_s = now_s() - t0;
  return s.times.waited_s;
}

ContextTimes context_times() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  return s.times;
}

void fast_exit(int code) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  _exit(code);
}

}  // namespace joseki::abc471g::pairs::startup
