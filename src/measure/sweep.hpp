// Sweeps over named axes (cartesian product, first axis varies slowest), with
// skip-with-reason, and the tie rule that picks one configuration among results
// that are too close to call.
//
//   Sweep s;
//   s.add_int_axis("chunk", {1024, 2048, 4096}).add_int_axis("block", {64, 72, 96});
//   s.skip_if([](const Point& p) -> std::optional<std::string> {
//     if (p.get_int("block") > 1024) return "block larger than the device allows";
//     return std::nullopt; });
//   for (const SweepPoint& sp : s.points()) ...
//
//   TieRule rule = TieRule::prefer_larger("chunk");   // the seed's rule: within 2% -> larger chunk
//   TieChoice c = choose(rule, candidates);
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace joseki::measure {

using AxisValue = std::variant<std::int64_t, double, std::string>;
std::string to_string(const AxisValue& v);
nlohmann::json to_json(const AxisValue& v);

struct Axis {
  std::string name;
  std::vector<AxisValue> values;
};

// One configuration: axis name -> value, in axis order.
class Point {
 public:
  Point() = default;
  explicit Point(std::vector<std::pair<std::string, AxisValue>> values) : m_values(std::move(values)) {}
  Point& set(const std::string& name, AxisValue v);
  bool has(const std::string& name) const;
  const AxisValue& at(const std::string& name) const;  // throws std::out_of_range naming the axis
  std::int64_t get_int(const std::string& name) const;
  double get_double(const std::string& name) const;    // ints convert
  std::string get_str(const std::string& name) const;
  std::string label() const;  // "chunk=1024 block=72"
  nlohmann::json to_json() const;
  const std::vector<std::pair<std::string, AxisValue>>& values() const { return m_values; }
  bool operator==(const Point& o) const { return m_values == o.m_values; }

 private:
  std::vector<std::pair<std::string, AxisValue>> m_values;
};

struct SweepPoint {
  Point point;
  std::optional<std::string> skip_reason;  // set: this combination is not run, and why
};

using SkipRule = std::function<std::optional<std::string>(const Point&)>;

class Sweep {
 public:
  Sweep& add_axis(std::string name, std::vector<AxisValue> values);  // throws on duplicate/empty
  Sweep& add_int_axis(std::string name, const std::vector<std::int64_t>& values);
  Sweep& add_power_of_two_axis(std::string name, int lo_exp, int hi_exp);  // 2^lo .. 2^hi
  Sweep& add_string_axis(std::string name, const std::vector<std::string>& values);
  Sweep& skip_if(SkipRule rule);
  std::vector<SweepPoint> points() const;
  std::size_t size() const;  // number of combinations, skipped ones included
  const std::vector<Axis>& axes() const { return m_axes; }

 private:
  std::vector<Axis> m_axes;
  std::vector<SkipRule> m_skips;
};

// Results within `tolerance` (relative to the best time) of the best are ties;
// `prefer` chooses among the ties; the stated `preference` is recorded with the choice.
struct TieRule {
  double tolerance = 0.02;
  std::string preference = "fastest";
  std::function<bool(const Point& a, const Point& b)> prefer;  // a strictly preferred to b; empty: fastest wins

  static TieRule fastest(double tolerance = 0.02);
  static TieRule prefer_larger(const std::string& axis, double tolerance = 0.02);
  static TieRule prefer_smaller(const std::string& axis, double tolerance = 0.02);
};

struct Candidate {
  Point point;
  double time_s = 0;
};

struct TieChoice {
  std::size_t fastest = 0;        // index of the smallest time
  std::size_t chosen = 0;         // index chosen by the rule
  std::vector<std::size_t> ties;  // indices within tolerance of the fastest (fastest included)
  std::string explanation;        // e.g. "chunk=8192 fastest (4.45 ms); ties within 2%: chunk=16384 (+0.9%); preference: larger chunk -> chunk=16384"
};

TieChoice choose(const TieRule& rule, std::span<const Candidate> candidates);  // throws on empty

}  // namespace joseki::measure
