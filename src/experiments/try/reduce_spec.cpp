// The reduce ladder's settings for a user's kernel (reduce_spec.hpp).
#include "experiments/try/reduce_spec.hpp"

#include <fmt/format.h>

#include "experiments/try/ladders.hpp"
#include "measure/errors.hpp"

namespace joseki::trykernel {

namespace {

void require_in(const TryFile& f, const std::string& key, std::int64_t v, std::int64_t lo, std::int64_t hi) {
  if (v < lo || v > hi)
    throw InputError(fmt::format("{}: {}={} is out of range ({}..{})", f.where(line_of(f, key)), key, v, lo, hi));
}

}  // namespace

ReduceSpec reduce_spec(const TryFile& f) {
  ReduceSpec s;
  reduce::Rung& r = s.rung;
  r.id = "try";
  r.slug = variant_of(f);
  r.name = f.get("name", f.name);
  r.rung = 99;  // after every rung of the ladder; the tables rank by median
  r.backend = reduce::Backend::Cuda;
  r.preconditions = "your kernel: block a multiple of 32, up to 1024";
  s.grid_name = f.get("grid", "wave-vector");
  if (s.grid_name == "per-element")
    r.grid = reduce::GridPolicy::PerElement;
  else if (s.grid_name == "wave")
    r.grid = reduce::GridPolicy::Wave;
  else if (s.grid_name == "wave-vector")
    r.grid = reduce::GridPolicy::WaveVector;
  else
    throw InputError(fmt::format("{}: grid={} is not a grid policy (per-element: ceil(n / block) blocks; wave: "
                                 "min(SMs x blocks_per_sm, ceil(n / block)); wave-vector: min(SMs x blocks_per_sm, "
                                 "ceil(n / (4 x block x unroll))))",
                                 f.where(line_of(f, "grid")), s.grid_name));
  s.output_name = f.get("output", "atomic");
  if (s.output_name == "atomic") {
    s.zero_before = true;
  } else if (s.output_name == "two-slot") {
    r.output = reduce::Output::TwoSlot;
  } else if (s.output_name != "word") {
    throw InputError(fmt::format("{}: output={} is not an output contract (atomic: joseki zeroes out[0] before each "
                                 "launch and the kernel adds into it; word: the kernel writes out[0]; two-slot: r10's "
                                 "contract, add into out[slot] and zero out[slot ^ 1])",
                                 f.where(line_of(f, "output")), s.output_name));
  }
  r.defaults.block = static_cast<int>(f.get_int("block", 256));
  require_in(f, "block", r.defaults.block, 32, 1024);
  if (r.defaults.block % 32)
    throw InputError(fmt::format("{}: block={} is not a multiple of 32", f.where(line_of(f, "block")), r.defaults.block));
  r.defaults.blocks_per_sm = static_cast<int>(f.get_int("blocks_per_sm", 0));
  require_in(f, "blocks_per_sm", r.defaults.blocks_per_sm, 0, 64);
  r.defaults.unroll = static_cast<int>(f.get_int("unroll", r.grid == reduce::GridPolicy::WaveVector ? 4 : 1));
  if (r.defaults.unroll != 1 && r.defaults.unroll != 2 && r.defaults.unroll != 4 && r.defaults.unroll != 8)
    throw InputError(fmt::format("{}: unroll={} is not 1, 2, 4 or 8", f.where(line_of(f, "unroll")), r.defaults.unroll));
  if (f.has("unroll") && r.grid != reduce::GridPolicy::WaveVector)
    throw InputError(fmt::format("{}: unroll applies to grid=wave-vector only", f.where(line_of(f, "unroll"))));
  const std::int64_t ws = f.get_int("workspace", 0);
  require_in(f, "workspace", ws, 0, std::int64_t{1} << 30);
  s.workspace_bytes = static_cast<std::size_t>(ws);
  r.tie_tolerance = tie_fraction(f, "0.01");
  r.technique = f.get("technique", "your kernel (" + f.name + ")");
  if (f.has("like")) {
    const reduce::Rung& like = reduce::find_rung(f.get("like", ""));  // InputError lists the rungs
    r.predecessor = like.slug;
  }
  for (const auto& [axis, a] : f.sweep) {
    for (std::int64_t v : a.values) {
      if (axis == "block" && (v < 32 || v > 1024 || v % 32))
        throw InputError(fmt::format("{}: sweep block: {} is not a multiple of 32 in 32..1024", f.where(a.line), v));
      if (axis == "unroll" && v != 1 && v != 2 && v != 4 && v != 8)
        throw InputError(fmt::format("{}: sweep unroll: {} is not 1, 2, 4 or 8", f.where(a.line), v));
      if (axis == "blocks_per_sm" && (v < 1 || v > 64))
        throw InputError(fmt::format("{}: sweep blocks_per_sm: {} is not in 1..64", f.where(a.line), v));
    }
    if (axis == "block") r.space.block = a.values;
    if (axis == "unroll") r.space.unroll = a.values;
    if (axis == "blocks_per_sm") r.space.blocks_per_sm = a.values;
  }
  if (!r.space.unroll.empty() && r.grid != reduce::GridPolicy::WaveVector)
    throw InputError(fmt::format("{}: sweep unroll applies to grid=wave-vector only", f.where(f.sweep.at("unroll").line)));
  if (!r.space.blocks_per_sm.empty() && r.grid == reduce::GridPolicy::PerElement)
    throw InputError(fmt::format("{}: sweep blocks_per_sm: grid=per-element has no blocks_per_sm",
                                 f.where(f.sweep.at("blocks_per_sm").line)));
  r.swept = !f.sweep.empty();
  s.block_macro = uses_identifier(f.source, "BLOCK");
  s.unroll_macro = uses_identifier(f.source, "UNROLL");
  return s;
}

std::vector<std::string> reduce_defines(const ReduceSpec& s, int block, int unroll) {
  std::vector<std::string> d;
  if (s.block_macro) d.push_back(fmt::format("-DBLOCK={}", block));
  if (s.unroll_macro) d.push_back(fmt::format("-DUNROLL={}", unroll));
  return d;
}

}  // namespace joseki::trykernel
