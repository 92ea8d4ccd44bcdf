// Tables shared by subcommands: the device facts and the measured ceilings (defined in cmd_device.cpp;
// used by `joseki device`, the tour and the report).
#pragma once

#include <string>
#include <vector>

#include "measure/record.hpp"

namespace joseki::app {

std::string facts_table(const measure::DeviceFacts& d);
std::string ceilings_table(const std::vector<measure::Record>& recs);

}  // namespace joseki::app
