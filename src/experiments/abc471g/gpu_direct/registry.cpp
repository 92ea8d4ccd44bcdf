// The ladder's registry (from rungs.def), rung selection, preconditions and the configurations
// each rung is validated at.
#include <algorithm>
#include <map>
#include <variant>

#include <fmt/format.h>

#include "experiments/abc471g/gpu_direct/ladder_internal.hpp"
#include "measure/errors.hpp"

namespace joseki::abc471g::ladder {

namespace {

std::vector<RungInfo> make_rungs() {
  std::vector<RungInfo> v;
#define JK_RUNG(id_, slug_, name_, tech_, pred_, adev_, block_, chunk_, seed_ms_, note_, geo_, tuned_, ...) \
  v.push_back(RungInfo{#id_, slug_, name_, tech_, pred_, 0, adev_, Config{block_, chunk_}, seed_ms_, note_, geo_, tuned_, \
                       {__VA_ARGS__}, nullptr});
#include "experiments/abc471g/gpu_direct/rungs.def"
#undef JK_RUNG
  for (std::size_t i = 0; i < v.size(); ++i) v[i].rung = static_cast<int>(i + 1);
#ifdef JOSEKI_HAVE_CUDA
  static const std::vector<gpu_api::RungOps> ops{
#define JK_RUNG(id_, ...) gpu::id_##_ops(),
#include "experiments/abc471g/gpu_direct/rungs.def"
#undef JK_RUNG
  };
  for (std::size_t i = 0; i < v.size(); ++i) v[i].ops = &ops[i];
#endif
  return v;
}

std::string id_list() {
  std::string s;
  for (const RungInfo& r : rungs()) s += (s.empty() ? "" : ", ") + r.id;
  return s;
}

}  // namespace

const std::vector<RungInfo>& rungs() {
  static const std::vector<RungInfo> v = make_rungs();
  return v;
}

const RungInfo& find_rung(const std::string& name) {
  for (const RungInfo& r : rungs())
    if (name == r.id || name == r.slug || name == r.variant()) return r;
  throw InputError(fmt::format("--rungs: '{}' is not a rung (rungs: {}, or all)", name, id_list()));
}

std::vector<const RungInfo*> select_rungs(const std::string& list) {
  std::vector<const RungInfo*> out;
  if (list.empty() || list == "all") {
    for (const RungInfo& r : rungs()) out.push_back(&r);
    return out;
  }
  std::vector<bool> want(rungs().size(), false);
  std::size_t pos = 0;
  while (pos <= list.size()) {
    const std::size_t comma = std::min(list.find(',', pos), list.size());
    const std::string name = list.substr(pos, comma - pos);
    if (name.empty()) throw InputError(fmt::format("--rungs '{}': empty name in the list", list));
    want[static_cast<std::size_t>(find_rung(name).rung - 1)] = true;
    pos = comma + 1;
  }
  for (std::size_t i = 0; i < want.size(); ++i)
    if (want[i]) out.push_back(&rungs()[i]);
  return out;
}

// The fastest rung of the H200 run of 2026-11-30 (g15 145.3 us vs g14 167.7 us, g13 176.0 us).
const RungInfo& final_rung() { return find_rung("g15"); }

const RungInfo& geometry_source(const RungInfo& r) { return r.geometry_of.empty() ? r : find_rung(r.geometry_of); }

std::string geometry_note(const RungInfo& r, bool swept) {
  const RungInfo& src = geometry_source(r);
  const std::string as = &src == &r ? "" : fmt::format(" (the geometry of {})", src.id);
  if (swept && !src.tuned_by.empty()) return fmt::format("tie rule of this run's sweep of {}{}", src.id, as);
  if (!src.tuned_by.empty()) return fmt::format("defaults chosen by {}{}", src.tuned_by, as);
  return &src == &r ? "defaults" : fmt::format("defaults of {}", src.id);
}

const RungInfo& baseline_rung() { return find_rung("g01"); }

#ifdef JOSEKI_HAVE_CUDA
bool built_with_cuda() { return true; }
#else
bool built_with_cuda() { return false; }
#endif

const gpu_api::RungOps& ops_of(const RungInfo& r) {
  if (!r.ops) throw GpuUnavailable(fmt::format("{}: this joseki was built without CUDA (no kernels)", r.id));
  return *r.ops;
}

Shape shape_of(const Problem& p) { return Shape{p.n, p.k, p.m()}; }

std::string check(const RungInfo& r, const Shape& s, const Config& c) {
  if (s.n < 1 || s.k < 1 || s.m < 1 || s.m > s.n)
    return fmt::format("shape N = {}, K = {}, M = {} is not a problem", s.n, s.k, s.m);
  if (s.n > kMaxN) return fmt::format("N = {} above 2^32 (the GPU rungs count in 32 bits)", s.n);
  if (!r.ops) return "this joseki was built without CUDA";
  return r.ops->check(s, c);
}

std::vector<Config> validation_configs(const RungInfo& r) {
  std::vector<Config> v{r.defaults};
  v.insert(v.end(), r.validation.begin(), r.validation.end());
  return v;
}

Config config_of(const RungInfo& r, const measure::Point& p) {
  Config c = r.defaults;
  if (p.has("block")) c.block = static_cast<int>(p.get_int("block"));
  if (p.has("chunk") && std::holds_alternative<std::int64_t>(p.at("chunk"))) c.chunk = p.get_int("chunk");
  return c;  // "one wave" (g13..g15) is not a chunk: 0
}

measure::Point config_point(const RungInfo& r, const Config& c) {
  measure::Point p;
  p.set("block", static_cast<std::int64_t>(c.block));
  if (r.defaults.chunk == 0 && r.a_on_device)
    p.set("chunk", std::string("one wave"));  // the persistent one-wave rungs (g13..g15)
  else if (r.defaults.chunk != 0)
    p.set("chunk", static_cast<std::int64_t>(c.chunk));
  return p;
}

}  // namespace joseki::abc471g::ladder

namespace joseki::abc471g::ladder {

namespace {

// The rung's declared sweep (its file's RungOps) over the axes of its configuration point, and the
// tie rule (within 2 % of the fastest): the seed's "larger chunk" (fewer partials to reduce); with
// a block axis first the fewest idle guard threads (threads past the W = ceil(K/32) words of a
// chunk), as the seed chose 72 over 96; for the one-wave rungs the larger block.
void add_sweep(measure::RungSpec& s, const RungInfo& r, std::uint32_t k) {
  if (!r.ops) return;  // a CPU-only build has no rung files, hence no sweeps
  const gpu_api::RungOps& ops = *r.ops;
  if (ops.sweep_blocks.empty() && ops.sweep_chunks.empty()) return;
  measure::Sweep sw;
  std::vector<std::int64_t> blocks(ops.sweep_blocks.begin(), ops.sweep_blocks.end());
  if (blocks.empty()) blocks.push_back(r.defaults.block);
  sw.add_int_axis("block", blocks);
  if (!ops.sweep_chunks.empty()) sw.add_int_axis("chunk", ops.sweep_chunks);
  else if (s.defaults.has("chunk")) sw.add_axis("chunk", {s.defaults.at("chunk")});  // "one wave", or the default
  s.sweep = sw;
  const std::int64_t words = (static_cast<std::int64_t>(k) + 31) / 32;
  const auto guard = [words](const measure::Point& pt) {
    const std::int64_t b = pt.get_int("block");
    return (words + b - 1) / b * b - words;
  };
  s.tie_rule = measure::TieRule::prefer_larger("chunk");
  if (ops.sweep_chunks.empty()) {
    s.tie_rule = measure::TieRule::prefer_larger("block");
  } else if (!ops.sweep_blocks.empty()) {
    s.tie_rule.preference = "fewest idle guard threads, then larger chunk";
    s.tie_rule.prefer = [guard](const measure::Point& a, const measure::Point& b) {
      if (guard(a) != guard(b)) return guard(a) < guard(b);
      return a.get_int("chunk") > b.get_int("chunk");
    };
  }
}

}  // namespace

measure::RungSpec rung_spec(const RungInfo& r, std::uint32_t k) {
  measure::RungSpec s;
  s.id = r.id;
  s.slug = r.variant();
  s.technique = r.technique;
  if (!r.predecessor.empty()) s.predecessor = find_rung(r.predecessor).variant();
  s.position = r.rung;
  s.backend = "cuda";
  s.defaults = config_point(r, r.defaults);
  for (const Config& c : r.validation) s.validation_configs.push_back(config_point(r, c));
  s.baseline = r.id == baseline_rung().id;
  s.config_from = r.geometry_of;  // g03, g04 at g02's choice, g09 at g08's: "x previous" measures the technique
  s.sweep_sets_row = !r.tuned_by.empty();  // g13's and g15's sweeps inform; their rows stay at the defaults
  s.output = "d_answer[0..K): the count of each shift, every one written";
  s.impl = &r;
  add_sweep(s, r, k);
  return s;
}

measure::Ladder make_ladder(const std::vector<const RungInfo*>& rs, std::uint32_t k) {
  measure::Ladder lad{kExperiment, {}};
  for (const RungInfo* r : rs) lad.rungs.push_back(rung_spec(*r, k));
  lad.check();
  return lad;
}

}  // namespace joseki::abc471g::ladder
