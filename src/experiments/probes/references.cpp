#include "experiments/probes/references.hpp"

#include <cmath>

#include <fmt/format.h>

namespace joseki::probes {

std::string comparison_text(double joseki, double published, const std::string& why_if_not) {
  if (!(published > 0) || !(joseki > 0)) return "not comparable (no value)";
  const double rel = joseki / published - 1;
  if (std::fabs(rel) <= 0.15) return fmt::format("within 15 % ({:+.1f} %)", 100 * rel);
  return fmt::format("joseki {:.1f} % {} the published figure: {}", 100 * std::fabs(rel), rel > 0 ? "above" : "below",
                     why_if_not);
}

void add_reference(measure::Record& r, const Published& p, double joseki, const std::string& why_if_not) {
  r.extra["reference"] = {{"quantity", p.quantity}, {"value", p.value}, {"unit", p.unit}, {"source", p.source}};
  r.extra["joseki"] = joseki;
  r.extra["ratio"] = p.value > 0 ? joseki / p.value : 0.0;
  r.extra["comparison"] = comparison_text(joseki, p.value, why_if_not);
}

}  // namespace joseki::probes
