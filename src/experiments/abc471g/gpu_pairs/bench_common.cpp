// Shared pieces of the gpu-pairs benchmarks: references, answer comparison, temp inputs,
// EXTERNAL sampling and scope records (bench.hpp, bench_util.hpp).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "measure/clock.hpp"
#include "experiments/abc471g/gpu_pairs/bench.hpp"
#include "experiments/abc471g/gpu_pairs/bench_util.hpp"
#include "experiments/abc471g/cost/costs.hpp"
#include "experiments/abc471g/gpu_pairs/reference.hpp"
#include "backend/gpu.hpp"
#include "measure/errors.hpp"
#include "measure/four_scopes.hpp"
#include "measure/scopes.hpp"
#include "measure/stats.hpp"
#include "measure/throughput.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "experiments/abc471g/gpu_pairs/pipeline_cuda.hpp"
#endif

namespace joseki::abc471g::pairs {

namespace {
using measure::now_s;
bool registered(const std::string& name) {
  for (const Solver& s : solver_registry())
    if (s.name == name) return true;
  return false;
}
}  // namespace

Reference reference_answer(const Problem& p) {
  Reference r;
  const double t0 = now_s();
  const double work = static_cast<double>(p.n) * p.k;
  std::string name;
  if (work <= 2e8 && registered("brute")) name = "brute";
  else if (registered("cpu-direct") && work <= 5e12) name = "cpu-direct";
  else if (registered("cpu-pairs") && p.k <= 8192) name = "cpu-pairs";
  if (!name.empty()) {
    r.answer = find_solver(name).solve(p, SolveOptions{}).answer;
    r.name = name;
  } else {
    r.answer = solve_pairs_reference(p);
    r.name = "pairs-reference (CPU table + host NTT)";
  }
  r.seconds = now_s() - t0;
  return r;
}

std::string compare_answers(const Answer& got, const Answer& want) {
  if (got.size() != want.size()) return fmt::format("{} answers, expected {}", got.size(), want.size());
  std::string s;
  int shown = 0;
  std::size_t bad = 0;
  for (std::size_t k = 0; k < got.size(); ++k) {
    if (got[k] == want[k]) continue;
    ++bad;
    if (shown < 5) {
      s += fmt::format("{}k = {}: got {}, expected {}", shown ? "; " : "", k, got[k], want[k]);
      ++shown;
    }
  }
  if (bad > static_cast<std::size_t>(shown)) s += fmt::format("; {} mismatches in all", bad);
  return s;
}

std::pair<std::string, std::string> choose_calibrated(const Problem& p, const std::vector<std::string>& candidates) {
  return choose_calibrated(p, candidates, active_costs());
}

std::pair<std::string, std::string> choose_calibrated(const Problem& p, const std::vector<std::string>& candidates,
                                                      const CostModel& m) {
  std::string best, why = fmt::format("auto (calibrated, {}): N = {}, K = {}", m.source, p.n, p.k);
  double best_t = 0;
  for (const std::string& name : candidates) {
    const Solver* s = nullptr;
    for (const Solver& v : solver_registry())
      if (v.name == name) s = &v;
    if (!s) {
      why += fmt::format("\n  {:<12} not in this build", name);
      continue;
    }
    if (s->needs_gpu) {
      if (const std::string r = gpu_presence_reason(); !r.empty()) {
        why += fmt::format("\n  {:<12} not possible: {}", name, r);
        continue;
      }
    }
    const auto t = estimate_external(m, name, s->needs_gpu, static_cast<double>(p.n), p.k);
    if (!t) {
      why += fmt::format("\n  {:<12} not calibrated", name);
      continue;
    }
    why += fmt::format("\n  {:<12} ~{:.3f} ms  ({}{})", name, *t * 1e3, m.solvers.at(name).formula(),
                       s->needs_gpu ? fmt::format(" + GPU fixed {:.1f} ms", m.gpu_fixed_s() * 1e3) : "");
    if (best.empty() || *t < best_t) {
      best = name;
      best_t = *t;
    }
  }
  if (best.empty()) best = "cpu-direct";
  why += "\n  -> " + best;
  return {best, why};
}

namespace bench {

TempDir::TempDir() {
  const char* t = std::getenv("TMPDIR");
  std::string tmpl = std::string(t && *t ? t : "/tmp") + "/joseki-pairs-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) throw RunError("cannot create a temp folder under " + tmpl);
  m_path = buf.data();
}

TempDir::~TempDir() {
  for (const auto& f : m_files) std::remove(f.c_str());
  ::rmdir(m_path.c_str());
}

std::string TempDir::write(const std::string& name, const std::string& text) {
  const std::string path = m_path + "/" + name;
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw RunError("cannot write " + path);
  m_files.push_back(path);
  return path;
}

measure::Record base_record(const std::string& variant, const std::string& technique, const std::string& backend,
                            measure::Scope scope, const std::string& mode) {
  measure::Record r;
  r.experiment = "abc471g";
  r.variant = variant;
  r.technique = technique;
  r.backend = backend;
  r.scope = measure::to_string(scope);
  r.mode = mode;
  return r;
}

measure::Point problem_point(const Problem& p) {
  measure::Point x;
  x.set("n", static_cast<std::int64_t>(p.n)).set("k", static_cast<std::int64_t>(p.k)).set("m", static_cast<std::int64_t>(p.m()));
  return x;
}

void set_problem_axes(measure::Record& r, const Problem& p) {
  const measure::Point x = problem_point(p);
  for (const auto& [name, v] : x.values()) r.axes.set(name, v);
}

measure::Record skipped_record(measure::Record r, const std::string& why) {
  r.skipped = why;
  r.samples.clear();
  r.summary.reset();
  r.validation = "not-checked";
  return r;
}

double median(std::vector<double> v) { return v.empty() ? 0.0 : measure::median_of(std::move(v)); }

std::string fmt_n(std::uint64_t n) {
  int e = 0;
  std::uint64_t x = n;
  while (x >= 10 && x % 10 == 0) {
    x /= 10;
    ++e;
  }
  if (e >= 3) return x == 1 ? fmt::format("10^{}", e) : fmt::format("{}e{}", x, e);
  return std::to_string(n);
}

std::string now_id() { return measure::utc_now_iso8601(); }

std::vector<double> ExternalSet::scope(const std::string& name) const {
  if (name == "pre_main") return samples.pre_main;
  if (name == "post_main") return samples.post_main;
  for (measure::Scope sc : {measure::Scope::External, measure::Scope::Program, measure::Scope::GpuPipeline,
                            measure::Scope::GpuCompute})
    if (name == measure::to_string(sc)) return samples.of(sc) ? *samples.of(sc) : std::vector<double>{};
  const auto it = samples.phases.find(name);
  return it == samples.phases.end() ? std::vector<double>{} : it->second;
}

ExternalSet sample_external(const std::vector<std::string>& argv, const std::vector<std::pair<std::string, std::string>>& env,
                            int runs, const std::optional<std::string>& expected_stdout, double timeout_s,
                            const std::string& stdin_path) {
  ExternalSet set;
  TempDir dir;
  const std::string out_path = dir.write("stdout", "");
  const std::string err_path = dir.write("stderr", "");
  auto read = [](const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  };
  measure::FourScopesOptions o;
  o.spawn.argv = argv;
  o.spawn.env = env;
  o.spawn.stdin_path = stdin_path;
  o.spawn.stdout_path = out_path;
  o.spawn.stderr_path = err_path;
  o.spawn.timeout_s = timeout_s;
  o.what = argv.empty() ? "child" : argv.front();
  o.rule.min_samples = o.rule.max_samples = std::max(1, runs);  // exactly `runs` timed runs
  o.rule.min_time_s = 0;
  o.rule.timeout_s = 1e9;
  o.warmup = {1, 0};  // the first run is untimed (page cache, driver warm-up)
  o.check = [&](const measure::ExternalResult&) {
    set.stdout_text = read(out_path);
    if (expected_stdout && set.stdout_text != *expected_stdout)
      throw ValidationError("the output differs from the reference answer");
  };
  o.parent_context = [] { return std::optional<bool>(::joseki::gpu::holds_context()); };
  try {
    set.samples = measure::sample_four_scopes(o);
  } catch (const measure::ChildFailed& e) {
    set.stdout_text = read(out_path);
    if (e.timed_out) {
      set.failure = fmt::format("timed out after {:.1f} s", timeout_s);
    } else {
      std::string msg = read(err_path);
      if (msg.size() > 300) msg = msg.substr(msg.size() - 300);
      set.failure = fmt::format("exit {}{}: {}", e.exit_code, e.term_signal ? fmt::format(" (signal {})", e.term_signal) : "", msg);
    }
  } catch (const ValidationError& e) {
    set.failure = e.what();
  }
  return set;
}

std::vector<measure::Record> external_records(const ExternalSet& s, const std::string& variant,
                                              const std::string& technique, const std::string& scope_set,
                                              const measure::Point& axes) {
  measure::Record base = base_record(variant, technique, "process", measure::Scope::External, "");  // four_scope_records sets each record's scope
  base.axes = axes;
  base.validation = "exact";  // every run's output equalled the reference (sample_external checks)
  if (!s.samples.device_state.empty()) base.axes.set("device_state", s.samples.device_state);
  return measure::four_scope_records(s.samples, base, scope_set, /*part_records=*/false);
}

void mark_choice(std::vector<measure::Record>& points, const measure::TieRule& rule) {
  std::vector<measure::Candidate> cand;
  for (const measure::Record& r : points)
    if (r.summary) cand.push_back({r.axes, r.summary->median});
  if (cand.empty()) return;
  const measure::TieChoice ch = measure::choose(rule, cand);
  for (measure::Record& r : points) {
    const bool chosen = r.summary.has_value() && r.axes == cand[ch.chosen].point;
    r.ladder.chosen = chosen;
    if (chosen) r.ladder.tie_rule = ch.explanation;
  }
}

#ifdef JOSEKI_HAVE_CUDA
measure::Record time_solve(const Problem& p, const PairsConfig& cfg, const Answer& want, cuda::GpuTimer& timer,
                           const BenchOptions& o, measure::Record r) {
  PairsDevice dev(p, cfg, o.device);
  const cudaStream_t s = timer.stream();
  dev.poison(s);
  dev.enqueue_solve(s);
  const std::string diff = compare_answers(dev.download(s), want);
  if (!diff.empty()) {
    r.validation = "failed: " + diff;
    return r;
  }
  r.validation = "exact";
  r.set_measurement(timer.measure([&](cudaStream_t st) { dev.enqueue_solve(st); }, measure::Mode::Cold, o.rule));
  // The timed solves reuse the device's state (a fused count keeps its table zero): check the last one too.
  if (const std::string again = compare_answers(dev.download(s), want); !again.empty())
    r.validation = "failed after the timed runs: " + again;
  r.extra.update(solve_extras(dev, cfg));
  r.throughput = measure::throughput({static_cast<double>(dev.pairs()), 0}, r.summary->median);
  return r;
}

nlohmann::json solve_extras(const PairsDevice& dev, const PairsConfig& cfg) {
  nlohmann::json x = nlohmann::json::object();
  x["combiner"] = combiner_name(cfg.combiner);
  x["combine"] = dev.combine_description();
  x["fused"] = dev.fused();
  if (cfg.combiner == Combiner::Gemm && dev.gemm()) {
    x["gemm_load_s"] = dev.gemm_load_seconds();
    x["gemm_algo"] = dev.gemm_algo();
    x["persist_g"] = dev.persists_g();
  }
  x["pairs_per_thread"] = dev.pairs_per_thread();
  x["rounds"] = dev.rounds();
  x["counter"] = dev.counter_label();
  if (dev.counter() == Counter::Partition) {
    x["slice_cells"] = dev.slice_plan().size;
    x["slices"] = dev.slice_plan().slices;
    x["chunk_pairs"] = dev.chunk_pairs();
  }
  for (const auto& [key, value] : dev.count_extras()) x[key] = value;  // a count kind's facts (r08's layout)
  return x;
}
#endif

}  // namespace bench
}  // namespace joseki::abc471g::pairs
