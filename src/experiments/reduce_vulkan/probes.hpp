// The cost probes the reduction ranking depends on, in Vulkan (issue 16): same-address atomics
// (uniform and opaque address per element, and one lone atomic per subgroup), the workgroup-barrier cost, coalesced vs strided reads; the
// cost-ratio profile, the ranking of v1 / v2 / v3 it predicts, and the measured ranking (the
// ladder's v1..v3 at the same n) beside it. Every probe's result is checked exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "measure/record.hpp"
#include "measure/stopping.hpp"

namespace joseki::reduce_vk {

inline constexpr const char* PROBE_EXPERIMENT = "probe.vulkan";

struct VkProbeOptions {
  std::size_t n = std::size_t{1} << 24;  // elements for the atomic and read probes, and the ladder
  measure::StoppingRule rule;
  int device = 0;
  std::uint64_t seed = 0;
  bool sweep = false;  // sweep v3 in the measured ladder
  std::function<void(const std::string&)> progress;
};

struct VkProbeResult {
  std::vector<measure::Record> records;  // probes, unit costs, ratios, predictions, the verdict (not stamped)
  std::vector<std::string> failures;
  measure::DeviceFacts device;
  std::string skip_reason;
  // The profile in words, for the table: (name, value, unit, what).
  struct Row {
    std::string name;
    double value = 0;
    std::string unit, what;
  };
  std::vector<Row> rows;
  std::string predicted_ranking, measured_ranking;
  std::vector<std::string> predictions;  // one line per rung: the arithmetic
};

// The additive model: pure, unit-tested. Unit costs are device-wide times per item (seconds).
struct VkUnitCosts {
  double load_elem_s = 0;        // one coalesced 4-byte load
  double atomic_elem_s = 0;      // one same-address atomicAdd per element, uniform address (v1's cost)
  double atomic_lone_s = 0;      // one same-address atomic from one lane (the probe atomic_lone; v2's and v3's
                                 // one per workgroup): no other lane to merge it with
  double barrier_s = 0;          // one barrier of a 256-invocation workgroup
  double atomic_opaque_s = 0;    // recorded, not in the model: one same-address atomicAdd per element, an address
                                 // the compiler cannot prove uniform (a driver may still merge them at run time)
};
struct VkPrediction {
  std::vector<std::pair<std::string, double>> times;  // v1, v2, v3
  std::vector<std::string> arithmetic;
  std::string ranking;  // "v3 < v1 < v2"
};
VkPrediction predict_ladder(const VkUnitCosts& c, double n, double v3_groups);
std::string ranking_text(std::vector<std::pair<std::string, double>> times);

VkProbeResult run_probes(const VkProbeOptions& opt);

}  // namespace joseki::reduce_vk
