// Throughput from declared work: elements/s, bytes/s, % of the datasheet bandwidth
// and % of a measured ceiling. The experiment declares the work (elements, the
// fewest bytes that must move); the harness divides by the measured time.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace joseki::measure {

struct Work {
  double elements = 0;  // items processed
  double bytes = 0;     // bytes that must cross device memory (reads + writes)
};

struct Throughput {
  double elements = 0, bytes = 0, time_s = 0;
  double elements_per_s = 0, bytes_per_s = 0;
  double datasheet_Bps = 0;  // 0: unknown
  double pct_datasheet = 0;  // 0 when unknown
  std::string ceiling_name;  // e.g. "stream_read"; empty: none
  double ceiling_Bps = 0;
  double pct_ceiling = 0;
};

Throughput throughput(const Work& work, double time_s, double datasheet_Bps = 0,
                      const std::string& ceiling_name = "", double ceiling_Bps = 0);

nlohmann::json to_json(const Throughput& t);
Throughput throughput_from_json(const nlohmann::json& j);

}  // namespace joseki::measure
