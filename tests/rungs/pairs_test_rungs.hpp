// The gpu-pairs ladder's test-only rungs (pairs_rungs.def), made by the ladder's own gpu_rung() from
// each line. Their metadata exists in every build (the CPU-only unit tests list them); their kinds and
// kernels only where tests/rungs/pairs_*.cu is built (the GPU tests of a CUDA build).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "experiments/abc471g/gpu_pairs/ladder.hpp"

namespace joseki::abc471g::pairs {

inline const std::vector<PairsRung>& test_rungs() {
  static const std::vector<PairsRung> v{
#define JK_PAIRS_RUNG(...) gpu_rung(__VA_ARGS__),
#include "pairs_rungs.def"
#undef JK_PAIRS_RUNG
  };
  return v;
}

inline const PairsRung& test_rung(const std::string& id) {
  for (const PairsRung& r : test_rungs())
    if (r.id == id || r.slug == id) return r;
  throw std::invalid_argument("no gpu-pairs test rung " + id);
}

}  // namespace joseki::abc471g::pairs
