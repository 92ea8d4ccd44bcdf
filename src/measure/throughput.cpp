#include "measure/throughput.hpp"

#include <stdexcept>

namespace joseki::measure {

Throughput throughput(const Work& work, double time_s, double datasheet_Bps, const std::string& ceiling_name,
                      double ceiling_Bps) {
  if (!(time_s > 0)) throw std::invalid_argument("throughput: time must be > 0");
  Throughput t;
  t.elements = work.elements;
  t.bytes = work.bytes;
  t.time_s = time_s;
  t.elements_per_s = work.elements / time_s;
  t.bytes_per_s = work.bytes / time_s;
  t.datasheet_Bps = datasheet_Bps;
  if (datasheet_Bps > 0) t.pct_datasheet = 100.0 * t.bytes_per_s / datasheet_Bps;
  t.ceiling_name = ceiling_name;
  t.ceiling_Bps = ceiling_Bps;
  if (ceiling_Bps > 0) t.pct_ceiling = 100.0 * t.bytes_per_s / ceiling_Bps;
  return t;
}

// Every field, by its own name (a missing one throws, naming it).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Throughput, elements, bytes, time_s, elements_per_s, bytes_per_s, datasheet_Bps,
                                   pct_datasheet, ceiling_name, ceiling_Bps, pct_ceiling)

nlohmann::json to_json(const Throughput& t) { return nlohmann::json(t); }

Throughput throughput_from_json(const nlohmann::json& j) { return j.get<Throughput>(); }

}  // namespace joseki::measure
