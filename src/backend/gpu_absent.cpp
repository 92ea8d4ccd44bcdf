// CPU-only build: every GPU entry point says plainly that this binary has no CUDA backend.
#include "backend/gpu.hpp"
#include "measure/errors.hpp"

namespace joseki::gpu {

namespace {
constexpr const char* kWhy =
    "this joseki was built without CUDA (no nvcc when it was configured); GPU paths are not available";
}

Availability availability() { return {false, 0, kWhy}; }
void require_device(int) { throw GpuUnavailable(kWhy); }
measure::DeviceFacts device_facts(int) { throw GpuUnavailable(kWhy); }
const measure::DeviceFacts& needs_facts(int) { throw GpuUnavailable(kWhy); }
std::vector<measure::Record> measure_ceilings(int, const CeilingOptions&) { throw GpuUnavailable(kWhy); }
CheckReport run_check(int) { throw GpuUnavailable(kWhy); }
void create_context_only(int) { throw GpuUnavailable(kWhy); }
void preload_libraries() {}

}  // namespace joseki::gpu
