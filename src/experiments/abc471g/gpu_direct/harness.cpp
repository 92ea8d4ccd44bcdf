// Validation, timing and sweeps of the GPU ladder. Every timed configuration is run once with a
// poisoned output and compared exactly with the reference before it is timed; a failure is
// recorded (validation "failed: ...", not timed), never hidden.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_direct/ladder_internal.hpp"
#include "measure/errors.hpp"
#include "measure/ladder.hpp"
#include "measure/sweep.hpp"
#include "measure/throughput.hpp"

namespace joseki::abc471g::ladder {

namespace {

measure::Record base_record(const RungInfo& r, const Problem& p, const std::string& case_name, const Config& c,
                            const TimingOptions& opt) {
  measure::Record rec;
  rec.experiment = kExperiment;
  rec.variant = r.variant();
  rec.rung = r.rung;
  rec.technique = r.technique;
  rec.backend = "cuda";
  rec.scope = "GPU_COMPUTE";
  rec.mode = measure::to_string(opt.mode);
  rec.axes.set("case", case_name);
  rec.axes.set("n", static_cast<std::int64_t>(p.n));
  rec.axes.set("k", static_cast<std::int64_t>(p.k));
  rec.axes.set("m", static_cast<std::int64_t>(p.m()));
  const measure::Point knobs = config_point(r, c);
  for (const auto& [name, v] : knobs.values()) rec.axes.set(name, v);
  rec.extra["a_source"] = r.a_on_device ? "generated on the GPU" : "generated on the host, copied";
  rec.extra["predecessor"] = r.predecessor;
  if (r.seed_ms > 0) rec.extra["seed_laptop_ms"] = r.seed_ms;
  rec.extra["seed_note"] = r.seed_note;
  return rec;
}

// Work: N x K lane steps. Not a bandwidth ladder: what must cross device memory (A or b read once,
// V, the answers) is a few MB, 0.1-4 % of the datasheet bandwidth on the H200 at every rung, so no
// bytes are recorded and tables show the lane-step rate, not a meaningless GB/s.
measure::Throughput throughput_of(const RungInfo&, const Problem& p, double time_s, int device) {
  measure::Work w;
  w.elements = static_cast<double>(p.n) * p.k;
  const measure::DeviceFacts d = joseki::gpu::device_facts(device);
  return measure::throughput(w, time_s, d.datasheet_bw_Bps());
}

// Runs once, compares; "" when exact.
std::string run_and_compare(DeviceCase& dc, const RungInfo& r, const Config& c, const Answer& want) {
  const std::string diff = gpu_cases::compare_answers(dc.run(r, c), want);
  return diff.empty() ? "" : fmt::format("{} at block {} chunk {}: {}", r.id, c.block, c.chunk, diff);
}

}  // namespace

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

ValidationReport validate(const std::vector<const RungInfo*>& rs, const std::vector<gpu_cases::Case>& cases,
                          int device, const Note& note) {
  ValidationReport rep;
  for (const gpu_cases::Case& c : cases) {
    const Answer want = c.expected ? *c.expected : gpu_cases::reference_answer(c.problem);
    DeviceCase dc(c.problem, device);
    ++rep.cases;
    for (const RungInfo* r : rs) {
      if (rep.failures.count(r->id)) continue;  // one failure per rung is enough to report
      for (const Config& cfg : validation_configs(*r)) {
        if (!check(*r, shape_of(c.problem), cfg).empty()) continue;  // e.g. K above the blocked rungs' limit
        const std::string diff = run_and_compare(dc, *r, cfg, want);
        ++rep.runs;
        ++rep.runs_per_rung[r->id];
        if (!diff.empty()) {
          rep.failures[r->id] = fmt::format("case {}: {}", c.name, diff);
          if (note) note("validation FAILED: " + rep.failures[r->id]);
          break;
        }
      }
    }
  }
  if (note) note(fmt::format("validation: {} runs on {} cases, {} rungs failed", rep.runs, rep.cases, rep.failures.size()));
  return rep;
}

std::vector<measure::Record> time_rungs(const std::vector<const RungInfo*>& rs, DeviceCase& dc,
                                        const std::string& case_name, const Answer& reference,
                                        const ValidationReport& validated, const TimingOptions& opt, const Note& note,
                                        const Tuned& tuned) {
  const Problem& p = dc.problem();
  std::vector<measure::Record> out;
  for (const RungInfo* r : rs) {
    const LadderConfig lc = ladder_config(*r, tuned);
    const Config cfg = lc.config;
    measure::Record rec = base_record(*r, p, case_name, cfg, opt);
    if (!r->predecessor.empty()) rec.ladder.previous = find_rung(r->predecessor).variant();
    rec.extra["geometry"] = lc.source;
    rec.extra["validated_runs"] = validated.runs_per_rung.count(r->id) ? validated.runs_per_rung.at(r->id) : 0;
    if (auto f = validated.failures.find(r->id); f != validated.failures.end()) {
      rec.validation = "failed: " + f->second;
      rec.skipped = "failed validation: not timed";
      out.push_back(std::move(rec));
      continue;
    }
    if (const std::string why = check(*r, shape_of(p), cfg); !why.empty()) {
      rec.validation = "not-applicable";
      rec.skipped = why;
      out.push_back(std::move(rec));
      continue;
    }
    if (note) note(fmt::format("{} {} (block {}, chunk {}): validating and timing ...", r->id, r->name, cfg.block, cfg.chunk));
    if (const std::string diff = run_and_compare(dc, *r, cfg, reference); !diff.empty()) {
      rec.validation = "failed: " + diff;
      rec.skipped = "failed validation: not timed";
      out.push_back(std::move(rec));
      continue;
    }
    rec.validation = "exact";
    const measure::Measurement m = dc.time(*r, cfg, opt.mode, opt.rule);
    rec.set_measurement(m);
    rec.throughput = throughput_of(*r, p, m.stats.median, opt.device);
    out.push_back(std::move(rec));
  }
  for (measure::Record& rec : out)
    if (!rec.skipped) rec.ladder.baseline = baseline_rung().variant();
  measure::add_ladder_ratios(out, baseline_rung().variant());  // one case, one mode: one group
  return out;
}

bool has_sweep(const RungInfo& r) {
#ifdef JOSEKI_HAVE_CUDA
  const gpu_api::RungOps& o = ops_of(r);
  return !o.sweep_blocks.empty() || !o.sweep_chunks.empty();
#else
  (void)r;
  return false;
#endif
}

std::vector<measure::Record> sweep_rung(const RungInfo& r, DeviceCase& dc, const std::string& case_name,
                                        const Answer& reference, const TimingOptions& opt, const Note& note) {
  std::vector<measure::Record> out;
#ifdef JOSEKI_HAVE_CUDA
  const gpu_api::RungOps& ops = ops_of(r);
  if (ops.sweep_blocks.empty() && ops.sweep_chunks.empty()) return out;
  const Problem& p = dc.problem();
  const Shape shape = shape_of(p);
  measure::Sweep sw;
  std::vector<std::int64_t> blocks(ops.sweep_blocks.begin(), ops.sweep_blocks.end());
  if (blocks.empty()) blocks.push_back(r.defaults.block);
  sw.add_int_axis("block", blocks);
  if (!ops.sweep_chunks.empty()) sw.add_int_axis("chunk", ops.sweep_chunks);
  const auto config_of = [&](const measure::Point& pt) {
    Config c = r.defaults;
    c.block = static_cast<int>(pt.get_int("block"));
    if (pt.has("chunk")) c.chunk = pt.get_int("chunk");
    return c;
  };
  sw.skip_if([&](const measure::Point& pt) -> std::optional<std::string> {
    const std::string why = check(r, shape, config_of(pt));
    return why.empty() ? std::nullopt : std::optional<std::string>(why);
  });
  // The tie rule (within 2% of the fastest): the seed's "larger chunk" (fewer partials to reduce);
  // with a block axis first the fewest idle guard threads (threads past the W = ceil(K/32) words
  // of a chunk), as the seed chose 72 over 96; for the one-wave rung the larger block.
  const std::int64_t words = (p.k + 31) / 32;
  const auto guard = [&](const measure::Point& pt) {
    const std::int64_t b = pt.get_int("block");
    return (words + b - 1) / b * b - words;
  };
  measure::TieRule rule = measure::TieRule::prefer_larger("chunk");
  if (ops.sweep_chunks.empty()) {
    rule = measure::TieRule::prefer_larger("block");
  } else if (!ops.sweep_blocks.empty()) {
    rule.preference = "fewest idle guard threads, then larger chunk";
    rule.prefer = [guard](const measure::Point& a, const measure::Point& b) {
      if (guard(a) != guard(b)) return guard(a) < guard(b);
      return a.get_int("chunk") > b.get_int("chunk");
    };
  }
  std::vector<measure::Candidate> cands;
  std::vector<std::size_t> cand_rec;
  for (const measure::SweepPoint& sp : sw.points()) {
    const Config cfg = config_of(sp.point);
    measure::Record rec = base_record(r, p, case_name, cfg, opt);
    rec.rung = -1;
    rec.ladder.sweep = ops.sweep_name;
    rec.extra["rung_id"] = r.id;
    rec.ladder.chosen = false;
    // Guard threads only mean something where a chunk's words are dealt to a block (the block x
    // chunk sweep); the one-wave rungs' blocks walk element streams instead.
    if (!ops.sweep_blocks.empty() && !ops.sweep_chunks.empty())
      rec.extra["idle_guard_threads_per_chunk"] = guard(sp.point);
    if (sp.skip_reason) {
      rec.validation = "not-applicable";
      rec.skipped = *sp.skip_reason;
      out.push_back(std::move(rec));
      continue;
    }
    if (note) note(fmt::format("sweep {}: {}", ops.sweep_name, sp.point.label()));
    if (const std::string diff = run_and_compare(dc, r, cfg, reference); !diff.empty()) {
      rec.validation = "failed: " + diff;
      rec.skipped = "failed validation: not timed";
      out.push_back(std::move(rec));
      continue;
    }
    rec.validation = "exact";
    const measure::Measurement m = dc.time(r, cfg, opt.mode, opt.rule);
    rec.set_measurement(m);
    rec.throughput = throughput_of(r, p, m.stats.median, opt.device);
    cands.push_back({sp.point, m.stats.median});
    cand_rec.push_back(out.size());
    out.push_back(std::move(rec));
  }
  if (!cands.empty()) {
    const measure::TieChoice choice = measure::choose(rule, cands);
    measure::Record& chosen = out[cand_rec[choice.chosen]];
    chosen.ladder.chosen = true;
    chosen.ladder.tie_rule = choice.explanation;
    const double best = cands[choice.fastest].time_s;
    for (std::size_t i = 0; i < cands.size(); ++i) out[cand_rec[i]].extra["vs_fastest"] = cands[i].time_s / best;
  }
#else
  (void)r, (void)dc, (void)case_name, (void)reference, (void)opt, (void)note;
#endif
  return out;
}

}  // namespace joseki::abc471g::ladder
