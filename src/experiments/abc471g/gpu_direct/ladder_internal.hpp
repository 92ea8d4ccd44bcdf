// Inside the ladder's host code only: the rung's launch functions (a CUDA build has them).
#pragma once

#include "experiments/abc471g/gpu_direct/ladder.hpp"
#include "experiments/abc471g/gpu_direct/rung_api.hpp"

namespace joseki::abc471g::ladder {

// The rung's kernels; throws GpuUnavailable where the build has none (CPU-only).
const gpu_api::RungOps& ops_of(const RungInfo& r);

// Upper limits of the direct rungs: counts are 32-bit (N <= 2^32 keeps every count below 2^31);
// the blocked rungs (g10+) hold K <= 2304 shifts in 8 threads x 9 words of 32 lanes.
inline constexpr std::uint64_t kMaxN = 1ull << 32;

}  // namespace joseki::abc471g::ladder
