"""joseki abc471g: solve with AtCoder I/O (stdin and file), exit code 2 with a message naming the
field and value for every malformed input, the solver list, --explain on stderr only, gen, and a
small bench whose records validate against the schema."""
import glob
import json
import os

from harness import ROOT, Skip, Suite, expect, expect_exit, ladder, validate_records

suite = Suite()

SHARED = os.environ.get("JOSEKI_ABC471G_TESTDATA") or next(
    (d for d in (os.path.join(os.path.dirname(ROOT), "shared", "testdata", "abc471g"),
                 os.path.join(ROOT, ".device", "testdata", "abc471g")) if os.path.isdir(d)), "")
OWN = os.path.join(ROOT, "tests", "data", "abc471g")
SOLVERS = ["auto", "cpu-direct", "cpu-pairs", "editorial"]


def cases(folder):
    return sorted(glob.glob(os.path.join(folder, "*.in")))


def read(path):
    with open(path) as f:
        return f.read()


@suite.test
def solve_shared_vectors_every_cpu_solver(s):
    ins = cases(SHARED)
    if not ins:
        raise Skip(f"no test vectors in {SHARED}")
    for path in ins:
        want = read(path[:-3] + ".out")
        for solver in SOLVERS:
            p = s.run("abc471g", "solve", "--solver", solver, stdin=read(path))
            expect_exit(p, 0)
            expect(p.stdout == want, f"{solver} on {os.path.basename(path)}: output differs")


@suite.test
def solve_own_cases_from_a_file_argument(s):
    ins = cases(OWN)
    expect(len(ins) >= 5, "tests/data/abc471g should hold generated cases")
    for path in ins:
        p = s.run("abc471g", "solve", "--solver", "auto", path)
        expect_exit(p, 0)
        expect(p.stdout == read(path[:-3] + ".out"), f"{os.path.basename(path)}: output differs")


@suite.test
def output_is_exactly_k_lines_and_explain_goes_to_stderr(s):
    text = "5 3 0 5\n0 1 2 0 1\n1 0 0\n"
    p = s.run("abc471g", "solve", "--explain", stdin=text)
    expect_exit(p, 0)
    expect(p.stdout == "2\n1\n2\n", f"stdout must be the K lines only: {p.stdout!r}")
    expect("auto:" in p.stderr and "chose" in p.stderr, f"--explain should say what auto chose: {p.stderr!r}")


@suite.test
def solver_list_and_unknown_solver(s):
    p = s.run("abc471g", "solve", "--help")
    expect_exit(p, 0, "cpu-direct", "cpu-pairs", "editorial", "brute", "auto", "65536")
    p = s.run("abc471g", "solve", "--solver", "quantum", stdin="1 1 0 1\n0\n1\n")
    expect_exit(p, 2, "quantum", "cpu-direct", "brute")


MALFORMED = [
    ("empty", "", "empty"),
    ("missing tokens", "5 3 0 5\n0 1 2\n", "missing b_4"),
    ("extra token", "5 3 0 5\n0 1 2 0 1\n1 0 0\n9\n", "extra token '9'"),
    ("non-number", "5 x 0 1\n0\n1 0 0\n", "K = 'x'"),
    ("negative", "5 3 0 1\n-2\n1 0 0\n", "b_1 = '-2'"),
    ("overflow", "5 3 0 1\n0\n1 0 123456789012345678901234567890\n", "overflows 64 bits"),
    ("K = 0", "5 0 0 1\n0\n", "K = 0"),
    ("K too large", "5 70000 0 1\n0\n", "K = 70000"),
    ("M > N", "2 3 0 3\n0 0 0\n1 0 0\n", "M = 3"),
    ("M = 0", "2 3 0 0\n1 0 0\n", "M = 0"),
    ("b >= K", "5 3 0 1\n3\n1 0 0\n", "b_1 = 3"),
    ("V not 0/1", "5 3 0 1\n0\n1 0 7\n", "V_2 = 7"),
    ("seed >= 2^60", "5 3 1152921504606846976 1\n0\n1 0 0\n", "seed = 1152921504606846976"),
    ("N = 0", "0 3 0 1\n0\n1 0 0\n", "N = 0"),
]


@suite.test
def malformed_inputs_exit_2_naming_field_and_value(s):
    for name, text, needle in MALFORMED:
        for solver in ("auto", "brute"):
            p = s.run("abc471g", "solve", "--solver", solver, stdin=text, timeout=30)
            expect_exit(p, 2, needle)
            expect(p.stdout == "", f"{name}: nothing may be printed on stdout: {p.stdout!r}")


@suite.test
def missing_input_file_is_bad_input(s):
    p = s.run("abc471g", "solve", os.path.join(s.tmp, "nope.in"))
    expect_exit(p, 2, "nope.in")


@suite.test
def pair_solvers_refuse_k_beyond_their_limit_by_name(s):
    text = "3 9000 0 3\n1 2 3\n" + " ".join("1" if j % 3 else "0" for j in range(9000)) + "\n"
    expect_exit(s.run("abc471g", "solve", "--solver", "cpu-pairs", stdin=text), 2, "cpu-pairs", "8192")
    p = s.run("abc471g", "solve", "--solver", "auto", stdin=text)
    expect_exit(p, 0)
    expect(len(p.stdout.splitlines()) == 9000, "auto must still answer with cpu-direct")


@suite.test
def gen_then_solve_agrees_with_brute(s):
    path = os.path.join(s.tmp, "g.in")
    expect_exit(s.run("abc471g", "gen", "--n", "20000", "--k", "333", "--m", "17", "--seed", "1152921504606846975",
                      "-o", path), 0)
    want = s.run("abc471g", "solve", "--solver", "brute", path)
    expect_exit(want, 0)
    for solver in ("cpu-direct", "cpu-pairs", "editorial"):
        p = s.run("abc471g", "solve", "--solver", solver, "--threads", "2", path)
        expect_exit(p, 0)
        expect(p.stdout == want.stdout, f"{solver} differs from brute")
    expect_exit(s.run("abc471g", "gen", "--k", "0"), 2, "--k 0")


@suite.test
def bench_small_case_records_validate(s):
    path = os.path.join(s.tmp, "bench.json")
    p = s.run("--json", path, "abc471g", "bench", "--case", "N=50000,K=300", "--solvers",
              "cpu-direct,cpu-pairs,editorial,brute", "--runs", "2")
    expect_exit(p, 0, "| Solver", "cpu-direct", "EXTERNAL", "PROGRAM", "x editorial")
    doc = validate_records(path)
    recs = doc["records"]
    ext = [r for r in recs if r["scope"] == "EXTERNAL" and not r["skipped"]]
    expect(len(ext) == 4, f"one EXTERNAL record per solver: {len(ext)}")
    for r in recs:
        expect(r["experiment"] == "abc471g", r["experiment"])
        if r["skipped"]:
            continue
        expect(r["validation"] == "exact", f"{r['variant']}: {r['validation']}")
        expect(len(r["samples"]) == 2, "2 runs")
        expect(ladder(r)["baseline"] == "editorial" and ladder(r)["x_baseline"] > 0, "ratio to editorial")
        if r["scope"] == "PROGRAM":
            expect("parse" in r["extra"]["phases_s"], "phases from the child's report")
            prog = r["summary"]["median"]
            ext_m = [e for e in ext if e["variant"] == r["variant"]][0]["summary"]["median"]
            expect(prog <= ext_m, "PROGRAM nests inside EXTERNAL")


@suite.test
def bench_skips_a_gpu_solver_without_a_gpu_and_runs_it_with_one(s):
    helptext = s.run("abc471g", "solve", "--help").stdout
    gpu = [line.split()[0] for line in helptext.splitlines() if line.rstrip().endswith("[GPU]")]
    if not gpu:
        raise Skip("no GPU solver registered in this build")
    path = os.path.join(s.tmp, "bench-gpu.json")
    p = s.run("--json", path, "abc471g", "bench", "--case", "N=20000,K=100", "--solvers", "cpu-direct," + gpu[0],
              "--runs", "1")
    expect_exit(p, 0)
    doc = validate_records(path)
    for r in doc["records"]:
        if r["variant"] != gpu[0]:
            continue
        if s.gpu():
            expect(r["validation"] == "exact" or r["skipped"], f"{gpu[0]}: {r['validation']}")
        else:
            expect(r["skipped"] and "GPU" in r["skipped"], f"{gpu[0]} without a GPU must be skipped: {r}")


@suite.test
def quick_tour_step_records_every_cpu_solver_and_the_editorial_once(s):
    out = os.path.join(s.tmp, "tour-cpu")
    p = s.run("run", "--quick", "--only", "abc471g-cpu", "--out", out, "--no-report", "--progress", "none",
              timeout=600)
    expect_exit(p, 0, "x editorial")
    with open(os.path.join(out, "records.json")) as f:
        recs = json.load(f)["records"]
    try:
        validate_records(os.path.join(out, "records.json"))
    except Skip:
        pass  # the fields checked below are the ones the report reads
    ext = {r["variant"]: r for r in recs if r["experiment"] == "abc471g" and r["scope"] == "EXTERNAL"}
    expect(set(ext) == {"cpu-direct", "cpu-pairs", "editorial", "auto"}, f"solvers: {sorted(ext)}")
    for name, r in ext.items():
        expect(r["validation"] == "exact", f"{name}: {r['validation']}")
        expect(r["axes"]["case"] == "max" and r["axes"]["n"] == 7000000, f"{name}: the max case")
        expect(ladder(r)["baseline"] == "editorial" and ladder(r)["x_baseline"] > 0, f"{name}: ratio")
    ed = ext["editorial"]
    expect(len(ed["samples"]) == 1 and ed["warmup_runs"] == 0 and ed["stop_reason"] == "single",
           f"the quick tour runs the editorial once, without a warm-up: {ed['samples']}, {ed['warmup_runs']}")
    expect(len(ext["cpu-direct"]["samples"]) == 3 and ext["cpu-direct"]["warmup_runs"] == 1, "3 runs after a warm-up")
    expect(ext["cpu-direct"]["extra"]["reference"] == "cpu-direct", "cpu-direct's output is the reference")


@suite.test
def bench_rejects_bad_arguments(s):
    expect_exit(s.run("abc471g", "bench", "--case", "N=abc"), 2, "N=abc")
    expect_exit(s.run("abc471g", "bench", "--solvers", "cpu-direct,nope"), 2, "nope")


def cost_file(s, name, fixed_idle_s, fixed_held_s, cpu_c0_s):
    """A measured cost file (schema /2): both CPU solvers take cpu_c0_s, the GPU's fixed costs as given."""
    fit = {"c0_s": cpu_c0_s, "per_n_s": 0.0, "per_nk_s": 0.0, "per_k2_s": 0.0, "threads": 0, "max_rel_err": 0.0}
    doc = {"schema": "joseki.abc471g.costs/2", "source": "measured", "created": "2026-12-01T00:00:00Z", "host": "test",
           "device": {"index": 0, "name": "test"},
           "gpu": {"fixed_external_idle_s": fixed_idle_s, "fixed_external_held_s": fixed_held_s, "idle_measured": True,
                   "held_measured": True, "idle_note": "", "module_load_s": 0.0},
           "solvers": {"cpu-direct": fit, "cpu-pairs": fit}}
    path = os.path.join(s.tmp, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


# Session 19: calibrate says how loaded the machine was (other processes' share of its CPUs) and keeps it in the file;
# --explain names a loaded calibration beside every calibrated figure. (Calibrate is quick here: no GPU in CI; where
# one is, the GPU part runs too.)
@suite.test
def calibrate_says_how_busy_the_machine_was(s):
    if s.gpu():
        raise Skip("a GPU is present: calibrate would measure its fixed costs (minutes); covered without one")
    out = os.path.join(s.tmp, "cal.json")
    p = s.run("abc471g", "calibrate", "--quick", "--solvers", "cpu-direct", "--out", out, timeout=300)
    expect_exit(p, 0)
    with open(out) as f:
        doc = json.load(f)
    share = doc["machine"]["others_cpu_share"]
    if share == -1:  # a calibration shorter than the kernel's 10 ms tick says nothing: unknown, and no line
        expect(doc["machine"]["cpus"] == 0 and "other processes used" not in p.stdout, f"{doc['machine']}: {p.stdout}")
    else:
        expect(0.0 <= share <= 1.0 and doc["machine"]["cpus"] >= 1, f"machine: {doc['machine']}")
        expect("Note: other processes used" in p.stdout, p.stdout)
        expect(("run it again on an idle machine" in p.stdout) == (share > 0.25), p.stdout)
    doc["machine"]["others_cpu_share"] = 0.6
    with open(out, "w") as f:
        json.dump(doc, f)
    path = os.path.join(s.tmp, "busy.in")
    expect_exit(s.run("abc471g", "gen", "--n", "3000", "--k", "40", "--m", "30", "-o", path), 0)
    p = s.run("abc471g", "solve", "--explain", path, env={"JOSEKI_COSTS": out})
    expect_exit(p, 0)
    expect("other processes used 60 % of the" in p.stderr, f"--explain names the loaded calibration: {p.stderr}")


# Issue 17: auto decides from the header of a regular file (beside the parse, so that a chosen GPU
# solver's warm start overlaps it) and after the parse of a pipe; where the best CPU estimate is below
# the GPU's smallest fixed cost it asks nothing of the GPU and --explain says why.
@suite.test
def auto_decides_from_a_files_header_and_says_why_the_gpu_was_not_asked(s):
    path = os.path.join(s.tmp, "small.in")
    expect_exit(s.run("abc471g", "gen", "--n", "3000", "--k", "40", "--m", "30", "-o", path), 0)
    want = s.run("abc471g", "solve", "--solver", "brute", path)
    expect_exit(want, 0)
    costs = cost_file(s, "slow_gpu.json", 0.300, 0.180, 0.002)
    p = s.run("abc471g", "solve", "--explain", path, env={"JOSEKI_COSTS": costs})
    expect_exit(p, 0)
    expect(p.stdout == want.stdout, "auto's answer differs from brute")
    expect("decided from the input's header" in p.stderr, f"a file's header is read ahead: {p.stderr}")
    expect("GPU not asked: the best CPU estimate" in p.stderr and "held state, 180.0 ms" in p.stderr,
           f"--explain must say why the GPU was not asked: {p.stderr}")
    expect("gpu-pairs    not estimated" in p.stderr, f"the GPU rows are not estimated: {p.stderr}")
    p = s.run("abc471g", "solve", "--explain", stdin=read(path), env={"JOSEKI_COSTS": costs})
    expect_exit(p, 0)
    expect(p.stdout == want.stdout, "auto's answer (pipe) differs from brute")
    expect("decided after the parse" in p.stderr, f"a pipe cannot be read ahead: {p.stderr}")


# Where a GPU could win by the cost file (every CPU estimate above the GPU's fixed cost), auto must
# estimate the GPU solvers: it runs one where a GPU is here, and says why not where none is.
@suite.test
def auto_with_a_cost_file_asks_the_gpu_where_it_could_win(s):
    path = os.path.join(s.tmp, "gpu_wins.in")
    expect_exit(s.run("abc471g", "gen", "--n", "5000", "--k", "64", "--m", "20", "-o", path), 0)
    want = s.run("abc471g", "solve", "--solver", "brute", path)
    costs = cost_file(s, "fast_gpu.json", 0.050, 0.040, 10.0)
    p = s.run("abc471g", "solve", "--explain", path, env={"JOSEKI_COSTS": costs})
    expect_exit(p, 0)
    expect(p.stdout == want.stdout, "auto's answer differs from brute")
    expect("GPU not asked" not in p.stderr, f"a GPU could win here: it must be asked: {p.stderr}")
    rows = [l.strip() for l in p.stderr.splitlines() if l.strip().startswith("gpu-pairs ")]
    expect(len(rows) == 1, f"one gpu-pairs row: {p.stderr}")
    chose = next(l.split(": ", 1)[1] for l in p.stderr.splitlines() if l.startswith("solver: "))
    if "not possible" in rows[0]:
        expect(not chose.startswith("gpu-"), f"no GPU here, yet {chose} ran")
    else:
        expect("~" in rows[0] and "idle" in p.stderr, f"gpu-pairs estimated: {rows[0]}")
        expect(chose.startswith("gpu-"), f"the GPU wins by this cost file, yet auto ran {chose}: {p.stderr}")


# The header is read at the input's current offset, and bad input read ahead is still bad input.
@suite.test
def auto_reads_ahead_at_the_current_offset_and_bad_files_still_exit_2(s):
    import subprocess
    path = os.path.join(s.tmp, "offset.in")
    expect_exit(s.run("abc471g", "gen", "--n", "777", "--k", "33", "--m", "7", "-o", path), 0)
    want = s.run("abc471g", "solve", "--solver", "brute", path)
    body = read(path)
    padded = os.path.join(s.tmp, "padded.in")
    with open(padded, "w") as f:
        f.write("not a header\n" + body)  # auto must not see this line: the child's stdin starts after it
    with open(padded) as f:
        f.seek(len("not a header\n"))
        p = subprocess.run([s.exe, "abc471g", "solve", "--explain"], stdin=f, capture_output=True, text=True, timeout=60,
                           env=s.env())
    expect_exit(p, 0)
    expect(p.stdout == want.stdout, "auto read the input from the wrong offset")
    expect("N = 777, K = 33" in p.stderr and "decided from the input's header" in p.stderr, p.stderr)
    for name, text, needle in MALFORMED:
        if not text:
            continue
        bad = os.path.join(s.tmp, "bad.in")
        with open(bad, "w") as f:
            f.write(text)
        p = s.run("abc471g", "solve", "--solver", "auto", bad, timeout=30)
        expect_exit(p, 2, needle)
        expect(p.stdout == "", f"{name} (file): nothing may be printed on stdout: {p.stdout!r}")


suite.main()
