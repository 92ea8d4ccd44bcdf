// The caches_l2 probe's pure analysis (unit-tested without a GPU): one SM's per-line L2 hit
// latencies split into a near and a far side, and SMs grouped by which lines are far for them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace joseki::probes {

struct TwoSides {
  double near = 0, far = 0;   // median cycles of each side
  double threshold = 0;       // a line above it is far
  std::vector<bool> is_far;   // per line, in the input order
  int far_lines = 0;
  bool separated = false;     // two sides: far >= 1.25 x near and each side >= 10 % of the lines
};
// 1-D two-means (started at the 10th and 90th percentiles) of one SM's latencies.
TwoSides split_two_sides(const std::vector<float>& cycles);

// Group of every SM by its far-line pattern, against the first SM with a separated split: 0 =
// the same lines are far (agreement >= 80 %), 1 = the complement (<= 20 %), -1 = neither / no split.
std::vector<int> side_groups(const std::vector<TwoSides>& per_sm);

// The footprint (bytes) from which on a latency sweep stays more than `rise` above its first value
// (sizes ascending); 0 when it never does.
double first_rise(const std::vector<double>& bytes, const std::vector<double>& cycles, double rise = 0.10);

}  // namespace joseki::probes
