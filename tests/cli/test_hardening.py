"""Hostile input outside the solver (issue 21): each check is the regression test of one finding.
Records: the one validating reader (docs/records.schema.json) behind table, compare and report,
checked against Python's jsonschema on the same files; the committed records must all pass it."""
import copy
import glob
import json
import os
import re
import subprocess

from harness import ROOT, Suite, expect, expect_exit

suite = Suite()
BASE = os.path.join(ROOT, "tests/data/report/compare_base.json")


def base_doc():
    with open(BASE) as f:
        return json.load(f)


def write(s, name, doc=None, text=None, raw=None):
    path = os.path.join(s.tmp, name)
    if raw is not None:
        with open(path, "wb") as f:
            f.write(raw)
    else:
        with open(path, "w") as f:
            f.write(text if text is not None else json.dumps(doc))
    return path


def schema_errors(doc):
    """The first error Python's jsonschema finds (None when valid); None too when jsonschema is absent."""
    try:
        import jsonschema
    except ImportError:
        return None
    with open(os.path.join(ROOT, "docs/records.schema.json")) as f:
        v = jsonschema.Draft202012Validator(json.load(f))
    errs = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
    return errs[0] if errs else None


# ---- item 1: report on rungs <= -2 or rung 1e30 crashed with SIGSEGV ----
@suite.test
def report_on_rungs_below_minus_one_is_bad_input_not_a_crash(s):
    for rung in (-2, -7, 1e30, 2**40):
        d = base_doc()
        for r in d["records"]:
            r["rung"] = rung
        f = write(s, f"rungs_{rung}.json", d)
        p = s.run("report", f, "--out", os.path.join(s.tmp, f"rep_{rung}"))
        expect_exit(p, 2, f, "$.records[0].rung")


# ---- item 3: --threshold nan switched regression detection off ----
@suite.test
def compare_refuses_nan_and_inf_thresholds(s):
    a = os.path.join(ROOT, "tests/data/report/compare_base.json")
    b = os.path.join(ROOT, "tests/data/report/compare_slowed.json")
    expect_exit(s.run("compare", a, b), 3)
    for opt in ("--threshold", "--min-diff"):
        for v in ("nan", "NaN", "-nan", "inf", "-inf", "1e999", "5x"):
            expect_exit(s.run("compare", a, b, opt, v), 2, opt, v)


@suite.test
def stopping_rule_options_refuse_nan(s):
    expect_exit(s.run("reduce", "--max-noise", "nan"), 2, "--max-noise", "nan")
    expect_exit(s.run("reduce", "--timeout", "NaN"), 2, "--timeout", "NaN")


# ---- item 4: table DIR said "internal error: basic_filebuf::underflow" ----
@suite.test
def table_on_a_directory_is_bad_input_naming_it(s):
    d = os.path.join(s.tmp, "a_folder")
    os.makedirs(d, exist_ok=True)
    p = s.run("table", d)
    expect_exit(p, 2, d)
    expect("internal error" not in p.stderr, p.stderr)


# ---- item 7: one validating reader for table, compare and report ----
def mutations():
    """(name, function on the document, JSON path the error must name). Every one breaks the schema."""
    def rec(i, key, value):
        def f(d):
            d["records"][i][key] = value
        return f

    def summ(key, value):
        def f(d):
            d["records"][1]["summary"][key] = value
        return f

    return [
        ("records_object", lambda d: d.__setitem__("records", {}), "$.records"),
        ("records_null", lambda d: d.__setitem__("records", None), "$.records"),
        ("records_string", lambda d: d.__setitem__("records", "x"), "$.records"),
        ("no_command", lambda d: d.pop("command"), "command"),
        ("extra_top_key", lambda d: d.__setitem__("zzz", 1), "$.zzz"),
        ("negative_count", summ("n", -3), "$.records[1].summary.n"),
        ("zero_count", summ("n", 0), "$.records[1].summary.n"),
        ("fractional_count", summ("n", 2.5), "$.records[1].summary.n"),
        ("count_as_string", summ("n", "12"), "$.records[1].summary.n"),
        ("negative_stdev", summ("stdev", -1.0), "$.records[1].summary.stdev"),
        ("median_string", summ("median", "fast"), "$.records[1].summary.median"),
        ("negative_warmup", rec(2, "warmup_runs", -1), "$.records[2].warmup_runs"),
        ("rung_float", rec(2, "rung", 1.5), "$.records[2].rung"),
        ("rung_huge", rec(2, "rung", 1e30), "$.records[2].rung"),
        ("rung_minus_two", rec(2, "rung", -2), "$.records[2].rung"),
        ("empty_variant", rec(3, "variant", ""), "$.records[3].variant"),
        ("bad_backend", rec(3, "backend", "fpga"), "$.records[3].backend"),
        ("bad_scope", rec(3, "scope", "WALL"), "$.records[3].scope"),
        ("bad_validation", rec(3, "validation", "looks fine"), "$.records[3].validation"),
        ("samples_object", rec(4, "samples", {}), "$.records[4].samples"),
        ("sample_string", rec(4, "samples", [1e-5, "x"]), "$.records[4].samples[1]"),
        ("samples_empty", rec(4, "samples", []), "$.records[4].samples"),
        ("axes_bool", rec(4, "axes", {"n": True}), "$.records[4].axes.n"),
        ("axes_list", rec(4, "axes", {"n": [1]}), "$.records[4].axes.n"),
        ("extra_list", rec(4, "extra", []), "$.records[4].extra"),
        ("unknown_field", rec(5, "colour", "red"), "$.records[5].colour"),
        ("skipped_with_samples", rec(5, "skipped", "no GPU"), "$.records[5].samples"),
        ("record_schema", rec(5, "schema", "joseki.record/9"), "$.records[5].schema"),
        ("record_null", lambda d: d["records"].__setitem__(0, None), "$.records[0]"),
        ("host_cpus_negative", lambda d: d["records"][0]["host"].__setitem__("logical_cpus", -4),
         "$.records[0].host.logical_cpus"),
        ("device_cc", lambda d: d["records"][0]["device"].__setitem__("compute_capability", "nine"),
         "$.records[0].device.compute_capability"),
        ("throughput_time_zero", lambda d: d["records"][0]["throughput"].__setitem__("time_s", 0),
         "$.records[0].throughput.time_s"),
    ]


@suite.test
def table_compare_and_report_reject_every_schema_violation_naming_file_and_path(s):
    for name, mutate, path in mutations():
        d = base_doc()
        mutate(d)
        err = schema_errors(d)
        expect(err is not None or name == "skip", f"{name}: jsonschema accepts the mutation; the test is wrong")
        f = write(s, f"bad_{name}.json", d)
        for args in (["table", f], ["compare", BASE, f], ["compare", f, BASE],
                     ["report", f, "--out", os.path.join(s.tmp, "rep_" + name)]):
            p = s.run(*args)
            expect_exit(p, 2, f, path)
            expect("Traceback" not in p.stderr + p.stdout, f"{name}: {p.stderr}")


@suite.test
def text_level_violations_are_rejected(s):
    good = open(BASE, "rb").read()
    cases = {
        "bom": b"\xef\xbb\xbf" + good,
        "trailing_junk": good + b"\n{}",
        "trailing_word": good + b"junk",
        "two_documents": good + good,
        "truncated": good[: len(good) // 2],
        "empty": b"",
        "nul_bytes": b"\0" * 64,
        "nan_literal": re.sub(rb'"median": ?[0-9.e+-]+', b'"median": NaN', good, count=1),
        "infinity_literal": re.sub(rb'"median": ?[0-9.e+-]+', b'"median": Infinity', good, count=1),
    }
    for name, raw in cases.items():
        expect(raw != good, f"{name}: the case did not change the file")
        f = write(s, f"text_{name}.json", raw=raw)
        for args in (["table", f], ["compare", BASE, f], ["report", f, "--out", os.path.join(s.tmp, "rt_" + name)]):
            p = s.run(*args)
            expect_exit(p, 2, f)
            expect("Traceback" not in p.stderr, p.stderr)
    # trailing whitespace is not junk
    expect_exit(s.run("table", write(s, "text_ws.json", raw=good + b"\n\n  \t\n")), 0)


@suite.test
def the_plot_script_is_never_reached_with_bad_records(s):
    marker = os.path.join(s.tmp, "plot_script_ran")
    script = write(s, "fake_make_report.py", text=f"open({marker!r}, 'w').write('ran')\nraise SystemExit(1)\n")
    d = base_doc()
    d["records"] = None
    f = write(s, "bad_for_plot.json", d)
    p = s.run("report", f, "--out", os.path.join(s.tmp, "rep_plot"), env={"JOSEKI_REPORT_SCRIPT": script})
    expect_exit(p, 2, f)
    expect(not os.path.exists(marker), "the plot script ran on records that failed the schema")


@suite.test
def a_failing_plot_script_is_a_run_failure_not_exit_0(s):
    script = write(s, "crashing_make_report.py", text="raise RuntimeError('plot bug')\n")
    p = s.run("report", BASE, "--out", os.path.join(s.tmp, "rep_crash"), env={"JOSEKI_REPORT_SCRIPT": script})
    # report.md is still written; the exit code says the plots failed (when a Python could run the script at all)
    expect(os.path.exists(os.path.join(s.tmp, "rep_crash", "report.md")), "report.md missing")
    if "no Python 3 with matplotlib" in p.stderr + p.stdout:
        expect_exit(p, 0, "plots skipped")
    else:
        expect_exit(p, 1, "plot bug")


@suite.test
def a_tour_whose_report_fails_is_not_exit_0(s):
    script = write(s, "crashing_make_report2.py", text="raise RuntimeError('plot bug')\n")
    out = os.path.join(s.tmp, "tour_report_fails")
    p = s.run("run", "--quick", "--only", "check", "--out", out, env={"JOSEKI_REPORT_SCRIPT": script}, timeout=300)
    if "no Python 3 with matplotlib" in p.stderr + p.stdout:
        return
    expect(p.returncode == 1, f"exit {p.returncode}: {p.stderr[-2000:]}")
    expect("report" in p.stderr, p.stderr[-2000:])


@suite.test
def the_cpp_reader_and_jsonschema_agree_on_borderline_documents(s):
    """Valid borderlines: both accept. (An integral float is an integer in JSON Schema.)"""
    ok = []
    d = base_doc(); d["records"][1]["summary"]["n"] = 12.0; ok.append(("n_float", d))
    d = base_doc(); d["records"] = []; ok.append(("no_records", d))
    d = base_doc(); d["records"][0]["rung"] = -1; ok.append(("rung_minus_one", d))
    d = base_doc(); d["records"][0]["extra"] = {"anything": [1, {"x": None}]}; ok.append(("extra_free", d))
    for name, doc in ok:
        expect(schema_errors(doc) is None, f"{name}: jsonschema rejects it: {schema_errors(doc)}")
        expect_exit(s.run("table", write(s, f"ok_{name}.json", doc)), 0)


@suite.test
def every_committed_record_file_passes_the_reader(s):
    files = []
    for pat in ("results/**/*.json", "tests/data/**/*.json"):
        for f in glob.glob(os.path.join(ROOT, pat), recursive=True):
            try:
                with open(f) as fh:
                    doc = json.load(fh)
            except ValueError:
                continue
            if isinstance(doc, dict) and doc.get("schema") == "joseki.records/1":
                files.append((f, doc))
    expect(len(files) >= 20, f"only {len(files)} committed record files found")
    for f, doc in files:
        err = schema_errors(doc)
        expect(err is None, f"{f}: jsonschema: {err}")
        p = s.run("table", f)
        expect_exit(p, 0)


# ---- item 8: table and compare on a full device exited 0 and lost the output ----
@suite.test
def output_to_a_full_device_is_a_failure(s):
    if not os.path.exists("/dev/full"):
        return
    for args in (["table", BASE], ["compare", BASE, BASE]):
        with open("/dev/full", "w") as full:
            p = subprocess.run([s.exe, *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120, cwd=ROOT,
                               env=s.env())
        expect(p.returncode == 1, f"{args}: exit {p.returncode}: {p.stderr}")
        expect("standard output" in p.stderr, p.stderr)

# ---- item 6: an unknown subcommand was not named ----
@suite.test
def an_unknown_subcommand_is_named(s):
    p = s.run("abc471g", "frobnicate")
    expect_exit(p, 2, "frobnicate", "abc471g", "solve", "gen")
    expect_exit(s.run("frobnicate"), 2, "frobnicate")
    expect_exit(s.run("--json", os.path.join(s.tmp, "x.json"), "abc471g", "nope"), 2, "nope")


# ---- small ones ----
@suite.test
def device_that_is_not_a_number_is_named_plainly(s):
    for v in ("abc", "-1", "1e999", "99999999999999999999"):
        p = s.run("--device", v, "check")
        expect_exit(p, 2, "--device", v)
        expect(not re.search(r"\d{40,}", p.stderr), p.stderr)


@suite.test
def sweep_rungs_names_itself(s):
    p = s.run("reduce", "--sweep-rungs", "bogus")
    expect_exit(p, 2, "--sweep-rungs", "bogus")
    expect("--rungs:" not in p.stderr, p.stderr)


@suite.test
def scale_hopper_rungs_names_an_unknown_rung(s):
    # checked before anything is timed (no GPU needed): the option, the bad name and the ladder's rungs
    p = s.run("abc471g", "scale", "hopper", "--n", "1000", "--k", "5", "--m", "1", "--rungs", "p41,r99_bogus")
    expect_exit(p, 2, "--rungs", "r99_bogus", "r41_rotated_tiles_26")
    expect("--rung r99" not in p.stderr, p.stderr)


@suite.test
def scale_hopper_trace_csv_that_cannot_be_written_is_bad_input(s):
    # opened before anything is timed (no GPU needed): the option and the path
    bad = os.path.join(s.tmp, "no_such_dir", "trace.csv")
    p = s.run("abc471g", "scale", "hopper", "--n", "1000", "--k", "5", "--m", "1", "--trace-csv", bad)
    expect_exit(p, 2, "--trace-csv", bad)


@suite.test
def json_into_a_folder_is_refused_and_leaves_nothing(s):
    d = os.path.join(s.tmp, "json_dir")
    os.makedirs(d, exist_ok=True)
    p = s.run("--json", d, "abc471g", "gen", "--n", "5", "--k", "2", "--m", "1")
    expect_exit(p, 2, d)
    expect(not os.path.exists(d + ".tmp"), "DIR.tmp left behind")



@suite.test
def reduce_seed_refuses_negative_values_as_typed(s):
    p = s.run("reduce", "--seed", "-1")
    expect_exit(p, 2, "--seed", "-1")
    expect("18446744073709551615" not in p.stderr, p.stderr)


if __name__ == "__main__":
    suite.main()
