// Between harness.cpp (the frame: data, reference, the one ladder protocol, records) and
// harness_gpu.cpp (the CUDA runner and the stream-read ceiling).
#pragma once

#include <map>
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

// The CUDA side. open_gpu_session() throws InputError for a bad device index or sizes that cannot fit.
class GpuSession {
 public:
  virtual ~GpuSession() = default;
  virtual const measure::DeviceFacts& facts() const = 0;
  virtual DeviceShape shape() const = 0;
  virtual void load(const SizeInput& in) = 0;  // the size's words on the device, the rungs' workspaces
  // The stream-read ceiling at this size in this mode (a record; its B/s is extra["value"], 0 when skipped).
  virtual measure::Record ceiling(measure::Mode mode, std::size_t offset) = 0;
  virtual SumRunner& runner(std::size_t offset_index) = 0;  // the loaded size at that offset
};
std::unique_ptr<GpuSession> open_gpu_session(const RunOptions& opt, const std::vector<const Rung*>& gpu_rungs);

}  // namespace joseki::reduce::detail
