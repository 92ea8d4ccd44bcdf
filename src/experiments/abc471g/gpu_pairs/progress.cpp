#include "experiments/abc471g/gpu_pairs/progress.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace joseki::abc471g::pairs {

namespace {
double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

bool progress_wanted() {
  const char* e = std::getenv("JOSEKI_PROGRESS");
  if (e && *e) return std::string(e) != "0";
  return isatty(STDERR_FILENO) == 1;
}

std::string progress_line(const std::string& label, std::uint64_t done, std::uint64_t total, double elapsed_s,
                          int width) {
  const double frac = total ? static_cast<double>(done > total ? total : done) / static_cast<double>(total) : 1.0;
  const int filled = static_cast<int>(frac * width + 1e-9);
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.append(static_cast<std::size_t>(width - filled), '.');
  char tail[64];
  if (frac > 0 && frac < 1)
    std::snprintf(tail, sizeof tail, " %3d%%  %.1f s left", static_cast<int>(frac * 100), elapsed_s * (1 - frac) / frac);
  else
    std::snprintf(tail, sizeof tail, " %3d%%", static_cast<int>(frac * 100));
  return label + " [" + bar + "]" + tail;
}

Progress::Progress(std::string label, std::uint64_t total, bool enabled)
    : m_label(std::move(label)), m_total(total), m_enabled(enabled), m_start(now_s()) {}

Progress::~Progress() { finish(); }

void Progress::update(std::uint64_t done) {
  if (!m_enabled) return;
  const double t = now_s(), elapsed = t - m_start;
  if (!m_drawn) {
    // Draw only when the whole run is predicted to take more than ~1 s (and 0.3 s have passed).
    if (done == 0 || elapsed < 0.3) return;
    const double predicted = elapsed * static_cast<double>(m_total) / static_cast<double>(done);
    if (predicted < 1.0) return;
  } else if (t - m_last_draw < 0.1 && done < m_total) {
    return;
  }
  std::fprintf(stderr, "\r%s", progress_line(m_label, done, m_total, elapsed).c_str());
  std::fflush(stderr);
  m_drawn = true;
  m_last_draw = t;
}

void Progress::finish() {
  if (!m_drawn) return;
  std::fprintf(stderr, "\r%*s\r", static_cast<int>(progress_line(m_label, 0, 1, 0).size() + 16), "");
  std::fflush(stderr);
  m_drawn = false;
}

}  // namespace joseki::abc471g::pairs
