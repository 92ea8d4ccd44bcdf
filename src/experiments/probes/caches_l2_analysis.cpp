// caches_l2_analysis.hpp: the near/far split, the SM groups and the TLB sweep's first rise.
#include "experiments/probes/caches_l2_analysis.hpp"

#include <algorithm>
#include <cmath>

namespace joseki::probes {
namespace {

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

}  // namespace

TwoSides split_two_sides(const std::vector<float>& cycles) {
  TwoSides t;
  t.is_far.assign(cycles.size(), false);
  if (cycles.size() < 4) return t;
  std::vector<float> sorted = cycles;
  std::sort(sorted.begin(), sorted.end());
  double lo = sorted[sorted.size() / 10], hi = sorted[sorted.size() * 9 / 10];
  for (int iter = 0; iter < 50; ++iter) {
    const double thr = 0.5 * (lo + hi);
    double sl = 0, sh = 0;
    int nl = 0, nh = 0;
    for (const float c : cycles) (c > thr ? (sh += c, ++nh) : (sl += c, ++nl));
    const double nlo = nl ? sl / nl : lo, nhi = nh ? sh / nh : hi;
    if (nlo == lo && nhi == hi) break;
    lo = nlo;
    hi = nhi;
  }
  t.threshold = 0.5 * (lo + hi);
  std::vector<double> near, far;
  for (std::size_t i = 0; i < cycles.size(); ++i) {
    t.is_far[i] = cycles[i] > t.threshold;
    (t.is_far[i] ? far : near).push_back(cycles[i]);
  }
  t.far_lines = static_cast<int>(far.size());
  t.near = median_of(near);
  t.far = far.empty() ? t.near : median_of(far);
  const double n = static_cast<double>(cycles.size());
  t.separated = !near.empty() && !far.empty() && t.far >= 1.25 * t.near && near.size() >= 0.1 * n && far.size() >= 0.1 * n;
  if (!t.separated) {  // one level: every line "near", both figures the overall median
    std::fill(t.is_far.begin(), t.is_far.end(), false);
    std::vector<double> all(cycles.begin(), cycles.end());
    t.near = t.far = median_of(all);
    t.far_lines = 0;
  }
  return t;
}

std::vector<int> side_groups(const std::vector<TwoSides>& per_sm) {
  std::vector<int> g(per_sm.size(), -1);
  const TwoSides* ref = nullptr;
  for (const TwoSides& s : per_sm)
    if (s.separated) {
      ref = &s;
      break;
    }
  if (!ref) return g;
  for (std::size_t i = 0; i < per_sm.size(); ++i) {
    const TwoSides& s = per_sm[i];
    if (!s.separated || s.is_far.size() != ref->is_far.size() || s.is_far.empty()) continue;
    std::size_t same = 0;
    for (std::size_t j = 0; j < s.is_far.size(); ++j) same += s.is_far[j] == ref->is_far[j];
    const double a = static_cast<double>(same) / static_cast<double>(s.is_far.size());
    g[i] = a >= 0.8 ? 0 : a <= 0.2 ? 1 : -1;
  }
  return g;
}

double first_rise(const std::vector<double>& bytes, const std::vector<double>& cycles, double rise) {
  if (bytes.size() != cycles.size() || cycles.empty()) return 0;
  const double base = cycles.front();
  for (std::size_t i = 1; i < cycles.size(); ++i) {
    bool stays = true;
    for (std::size_t j = i; j < cycles.size(); ++j) stays = stays && cycles[j] > base * (1 + rise);
    if (stays) return bytes[i];
  }
  return 0;
}

}  // namespace joseki::probes
