// Between harness.cpp (CPU rungs, records, ratios) and harness_gpu.cpp (the GPU rungs).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "experiments/reduce/harness.hpp"

namespace joseki::reduce::detail {

// One size: the random words (offset + n of them, the rungs read [offset, offset + n)) and the
// reference sum for each offset.
struct SizeInput {
  std::size_t n = 0;
  std::vector<std::size_t> offsets;
  std::vector<std::uint32_t> expected;  // per offset
  const HostData* data = nullptr;       // max(offsets) + n words
};

measure::Record base_record(const Rung& r, std::size_t n, std::size_t offset, const std::string& mode);
ValidationRow check_result(const Rung& r, const SizeInput& in, std::size_t offset_index, const std::string& config,
                           std::uint32_t got, int run);

// The GPU part. open() throws InputError for a bad device index or sizes that cannot fit.
class GpuSession {
 public:
  virtual ~GpuSession() = default;
  virtual const measure::DeviceFacts& facts() const = 0;
  virtual void run_size(const RunOptions& opt, const std::vector<const Rung*>& gpu_rungs, const SizeInput& in,
                        RunResult& out) = 0;
};
std::unique_ptr<GpuSession> open_gpu_session(const RunOptions& opt, const std::vector<const Rung*>& gpu_rungs);

}  // namespace joseki::reduce::detail
