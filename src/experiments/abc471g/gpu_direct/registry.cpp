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
                       {__VA_ARGS__}});
#include "experiments/abc471g/gpu_direct/rungs.def"
#undef JK_RUNG
  for (std::size_t i = 0; i < v.size(); ++i) v[i].rung = static_cast<int>(i + 1);
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

LadderConfig ladder_config(const RungInfo& r, const Tuned& tuned) {
  const RungInfo& src = geometry_source(r);
  const std::string as = &src == &r ? "" : fmt::format(" (the geometry of {})", src.id);
  if (const auto t = tuned.find(src.id); t != tuned.end())
    return {t->second, fmt::format("tie rule of this run's sweep of {}{}", src.id, as)};
  if (!src.tuned_by.empty()) return {src.defaults, fmt::format("defaults chosen by {}{}", src.tuned_by, as)};
  return {src.defaults, &src == &r ? "defaults" : fmt::format("defaults of {}", src.id)};
}

std::optional<Config> chosen_config(const RungInfo& r, const std::vector<measure::Record>& sweep) {
  for (const measure::Record& rec : sweep) {
    if (!rec.ladder.chosen) continue;
    Config c = r.defaults;
    if (rec.axes.has("block")) c.block = static_cast<int>(rec.axes.get_int("block"));
    if (rec.axes.has("chunk") && std::holds_alternative<std::int64_t>(rec.axes.at("chunk")))
      c.chunk = rec.axes.get_int("chunk");  // g13's "one wave" is not a chunk
    return c;
  }
  return std::nullopt;
}
const RungInfo& baseline_rung() { return find_rung("g01"); }

#ifdef JOSEKI_HAVE_CUDA
bool built_with_cuda() { return true; }

const gpu_api::RungOps& ops_of(const RungInfo& r) {
  static const std::map<std::string, gpu_api::RungOps> ops = [] {
    std::map<std::string, gpu_api::RungOps> m;
#define JK_RUNG(id_, ...) m[#id_] = gpu::id_##_ops();
#include "experiments/abc471g/gpu_direct/rungs.def"
#undef JK_RUNG
    return m;
  }();
  return ops.at(r.id);
}
#else
bool built_with_cuda() { return false; }
#endif

Shape shape_of(const Problem& p) { return Shape{p.n, p.k, p.m()}; }

std::string check(const RungInfo& r, const Shape& s, const Config& c) {
  if (s.n < 1 || s.k < 1 || s.m < 1 || s.m > s.n)
    return fmt::format("shape N = {}, K = {}, M = {} is not a problem", s.n, s.k, s.m);
  if (s.n > kMaxN) return fmt::format("N = {} above 2^32 (the GPU rungs count in 32 bits)", s.n);
#ifdef JOSEKI_HAVE_CUDA
  return ops_of(r).check(s, c);
#else
  (void)r;
  (void)c;
  return "this joseki was built without CUDA";
#endif
}

std::vector<Config> validation_configs(const RungInfo& r) {
  std::vector<Config> v{r.defaults};
  v.insert(v.end(), r.validation.begin(), r.validation.end());
  return v;
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
