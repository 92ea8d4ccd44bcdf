// The reduction ladder in Vulkan compute (issue 16): seed 000's v1..v3 (one atomicAdd per
// element; the workgroup-memory tree; coarsened + tree with the seed's sweep over the workgroup
// count and its tie rule), v4 subgroupAdd (the seed's "next step"), v5 16-byte loads with several
// in flight, v6 one dispatch end to end (last-workgroup-done ticket, no spinning), and the
// Vulkan stream-read ceiling; cold (the device's caches flushed by writing a buffer larger than
// them) and hot; every rung exact against the CPU reference (output poisoned, run twice).
//
// The rungs run through the one ladder protocol (src/measure/ladder.hpp): VkRunner (vk_runner.hpp)
// is its Vulkan runner; the ceiling, records and ratios are shared with the CUDA ladder
// (experiments/reduce/harness.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiments/reduce/harness.hpp"
#include "measure/record.hpp"
#include "measure/stopping.hpp"

namespace joseki::reduce_vk {

inline constexpr const char* CEILING = "vk_stream_read";

struct VkRung {
  std::string slug;       // "vk_v3_coarsen"
  int rung = 0;           // 1..6
  std::string seed_name;  // "v3": seed 000's name (v4..v6 continue it)
  std::string technique;
  std::string predecessor;  // slug
  std::string shader;       // embedded SPIR-V name
  bool per_element = false; // one invocation per element (2-D dispatch), else a fixed workgroup count
  bool needs_subgroup_arithmetic = false;
  bool fills_output = true; // the timed command zeroes the output word first (v6: no)
  bool vec4 = false;        // reads through the uvec4 binding too
  bool swept = false;       // v3: block x workgroups (the seed's sweep); v5: workgroups x unroll
  std::string config_from;  // use this rung's sweep choice (v4: v3's, v6: v5's); empty: its own
};
const std::vector<VkRung>& vk_rungs();
// By slug ("vk_v3_coarsen"), short name ("v3") or number ("3"). Throws InputError naming it.
const VkRung& find_vk_rung(const std::string& name);

struct VkRunOptions {
  std::vector<std::size_t> sizes{std::size_t{1} << 24};
  std::vector<std::size_t> offsets{0};
  std::vector<measure::Mode> modes{measure::Mode::Cold};
  std::vector<const VkRung*> rungs;  // empty: all
  bool sweep = true;                 // sweep v3 (the seed's sweep); false: defaults
  bool validate_only = false;
  measure::StoppingRule rule;
  int device = 0;                    // Vulkan physical-device index
  std::uint64_t seed = 0;
  std::size_t flush_bytes = 0;       // cold mode: bytes written before each sample (0: automatic)
  std::function<void(const std::string&)> progress;
};

struct VkRunResult {
  std::vector<measure::Record> records;  // not stamped
  std::vector<reduce::ValidationRow> validations;
  std::vector<std::string> failures;
  measure::DeviceFacts device;  // present, name, index (the Vulkan device); the rest unknown to Vulkan
  nlohmann::json vulkan;        // the device's Vulkan facts (also in every record's extra["vulkan"])
  std::string skip_reason;      // no Vulkan here, or built without it: every rung a skipped record
};

// Throws InputError (bad device index, a size the device cannot bind); never GpuUnavailable:
// without Vulkan every rung is a skipped record with the reason.
VkRunResult run_ladder(const VkRunOptions& opt);

// Whether this build has the Vulkan backend, and a one-line listing of the devices or why none.
bool built_with_vulkan();
struct VkDeviceLine {
  int index = 0;
  nlohmann::json facts;
};
struct VkDevices {
  bool ok = false;
  std::string reason, loader;
  std::vector<VkDeviceLine> devices;
};
VkDevices list_devices();

}  // namespace joseki::reduce_vk
