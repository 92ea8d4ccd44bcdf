// `joseki reduce --backend vulkan`: the Vulkan ladder's CLI half (cmd_reduce_vulkan.cpp), called
// by cmd_reduce.cpp with the options it parsed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/context.hpp"
#include "measure/stopping.hpp"

namespace joseki::app {

struct VulkanReduceArgs {
  std::vector<std::size_t> sizes, offsets;
  std::vector<measure::Mode> modes;
  std::vector<std::string> rungs;
  bool sweep = false, validate_only = false, list = false;
  std::uint64_t seed = 0;
  measure::StoppingRule rule;
};

// Prints the tables, adds the records to ctx; throws ValidationError on a wrong result.
void run_vulkan_reduce(Context& ctx, const VulkanReduceArgs& a);

}  // namespace joseki::app
