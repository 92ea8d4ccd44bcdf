// The Vulkan runner of the reduction ladder: one configuration of one rung, validated (output
// poisoned, run twice, compared with the reference) or timed (GPU timestamps, cold or hot, the
// shared stopping rule). Small on purpose: validate(config) and time(config, mode) -> samples are
// what a Runner of the shared ladder protocol (measure/ladder.hpp, another branch) needs.
// Only in a build with Vulkan.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend/vulkan/context.hpp"
#include "experiments/reduce_vulkan/ladder.hpp"

namespace joseki::reduce_vk {

struct Config {
  std::uint32_t block = 256;   // workgroup size (specialization constant 0)
  std::uint32_t groups = 1;    // workgroups (per-element rungs: ceil(n / block), dispatched 2-D)
  std::uint32_t unroll = 0;    // uvec4 loads in flight (specialization constant 1; 0: not a knob)
  std::string label() const;   // "block=256 groups=1024 unroll=4"
};

class VkRunner {
 public:
  // words: the input buffer's size (n + the largest offset). Throws InputError when the device
  // cannot bind it.
  VkRunner(vk::Context& ctx, const VkRunOptions& opt, std::size_t words);
  void upload(const std::uint32_t* host);  // the input words

  // Why this configuration cannot run here (no subgroup arithmetic, block too large, ...).
  std::optional<std::string> unmet(const VkRung& r, const Config& c) const;
  // Poison, run, compare; twice (state left behind, e.g. v6's ticket, shows in run 2). Cached.
  // A configuration that cannot run is ok with message "skipped: <why>".
  reduce::ValidationRow validate(const VkRung& r, const Config& c, std::size_t n, std::size_t off,
                                 std::uint32_t expected);
  // Samples of the GPU interval (timestamps) under the options' stopping rule; cold mode writes
  // the flush buffer before every sample.
  measure::Measurement time(const VkRung& r, const Config& c, std::size_t n, std::size_t off, measure::Mode mode);
  std::uint32_t read_result();  // the output word after the last run
  measure::Measurement time_stream_read(std::size_t nvec, std::uint32_t groups, measure::Mode mode);
  std::size_t flush_bytes() const { return m_flush_bytes; }

 private:
  vk::Pipeline& pipeline(const std::string& shader, const std::vector<std::uint32_t>& spec);
  vk::Record body(const VkRung& r, const Config& c, std::size_t n, std::size_t off);
  measure::PrepareFn prepare(measure::Mode mode);

  vk::Context& m_ctx;
  const VkRunOptions& m_opt;
  std::size_t m_words = 0;
  vk::Buffer m_data, m_out, m_work, m_flush;
  std::size_t m_flush_bytes = 0;
  std::uint32_t m_round = 0;
  std::map<std::string, std::unique_ptr<vk::Pipeline>> m_pipes;
  std::map<std::string, reduce::ValidationRow> m_validated;
};

}  // namespace joseki::reduce_vk
