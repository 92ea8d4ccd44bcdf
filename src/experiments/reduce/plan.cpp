// Knobs -> launch: preconditions, grid sizing from the device and the size, and the
// sweeps (search space declared here, next to the grid rules it explores).
#include <algorithm>

#include <fmt/format.h>

#include "experiments/reduce/registry.hpp"

namespace joseki::reduce {

namespace {

constexpr std::size_t RING_OFFSET = 128;    // r08: mbarriers before the ring (r08_bulk_copy.cu)
constexpr std::int64_t BLOCK_RESERVED = 1024;  // shared memory the runtime reserves per block (sm_80+)
constexpr std::int64_t STATIC_SMEM = 256;      // r08's static shared memory (the block sum's slots), rounded up

bool has_bps(const Rung& r) {
  return r.grid == GridPolicy::Wave || r.grid == GridPolicy::WaveVector || r.grid == GridPolicy::WaveBulk;
}
bool is_pow2(int v) { return v > 0 && (v & (v - 1)) == 0; }
std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

int blocks_per_sm(const Knobs& k, const DeviceShape& d) {
  return k.blocks_per_sm > 0 ? k.blocks_per_sm : std::max(1, d.max_threads_per_sm / std::max(k.block, 1));
}

}  // namespace

Knobs resolve_knobs(const Knobs& k, const DeviceShape& d) {
  Knobs r = k;
  r.blocks_per_sm = blocks_per_sm(k, d);
  return r;
}

measure::Point knobs_point(const Rung& r, const Knobs& k) {
  measure::Point p;
  if (r.grid == GridPolicy::None) return p;
  p.set("block", std::int64_t{k.block});
  if (has_bps(r)) p.set("blocks_per_sm", std::int64_t{k.blocks_per_sm});
  if (r.grid == GridPolicy::WaveVector) p.set("unroll", std::int64_t{k.unroll});
  if (r.grid == GridPolicy::WaveBulk) {
    p.set("stages", std::int64_t{k.stages});
    p.set("chunk_kib", std::int64_t{k.chunk_kib});
  }
  return p;
}

Knobs knobs_from_point(const Rung& r, const measure::Point& p) {
  Knobs k = r.defaults;
  if (p.has("block")) k.block = static_cast<int>(p.get_int("block"));
  if (p.has("blocks_per_sm")) k.blocks_per_sm = static_cast<int>(p.get_int("blocks_per_sm"));
  if (p.has("unroll")) k.unroll = static_cast<int>(p.get_int("unroll"));
  if (p.has("stages")) k.stages = static_cast<int>(p.get_int("stages"));
  if (p.has("chunk_kib")) k.chunk_kib = static_cast<int>(p.get_int("chunk_kib"));
  return k;
}

std::optional<std::string> check_knobs(const Rung& r, const Knobs& k, const DeviceShape& d) {
  if (r.grid == GridPolicy::None) return std::nullopt;
  if (k.block < 32 || k.block > 1024 || k.block % 32 != 0)
    return fmt::format("block {} is not a multiple of 32 in 32..1024", k.block);
  if (r.tree && (!is_pow2(k.block) || k.block < 64))
    return fmt::format("block {} is not a power of two >= 64 (the shared tree halves it)", k.block);
  if (k.blocks_per_sm < 0) return fmt::format("blocks_per_sm {} is negative", k.blocks_per_sm);
  if (r.grid == GridPolicy::WaveVector && k.unroll != 1 && k.unroll != 2 && k.unroll != 4 && k.unroll != 8)
    return fmt::format("unroll {} is not 1, 2, 4 or 8", k.unroll);
  if (r.grid == GridPolicy::WaveBulk) {
    if (k.stages < 2 || k.stages > 16) return fmt::format("stages {} not in 2..16", k.stages);
    if (k.chunk_kib < 1 || k.chunk_kib > 64) return fmt::format("chunk_kib {} not in 1..64", k.chunk_kib);
    const std::int64_t smem =
        static_cast<std::int64_t>(RING_OFFSET) + std::int64_t{k.stages} * k.chunk_kib * 1024 + STATIC_SMEM;
    if (smem > d.smem_per_block_optin)
      return fmt::format("{} stages x {} KiB = {} B of shared memory > {} B per block", k.stages, k.chunk_kib, smem,
                         d.smem_per_block_optin);
    const std::int64_t per_sm = std::int64_t{blocks_per_sm(k, d)} * (smem + BLOCK_RESERVED);
    if (per_sm > d.smem_per_sm)
      return fmt::format("{} blocks x {} B of shared memory do not fit in one SM ({} B)", blocks_per_sm(k, d),
                         smem + BLOCK_RESERVED, d.smem_per_sm);
  }
  return std::nullopt;
}

LaunchPlan plan_launch(const Rung& r, const Knobs& k, std::size_t n, const DeviceShape& d) {
  LaunchPlan p;
  p.block = k.block;
  p.unroll = k.unroll;
  const std::size_t cap = static_cast<std::size_t>(d.sm_count) * static_cast<std::size_t>(blocks_per_sm(k, d));
  std::size_t grid = 1;
  switch (r.grid) {
    case GridPolicy::None: break;
    case GridPolicy::PerElement: grid = ceil_div(n, static_cast<std::size_t>(k.block)); break;
    case GridPolicy::Wave: grid = std::min(cap, ceil_div(n, static_cast<std::size_t>(k.block))); break;
    case GridPolicy::WaveVector: {
      const std::size_t words = ceil_div(n, 4);
      grid = std::min(cap, ceil_div(words, static_cast<std::size_t>(k.block) * static_cast<std::size_t>(k.unroll)));
      break;
    }
    case GridPolicy::WaveBulk: {
      p.stages = k.stages;
      p.chunk_bytes = k.chunk_kib * 1024;
      grid = std::min(cap, ceil_div(n * 4, static_cast<std::size_t>(p.chunk_bytes)));
      p.dynamic_smem = RING_OFFSET + static_cast<std::size_t>(k.stages) * static_cast<std::size_t>(p.chunk_bytes);
      break;
    }
  }
  if (r.tree) p.dynamic_smem = static_cast<std::size_t>(k.block) * sizeof(std::uint32_t);
  p.grid = static_cast<int>(std::clamp<std::size_t>(grid, 1, 0x7fffffff));
  return p;
}

measure::Sweep sweep_for(const Rung& r, std::size_t n, const DeviceShape& d) {
  measure::Sweep s;
  const auto threads_skip = [n, d](const measure::Point& p) -> std::optional<std::string> {
    const std::int64_t threads = p.get_int("block") * p.get_int("blocks_per_sm") * d.sm_count;
    if (static_cast<std::size_t>(threads) > n)
      return fmt::format("{} threads > {} elements: fewer than one element per thread", threads, n);
    return std::nullopt;
  };
  const auto wave_skip = [d](const measure::Point& p) -> std::optional<std::string> {
    const std::int64_t t = p.get_int("block") * p.get_int("blocks_per_sm");
    if (t > d.max_threads_per_sm)
      return fmt::format("{} threads per SM > {}: more than one wave", t, d.max_threads_per_sm);
    return std::nullopt;
  };
  switch (r.grid) {
    case GridPolicy::Wave:  // the seed's sweep: vary the number of groups (and their size)
      s.add_int_axis("block", {128, 256, 512, 1024}).add_int_axis("blocks_per_sm", {1, 2, 4, 8, 16, 32});
      s.skip_if(threads_skip);
      break;
    case GridPolicy::WaveVector:
      s.add_int_axis("unroll", {2, 4, 8}).add_int_axis("block", {256, 512, 1024}).add_int_axis("blocks_per_sm",
                                                                                                 {1, 2, 4, 8});
      s.skip_if(wave_skip);
      break;
    case GridPolicy::WaveBulk:
      s.add_int_axis("block", {r.defaults.block})
          .add_int_axis("blocks_per_sm", {1, 2, 4})
          .add_int_axis("stages", {2, 4, 8})
          .add_int_axis("chunk_kib", {4, 8, 16});
      s.skip_if([&r, d](const measure::Point& p) { return check_knobs(r, knobs_from_point(r, p), d); });
      break;
    default: break;
  }
  return s;
}

measure::TieRule tie_rule_for(const Rung& r) {
  measure::TieRule t;
  t.tolerance = 0.02;
  if (r.grid == GridPolicy::WaveBulk) {
    t.preference = "less shared memory per SM (blocks_per_sm x stages x chunk)";
    t.prefer = [](const measure::Point& a, const measure::Point& b) {
      auto smem = [](const measure::Point& p) {
        return p.get_int("blocks_per_sm") * p.get_int("stages") * p.get_int("chunk_kib");
      };
      return smem(a) < smem(b);
    };
  } else {
    // The seed's preference: among ties, more work per thread (fewer threads, fewer partial sums).
    t.preference = "fewer threads (block x blocks_per_sm): more work per thread, fewer partial sums";
    t.prefer = [](const measure::Point& a, const measure::Point& b) {
      return a.get_int("block") * a.get_int("blocks_per_sm") < b.get_int("block") * b.get_int("blocks_per_sm");
    };
  }
  return t;
}

}  // namespace joseki::reduce
