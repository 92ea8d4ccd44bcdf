// The ABC471G direct ladder's settings for a user's kernel (direct_spec.hpp).
#include "experiments/try/direct_spec.hpp"

#include <fmt/format.h>

#include "experiments/try/ladders.hpp"
#include "measure/errors.hpp"

namespace joseki::trykernel {

DirectSpec direct_spec(const TryFile& f) {
  DirectSpec s;
  s.slug = variant_of(f);
  s.name = f.get("name", f.name);
  s.technique = f.get("technique", "your kernel (" + f.name + ")");
  s.like = f.get("like", "");  // checked against the ladder's rungs by the runner (it has the registry)
  s.block = static_cast<int>(f.get_int("block", 64));
  if (s.block < 1 || s.block > 1024)
    throw InputError(fmt::format("{}: block={} is out of range (1..1024)", f.where(line_of(f, "block")), s.block));
  s.chunk = f.get_int("chunk", 0);
  if (s.chunk < 0 || s.chunk > (std::int64_t{1} << 32))
    throw InputError(fmt::format("{}: chunk={} is out of range (0: one thread per shift; 1..2^32 elements of A per "
                                 "block)",
                                 f.where(line_of(f, "chunk")), s.chunk));
  s.output_name = f.get("output", "write");
  if (s.output_name == "atomic")
    s.zero_before = true;
  else if (s.output_name != "write")
    throw InputError(fmt::format("{}: output={} is not an output contract (write: the kernel writes every "
                                 "answer[s], s < k, over the poison; atomic: joseki zeroes answer[0..k) before each "
                                 "launch, timed, and the kernel adds into it)",
                                 f.where(line_of(f, "output")), s.output_name));
  s.tie = tie_fraction(f, "0.02");
  for (const auto& [axis, a] : f.sweep) {
    for (std::int64_t v : a.values) {
      if (axis == "block" && (v < 1 || v > 1024))
        throw InputError(fmt::format("{}: sweep block: {} is not in 1..1024", f.where(a.line), v));
      if (axis == "chunk" && (v < 1 || v > (std::int64_t{1} << 32)))
        throw InputError(fmt::format("{}: sweep chunk: {} is not in 1..2^32", f.where(a.line), v));
    }
    if (axis == "block") s.sweep_blocks = a.values;
    if (axis == "chunk") s.sweep_chunks = a.values;
  }
  if (!s.sweep_chunks.empty() && s.chunk == 0)
    throw InputError(fmt::format("{}: sweep chunk needs chunk=<default> (chunk=0 is one thread per shift, no chunks)",
                                 f.where(f.sweep.at("chunk").line)));
  s.block_macro = uses_identifier(f.source, "BLOCK");
  s.chunk_macro = uses_identifier(f.source, "CHUNK");
  if (s.chunk > 0 && !s.chunk_macro)
    throw InputError(fmt::format("{}: chunk={} but the source never uses CHUNK: the kernel cannot know where its chunk "
                                 "of a begins (joseki passes -DCHUNK=<value>ull; blockIdx.x * CHUNK is the first "
                                 "element of the block's chunk)",
                                 f.where(line_of(f, "chunk")), s.chunk));
  return s;
}

std::vector<std::string> direct_defines(const DirectSpec& s, int block, std::int64_t chunk) {
  std::vector<std::string> d;
  if (s.block_macro) d.push_back(fmt::format("-DBLOCK={}", block));
  if (s.chunk_macro) d.push_back(fmt::format("-DCHUNK={}ull", chunk));
  return d;
}

DirectGrid direct_grid(std::uint64_t n, std::uint32_t k, int block, std::int64_t chunk) {
  const std::uint64_t b = static_cast<std::uint64_t>(block);
  const std::uint64_t groups = (static_cast<std::uint64_t>(k) + b - 1) / b;
  if (chunk <= 0) return {groups, 1};
  const std::uint64_t c = static_cast<std::uint64_t>(chunk);
  return {(n + c - 1) / c, groups};
}

std::string direct_grid_check(std::uint64_t n, std::uint32_t k, int block, std::int64_t chunk) {
  if (block < 1 || block > 1024) return fmt::format("block {} outside 1..1024", block);
  const DirectGrid g = direct_grid(n, k, block, chunk);
  if (g.x < 1 || g.x >= (std::uint64_t{1} << 31))
    return fmt::format("grid.x = {} (N = {}, chunk {}) outside 1..2^31-1", g.x, n, chunk);
  if (g.y > 65535) return fmt::format("grid.y = ceil(K / block) = {} (K = {}, block {}) above 65535", g.y, k, block);
  return "";
}

}  // namespace joseki::trykernel
