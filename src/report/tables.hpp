// Tables shared by subcommands and the report: the device facts and the measured ceilings
// (used by `joseki device`, the tour and the report).
#pragma once

#include <string>
#include <vector>

#include "measure/record.hpp"

namespace joseki::report {

std::string facts_table(const measure::DeviceFacts& d);
std::string ceilings_table(const std::vector<measure::Record>& recs);

}  // namespace joseki::report
