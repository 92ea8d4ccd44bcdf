#include "measure/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace joseki::measure {

double median_of(std::vector<double> v) {
  if (v.empty()) throw std::invalid_argument("median of an empty sample set");
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return 0.5 * (lower + upper);
}

Stats summarize(std::span<const double> samples) {
  if (samples.empty()) throw std::invalid_argument("summarize: no samples");
  Stats s;
  s.n = samples.size();
  const auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
  s.min = *lo;
  s.max = *hi;
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(s.n);
  if (s.n >= 2) {
    double ss = 0;
    for (double x : samples) ss += (x - s.mean) * (x - s.mean);
    s.stdev = std::sqrt(ss / static_cast<double>(s.n - 1));
  }
  s.rel_stdev = s.mean != 0 ? s.stdev / std::fabs(s.mean) : 0;
  std::vector<double> v(samples.begin(), samples.end());
  s.median = median_of(v);
  for (double& x : v) x = std::fabs(x - s.median);
  s.mad = median_of(std::move(v));
  s.rel_mad = s.median != 0 ? s.mad / std::fabs(s.median) : 0;
  return s;
}

}  // namespace joseki::measure
