#include "experiments/abc471g/gpu_pairs/progress.hpp"
#include "measure/clock.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace joseki::abc471g::pairs {

namespace {
using measure::now_s;
}  // namespace

bool progress_wanted() {
  const char* e = std::getenv("JOSEKI_PROGRESS");
  if (e && *e) return std::string(e) != "0";
  return isatty(STDERR_FILENO) == 1;
}

std::string format_duration(double s) {
  char b[64];
  if (!(s >= 0)) s = 0;
  if (s < 60) {
    std::snprintf(b, sizeof b, "%.1f s", s);
  } else if (s < 3600) {
    const long t = static_cast<long>(s + 0.5);
    std::snprintf(b, sizeof b, "%ld min %02ld s", t / 60, t % 60);
  } else if (s < 86400) {
    const long t = static_cast<long>(s / 60 + 0.5);
    std::snprintf(b, sizeof b, "%ld h %02ld min", t / 60, t % 60);
  } else if (s < 1e9) {
    const long t = static_cast<long>(s / 3600 + 0.5);
    std::snprintf(b, sizeof b, "%ld d %ld h", t / 24, t % 24);
  } else {
    std::snprintf(b, sizeof b, "%.3g years", s / (365.25 * 86400));
  }
  return b;
}

std::string progress_line(const std::string& label, std::uint64_t done, std::uint64_t total, double elapsed_s,
                          int width) {
  const double frac = total ? static_cast<double>(done > total ? total : done) / static_cast<double>(total) : 1.0;
  const int filled = static_cast<int>(frac * width + 1e-9);
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.append(static_cast<std::size_t>(width - filled), '.');
  char tail[64];
  if (frac > 0 && frac < 1)
    std::snprintf(tail, sizeof tail, " %3d%%  %s left", static_cast<int>(frac * 100),
                  format_duration(elapsed_s * (1 - frac) / frac).c_str());
  else
    std::snprintf(tail, sizeof tail, " %3d%%", static_cast<int>(frac * 100));
  return label + " [" + bar + "]" + tail;
}

Progress::Progress(std::string label, std::uint64_t total, bool enabled)
    : m_label(std::move(label)),
      m_total(total),
      m_enabled(enabled),
      m_lines(isatty(STDERR_FILENO) != 1),
      m_start(now_s()) {}

Progress::~Progress() { finish(); }

void Progress::update(std::uint64_t done) {
  if (!m_enabled) return;
  const double t = now_s(), elapsed = t - m_start;
  if (!m_drawn) {
    // Draw only when the whole run is predicted to take more than ~1 s (and 0.3 s have passed).
    if (done == 0 || elapsed < 0.3) return;
    const double predicted = elapsed * static_cast<double>(m_total) / static_cast<double>(done);
    if (predicted < 1.0) return;
  } else if (t - m_last_draw < (m_lines ? 10.0 : 0.1) && done < m_total) {
    return;
  }
  if (m_lines && done >= m_total) return;  // a log gets no 100 % line: the solve's own output follows
  std::fprintf(stderr, m_lines ? "%s\n" : "\r%s", progress_line(m_label, done, m_total, elapsed).c_str());
  std::fflush(stderr);
  m_drawn = true;
  m_last_draw = t;
}

void Progress::finish() {
  if (!m_drawn) return;
  if (m_lines) {
    m_drawn = false;
    return;
  }
  std::fprintf(stderr, "\r%*s\r", static_cast<int>(progress_line(m_label, 0, 1, 0).size() + 16), "");
  std::fflush(stderr);
  m_drawn = false;
}

ProgressTicker::ProgressTicker(std::string label, std::uint64_t total, bool enabled)
    : m_bar(std::move(label), total, enabled), m_enabled(enabled) {
  if (!m_enabled) return;
  m_thread = std::thread([this] {
    std::unique_lock lk(m_mu);
    while (!m_stop) {
      m_cv.wait_for(lk, std::chrono::milliseconds(200));
      if (!m_stop) m_bar.update(m_done.load(std::memory_order_relaxed));
    }
  });
}

ProgressTicker::~ProgressTicker() {
  if (!m_thread.joinable()) return;
  {
    std::lock_guard lk(m_mu);
    m_stop = true;
  }
  m_cv.notify_all();
  m_thread.join();
  m_bar.finish();
}

}  // namespace joseki::abc471g::pairs
