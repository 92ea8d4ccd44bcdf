// Knobs -> launch: preconditions, grid sizing from the device and the size, and the sweeps
// (each swept rung declares its space in its rungs.def line; the skip rules and the tie rule that
// go with its grid policy are here).
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "experiments/reduce/registry.hpp"

namespace joseki::reduce {

namespace {

constexpr std::size_t RING_OFFSET = 128;    // r08, r11: mbarriers before the ring (bulk.cuh)
constexpr std::int64_t BLOCK_RESERVED = 1024;  // shared memory the runtime reserves per block (sm_80+)
constexpr std::int64_t STATIC_SMEM = 256;      // r08/r11's static shared memory (the block sum's slots), rounded up

bool has_bps(const Rung& r) {
  return r.grid == GridPolicy::Wave || r.grid == GridPolicy::WaveVector || r.grid == GridPolicy::WaveBulk;
}
bool is_pow2(int v) { return v > 0 && (v & (v - 1)) == 0; }
std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// Every knob by its name as a sweep axis and a record axis, with its Knobs field and its SweepSpace
// axis; in the order a sweep's axes take (the sweep's points follow it).
struct KnobAxis {
  const char* name;
  int Knobs::*knob;
  std::vector<std::int64_t> SweepSpace::*axis;
};
constexpr KnobAxis KNOB_AXES[] = {
    {"hint", &Knobs::hint, &SweepSpace::hint},
    {"unroll", &Knobs::unroll, &SweepSpace::unroll},
    {"block", &Knobs::block, &SweepSpace::block},
    {"blocks_per_sm", &Knobs::blocks_per_sm, &SweepSpace::blocks_per_sm},
    {"stages", &Knobs::stages, &SweepSpace::stages},
    {"chunk_kib", &Knobs::chunk_kib, &SweepSpace::chunk_kib},
};

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
  if (r.hinted) p.set("hint", std::int64_t{k.hint});
  if (r.grid == GridPolicy::WaveBulk) {
    p.set("stages", std::int64_t{k.stages});
    p.set("chunk_kib", std::int64_t{k.chunk_kib});
  }
  return p;
}

Knobs knobs_from_point(const Rung& r, const measure::Point& p) {
  Knobs k = r.defaults;
  for (const KnobAxis& a : KNOB_AXES)
    if (p.has(a.name)) k.*a.knob = static_cast<int>(p.get_int(a.name));
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
  if (r.hinted && (k.hint < 0 || k.hint > 2)) return fmt::format("hint {} is not 0, 1 or 2", k.hint);
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
  p.hint = k.hint;
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
  for (const KnobAxis& a : KNOB_AXES)
    if (!(r.space.*a.axis).empty()) s.add_int_axis(a.name, r.space.*a.axis);
  if (s.axes().empty()) return s;
  // Axes the space leaves out stay at the rung's default (knobs_from_point).
  const auto knobs = [&r, d](const measure::Point& p) { return resolve_knobs(knobs_from_point(r, p), d); };
  switch (r.grid) {
    case GridPolicy::Wave:  // the seed's sweep: vary the number of groups (and their size)
      s.skip_if([n, d, knobs](const measure::Point& p) -> std::optional<std::string> {
        const Knobs k = knobs(p);
        const std::int64_t threads = std::int64_t{k.block} * k.blocks_per_sm * d.sm_count;
        if (static_cast<std::size_t>(threads) > n)
          return fmt::format("{} threads > {} elements: fewer than one element per thread", threads, n);
        return std::nullopt;
      });
      s.skip_if([&r, d, knobs](const measure::Point& p) { return check_knobs(r, knobs(p), d); });
      break;
    case GridPolicy::WaveVector:
    case GridPolicy::WaveBulk:
      s.skip_if([d, knobs](const measure::Point& p) -> std::optional<std::string> {
        const Knobs k = knobs(p);
        const std::int64_t t = std::int64_t{k.block} * k.blocks_per_sm;
        if (t > d.max_threads_per_sm)
          return fmt::format("{} threads per SM > {}: more than one wave", t, d.max_threads_per_sm);
        return std::nullopt;
      });
      s.skip_if([&r, d, knobs](const measure::Point& p) { return check_knobs(r, knobs(p), d); });
      break;
    default: break;
  }
  // At small n several points make the same launch (the grid is capped by the work): the later
  // ones are skipped as duplicates of the first.
  std::map<std::string, std::string> dup;  // point label -> why it is skipped
  std::map<std::string, std::string> first;  // launch -> the first point that makes it
  for (const measure::SweepPoint& sp : s.points()) {
    if (sp.skip_reason) continue;
    const LaunchPlan p = plan_launch(r, knobs(sp.point), n, d);
    const std::string key = fmt::format("{} {} {} {} {} {}", p.block, p.grid, p.unroll, p.stages, p.chunk_bytes, p.hint);
    const auto [it, fresh] = first.emplace(key, sp.point.label());
    if (!fresh) dup[sp.point.label()] = fmt::format("the same launch (grid {}) as {}", p.grid, it->second);
  }
  if (!dup.empty())
    s.skip_if([dup = std::move(dup)](const measure::Point& p) -> std::optional<std::string> {
      const auto it = dup.find(p.label());
      if (it == dup.end()) return std::nullopt;
      return it->second;
    });
  return s;
}

measure::TieRule tie_rule_for(const Rung& r) {
  measure::TieRule t;
  t.tolerance = r.tie_tolerance;
  if (r.grid == GridPolicy::WaveBulk) {
    t.preference = "less shared memory per SM (blocks_per_sm x stages x chunk), then fewer threads";
    t.prefer = [&r](const measure::Point& a, const measure::Point& b) {
      const Knobs ka = knobs_from_point(r, a), kb = knobs_from_point(r, b);
      const auto smem = [](const Knobs& k) { return std::int64_t{k.blocks_per_sm} * k.stages * k.chunk_kib; };
      const auto threads = [](const Knobs& k) { return std::int64_t{k.blocks_per_sm} * k.block; };
      return smem(ka) != smem(kb) ? smem(ka) < smem(kb) : threads(ka) < threads(kb);
    };
  } else {
    // The seed's preference: among ties, more work per thread (fewer threads, fewer partial sums).
    t.preference = "fewer threads (block x blocks_per_sm): more work per thread, fewer partial sums";
    t.prefer = [&r](const measure::Point& a, const measure::Point& b) {
      const Knobs ka = knobs_from_point(r, a), kb = knobs_from_point(r, b);
      return std::int64_t{ka.block} * ka.blocks_per_sm < std::int64_t{kb.block} * kb.blocks_per_sm;
    };
  }
  return t;
}

}  // namespace joseki::reduce
