// The one host clock for wall-time stamps and phase timings: seconds on std::chrono::steady_clock
// (monotonic; differences only). The sampling loop's default clock (stopping.hpp) is this one.
#pragma once

#include <chrono>

namespace joseki::measure {

inline double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace joseki::measure
