// `joseki try FILE.cu --ladder reduce` (issue 18): the user's own kernel, compiled at run time with
// NVRTC for the device in front of it, validated like a rung and ranked inside the ladder beside the
// rungs, CUB and the ceiling, with the reasons for its rank (registers, spills, occupancy; ncu's
// diagnosis metrics where ncu is present). The kernel runs in a child process (this binary again,
// with --child-out): a kernel that hangs is killed at --kill-after, one that faults takes only the
// child down, and what the child writes is checked before anything reaches the records. Every try
// is kept under joseki-runs/try/<ladder>/; `joseki try --history` ranks them.
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "app/cmd_try_direct.hpp"
#include "app/context.hpp"
#include "experiments/reduce/workload.hpp"
#include "experiments/try/ladders.hpp"
#include "experiments/try/reduce_spec.hpp"
#include "experiments/try/result.hpp"
#include "experiments/try/sanitizer.hpp"
#include "measure/errors.hpp"
#include "measure/spawn.hpp"
#include "measure/table.hpp"

namespace joseki::app {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using trykernel::TryLadder;

struct TryOpts {
  std::string file, ladder = "reduce", arch = "sm_90", n, mode = "cold", history_dir, child_out;
  std::vector<std::string> rungs;
  bool list = false, compile_only = false, sanitize = false, history = false, validate_only = false, lineinfo = false,
       only_n = false, no_ncu = false;
  double kill_after = 120;
  std::uint64_t seed = 0;
  measure::StoppingRule rule;
};

std::string opt_cell(const std::optional<double>& v, const char* fmt_s) {
  return v ? fmt::format(fmt::runtime(fmt_s), *v) : "";
}

void print_list() {
  for (const TryLadder& l : trykernel::ladders()) {
    const std::string size = l.default_workload.empty() ? "default size n = " + reduce::size_label(l.default_n)
                                                        : "timed on " + l.default_workload;
    std::cout << fmt::format("## ladder {}\n\n```cuda\n{}\n```\n\n{}\n\n{}; ranked against {}.\n\n", l.name,
                             l.signature, l.contract, size, l.default_rungs);
    measure::Table t({"setting (// joseki: key=value)", "meaning"});
    for (const auto& [k, v] : l.settings) t.add_row({k, v});
    std::cout << t.markdown() << "\nsweepable axes (// joseki: sweep axis=v1,v2,...): ";
    for (std::size_t i = 0; i < l.sweepable.size(); ++i) std::cout << (i ? ", " : "") << l.sweepable[i];
    std::cout << "\n\n";
  }
}

void print_compile(const trykernel::CompileReport& c) {
  std::cout << fmt::format("compiled with NVRTC for {} in {} ({}): {}\n", c.arch, measure::format_time(c.seconds),
                           c.nvrtc, c.command);
  if (c.has_ptxas)
    std::cout << fmt::format("registers {} · static shared memory {} B · stack frame {} B · spill stores {} B · spill "
                             "loads {} B{}\n",
                             c.registers, c.smem_bytes, c.stack_frame_bytes, c.spill_store_bytes, c.spill_load_bytes,
                             c.spill_store_bytes || c.spill_load_bytes ? "  <- spills: local memory traffic" : "");
  else if (c.cubin_bytes)  // never "PTX only" when there is a cubin: ptxas ran, its report is what is missing
    std::cout << fmt::format("cubin built ({} bytes) but no ptxas report in NVRTC's log, so no registers or spills\n",
                             c.cubin_bytes);
  else
    std::cout << fmt::format("PTX only ({} bytes): ptxas did not run, so no registers or spills (use --arch sm_XX)\n",
                             c.ptx_bytes);
}

trykernel::CompileReport compile_report_from(const json& j) {
  trykernel::CompileReport c;
  c.ok = j.value("ok", false);
  c.arch = j.value("arch", "");
  c.command = j.value("command", "");
  c.nvrtc = j.value("nvrtc", "");
  c.seconds = j.value("seconds", 0.0);
  c.ptx_bytes = j.value("ptx_bytes", std::size_t{0});
  c.cubin_bytes = j.value("cubin_bytes", std::size_t{0});
  if (j.contains("ptxas")) {
    const json& p = j["ptxas"];
    c.has_ptxas = true;
    c.registers = p.value("registers", -1);
    c.smem_bytes = p.value("smem_bytes", 0L);
    c.stack_frame_bytes = p.value("stack_frame_bytes", 0L);
    c.spill_store_bytes = p.value("spill_store_bytes", 0L);
    c.spill_load_bytes = p.value("spill_load_bytes", 0L);
  }
  return c;
}

// The child: compile, validate, time; the result document to --child-out. Progress to stderr and
// to <child-out>.phase (the parent names the last step when it has to kill us).
void run_child(Context& ctx, const TryOpts& o, const TryLadder& l, const trykernel::TryFile& f) {
  const std::string phase_path = o.child_out + ".phase";
  trykernel::RunOptions ro;
  ro.n = o.n.empty() ? 0 : reduce::parse_size(o.n);
  ro.modes = o.mode == "both" ? std::vector<measure::Mode>{measure::Mode::Cold, measure::Mode::Hot}
                              : std::vector<measure::Mode>{measure::mode_from_string(o.mode)};
  ro.rungs = o.rungs;
  ro.rule = o.rule;
  ro.device = ctx.device;
  ro.seed = o.seed;
  ro.validate_only = o.validate_only;
  ro.lineinfo = o.lineinfo;
  ro.only_n = o.only_n;
  ro.progress = [&ctx, &phase_path](const std::string& s) {
    ctx.note(s);
    std::ofstream(phase_path, std::ios::trunc) << s << "\n";
  };
  auto write = [&o](const json& doc) {
    const std::string tmp = o.child_out + ".tmp";
    std::ofstream(tmp) << doc.dump() << "\n";
    fs::rename(tmp, o.child_out);
  };
  json doc;
  try {
    doc = l.run(f, ro);
  } catch (const trykernel::CompileError& e) {
    write(json{{"status", "compile-error"}, {"message", e.what()}, {"log", e.log()}});
    throw;
  } catch (const std::exception& e) {
    write(json{{"status", "error"}, {"message", e.what()}});
    throw;
  }
  write(doc);
  if (doc.value("status", "") == "wrong") {
    const std::string first =
        doc.contains("first_failure") ? doc["first_failure"].value("message", "") : std::string("a validation failed");
    throw ValidationError("your kernel is wrong: " + first);
  }
}

std::vector<std::string> child_args(const Context& ctx, const TryOpts& o, const std::string& out, bool validate_only,
                                    bool lineinfo) {
  std::vector<std::string> a = {ctx.self_exe, "--device", std::to_string(ctx.device)};
  if (ctx.quiet) a.push_back("--quiet");
  a.insert(a.end(), {"try", o.file, "--ladder", o.ladder, "--child-out", out, "--seed", std::to_string(o.seed),
                     "--mode", o.mode, "--min-samples", std::to_string(o.rule.min_samples), "--max-samples",
                     std::to_string(o.rule.max_samples), "--max-noise", fmt::format("{}", o.rule.max_noise),
                     "--min-time", fmt::format("{}", o.rule.min_time_s), "--timeout",
                     fmt::format("{}", o.rule.timeout_s)});
  if (!o.n.empty()) a.insert(a.end(), {"--n", o.n});
  if (!o.rungs.empty()) {
    std::string r;
    for (const auto& s : o.rungs) r += (r.empty() ? "" : ",") + s;
    a.insert(a.end(), {"--rungs", r});
  }
  if (validate_only) a.push_back("--validate-only");
  if (lineinfo) a.push_back("--lineinfo");
  return a;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string make_temp_dir() {
  char tmpl[] = "/tmp/joseki-try-XXXXXX";
  if (!mkdtemp(tmpl)) throw RunError("cannot create a temp folder for the try");
  return tmpl;
}

json history_entry(const TryOpts& o, const trykernel::TryFile& f, const std::string& status, int exit_code,
                   const std::string& message, double wall_s) {
  return json{{"joseki_try", 1},
              {"ladder", o.ladder},
              {"file", fs::absolute(f.path).string()},
              {"name", f.name},
              {"source", f.source},
              {"when", measure::utc_now_iso8601()},
              {"status", status},
              {"exit_code", exit_code},
              {"message", message},
              {"wall_s", wall_s},
              {"commit", measure::build_info().git_commit}};
}

void keep(Context& ctx, const TryOpts& o, const json& entry) {
  const std::string dir = trykernel::history_dir(o.history_dir, o.ladder);
  try {
    const std::string p = trykernel::write_history(dir, entry);
    ctx.note("try: recorded in " + p);
  } catch (const std::exception& e) {
    ctx.note(std::string("try: could not record this try: ") + e.what());
  }
}

void print_ranking(const json& doc, const std::vector<measure::Record>& recs, double wall_s, double compile_s) {
  const std::string variant = doc["variant"];
  const std::int64_t n = doc.value("n", std::int64_t{0});
  trydirect::print_device(doc);
  if (doc.contains("compile")) print_compile(compile_report_from(doc["compile"]));
  if (doc.contains("kernel")) {
    const json& k = doc["kernel"];
    std::cout << fmt::format("loaded: {} registers, {} B static shared memory, {} B local memory per thread; block "
                             "{}, grid {} ({}); {} resident blocks per SM = {:.0f} % occupancy by threads\n",
                             k.value("registers", 0), k.value("static_smem_bytes", 0L), k.value("local_bytes", 0L),
                             k.value("block", 0), k.value("grid", 0), k.value("grid_policy", ""),
                             k.value("resident_blocks_per_sm", 0), k.value("occupancy_pct", 0.0));
  }
  std::size_t checks = 0;
  for (const auto& v : doc.value("validations", json::array())) checks += v.value("ok", false) ? 1 : 0;
  std::cout << fmt::format("validated: exact in {} cases (n = 1 ... {}, offsets 0..3, output poisoned, two runs "
                           "each; then again at every timed configuration and after timing)\n\n",
                           checks, reduce::size_label(static_cast<std::size_t>(n)));
  for (const char* mode : {"cold", "hot"}) {
    const trykernel::Ranking k = trykernel::rank(recs, variant, n, mode);
    if (k.rows.empty()) continue;
    measure::Table t({"#", "variant", "technique", "median", "GB/s", "% of limit", "x best rung", "x CUB", "config"});
    for (const auto& r : k.rows) {
      std::string name = r.user ? "**" + r.variant + "** (yours)" : r.ceiling ? "(limit) " + r.variant : r.variant;
      t.add_row({r.rank ? std::to_string(r.rank) : "", name, r.median_s ? r.technique : r.note,
                 r.median_s ? measure::format_time(*r.median_s) : "-", opt_cell(r.gbps, "{:.1f}"),
                 r.pct_ceiling ? measure::format_pct(*r.pct_ceiling) : "",
                 r.x_best_rung ? measure::format_ratio(*r.x_best_rung) : "",
                 r.x_cub ? measure::format_ratio(*r.x_cub) : "", r.config});
    }
    std::cout << fmt::format("## {} beside the reduce ladder: n = {}, {}\n\n", variant,
                             reduce::size_label(static_cast<std::size_t>(n)), mode)
              << t.markdown() << "\n";
    if (k.user && k.user->median_s)
      std::cout << fmt::format(
          "yours: rank {} of {} · {} · {} of the stream-read limit · {} the best rung ({}) · {} CUB\n\n", k.user->rank,
          k.timed, measure::format_time(*k.user->median_s),
          k.user->pct_ceiling ? measure::format_pct(*k.user->pct_ceiling) : "-",
          k.user->x_best_rung ? measure::format_ratio(*k.user->x_best_rung) : "-", k.best_rung,
          k.user->x_cub ? measure::format_ratio(*k.user->x_cub) : "-");
  }
  std::cout << fmt::format("file to ranked table: {:.2f} s (compiling: {:.2f} s of it)\n", wall_s, compile_s);
}

void print_diagnosis(const json& d) {
  if (d.contains("skipped")) {
    std::cout << "\nncu diagnosis: skipped: " << d["skipped"].get<std::string>() << "\n";
    return;
  }
  measure::Table t({"symptom", "metric", "yours", d.value("against", std::string("best rung")), "matches"});
  for (const auto& r : d.value("rows", json::array()))
    t.add_row({r.value("symptom", ""), r.value("metric", ""), r.value("yours", ""), r.value("theirs", ""),
               r.value("matches", false) ? "**yes**: " + r.value("cause", std::string()) : "no"});
  std::cout << "\n## ncu diagnosis (the probes' symptom table, your kernel against " << d.value("against", "")
            << ")\n\n" << t.markdown();
  if (d.contains("warning")) std::cout << "(" << d["warning"].get<std::string>() << ")\n";
}

void run_parent(Context& ctx, const TryOpts& o, const trykernel::TryFile& f) {
  const std::string tmp = make_temp_dir();
  struct RemoveAtEnd {
    std::string dir;
    ~RemoveAtEnd() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } remove_at_end{tmp};
  const std::string out = tmp + "/result.json";
  const double t0 = measure::steady_seconds();
  const bool direct = o.ladder == trydirect::kLadder;
  if (o.sanitize) {
    std::string ns;
    for (std::size_t v : trykernel::reduce_sanitize_sizes()) ns += (ns.empty() ? "" : ", ") + std::to_string(v);
    const std::string scope = fmt::format(
        "Checked at n = {}{} only, offset 0, in an input buffer of exactly n words (a read past in[n - 1] is outside "
        "the allocation), the default configuration, two runs each: the sanitizers are slow (racecheck ~100x); "
        "the full validation (more sizes, offsets 0..3) runs without --sanitize. Each tool is stopped after {:.0f} s "
        "(--kill-after).",
        ns, o.n.empty() ? "" : " and --n " + o.n, o.kill_after);
    const std::string scope_of_ladder = direct ? trydirect::sanitize_scope(o.kill_after) : scope;
    const trykernel::SanitizeReport s =
        trykernel::run_sanitizers(child_args(ctx, o, out, true, true), tmp, o.kill_after, scope_of_ladder);
    std::cout << s.text;
    json e = history_entry(o, f, s.clean ? "sanitizer-clean" : "sanitizer-errors", s.clean ? 0 : 1, s.summary,
                           measure::steady_seconds() - t0);
    e["sanitizer"] = s.json;
    keep(ctx, o, e);
    if (!s.clean) throw ValidationError("compute-sanitizer: " + s.summary);
    return;
  }
  measure::SpawnOptions so;
  so.argv = child_args(ctx, o, out, o.validate_only, o.lineinfo);
  so.timeout_s = o.kill_after;
  so.want_report = false;
  const measure::ExternalResult r = measure::run_external(so);
  const double wall = measure::steady_seconds() - t0;
  std::optional<json> doc;
  std::string doc_error;
  if (fs::exists(out)) {
    try {
      doc = json::parse(read_text(out));
    } catch (const std::exception& e) {
      doc_error = e.what();
    }
  }
  const std::string phase = read_text(out + ".phase");

  if (r.timed_out) {
    const std::string msg = fmt::format(
        "your kernel did not finish: the try was killed after {:.0f} s (--kill-after){}. A kernel that never "
        "returns cannot be stopped from inside its process, so it ran in a child; nothing was recorded but this "
        "line in the history",
        o.kill_after, phase.empty() ? "" : "; the last step it began: " + phase.substr(0, phase.find('\n')));
    keep(ctx, o, history_entry(o, f, "timeout", -1, msg, wall));
    throw RunError(msg);
  }
  if (r.term_signal) {
    const std::string msg = fmt::format("the try's child process died from signal {} ({}){}", r.term_signal,
                                        strsignal(r.term_signal), phase.empty() ? "" : "; last step: " + phase);
    keep(ctx, o, history_entry(o, f, "crashed", -1, msg, wall));
    throw RunError(msg);
  }
  if (!doc) {
    const std::string msg = fmt::format("the try's child exited {} without a result{}", r.exit_code,
                                        doc_error.empty() ? "" : " (unreadable: " + doc_error + ")");
    keep(ctx, o, history_entry(o, f, "error", r.exit_code, msg, wall));
    if (r.exit_code == kExitBadInput) throw InputError(msg);
    throw RunError(msg);
  }
  const std::string status = doc->value("status", "");
  if (status == "compile-error" || status == "error") {
    // The child printed the message (NVRTC's log, or the run's failure) on stderr already.
    json e = history_entry(o, f, status, r.exit_code, doc->value("message", ""), wall);
    keep(ctx, o, e);
    if (status == "compile-error") throw InputError("your kernel did not compile (NVRTC's log above)");
    if (r.exit_code == kExitBadInput) throw InputError("the file is not a kernel this ladder can run (the message above)");
    const std::string m = doc->value("message", std::string());
    const bool fault = m.find("illegal") != std::string::npos || m.find("misaligned") != std::string::npos ||
                       m.find("unusable") != std::string::npos || m.find("out of bounds") != std::string::npos;
    throw RunError(fault ? fmt::format("your kernel faulted (the message above); `joseki try {} --sanitize` names the "
                                       "access, its thread and its line",
                                       o.file)
                         : std::string("the try failed (the child's message is above)"));
  }
  const std::vector<measure::Record> recs = trykernel::check_result_document(*doc);
  json e = history_entry(o, f, status, r.exit_code, "", wall);
  e["result"] = *doc;
  const double compile_s = doc->contains("compile") ? (*doc)["compile"].value("total_seconds", 0.0) : 0.0;
  if (status == "wrong" && direct) {
    const std::string msg = trydirect::wrong_message(*doc, o.file);
    e["message"] = msg;
    keep(ctx, o, e);
    throw ValidationError(msg);
  }
  if (status == "wrong") {
    const json ff = doc->value("first_failure", json::object());
    const std::string msg = fmt::format(
        "your kernel is wrong: first failing case n = {}, offset {} ({}): {}\n  (harness: {})\n  every case: "
        "`joseki try {} --validate-only`; out-of-bounds accesses and races: `joseki try {} --sanitize`",
        ff.value("n", 0), ff.value("offset", 0), ff.value("config", ""), ff.value("explanation", ""),
        ff.value("message", ""), o.file, o.file);
    e["message"] = msg;
    keep(ctx, o, e);
    if (doc->contains("validations") && !(*doc)["validations"].empty()) {
      measure::Table t({"n", "offset", "config", "out[0]", "expected", "status"});
      for (const auto& v : (*doc)["validations"])
        t.add_row({std::to_string(v.value("n", 0)), std::to_string(v.value("offset", 0)), v.value("config", ""),
                   fmt::format("{:#010x}", v.value("got", 0u)), fmt::format("{:#010x}", v.value("expected", 0u)),
                   v.value("ok", false) ? "exact" : "FAILED"});
      std::cout << "## validation of " << (*doc)["variant"].get<std::string>() << "\n\n" << t.markdown() << "\n";
    }
    throw ValidationError(msg);
  }
  if (o.validate_only && direct) {
    std::cout << fmt::format("{}: exact in every case ({} configuration checks on the test vectors and the edge "
                             "cases, answer poisoned)\n",
                             (*doc)["variant"].get<std::string>(), (*doc).value("validations", json::array()).size());
    keep(ctx, o, e);
    return;
  }
  if (o.validate_only) {
    std::cout << fmt::format("{}: exact in every case ({} checks: n = 1 ... 2^20+3 and the size asked, offsets 0..3, "
                             "output poisoned, two runs each)\n",
                             (*doc)["variant"].get<std::string>(), (*doc).value("validations", json::array()).size());
    keep(ctx, o, e);
    return;
  }
  if (direct) {
    if (doc->contains("compile")) print_compile(compile_report_from((*doc)["compile"]));
    trydirect::print_ranking(*doc, recs, wall, compile_s);
  } else
    print_ranking(*doc, recs, wall, compile_s);
  // ncu: the probes' diagnosis metrics for yours and the best rung (where ncu is present).
  const trykernel::Ranking k = trykernel::rank(recs, (*doc)["variant"], doc->value("n", std::int64_t{0}), o.mode == "hot" ? "hot" : "cold");
  if (!k.best_rung.empty() && !o.no_ncu && !direct) {  // the diagnosis is the reduce ladder's
    TryOpts one = o;  // the child validates the best rung and yours at n alone: two launches each
    one.n = std::to_string(doc->value("n", std::int64_t{0}));
    one.rungs = {k.best_rung};
    std::vector<std::string> argv = child_args(ctx, one, tmp + "/ncu.json", true, false);
    argv.push_back("--only-n");
    const json d = trykernel::ncu_diagnosis(argv, (*doc)["variant"], k.best_rung, ctx.device);
    print_diagnosis(d);
    e["diagnosis"] = d;
  }
  keep(ctx, o, e);
  const measure::DeviceFacts dev = measure::device_from_json((*doc)["device"]);
  std::vector<measure::Record> stamped = recs;
  for (auto& rec : stamped) Context::stamp(rec, dev);
  ctx.add(std::move(stamped));
  if (!doc->value("failures", json::array()).empty())
    throw ValidationError("a ladder rung failed validation: " + (*doc)["failures"][0].get<std::string>());
}

void print_history(const TryOpts& o) {
  const std::string dir = trykernel::history_dir(o.history_dir, o.ladder);
  std::vector<std::string> skipped;
  std::vector<trykernel::HistoryEntry> h = trykernel::read_history(dir, &skipped);
  if (h.empty() && skipped.empty()) {
    std::cout << fmt::format("no tries recorded in {} yet: `joseki try FILE.cu --ladder {}` records each\n", dir,
                             o.ladder);
    return;
  }
  // Ranked: timed tries by their speed relative to the best rung of their own run (robust to the
  // device's day), then the rest by time.
  std::stable_sort(h.begin(), h.end(), [](const auto& a, const auto& b) {
    if (a.x_best_rung.has_value() != b.x_best_rung.has_value()) return a.x_best_rung.has_value();
    if (a.x_best_rung && b.x_best_rung) return *a.x_best_rung > *b.x_best_rung;
    return a.when > b.when;
  });
  measure::Table t({"#", "when (UTC)", "file", "status", "n", "median", "x best rung", "best rung (its median)",
                    "x CUB", "% of limit"});
  int rank = 0;
  for (const auto& e : h)
    t.add_row({e.x_best_rung ? std::to_string(++rank) : "", e.when, fs::path(e.file).filename().string(), e.status,
               e.n ? reduce::size_label(static_cast<std::size_t>(e.n)) : "",
               e.median_s ? measure::format_time(*e.median_s) : "-",
               e.x_best_rung ? measure::format_ratio(*e.x_best_rung) : "",
               e.best_rung.empty() ? "" : e.best_rung + (e.best_rung_median_s ? " (" + measure::format_time(*e.best_rung_median_s) + ")" : ""),
               e.x_cub ? measure::format_ratio(*e.x_cub) : "", e.pct_ceiling ? measure::format_pct(*e.pct_ceiling) : ""});
  std::cout << fmt::format("## your tries on the {} ladder ({}), ranked by x best rung (each against the best rung "
                           "timed in its own run; > 1x = faster than the ladder)\n\n",
                           o.ladder, dir)
            << t.markdown();
  for (const auto& s : skipped) std::cout << "skipped: " << s << "\n";
}

void add_try_command(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("try", "your own kernel, compiled at run time (NVRTC), validated like a rung and "
                                        "ranked inside a ladder beside its rungs, CUB and the ceiling");
  auto o = std::make_shared<TryOpts>();
  cmd->add_option("FILE", o->file, "a .cu file with the ladder's kernel (see --list) and optional // joseki: lines");
  cmd->add_option("--ladder", o->ladder, "the ladder to join (see --list)")->capture_default_str();
  cmd->add_flag("--list", o->list, "the ladders, their kernel signatures and settings");
  cmd->add_flag("--compile-only", o->compile_only, "compile with NVRTC for --arch and report registers and spills; "
                                                   "needs no GPU");
  cmd->add_option("--arch", o->arch, "--compile-only's target: sm_XX (a cubin: registers, spills) or compute_XX "
                                     "(PTX only)")
      ->capture_default_str();
  cmd->add_option("--n", o->n, "size in elements (default: the ladder's, 2^24 for reduce)");
  cmd->add_option("--mode", o->mode, "cold, hot or both")->capture_default_str();
  cmd->add_option("--rungs", o->rungs, "the ladder's rungs to rank against (comma list; default all)")->delimiter(',');
  cmd->add_option("--seed", o->seed, "random seed of the input (default: fresh each run; recorded)");
  cmd->add_flag("--validate-only", o->validate_only, "check your kernel at every validation size and offset, time "
                                                     "nothing");
  cmd->add_flag("--sanitize", o->sanitize, "run the check under compute-sanitizer (memcheck, then racecheck) at a "
                                           "few small sizes, offset 0, in exact-size buffers, and report "
                                           "out-of-bounds accesses and races with file and line");
  cmd->add_option("--kill-after", o->kill_after, "seconds before a try that has not finished is killed (a kernel "
                                                 "that never returns)")
      ->check(CLI::Range(1.0, 86400.0))
      ->capture_default_str();
  cmd->add_flag("--no-ncu", o->no_ncu, "skip the ncu diagnosis (it runs when ncu is found: a few seconds more)");
  cmd->add_flag("--history", o->history, "your tries on --ladder, ranked against the ladder (a local leaderboard)");
  cmd->add_option("--history-dir", o->history_dir, "where tries are kept (default joseki-runs/try; a folder per ladder)");
  cmd->add_option("--child-out", o->child_out, "(internal) the child's result file")->group("");
  cmd->add_flag("--lineinfo", o->lineinfo, "(internal) compile with -lineinfo")->group("");
  cmd->add_flag("--only-n", o->only_n, "(internal) validate at --n alone, offset 0")->group("");
  o->rule.min_time_s = 0.02;  // a try times ~16 variants: a shorter floor than the ladder's own runs
  o->rule.timeout_s = 1.0;
  add_rule_options(cmd, o->rule);
  cmd->callback([&ctx, o] {
    if (o->list) return print_list();
    const TryLadder& l = trykernel::find_ladder(o->ladder);
    if (o->history) return print_history(*o);
    if (o->file.empty()) throw InputError("FILE: no kernel file given (joseki try FILE.cu --ladder reduce; --list)");
    if (o->mode != "cold" && o->mode != "hot" && o->mode != "both")
      throw InputError(fmt::format("--mode: '{}' is not a mode (expected cold, hot or both)", o->mode));
    if (!o->n.empty()) (void)reduce::parse_size(o->n);
    o->rule.validate();
    const trykernel::TryFile f = trykernel::read_try_file(o->file);
    trykernel::require_known_keys(f, l.settings, l.sweepable, l.name);
    if (f.has("ladder") && f.get("ladder", "") != l.name)
      throw InputError(fmt::format("{}: the file says ladder={}, the command --ladder {}", f.where(f.settings.at("ladder").line),
                                   f.get("ladder", ""), l.name));
    l.check(f);
    if (o->compile_only) {
      const trykernel::CompileReport c = trykernel::compile_only(l, f, o->arch);
      if (!c.ok) throw trykernel::CompileError(f.path, c.log, c.defines);
      print_compile(c);
      if (std::regex_search(c.log, std::regex("(^|\n)(?!ptxas)[^\n]*\\S")))  // more than ptxas's -v lines
        ctx.note("NVRTC's log:\n" + c.log);
      return;
    }
    if (!o->seed) o->seed = (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
    if (!o->child_out.empty()) return run_child(ctx, *o, l, f);
    run_parent(ctx, *o, f);
  });
}

JOSEKI_REGISTER_COMMAND(25, add_try_command);

}  // namespace
}  // namespace joseki::app
