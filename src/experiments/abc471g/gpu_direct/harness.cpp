// The direct ladder's CUDA Runner (measure::Runner): run_ladder (measure/ladder.cpp) drives the
// validation, the sweeps with their tie rules, the timing and the ratios; this file only says how a
// rung runs on the suite and the timed case, how it is compared and how it is timed. Every timed
// configuration is validated on the timed case first; a failure is recorded, never hidden.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_direct/ladder_internal.hpp"
#include "measure/errors.hpp"

namespace joseki::abc471g::ladder {

measure::Point case_workload(const gpu_cases::Case& c) {
  measure::Point w;
  w.set("case", c.name);
  w.set("n", static_cast<std::int64_t>(c.problem.n));
  w.set("k", static_cast<std::int64_t>(c.problem.k));
  w.set("m", static_cast<std::int64_t>(c.problem.m()));
  return w;
}

std::vector<gpu_cases::Case> validation_suite(std::vector<std::string>& notes) {
  const std::string dir = gpu_cases::testdata_dir();
  std::vector<gpu_cases::Case> cases = gpu_cases::load_vectors(dir);
  if (cases.empty())
    notes.push_back(fmt::format("test vectors: none found in '{}' (set JOSEKI_TESTDATA to their folder)", dir));
  else
    notes.push_back(fmt::format("test vectors: {} from '{}'", cases.size(), dir));
  for (auto& c : gpu_cases::edge_cases()) cases.push_back(std::move(c));
  return cases;
}

struct DirectRunner::Impl {
  struct Item {
    gpu_cases::Case c;
    Answer want;
    std::unique_ptr<DeviceCase> dc;  // uploaded at its first run
    Answer got;
    bool ran = false;
  };
  int device = 0;
  std::vector<Item> suite;
  std::optional<Item> timed;
  const std::vector<std::uint32_t>* timed_a = nullptr;
  const RungInfo* rung = nullptr;
  Config cfg;
  bool with_timed = false;
  std::set<std::string> validated_timed;  // "variant|block|chunk" compared exact on the timed case
  std::map<std::string, int> runs;

  std::string key() const { return fmt::format("{}|{}|{}", rung->variant(), cfg.block, cfg.chunk); }
  DeviceCase& dc_of(Item& it, const std::vector<std::uint32_t>* a = nullptr) {
    if (!it.dc) it.dc = std::make_unique<DeviceCase>(it.c.problem, device, a);
    return *it.dc;
  }
  bool fits(const Item& it) const { return check(*rung, shape_of(it.c.problem), cfg).empty(); }
  // The small configurations of rungs.def cut small inputs into many chunks; on the timed case
  // (the max case) they would be slow or huge (g02 at chunk 7: 9 GB of partial counts).
  bool validation_only() const {
    if (cfg.block == rung->defaults.block && cfg.chunk == rung->defaults.chunk) return false;
    return std::any_of(rung->validation.begin(), rung->validation.end(),
                       [&](const Config& v) { return v.block == cfg.block && v.chunk == cfg.chunk; });
  }
  void run_one(Item& it, DeviceCase& dc) {
    it.got = dc.run(*rung, cfg);
    it.ran = true;
    ++runs[rung->variant()];
  }
  std::string compare_one(const Item& it) const {
    const std::string diff = gpu_cases::compare_answers(it.got, it.want);
    return diff.empty() ? "" : fmt::format("case {} at block {} chunk {}: {}", it.c.name, cfg.block, cfg.chunk, diff);
  }
};

DirectRunner::DirectRunner(std::vector<gpu_cases::Case> suite, std::optional<gpu_cases::Case> timed, int device,
                           const std::vector<std::uint32_t>* timed_a, const Answer* timed_reference)
    : m(std::make_unique<Impl>()) {
  if (!built_with_cuda()) throw GpuUnavailable("this joseki was built without CUDA: the GPU ladder cannot run");
  joseki::gpu::require_device(device);
  m->device = device;
  for (gpu_cases::Case& c : suite) {
    Answer want = c.expected ? *c.expected : gpu_cases::reference_answer(c.problem);
    m->suite.push_back({std::move(c), std::move(want), nullptr, {}, false});
  }
  if (timed) {
    Answer want = timed->expected ? *timed->expected
                  : timed_reference ? *timed_reference
                  : timed_a         ? gpu_cases::reference_answer(timed->problem, *timed_a)
                                    : gpu_cases::reference_answer(timed->problem);
    m->timed = Impl::Item{std::move(*timed), std::move(want), nullptr, {}, false};
    m->timed_a = timed_a;
    m->dc_of(*m->timed, timed_a);
  }
}

DirectRunner::~DirectRunner() = default;

measure::DeviceFacts DirectRunner::device() const { return joseki::gpu::device_facts(m->device); }

std::optional<std::string> DirectRunner::setup(const measure::RungSpec& spec, const measure::Point& config) {
  m->rung = std::any_cast<const RungInfo*>(spec.impl);
  m->cfg = config_of(*m->rung, config);
  m->with_timed = m->timed && !m->validation_only();
  if (m->with_timed) {
    if (std::string why = check(*m->rung, shape_of(m->timed->c.problem), m->cfg); !why.empty()) return why;
    return std::nullopt;
  }
  std::string first;
  for (const Impl::Item& it : m->suite) {
    const std::string why = check(*m->rung, shape_of(it.c.problem), m->cfg);
    if (why.empty()) return std::nullopt;
    if (first.empty()) first = why;
  }
  return m->suite.empty() ? "no validation case" : "no case of the validation suite fits: " + first;
}

void DirectRunner::run() {
  for (Impl::Item& it : m->suite) {
    it.ran = false;
    if (m->fits(it)) m->run_one(it, m->dc_of(it));
  }
  if (m->with_timed) m->run_one(*m->timed, *m->timed->dc);
}

std::string DirectRunner::compare() {
  for (const Impl::Item& it : m->suite)
    if (it.ran)
      if (std::string d = m->compare_one(it); !d.empty()) return d;
  if (m->with_timed) {
    if (std::string d = m->compare_one(*m->timed); !d.empty()) return d;
    m->validated_timed.insert(m->key());
  }
  return "";
}

std::optional<measure::Measurement> DirectRunner::measure(measure::Mode mode, const measure::StoppingRule& rule,
                                                          const measure::WarmUp& warmup) {
  if (!m->timed) throw std::logic_error("DirectRunner: no timed case");
  if (!m->validated_timed.count(m->key())) {  // e.g. a row at a configuration only the suite saw
    m->run_one(*m->timed, *m->timed->dc);
    if (std::string d = m->compare_one(*m->timed); !d.empty()) throw ValidationError(d);
    m->validated_timed.insert(m->key());
  }
  return m->timed->dc->time(*m->rung, m->cfg, mode, rule, warmup);
}

double DirectRunner::timed_run() {
  if (!m->timed) throw std::logic_error("DirectRunner: no timed case");
  return m->timed->dc->time_once(*m->rung, m->cfg);
}

void DirectRunner::flush() {
  if (m->timed) m->timed->dc->flush_l2();
}

// Work: N x K lane steps. Not a bandwidth ladder: what must cross device memory (A or b read once,
// V, the answers) is a few MB, 0.1-4 % of the datasheet bandwidth on the H200 at every rung, so no
// bytes are recorded and tables show the lane-step rate, not a meaningless GB/s.
measure::Work DirectRunner::work() const {
  measure::Work w;
  if (m->timed) w.elements = static_cast<double>(m->timed->c.problem.n) * m->timed->c.problem.k;
  return w;
}

const std::map<std::string, int>& DirectRunner::runs_per_rung() const { return m->runs; }
int DirectRunner::cases() const { return static_cast<int>(m->suite.size()) + (m->timed ? 1 : 0); }

}  // namespace joseki::abc471g::ladder
