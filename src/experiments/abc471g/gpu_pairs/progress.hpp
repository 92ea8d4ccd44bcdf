// A progress bar on stderr for long solves (N = 10^10 and beyond): drawn only when the run is
// predicted to last more than about a second, redrawn at most 10 times a second, erased at
// the end. JOSEKI_PROGRESS=1 forces it on, =0 off; by default it shows when stderr is a terminal.
#pragma once

#include <cstdint>
#include <string>

namespace joseki::abc471g::pairs {

bool progress_wanted();

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
  bool m_drawn = false;
  double m_start = 0, m_last_draw = 0;
};

}  // namespace joseki::abc471g::pairs
