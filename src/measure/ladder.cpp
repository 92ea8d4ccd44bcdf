#include "measure/ladder.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "measure/table.hpp"

namespace joseki::measure {

const RungSpec* Ladder::find(const std::string& name) const {
  for (const RungSpec& r : rungs)
    if (r.id == name || r.slug == name) return &r;
  return nullptr;
}

const RungSpec* Ladder::baseline() const {
  for (const RungSpec& r : rungs)
    if (r.baseline) return &r;
  return nullptr;
}

void Ladder::check() const {
  std::set<std::string> seen;
  int baselines = 0;
  for (const RungSpec& r : rungs) {
    if (r.id.empty() || r.slug.empty())
      throw std::invalid_argument(fmt::format("{}: a rung without id or slug ('{}', '{}')", experiment, r.id, r.slug));
    for (const std::string& name : {r.id, r.slug})
      if (!seen.insert(name).second && !(name == r.slug && r.slug == r.id))
        throw std::invalid_argument(fmt::format("{}: two rungs named '{}'", experiment, name));
    if (!r.predecessor.empty() && !seen.count(r.predecessor) && find(r.predecessor))
      throw std::invalid_argument(fmt::format("{}: {}'s predecessor '{}' is not an earlier rung", experiment, r.id,
                                              r.predecessor));
    baselines += r.baseline ? 1 : 0;
  }
  if (baselines > 1) throw std::invalid_argument(fmt::format("{}: {} rungs marked baseline", experiment, baselines));
}

Record rung_record(const std::string& experiment, const RungSpec& r, const std::string& backend, Scope scope,
                   const std::string& mode, const Point& workload, const Point& config,
                   const std::string& previous_slug) {
  Record rec;
  rec.experiment = experiment;
  rec.variant = r.slug;
  rec.rung = r.position;
  rec.technique = r.technique;
  rec.backend = backend;
  rec.scope = to_string(scope);
  rec.mode = mode;
  rec.axes = workload;
  for (const auto& [k, v] : config.values()) rec.axes.set(k, v);
  rec.ladder.previous = previous_slug;
  return rec;
}

Record skipped_rung_record(const std::string& experiment, const RungSpec& r, const Point& workload,
                           const std::string& mode, const std::string& why) {
  Record rec = rung_record(experiment, r, r.backend, r.backend == "cpu" ? Scope::CpuCompute : Scope::GpuCompute,
                           mode, workload, Point{}, r.predecessor);
  rec.skipped = why;
  return rec;
}

namespace {

class Driver {
 public:
  Driver(const Ladder& lad, const LadderOptions& opt, LadderResult& out) : m_lad(lad), m_opt(opt), m_out(out) {}

  // Validation and the sweep (phase 1), then the timed rows (phase 2). A ladder whose rungs borrow
  // sweep choices (config_from) runs phase 1 for every rung first.
  void prepare(const RungSpec& r, Runner* runner) {
    if (!runner) {
      const auto it = m_opt.no_runner_because.find(r.backend);
      return skip(r, it != m_opt.no_runner_because.end() ? it->second : "no " + r.backend + " runner in this run");
    }
    if (r.backend != "cpu")
      if (const auto why = unmet(r.needs, runner->device())) return skip(r, *why);
    guarded(r, [&] {
      if (!validate(r, *runner)) return;
      if (m_opt.validate_only) return;
      if (m_opt.sweep && r.sweep && sweep_wanted(r)) {
        const auto chosen = sweep(r, *runner);
        if (!chosen) return;
        m_chosen[r.slug] = *chosen;
      }
      m_ready.insert(r.slug);
    });
  }

  void rows(const RungSpec& r, Runner* runner) {
    if (!runner || !m_ready.count(r.slug)) return;
    guarded(r, [&] {
      const auto [config, own_choice] = row_config(r);
      if (!own_choice && !(config == r.defaults) && !validate_borrowed(r, *runner, config)) return;
      for (Mode mode : m_opt.modes) time_row(r, *runner, config, mode);
    });
  }

 private:
  template <class F>
  void guarded(const RungSpec& r, F&& f) {
    try {
      f();
    } catch (const std::exception& e) {
      m_ready.erase(r.slug);
      const std::string msg = fmt::format("{}: {}", r.slug, e.what());
      m_out.failures.push_back(msg);
      for (Mode mode : m_opt.modes) {
        Record rec = skipped_rung_record(m_lad.experiment, r, m_opt.workload, to_string(mode), "error: " + msg);
        rec.validation = "failed: " + msg;
        m_out.records.push_back(std::move(rec));
      }
    }
  }

  bool sweep_wanted(const RungSpec& r) const {
    if (m_opt.sweep_only.empty()) return true;
    for (const std::string& s : m_opt.sweep_only)
      if (s == r.id || s == r.slug) return true;
    return false;
  }

  // The row's configuration and whether it is the rung's own sweep choice (validated there).
  std::pair<Point, bool> row_config(const RungSpec& r) const {
    if (const auto it = m_chosen.find(r.slug); it != m_chosen.end() && r.sweep_sets_row) return {it->second, true};
    if (!r.config_from.empty())
      if (const RungSpec* src = m_lad.find(r.config_from))
        if (const auto it = m_chosen.find(src->slug); it != m_chosen.end()) {
          Point p = r.defaults;
          for (const auto& [k, v] : it->second.values())
            if (p.has(k)) p.set(k, v);
          return {p, false};
        }
    return {r.defaults, false};
  }

  // A configuration borrowed from another rung's sweep: validated like the defaults before timing.
  bool validate_borrowed(const RungSpec& r, Runner& runner, const Point& config) {
    const auto why = runner.setup(r, config);  // first: the runner labels the set-up rung's configuration
    ValidationResult v{r.slug, runner.config_label(config), false, ""};
    if (why) {
      skip(r, *why);
      return false;
    }
    const std::string diff = check_once(runner);
    v.ok = diff.empty();
    if (!v.ok) {
      v.message = fmt::format("{} {}: {}", r.slug, v.config, diff);
      m_out.failures.push_back(v.message);
      for (Mode mode : m_opt.modes) {
        Record rec = rung_record(m_lad.experiment, r, runner.backend(), runner.scope(), to_string(mode),
                                 m_opt.workload, config, previous_slug(r));
        rec.validation = "failed: " + v.message;
        rec.skipped = "not timed: failed validation";
        m_out.records.push_back(std::move(rec));
      }
    }
    m_out.validations.push_back(v);
    return v.ok;
  }

  void say(const std::string& s) const {
    if (m_opt.progress) m_opt.progress(s);
  }

  std::string previous_slug(const RungSpec& r) const {
    const RungSpec* p = r.predecessor.empty() ? nullptr : m_lad.find(r.predecessor);
    return p ? p->slug : r.predecessor;  // not in this (sub)list: the name as declared
  }

  // A rung not run: one validation line (unless its configurations already said why) and its records.
  void skip(const RungSpec& r, const std::string& why, bool log_validation = true) {
    if (log_validation) m_out.validations.push_back({r.slug, "", true, "skipped: " + why});
    if (m_opt.validate_only) return;
    for (Mode mode : m_opt.modes)
      m_out.records.push_back(skipped_rung_record(m_lad.experiment, r, m_opt.workload, to_string(mode), why));
  }

  // Poisoned output, one run, exact comparison; twice, so that state a run leaves behind shows.
  std::string check_once(Runner& runner) {
    for (int run = 1; run <= 2; ++run) {
      runner.poison_output();
      runner.run();
      if (std::string diff = runner.compare(); !diff.empty()) return fmt::format("run {}: {}", run, diff);
    }
    return "";
  }

  bool validate(const RungSpec& r, Runner& runner) {
    std::vector<Point> configs{r.defaults};
    for (const Point& p : r.validation_configs)
      if (!(p == r.defaults)) configs.push_back(p);
    bool all_ok = true, any_ran = false;
    std::string first_failure, first_skip;
    for (const Point& c : configs) {
      const auto why = runner.setup(r, c);  // first: the runner labels the set-up rung's configuration
      ValidationResult v{r.slug, runner.config_label(c), false, ""};
      if (why) {
        v.ok = true;
        v.message = "skipped: " + *why;
        if (first_skip.empty()) first_skip = *why;
        m_out.validations.push_back(v);
        continue;
      }
      any_ran = true;
      const std::string diff = check_once(runner);
      v.ok = diff.empty();
      if (!v.ok) {
        v.message = fmt::format("{} {}: {}", r.slug, v.config, diff);
        m_out.failures.push_back(v.message);
        if (first_failure.empty()) first_failure = v.message;
        all_ok = false;
      }
      m_out.validations.push_back(v);
    }
    if (!any_ran) {
      // One configuration: its reason; several: none of them can run here.
      skip(r, configs.size() == 1 ? first_skip : "no validation configuration can run here (" + first_skip + ")",
           false);
      return false;
    }
    if (all_ok) return true;
    if (!m_opt.validate_only)
      for (Mode mode : m_opt.modes) {
        Record rec = rung_record(m_lad.experiment, r, runner.backend(), runner.scope(), to_string(mode),
                                 m_opt.workload, r.defaults, previous_slug(r));
        rec.validation = "failed: " + first_failure;
        rec.skipped = "not timed: failed validation";
        m_out.records.push_back(std::move(rec));
      }
    return false;
  }

  Measurement measure_at(Runner& runner, Mode mode) {
    if (auto m = runner.measure(mode, m_opt.rule, m_opt.warmup)) return *m;
    PrepareFn prepare;
    if (mode == Mode::Cold) prepare = [&runner] { runner.flush(); };
    return measure([&runner] { return runner.timed_run(); }, prepare, m_opt.rule, m_opt.warmup);
  }

  void fill(Record& rec, const Measurement& m, Runner& runner) {
    rec.set_measurement(m);
    rec.validation = "exact";
    if (m.stats.median > 0) {
      const Ceiling* c = m_opt.ceiling ? &*m_opt.ceiling : nullptr;
      rec.throughput = throughput(runner.work(), m.stats.median, m_opt.datasheet_Bps, c ? c->name : "",
                                  c ? c->bytes_per_s : 0);
    }
  }

  // Measures the set-up rung into rec; false (rec failed, timing discarded) when the output the
  // timed runs left is wrong.
  bool timed(const RungSpec& r, Runner& runner, Record& rec, const Point& config, Mode mode) {
    const Measurement m = measure_at(runner, mode);
    if (const std::string bad = runner.after_timing(rec); !bad.empty()) {
      const std::string msg = fmt::format("{} {}: after timing: {}", r.slug, runner.config_label(config), bad);
      m_out.failures.push_back(msg);
      rec.validation = "failed: " + msg;
      rec.skipped = "timing discarded: wrong result after timing";
      return false;
    }
    fill(rec, m, runner);
    return true;
  }

  // Every point of the sweep validated and timed in the first mode; the tie rule picks.
  std::optional<Point> sweep(const RungSpec& r, Runner& runner) {
    const Mode mode = m_opt.modes.empty() ? Mode::Cold : m_opt.modes.front();
    const std::string name = fmt::format("{}_{}", r.slug, to_string(mode));
    std::vector<Candidate> cands;
    std::vector<std::size_t> at;  // record index of each candidate
    for (const SweepPoint& sp : r.sweep->points()) {
      Record rec = rung_record(m_lad.experiment, r, runner.backend(), runner.scope(), to_string(mode),
                               m_opt.workload, sp.point, previous_slug(r));
      rec.ladder.sweep = name;
      std::optional<std::string> why = sp.skip_reason;
      if (!why) why = runner.setup(r, sp.point);
      if (!why) {
        if (const std::string diff = check_once(runner); !diff.empty()) {
          rec.validation = "failed: " + diff;
          why = "not timed: failed validation";
          m_out.failures.push_back(fmt::format("{} {}: {}", r.slug, sp.point.label(), diff));
        }
      }
      if (why) {
        rec.skipped = *why;
        m_out.records.push_back(std::move(rec));
        continue;
      }
      say(fmt::format("  sweep {} {}", r.slug, sp.point.label()));
      if (!timed(r, runner, rec, sp.point, mode)) {
        m_out.records.push_back(std::move(rec));
        continue;
      }
      cands.push_back({sp.point, rec.summary->median});
      at.push_back(m_out.records.size());
      m_out.records.push_back(std::move(rec));
    }
    if (cands.empty()) {
      skip(r, "no sweep point could run");
      return std::nullopt;
    }
    const TieChoice c = choose(r.tie_rule, cands);
    Record& win = m_out.records[at[c.chosen]];
    win.ladder.chosen = true;
    win.ladder.tie_rule = c.explanation;
    if (const auto why = runner.setup(r, cands[c.chosen].point))
      throw std::runtime_error("the chosen point cannot be set up again: " + *why);
    return cands[c.chosen].point;
  }

  void time_row(const RungSpec& r, Runner& runner, const Point& config, Mode mode) {
    if (const auto why = runner.setup(r, config)) return skip(r, *why);
    Record rec = rung_record(m_lad.experiment, r, runner.backend(), runner.scope(), to_string(mode), m_opt.workload,
                             config, previous_slug(r));
    say(fmt::format("  {} {} {}", r.slug, runner.config_label(config), to_string(mode)));
    timed(r, runner, rec, config, mode);
    m_out.records.push_back(std::move(rec));
  }

  const Ladder& m_lad;
  const LadderOptions& m_opt;
  LadderResult& m_out;
  std::map<std::string, Point> m_chosen;  // slug -> its sweep's choice
  std::set<std::string> m_ready;          // slugs validated (and swept) whose rows may run
};

}  // namespace

LadderResult run_ladder(const Ladder& ladder, const std::vector<Runner*>& runners, const LadderOptions& opt) {
  ladder.check();
  LadderResult out;
  Driver d(ladder, opt, out);
  auto runner_of = [&runners](const RungSpec& r) {
    Runner* runner = nullptr;
    for (Runner* x : runners)
      if (x && x->backend() == r.backend) runner = x;
    return runner;
  };
  const bool borrows = std::any_of(ladder.rungs.begin(), ladder.rungs.end(),
                                   [](const RungSpec& r) { return !r.config_from.empty(); });
  if (opt.sweep && borrows) {  // every sweep first: a rung may run at a later rung's choice
    for (const RungSpec& r : ladder.rungs) d.prepare(r, runner_of(r));
    for (const RungSpec& r : ladder.rungs) d.rows(r, runner_of(r));
  } else {
    for (const RungSpec& r : ladder.rungs) {
      d.prepare(r, runner_of(r));
      d.rows(r, runner_of(r));
    }
  }
  const RungSpec* base = ladder.baseline();
  add_ladder_ratios(out.records, base ? base->slug : "");
  if (opt.ceiling && opt.ceiling->time_s > 0)
    for (Record& rec : out.records)
      if (rec.is_ladder_row() && rec.summary->median > 0) {
        rec.ladder.ceiling = opt.ceiling->name;
        rec.ladder.x_ceiling = opt.ceiling->time_s / rec.summary->median;
      }
  return out;
}

GroupKey group_by_axes(std::vector<std::string> axes) {
  return [axes = std::move(axes)](const Record& r) {
    std::string k = r.experiment + "|" + r.mode;
    for (const std::string& a : axes) k += "|" + (r.axes.has(a) ? to_string(r.axes.at(a)) : std::string("-"));
    return k;
  };
}

void add_ladder_ratios(std::vector<Record>& records, const std::string& baseline, const GroupKey& group_of) {
  // Without a grouping: the experiment, the mode and the workload axes every ladder row shares.
  GroupKey key = group_of;
  if (!key) key = [](const Record& r) { return r.experiment + "|" + r.mode; };
  auto usable = [](const Record& r) {
    return r.rung >= 0 && r.is_ladder_row() && r.summary->median > 0 && r.validation.rfind("failed", 0) != 0;
  };
  std::map<std::string, std::map<std::string, double>> medians;  // group -> variant -> median
  for (const Record& r : records)
    if (usable(r)) medians[key(r)][r.variant] = r.summary->median;
  for (Record& r : records) {
    if (!usable(r)) continue;
    const auto& group = medians[key(r)];
    const double mine = r.summary->median;
    if (!r.ladder.previous.empty())
      if (const auto it = group.find(r.ladder.previous); it != group.end()) r.ladder.x_previous = it->second / mine;
    if (!baseline.empty())
      if (const auto it = group.find(baseline); it != group.end()) {
        r.ladder.baseline = baseline;
        r.ladder.x_baseline = it->second / mine;
      }
  }
}

namespace {
std::string ratio_cell(const std::optional<double>& x) { return x ? format_ratio(*x) : "-"; }
std::string config_of(const Record& r, const std::vector<std::string>& hide = {}) {
  std::string s;
  for (const auto& [k, v] : r.axes.values())
    if (std::find(hide.begin(), hide.end(), k) == hide.end()) s += (s.empty() ? "" : " ") + k + "=" + to_string(v);
  return s;
}
}  // namespace

std::string ladder_table(const std::vector<Record>& records, const std::vector<std::string>& hide) {
  Table t({"rung", "variant", "technique", "config", "scope", "mode", "median", "noise", "GB/s", "% ceiling",
           "x previous", "x baseline", "validation"});
  for (const Record& r : records) {
    if (!r.ladder.sweep.empty()) continue;
    const std::string pos = r.rung >= 0 ? std::to_string(r.rung) : "-";
    if (r.skipped) {
      t.add_row({pos, r.variant, r.technique, config_of(r, hide), r.scope, r.mode, "skipped: " + *r.skipped, "", "", "", "",
                 "", r.validation});
      continue;
    }
    const bool timed = r.summary.has_value();
    const Throughput* tp = r.throughput ? &*r.throughput : nullptr;
    t.add_row({pos, r.variant, r.technique, config_of(r, hide), r.scope, r.mode, timed ? format_time(r.summary->median) : "-",
               timed ? format_pct(100.0 * r.summary->rel_stdev) : "-",
               tp && tp->bytes_per_s > 0 ? fmt::format("{:.1f}", tp->bytes_per_s / 1e9) : "-",
               tp && tp->ceiling_Bps > 0 ? format_pct(tp->pct_ceiling) : "-", ratio_cell(r.ladder.x_previous),
               ratio_cell(r.ladder.x_baseline), r.validation});
  }
  return t.markdown();
}

std::string sweep_table(const std::vector<Record>& records, const std::vector<std::string>& hide) {
  std::string out;
  std::vector<std::string> order;
  std::map<std::string, std::vector<const Record*>> by;
  for (const Record& r : records)
    if (!r.ladder.sweep.empty()) {
      if (!by.count(r.ladder.sweep)) order.push_back(r.ladder.sweep);
      by[r.ladder.sweep].push_back(&r);
    }
  for (const std::string& name : order) {
    Table t({"config", "median", "noise", "chosen"});
    std::string rule;
    for (const Record* r : by[name]) {
      if (r->ladder.chosen) rule = r->ladder.tie_rule;
      if (r->skipped) {
        t.add_row({config_of(*r, hide), "skipped: " + *r->skipped, "", ""});
        continue;
      }
      t.add_row({config_of(*r, hide), format_time(r->summary->median), format_pct(100.0 * r->summary->rel_stdev),
                 r->ladder.chosen ? "yes" : ""});
    }
    out += fmt::format("Sweep {}{}\n\n{}\n", name, rule.empty() ? "" : " (tie rule: " + rule + ")", t.markdown());
  }
  return out;
}

}  // namespace joseki::measure
