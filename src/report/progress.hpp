// Progress of `joseki run` on stderr: the current step and an estimate of the time left.
//
//   bar    (stderr is a terminal): one line redrawn in place twice a second,
//          "[#####.....] 3/6 reduce · 1:12 elapsed · about 2:05 left". Everything the steps
//          write to the terminal (tables, notes, child processes) is routed through a pipe and
//          printed above the line, so the line never tears the output.
//   lines  (CI logs, files): a plain line when a step starts and ends, and a heartbeat line
//          every 30 s while a long step runs.
//   none   (--quiet or --progress none).
//
// The estimate starts from each step's registered figure (TourStep::est_seconds_*, GPU host)
// and is rescaled by how long the finished steps took against theirs.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace joseki::report {

class TourProgress {
 public:
  enum class Style { Bar, Lines, None };
  // "auto" | "bar" | "lines" | "none"; auto = bar on a terminal (TERM not "dumb"), else lines.
  static Style choose(const std::string& option, bool quiet);

  // estimates: seconds per step (0 for steps that will be skipped).
  TourProgress(Style style, std::vector<std::string> names, std::vector<double> estimates);
  ~TourProgress();
  TourProgress(const TourProgress&) = delete;
  TourProgress& operator=(const TourProgress&) = delete;

  void begin_step(std::size_t i, const std::string& description);
  void end_step(std::size_t i, const std::string& outcome);  // "12 records", "skipped: ...", "FAILED: ..."
  // Restores stdout/stderr and clears the bar; idempotent (the destructor calls it).
  void stop();
  double elapsed_s() const;

  // The estimate of seconds left in the tour, given the time spent so far in the current step.
  double seconds_left(double in_step_s) const;

 private:
  void ticker();
  void pump(int from_fd, int to_fd);
  void drain();  // waits (briefly) until the pipes hold nothing unprinted
  void draw_locked();
  void clear_locked();
  void say_locked(const std::string& line);
  std::string bar_line(double now) const;
  void write_line(int fd, const std::string& s) const;

  Style m_style;
  std::vector<std::string> m_names;
  std::vector<double> m_est;
  std::vector<double> m_actual;  // seconds of finished steps
  std::size_t m_current = 0;
  bool m_in_step = false;
  double m_t0 = 0, m_step_t0 = 0, m_last_heartbeat = 0;

  mutable std::mutex m_mu;  // guards the state above and the terminal
  std::condition_variable m_cv;
  bool m_stopping = false, m_stopped = false, m_bar_shown = false;
  std::thread m_ticker;
  // Bar style: the terminal's real stdout/stderr, and the pipes that now stand in for them.
  int m_tty_out = -1, m_tty_err = -1;
  std::vector<std::thread> m_pumps;
  std::vector<int> m_pipe_reads;
  std::atomic<int> m_pump_busy{0};
};

}  // namespace joseki::report
