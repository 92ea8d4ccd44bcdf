// The reduction ladder's test-only GPU rungs (reduce_rungs.def), made by the registry's own
// expansion of a rungs.def line (JOSEKI_REDUCE_RUNG): with their files' ops in a CUDA build (the
// tests link tests/rungs/reduce_*.cu), none in a CPU-only build.
#pragma once

#include <string>
#include <vector>

#include "experiments/reduce/registry.hpp"

namespace joseki::reduce {

#define JK_REDUCE_RUNG(id_, ...) GpuOps id_##_ops();
#include "reduce_rungs.def"
#undef JK_REDUCE_RUNG

inline const std::vector<Rung>& test_rungs() {
  static const std::vector<Rung> v{
#define JK_REDUCE_RUNG(...) JOSEKI_REDUCE_RUNG(__VA_ARGS__),
#include "reduce_rungs.def"
#undef JK_REDUCE_RUNG
  };
  return v;
}

inline const Rung& test_rung(const std::string& id) {
  for (const Rung& r : test_rungs())
    if (r.id == id) return r;
  throw std::invalid_argument("no test rung " + id);
}

}  // namespace joseki::reduce
