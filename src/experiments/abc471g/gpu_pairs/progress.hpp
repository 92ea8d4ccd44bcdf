// A progress bar on stderr for long solves (N = 10^10 and beyond): drawn only when the run is
// predicted to last more than about a second, redrawn at most 10 times a second, erased at
// the end. JOSEKI_PROGRESS=1 forces it on, =0 off; by default it shows when stderr is a terminal.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace joseki::abc471g::pairs {

bool progress_wanted();

// "4.2 s", "3 min 05 s", "2 h 07 min", "13 d 22 h": a time left, readable at any size.
std::string format_duration(double s);

// "label [########............]  40%  2.1 s left" (width = bar characters).
std::string progress_line(const std::string& label, std::uint64_t done, std::uint64_t total, double elapsed_s,
                          int width = 30);

class Progress {
 public:
  Progress(std::string label, std::uint64_t total, bool enabled = progress_wanted());
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  void update(std::uint64_t done);
  void finish();  // erases the line if one was drawn
  bool drawn() const { return m_drawn; }

 private:
  std::string m_label;
  std::uint64_t m_total;
  bool m_enabled;
  bool m_lines;  // stderr is not a terminal (JOSEKI_PROGRESS=1 into a log): a plain line every 10 s
  bool m_drawn = false;
  double m_start = 0, m_last_draw = 0;
};

// Progress of a multi-threaded solve: workers add() what they finished; a thread of its own
// redraws the Progress line every 0.2 s. Nothing runs when progress is not wanted.
class ProgressTicker {
 public:
  ProgressTicker(std::string label, std::uint64_t total, bool enabled = progress_wanted());
  ~ProgressTicker();
  ProgressTicker(const ProgressTicker&) = delete;
  ProgressTicker& operator=(const ProgressTicker&) = delete;
  void add(std::uint64_t n) {
    if (m_enabled) m_done.fetch_add(n, std::memory_order_relaxed);
  }

 private:
  Progress m_bar;
  bool m_enabled;
  std::atomic<std::uint64_t> m_done{0};
  std::mutex m_mu;
  std::condition_variable m_cv;
  bool m_stop = false;
  std::thread m_thread;
};

}  // namespace joseki::abc471g::pairs
