#include "measure/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace joseki::measure {

std::string to_string(const AxisValue& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) return fmt::format("{:g}", *d);
  return std::get<std::string>(v);
}

nlohmann::json to_json(const AxisValue& v) {
  return std::visit([](const auto& x) { return nlohmann::json(x); }, v);
}

Point& Point::set(const std::string& name, AxisValue v) {
  for (auto& [n, val] : m_values)
    if (n == name) {
      val = std::move(v);
      return *this;
    }
  m_values.emplace_back(name, std::move(v));
  return *this;
}

bool Point::has(const std::string& name) const {
  return std::any_of(m_values.begin(), m_values.end(), [&](const auto& p) { return p.first == name; });
}

const AxisValue& Point::at(const std::string& name) const {
  for (const auto& [n, v] : m_values)
    if (n == name) return v;
  throw std::out_of_range(fmt::format("no axis '{}' in point [{}]", name, label()));
}

std::int64_t Point::get_int(const std::string& name) const {
  const AxisValue& v = at(name);
  if (const auto* i = std::get_if<std::int64_t>(&v)) return *i;
  throw std::invalid_argument(fmt::format("axis '{}' = '{}' is not an integer", name, to_string(v)));
}

double Point::get_double(const std::string& name) const {
  const AxisValue& v = at(name);
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  throw std::invalid_argument(fmt::format("axis '{}' = '{}' is not a number", name, to_string(v)));
}

std::string Point::get_str(const std::string& name) const { return to_string(at(name)); }

std::string Point::label() const {
  std::string s;
  for (const auto& [n, v] : m_values) {
    if (!s.empty()) s += ' ';
    s += n + "=" + to_string(v);
  }
  return s;
}

nlohmann::json Point::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [n, v] : m_values) j[n] = measure::to_json(v);
  return j;
}

Sweep& Sweep::add_axis(std::string name, std::vector<AxisValue> values) {
  if (name.empty()) throw std::invalid_argument("sweep axis needs a name");
  if (values.empty()) throw std::invalid_argument(fmt::format("sweep axis '{}' has no values", name));
  for (const Axis& a : m_axes)
    if (a.name == name) throw std::invalid_argument(fmt::format("sweep axis '{}' added twice", name));
  m_axes.push_back({std::move(name), std::move(values)});
  return *this;
}

Sweep& Sweep::add_int_axis(std::string name, const std::vector<std::int64_t>& values) {
  return add_axis(std::move(name), std::vector<AxisValue>(values.begin(), values.end()));
}

Sweep& Sweep::add_power_of_two_axis(std::string name, int lo_exp, int hi_exp) {
  if (lo_exp < 0 || hi_exp > 62 || lo_exp > hi_exp)
    throw std::invalid_argument(fmt::format("power-of-two axis '{}': bad range 2^{}..2^{}", name, lo_exp, hi_exp));
  std::vector<AxisValue> v;
  for (int e = lo_exp; e <= hi_exp; ++e) v.emplace_back(std::int64_t{1} << e);
  return add_axis(std::move(name), std::move(v));
}

Sweep& Sweep::add_string_axis(std::string name, const std::vector<std::string>& values) {
  return add_axis(std::move(name), std::vector<AxisValue>(values.begin(), values.end()));
}

Sweep& Sweep::skip_if(SkipRule rule) {
  m_skips.push_back(std::move(rule));
  return *this;
}

std::size_t Sweep::size() const {
  if (m_axes.empty()) return 0;
  std::size_t n = 1;
  for (const Axis& a : m_axes) n *= a.values.size();
  return n;
}

std::vector<SweepPoint> Sweep::points() const {
  std::vector<SweepPoint> out;
  const std::size_t total = size();
  out.reserve(total);
  std::vector<std::size_t> idx(m_axes.size(), 0);
  for (std::size_t k = 0; k < total; ++k) {
    std::vector<std::pair<std::string, AxisValue>> vals;
    for (std::size_t a = 0; a < m_axes.size(); ++a) vals.emplace_back(m_axes[a].name, m_axes[a].values[idx[a]]);
    SweepPoint sp{Point(std::move(vals)), std::nullopt};
    for (const SkipRule& r : m_skips)
      if (auto why = r(sp.point)) {
        sp.skip_reason = std::move(why);
        break;
      }
    out.push_back(std::move(sp));
    // odometer: last axis varies fastest
    for (std::size_t a = m_axes.size(); a-- > 0;) {
      if (++idx[a] < m_axes[a].values.size()) break;
      idx[a] = 0;
    }
  }
  return out;
}

TieRule TieRule::fastest(double tolerance) { return TieRule{tolerance, "fastest", {}}; }

TieRule TieRule::prefer_larger(const std::string& axis, double tolerance) {
  return TieRule{tolerance, "larger " + axis,
                 [axis](const Point& a, const Point& b) { return a.get_double(axis) > b.get_double(axis); }};
}

TieRule TieRule::prefer_smaller(const std::string& axis, double tolerance) {
  return TieRule{tolerance, "smaller " + axis,
                 [axis](const Point& a, const Point& b) { return a.get_double(axis) < b.get_double(axis); }};
}

TieChoice choose(const TieRule& rule, std::span<const Candidate> c) {
  if (c.empty()) throw std::invalid_argument("tie rule: no candidates");
  if (!(rule.tolerance >= 0)) throw std::invalid_argument("tie rule: negative tolerance");
  TieChoice t;
  for (std::size_t i = 1; i < c.size(); ++i)
    if (c[i].time_s < c[t.fastest].time_s) t.fastest = i;
  const double best = c[t.fastest].time_s;
  for (std::size_t i = 0; i < c.size(); ++i)
    if (c[i].time_s <= best * (1.0 + rule.tolerance)) t.ties.push_back(i);
  t.chosen = t.fastest;
  if (rule.prefer)
    for (std::size_t i : t.ties)
      if (rule.prefer(c[i].point, c[t.chosen].point)) t.chosen = i;
  t.explanation = fmt::format("{} fastest ({:.4g} ms)", c[t.fastest].point.label(), best * 1e3);
  std::string ties;
  for (std::size_t i : t.ties)
    if (i != t.fastest)
      ties += fmt::format("{}{} (+{:.1f}%)", ties.empty() ? "" : ", ", c[i].point.label(),
                          (c[i].time_s / best - 1.0) * 100.0);
  t.explanation += fmt::format("; ties within {:g}%: {}", rule.tolerance * 100, ties.empty() ? "none" : ties);
  t.explanation += fmt::format("; preference: {} -> {}", rule.preference, c[t.chosen].point.label());
  return t;
}

}  // namespace joseki::measure
