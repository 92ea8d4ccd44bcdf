// One rung of the direct ladder as its host code sees it: its rungs.def line (or, for a test-only
// rung, its own file) and the kernels of its file. Standard headers only, so that a rung file
// compiled by nvcc, or by a test's host emulation, can define one (tests/rungs/).
#pragma once

#include <string>
#include <vector>

#include "experiments/abc471g/gpu_direct/rung_api.hpp"

namespace joseki::abc471g::ladder {

struct RungInfo {
  std::string id;           // "g05"
  std::string slug;         // "bitsliced_ripple"
  std::string name;         // display name
  std::string technique;    // one line for tables
  std::string predecessor;  // id of the rung it builds on ("x previous"); "" for g01
  int rung = 0;             // position in the ladder, 1-based
  bool a_on_device = false; // A generated on the GPU (else generated on the host and copied)
  gpu_api::Config defaults;
  double seed_ms = -1;      // the seed's RTX 3060 Laptop GPU_COMPUTE where it states one
  std::string seed_note;
  std::string geometry_of;  // "" or the tuned rung whose block and chunk this rung runs at
  std::string tuned_by;     // "" or the run whose sweep chose the defaults (the rung is tuned)
  std::vector<gpu_api::Config> validation;  // validated at these besides the defaults (rungs.def)
  // The rung file's kernels: a CUDA build's RungOps, or a test's host emulation; null in a
  // CPU-only build, where the rung cannot run (check() says so).
  const gpu_api::RungOps* ops = nullptr;
  std::string variant() const { return id + "_" + slug; }  // records' variant: "g05_bitsliced_ripple"
};

}  // namespace joseki::abc471g::ladder
