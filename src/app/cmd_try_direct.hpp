// `joseki try --ladder abc471g-direct`: what the parent prints for the count kernel's ladder (the
// reduce ladder's table has GB/s, CUB and a stream-read limit; this one has lane steps and g01).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "measure/record.hpp"

namespace joseki::app::trydirect {

inline constexpr const char* kLadder = "abc471g-direct";

// The first line of every ladder's ranking: the device the child ran on.
void print_device(const nlohmann::json& doc);
// The validation scope shown under --sanitize.
std::string sanitize_scope(double kill_after);
// The ranked table(s) of a finished try: the user's rung among g01 ... g15 (rank, median, x best
// rung, x g01, config), then "file to ranked table".
void print_ranking(const nlohmann::json& doc, const std::vector<measure::Record>& recs, double wall_s,
                   double compile_s);
// The one-paragraph answer for a wrong kernel (the first differing shifts and values).
std::string wrong_message(const nlohmann::json& doc, const std::string& file);

}  // namespace joseki::app::trydirect
