// The Vulkan runner of the reduction ladder: a runner of the one ladder protocol
// (measure/ladder.hpp), which validates (output poisoned, run twice, exact compare), sweeps and
// times through it (GPU timestamps; cold: the device's caches flushed by writing a buffer larger
// than them; the shared stopping rule). One size's words at one offset; only in a build with Vulkan.
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
  measure::Point point() const;
  static Config of(const measure::Point& p);
};

class VkRunner final : public reduce::SumRunner {
 public:
  // words: the input buffer's size (n + the largest offset). Throws InputError when the device
  // cannot bind it.
  VkRunner(vk::Context& ctx, const VkRunOptions& opt, std::size_t words);
  void upload(const std::uint32_t* host);  // the input words
  void at(std::size_t n, std::size_t off, std::uint32_t expected);  // what the rungs read next

  std::string backend() const override { return "vulkan"; }
  measure::Scope scope() const override { return measure::Scope::GpuCompute; }
  measure::DeviceFacts device() const override;
  // Unmet (no subgroup arithmetic, block too large, ...): the reason, a skip.
  std::optional<std::string> setup(const measure::RungSpec& r, const measure::Point& config) override;
  void poison_output() override;
  void run() override;
  std::string compare() override;
  double timed_run() override { return m_ctx.time(m_body); }
  void flush() override;  // cold mode: writes the flush buffer (untimed)
  std::string after_timing(measure::Record& rec) override;
  measure::Work work() const override { return {static_cast<double>(m_n), 4.0 * static_cast<double>(m_n)}; }

  // The stream-read ceiling at nvec 16-byte words with `groups` workgroups.
  measure::Measurement time_stream_read(std::size_t nvec, std::uint32_t groups, measure::Mode mode);
  std::size_t flush_bytes() const { return m_flush_bytes; }

 private:
  vk::Pipeline& pipeline(const std::string& shader, const std::vector<std::uint32_t>& spec);
  vk::Record body(const VkRung& r, const Config& c, std::size_t n, std::size_t off);
  std::optional<std::string> unmet(const VkRung& r, const Config& c) const;
  std::uint32_t read_result();  // the output word after the last run

  vk::Context& m_ctx;
  const VkRunOptions& m_opt;
  std::size_t m_words = 0;
  vk::Buffer m_data, m_out, m_work, m_flush;
  std::size_t m_flush_bytes = 0;
  std::uint32_t m_round = 0;
  std::map<std::string, std::unique_ptr<vk::Pipeline>> m_pipes;
  std::size_t m_n = 0, m_off = 0;
  std::uint32_t m_expected = 0;
  std::string m_key;  // slug|config label of the set-up rung
  vk::Record m_body;
};

}  // namespace joseki::reduce_vk
