// Samples -> summary: min, median, max, mean, standard deviation, relative noise
// (stdev/mean) and the robust pair MAD / relative MAD (median absolute deviation / median).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace joseki::measure {

struct Stats {
  std::size_t n = 0;
  double min = 0, max = 0, median = 0, mean = 0;
  double stdev = 0;      // sample standard deviation (n-1); 0 for n < 2
  double rel_stdev = 0;  // stdev / mean: the "noise" used by the stopping rule
  double mad = 0;        // median(|x - median|)
  double rel_mad = 0;    // mad / median
};

double median_of(std::vector<double> values);  // by value: sorts a copy; throws on empty
Stats summarize(std::span<const double> samples);  // throws std::invalid_argument on empty
inline Stats summarize(const std::vector<double>& samples) { return summarize(std::span<const double>(samples)); }

}  // namespace joseki::measure
