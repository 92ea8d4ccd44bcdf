// `joseki reduce --backend vulkan`: the Vulkan ladder's CLI half (cmd_reduce_vulkan.cpp), called
// by cmd_reduce.cpp with the options it parsed; and the tables both backends print.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "app/context.hpp"
#include "experiments/reduce/harness.hpp"
#include "measure/record.hpp"
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

// The tables `joseki reduce` prints for either backend (cmd_reduce.cpp): per size, offset and mode
// the sweeps (measure::sweep_table) and the ladder with its ceiling last (measure::ladder_table);
// the validation rows.
void print_ladder_tables(const std::vector<measure::Record>& records, const std::vector<std::size_t>& sizes,
                         const std::vector<std::size_t>& offsets, const std::vector<measure::Mode>& modes,
                         const std::string& title);
// Stamps a ladder run's records with its device, prints (print) and hands them to ctx.
void record_ladder_run(Context& ctx, std::vector<measure::Record> records, const measure::DeviceFacts& device,
                       const std::function<void()>& print);
void print_validation_table(const std::vector<reduce::ValidationRow>& rows, const std::string& title);

}  // namespace joseki::app
