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

nlohmann::json to_json(const Throughput& t) {
  return {{"elements", t.elements},         {"bytes", t.bytes},
          {"time_s", t.time_s},             {"elements_per_s", t.elements_per_s},
          {"bytes_per_s", t.bytes_per_s},   {"datasheet_Bps", t.datasheet_Bps},
          {"pct_datasheet", t.pct_datasheet}, {"ceiling_name", t.ceiling_name},
          {"ceiling_Bps", t.ceiling_Bps},   {"pct_ceiling", t.pct_ceiling}};
}

Throughput throughput_from_json(const nlohmann::json& j) {
  Throughput t;
  t.elements = j.at("elements").get<double>();
  t.bytes = j.at("bytes").get<double>();
  t.time_s = j.at("time_s").get<double>();
  t.elements_per_s = j.at("elements_per_s").get<double>();
  t.bytes_per_s = j.at("bytes_per_s").get<double>();
  t.datasheet_Bps = j.at("datasheet_Bps").get<double>();
  t.pct_datasheet = j.at("pct_datasheet").get<double>();
  t.ceiling_name = j.at("ceiling_name").get<std::string>();
  t.ceiling_Bps = j.at("ceiling_Bps").get<double>();
  t.pct_ceiling = j.at("pct_ceiling").get<double>();
  return t;
}

}  // namespace joseki::measure
