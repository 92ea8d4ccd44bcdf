#include "experiments/probes/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "measure/enum_names.hpp"
#include "measure/stats.hpp"
#include "measure/table.hpp"

namespace joseki::probes {

const char* to_string(Verdict v) {
  static constexpr measure::EnumName<Verdict> names[] = {
      {Verdict::Holds, "holds"}, {Verdict::DoesNotHold, "does not hold"}, {Verdict::Depends, "depends"}};
  return measure::enum_name(v, names);
}

Verdict sum_of_paths_verdict(double t_div, double t_a, double t_b, double tol) {
  const double sum = t_a + t_b, mx = std::max(t_a, t_b);
  if (std::fabs(t_div / sum - 1.0) <= tol) return Verdict::Holds;
  if (std::fabs(t_div / mx - 1.0) <= tol) return Verdict::DoesNotHold;
  return Verdict::Depends;
}

int sectors_per_request(std::int64_t stride_words, std::int64_t offset_words) {
  std::set<std::int64_t> sectors;
  for (std::int64_t lane = 0; lane < 32; ++lane) sectors.insert((offset_words + lane * stride_words) * 4 / 32);
  return static_cast<int>(sectors.size());
}

int bank_conflict_degree(std::int64_t stride) {
  if (stride == 0) return 1;
  return static_cast<int>(std::gcd(std::llabs(stride), std::int64_t{32}));
}

double bank_model_deviation(const std::vector<std::int64_t>& strides, const std::vector<double>& cycles) {
  if (strides.size() != cycles.size() || strides.empty()) throw std::invalid_argument("bank_model_deviation: sizes");
  double c1 = 0;
  for (std::size_t i = 0; i < strides.size(); ++i)
    if (strides[i] == 1) c1 = cycles[i];
  if (c1 <= 0) throw std::invalid_argument("bank_model_deviation: needs stride 1");
  double worst = 0;
  for (std::size_t i = 0; i < strides.size(); ++i)
    worst = std::max(worst, std::fabs(cycles[i] / c1 / bank_conflict_degree(strides[i]) - 1.0));
  return worst;
}

std::vector<std::uint32_t> chase_order(std::uint32_t n, std::uint64_t seed) {
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937_64 rng(seed);
  // Sattolo: swapping only with earlier positions makes one cycle of length n.
  for (std::uint32_t i = n; i > 1; --i) {
    const std::uint32_t j = static_cast<std::uint32_t>(rng() % (i - 1));
    std::swap(order[i - 1], order[j]);
  }
  return order;
}

std::vector<std::uint32_t> next_from_order(const std::vector<std::uint32_t>& order) {
  std::vector<std::uint32_t> next(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) next[order[k]] = order[(k + 1) % order.size()];
  return next;
}

bool is_single_cycle(const std::vector<std::uint32_t>& next) {
  if (next.empty()) return false;
  std::vector<bool> seen(next.size(), false);
  std::uint32_t x = 0;
  for (std::size_t steps = 0; steps < next.size(); ++steps) {
    if (x >= next.size() || seen[x]) return false;
    seen[x] = true;
    x = next[x];
  }
  return x == 0;
}

std::vector<Level> find_levels(const std::vector<double>& values, double jump) {
  std::vector<Level> out;
  if (values.empty()) return out;
  std::size_t start = 0;
  auto close = [&](std::size_t last) {
    Level l;
    l.first = start;
    l.last = last;
    l.value = measure::median_of(std::vector<double>(values.begin() + static_cast<long>(start),
                                                     values.begin() + static_cast<long>(last) + 1));
    out.push_back(l);
  };
  for (std::size_t i = 1; i < values.size(); ++i)
    if (values[i] > values[start] * jump) {
      close(i - 1);
      start = i;
    }
  close(values.size() - 1);
  return out;
}

std::vector<NamedLevel> name_latency_levels(const std::vector<double>& ws, const std::vector<double>& values,
                                            double l1_bytes, double l2_bytes, double jump) {
  if (ws.size() != values.size()) throw std::invalid_argument("name_latency_levels: sizes");
  std::vector<NamedLevel> out;
  int l2_count = 0, hbm_count = 0;
  const std::vector<Level> levels = find_levels(values, jump);
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const Level& lv = levels[i];
    const bool last = i + 1 == levels.size();
    if (lv.last == lv.first && !last) continue;  // a transition between plateaus
    NamedLevel n;
    n.level = lv;
    n.from_ws = ws[lv.first];
    n.to_ws = ws[lv.last];
    const double mid = std::sqrt(n.from_ws * n.to_ws);  // where the level lies, on the log scale
    if (n.from_ws <= l1_bytes) {
      n.name = "L1";
    } else if (mid <= l2_bytes && (l2_count == 0 || n.to_ws <= l2_bytes)) {
      // A second plateau counts as L2 only while it stays within the L2's capacity; one that runs
      // past it (H200, 2026-11-30: 32..90.5 MiB with a 60 MiB L2) is the way into HBM.
      n.name = l2_count++ ? "L2 (second plateau)" : "L2";
    } else if (mid < 2 * l2_bytes && !last) {
      n.name = "L2 + HBM mix";
    } else {
      n.name = hbm_count++ ? "HBM + TLB misses" : "HBM";
    }
    out.push_back(n);
  }
  return out;
}

double occupancy_needed(const std::vector<double>& occ, const std::vector<double>& rate, double fraction) {
  if (occ.size() != rate.size() || occ.empty()) return -1;
  const double best = *std::max_element(rate.begin(), rate.end());
  double needed = -1;
  for (std::size_t i = 0; i < occ.size(); ++i)
    if (rate[i] >= fraction * best && (needed < 0 || occ[i] < needed)) needed = occ[i];
  return needed;
}

Verdict memory_occupancy_verdict(double needed_no_ilp, double needed_ilp) {
  constexpr double eps = 1e-9;
  if (needed_no_ilp < 0.5 - eps) return Verdict::DoesNotHold;
  if (needed_ilp >= 0 && needed_ilp < 0.5 - eps) return Verdict::Depends;
  return Verdict::Holds;
}

Verdict compute_occupancy_verdict(double needed_ilp) {
  return needed_ilp >= 0 && needed_ilp <= 0.25 + 1e-9 ? Verdict::Holds : Verdict::DoesNotHold;
}

std::int64_t max_dynamic_smem(const SmemLimits& l) {
  return std::max<std::int64_t>(0, l.optin_per_block - l.static_per_block);
}

std::int64_t smem_for_blocks(const SmemLimits& l, int blocks) {
  if (blocks < 1) throw std::invalid_argument("smem_for_blocks: blocks < 1");
  if (l.granularity < 1 || l.per_sm < 1) throw std::invalid_argument("smem_for_blocks: limits not set");
  const std::int64_t per = (l.per_sm / blocks) / l.granularity * l.granularity;  // one block's share, whole units
  const std::int64_t dyn = (per - l.reserved_per_block - l.static_per_block) / l.granularity * l.granularity;
  return std::clamp<std::int64_t>(dyn, 0, max_dynamic_smem(l));
}

int blocks_by_smem(const SmemLimits& l, std::int64_t dynamic_bytes) {
  if (dynamic_bytes < 0 || dynamic_bytes > max_dynamic_smem(l)) return 0;
  const std::int64_t need = l.static_per_block + dynamic_bytes + l.reserved_per_block;
  const std::int64_t unit = std::max<std::int64_t>(1, l.granularity);
  const std::int64_t alloc = (need + unit - 1) / unit * unit;
  return alloc > 0 ? static_cast<int>(l.per_sm / alloc) : 0;
}

std::string unit_time(double seconds) {
  if (seconds > 0 && seconds < 1e-9) return fmt::format("{:.3g} ps", seconds * 1e12);
  if (seconds >= 1e-9 && seconds < 1e-8) return fmt::format("{:.3g} ns", seconds * 1e9);
  return measure::format_time(seconds);
}

std::vector<std::string> ranking_of(const std::vector<std::pair<std::string, double>>& times) {
  std::vector<std::pair<std::string, double>> v = times;
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  std::vector<std::string> out;
  for (const auto& [name, t] : v) out.push_back(name);
  return out;
}

ReducePrediction predict_reduce(const UnitCosts& c, double n, int block, int blocks_per_sm) {
  if (block < 32 || (block & (block - 1)) != 0) throw std::invalid_argument("predict_reduce: block must be 2^k >= 32");
  const auto format_time = unit_time;
  const double mem = n * c.global_load_elem_s;
  const double launches = 2 * c.launch_s;  // the rung's memset + its kernel
  const int levels = static_cast<int>(std::lround(std::log2(block)));
  const double resident = std::max(1, 2048 / block);  // blocks of `block` threads per SM at full occupancy
  ReducePrediction p;
  {
    const double atomics = n / 32 * c.atomic_same_op_s;
    p.rungs.push_back({"r01", std::max(mem, atomics) + launches,
                       fmt::format("max(read {} = n x {}, atomics {} = n/32 x {}) + 2 launches {}", format_time(mem),
                                   format_time(c.global_load_elem_s), format_time(atomics),
                                   format_time(c.atomic_same_op_s), format_time(launches))});
  }
  {
    const double blocks = std::ceil(n / block);
    const double atomics = blocks * c.atomic_same_op_s;
    const double barriers = blocks * levels * c.barrier_s / (c.sms * resident);
    p.rungs.push_back({"r02", std::max({mem, atomics, barriers}) + launches,
                       fmt::format("max(read {}, atomics {} = {:.0f} blocks x {}, barriers {} = {:.0f} blocks x {} "
                                   "levels x {} / ({} SMs x {:.0f} resident)) + 2 launches {}",
                                   format_time(mem), format_time(atomics), blocks, format_time(c.atomic_same_op_s),
                                   format_time(barriers), blocks, levels, format_time(c.barrier_s), c.sms, resident,
                                   format_time(launches))});
  }
  {
    const double blocks = static_cast<double>(c.sms) * blocks_per_sm;
    const double atomics = blocks * c.atomic_same_op_s;
    const double barriers = levels * c.barrier_s;
    p.rungs.push_back({"r03", std::max({mem, atomics, barriers}) + launches,
                       fmt::format("max(read {}, atomics {} = {:.0f} blocks x {}, barriers {} = {} levels x {}) "
                                   "+ 2 launches {}",
                                   format_time(mem), format_time(atomics), blocks, format_time(c.atomic_same_op_s),
                                   format_time(barriers), levels, format_time(c.barrier_s), format_time(launches))});
  }
  std::vector<std::pair<std::string, double>> t;
  for (const auto& r : p.rungs) t.emplace_back(r.rung, r.time_s);
  p.ranking = ranking_of(t);
  return p;
}

}  // namespace joseki::probes
