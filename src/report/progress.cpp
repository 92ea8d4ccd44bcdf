#include "report/progress.hpp"
#include "measure/clock.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <numeric>

#include <fmt/format.h>

namespace joseki::report {
namespace {

using measure::now_s;

std::string clock_text(double s) {
  const long t = std::lround(std::max(0.0, s));
  if (t >= 3600) return fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60);
  return fmt::format("{}:{:02}", t / 60, t % 60);
}

void write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;  // the terminal went away: nothing sensible to do
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

void flush_streams() {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
}

// Replaces fd `target` by the write end of a new pipe; returns the pipe's read end and
// stores a duplicate of the original in `saved`. -1 when it cannot.
int capture(int target, int& saved) {
  int p[2];
  if (::pipe(p) != 0) return -1;
  saved = ::dup(target);
  if (saved < 0 || ::dup2(p[1], target) < 0) {
    ::close(p[0]);
    ::close(p[1]);
    if (saved >= 0) ::close(saved);
    saved = -1;
    return -1;
  }
  ::close(p[1]);
  ::fcntl(saved, F_SETFD, FD_CLOEXEC);
  ::fcntl(p[0], F_SETFD, FD_CLOEXEC);
  return p[0];
}

}  // namespace

TourProgress::Style TourProgress::choose(const std::string& option, bool quiet) {
  if (quiet || option == "none") return Style::None;
  if (option == "bar") return Style::Bar;
  if (option == "lines") return Style::Lines;
  const char* term = std::getenv("TERM");
  const bool tty = ::isatty(2) == 1 && !(term && std::string(term) == "dumb");
  return tty ? Style::Bar : Style::Lines;
}

TourProgress::TourProgress(Style style, std::vector<std::string> names, std::vector<double> estimates)
    : m_style(style), m_names(std::move(names)), m_est(std::move(estimates)), m_actual(m_names.size(), 0) {
  m_t0 = m_step_t0 = m_last_heartbeat = now_s();
  if (m_style == Style::None) return;
  if (m_style == Style::Bar) {
    flush_streams();
    const int err_read = capture(2, m_tty_err);
    if (err_read < 0) {
      m_style = Style::Lines;  // no pipe: plain lines still work
    } else {
      m_pipe_reads.push_back(err_read);
      if (::isatty(1) == 1) {
        const int out_read = capture(1, m_tty_out);
        if (out_read >= 0) m_pipe_reads.push_back(out_read);
      }
      for (std::size_t k = 0; k < m_pipe_reads.size(); ++k) {
        const int from = m_pipe_reads[k], to = k == 0 ? m_tty_err : m_tty_out;
        m_pumps.emplace_back([this, from, to] { pump(from, to); });
      }
    }
  }
  m_ticker = std::thread([this] { ticker(); });
}

TourProgress::~TourProgress() { stop(); }

double TourProgress::elapsed_s() const { return now_s() - m_t0; }

double TourProgress::seconds_left(double in_step_s) const {
  double est_done = 0, act_done = 0;
  for (std::size_t j = 0; j < m_current && j < m_est.size(); ++j)
    if (m_est[j] > 0) {
      est_done += m_est[j];
      act_done += m_actual[j];
    }
  const double scale = est_done > 0.5 ? std::clamp(act_done / est_done, 0.2, 5.0) : 1.0;
  double left = 0;
  for (std::size_t j = m_current + 1; j < m_est.size(); ++j) left += scale * m_est[j];
  if (m_current < m_est.size()) left += std::max(0.0, scale * m_est[m_current] - in_step_s);
  return left;
}

std::string TourProgress::bar_line(double now) const {
  const double in_step = m_in_step ? now - m_step_t0 : 0;
  const double total = std::accumulate(m_est.begin(), m_est.end(), 0.0);
  double done = 0;
  for (std::size_t j = 0; j < m_current && j < m_est.size(); ++j) done += m_est[j];
  if (m_in_step && m_current < m_est.size()) done += std::min(in_step, m_est[m_current]);
  const double frac = total > 0 ? std::clamp(done / total, 0.0, 1.0)
                                : static_cast<double>(m_current) / std::max<std::size_t>(1, m_names.size());
  constexpr int WIDTH = 24;
  const int filled = static_cast<int>(frac * WIDTH + 0.5);
  std::string line(1, '[');
  line.append(filled, '#').append(WIDTH - filled, '.').append("] ");
  const std::string name = m_current < m_names.size() ? m_names[m_current] : "done";
  line += fmt::format("{}/{} {} · {} elapsed · about {} left", std::min(m_current + 1, m_names.size()),
                      m_names.size(), name, clock_text(now - m_t0), clock_text(seconds_left(in_step)));
  winsize ws{};
  std::size_t cols = 100;
  if (::ioctl(m_tty_err, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10) cols = ws.ws_col;
  // Keep the line shorter than the terminal (the '·' are 2 bytes, 1 column each), so it never wraps.
  std::size_t shown = 0, bytes = 0;
  while (bytes < line.size() && shown + 1 < cols) {
    const unsigned char c = static_cast<unsigned char>(line[bytes]);
    bytes += c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    ++shown;
  }
  return line.substr(0, std::min(bytes, line.size()));
}

// A step line: above the bar (cleared and redrawn around it) on a terminal, else on stderr.
void TourProgress::say_locked(const std::string& line) {
  if (m_style == Style::Bar) {
    clear_locked();
    write_line(m_tty_err, line);
    draw_locked();
  } else {
    write_line(2, line);
  }
}

void TourProgress::clear_locked() {
  if (!m_bar_shown) return;
  write_all(m_tty_err, "\r\033[K", 4);
  m_bar_shown = false;
}

void TourProgress::draw_locked() {
  if (m_style != Style::Bar || m_stopping) return;
  std::string s = "\r\033[K";
  s += bar_line(now_s());
  write_all(m_tty_err, s.data(), s.size());
  m_bar_shown = true;
}

void TourProgress::write_line(int fd, const std::string& s) const {
  const std::string line = s + "\n";
  write_all(fd, line.data(), line.size());
}

void TourProgress::pump(int from, int to) {
  std::string pending;  // bytes after the last newline
  char buf[8192];
  for (;;) {
    pollfd p{from, POLLIN, 0};
    const int ready = ::poll(&p, 1, 200);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      std::lock_guard lock(m_mu);
      if (m_stopped) break;  // fds restored and nothing left to read (a stray holder of the pipe)
      continue;
    }
    ++m_pump_busy;  // before the read: drain() must not see an empty pipe while we hold its bytes
    const ssize_t n = ::read(from, buf, sizeof buf);
    if (n > 0) pending.append(buf, static_cast<std::size_t>(n));
    const auto nl = pending.rfind('\n');
    if (n > 0 && (nl != std::string::npos || pending.size() >= 65536)) {
      const std::size_t upto = nl == std::string::npos ? pending.size() : nl + 1;
      std::lock_guard lock(m_mu);
      clear_locked();
      write_all(to, pending.data(), upto);
      pending.erase(0, upto);
      draw_locked();
    }
    --m_pump_busy;
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
  }
  std::lock_guard lock(m_mu);
  clear_locked();
  if (!pending.empty()) write_all(to, pending.data(), pending.size());
  ::close(from);
}

void TourProgress::drain() {
  if (m_style != Style::Bar) return;
  flush_streams();
  for (int spin = 0; spin < 500; ++spin) {  // at most about 1 s
    bool empty = m_pump_busy.load() == 0;
    for (int fd : m_pipe_reads) {
      int avail = 0;
      if (empty && ::ioctl(fd, FIONREAD, &avail) == 0 && avail > 0) empty = false;
    }
    if (empty) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

void TourProgress::ticker() {
  std::unique_lock lock(m_mu);
  while (!m_stopping) {
    m_cv.wait_for(lock, std::chrono::milliseconds(m_style == Style::Bar ? 500 : 1000));
    if (m_stopping) break;
    const double now = now_s();
    if (m_style == Style::Bar) {
      draw_locked();
    } else if (m_style == Style::Lines && m_in_step && now - m_last_heartbeat >= 30) {
      m_last_heartbeat = now;
      write_line(2, fmt::format("[{}/{}] {}: still running ({} in this step, about {} left in the tour)",
                                m_current + 1, m_names.size(), m_names[m_current], clock_text(now - m_step_t0),
                                clock_text(seconds_left(now - m_step_t0))));
    }
  }
}

void TourProgress::begin_step(std::size_t i, const std::string& description) {
  drain();
  std::lock_guard lock(m_mu);
  m_current = i;
  m_in_step = true;
  m_step_t0 = m_last_heartbeat = now_s();
  if (m_style == Style::None) return;
  const std::string line = fmt::format("[{}/{}] {}: {} (elapsed {}, about {} left)", i + 1, m_names.size(),
                                       m_names[i], description, clock_text(m_step_t0 - m_t0),
                                       clock_text(seconds_left(0)));
  say_locked(line);
}

void TourProgress::end_step(std::size_t i, const std::string& outcome) {
  drain();  // the step's own output comes first
  std::lock_guard lock(m_mu);
  m_actual[i] = now_s() - m_step_t0;
  m_in_step = false;
  m_current = i + 1;
  if (m_style == Style::None) return;
  const std::string line =
      fmt::format("[{}/{}] {}: {} ({:.1f} s)", i + 1, m_names.size(), m_names[i], outcome, m_actual[i]);
  say_locked(line);
}

void TourProgress::stop() {
  {
    std::lock_guard lock(m_mu);
    if (m_stopped || m_stopping) return;
    m_stopping = true;
  }
  m_cv.notify_all();
  if (m_ticker.joinable()) m_ticker.join();
  if (m_style == Style::Bar) {
    flush_streams();
    if (m_tty_out >= 0) ::dup2(m_tty_out, 1);  // closes the pipes' write ends: the pumps see EOF
    if (m_tty_err >= 0) ::dup2(m_tty_err, 2);
    {
      std::lock_guard lock(m_mu);
      m_stopped = true;
    }
    for (auto& t : m_pumps) t.join();
    std::lock_guard lock(m_mu);
    clear_locked();
    if (m_tty_out >= 0) ::close(m_tty_out);
    if (m_tty_err >= 0) ::close(m_tty_err);
    m_tty_out = m_tty_err = -1;
  }
  std::lock_guard lock(m_mu);
  m_stopped = true;
}

}  // namespace joseki::report
