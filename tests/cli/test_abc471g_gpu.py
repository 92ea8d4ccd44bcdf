"""joseki abc471g on the GPU, from the command line: `solve --solver gpu-direct` without a GPU exits 1
saying so (and `auto` still answers on the CPU), `ladder --rungs g99` exits 2 naming g99 and the
rungs, `ladder` without a GPU exits 1 saying so, and with a GPU the ladder's validation of the small
case passes for every rung (skipped, with the reason, without a GPU)."""
import json
import os

from harness import Skip, Suite, expect, expect_exit, ladder

suite = Suite()

SMALL = "5 3 0 5\n0 1 2 0 1\n1 0 0\n"  # K = 3 shifts: 2, 1, 2 syllables
SMALL_OUT = "2\n1\n2\n"


def no_gpu_or_skip(s):
    if s.gpu():
        raise Skip("a GPU is present here: the no-GPU path is checked on machines without one")


@suite.test
def gpu_direct_without_a_gpu_exits_1_saying_no_gpu(s):
    no_gpu_or_skip(s)
    p = s.run("abc471g", "solve", "--solver", "gpu-direct", stdin=SMALL)
    expect_exit(p, 1, "no GPU")
    expect(p.stdout == "", f"nothing on stdout when the solver cannot run: {p.stdout!r}")
    expect("gpu-direct" in p.stderr, f"the message names the solver: {p.stderr!r}")
    # auto never picks the GPU where there is none: it answers on the CPU.
    p = s.run("abc471g", "solve", "--solver", "auto", "--explain", stdin=SMALL)
    expect_exit(p, 0)
    expect(p.stdout == SMALL_OUT, f"auto's answer: {p.stdout!r}")
    expect("solver: gpu-direct" not in p.stderr, f"auto ran gpu-direct without a GPU: {p.stderr!r}")


@suite.test
def gpu_direct_is_listed_as_a_gpu_solver(s):
    p = s.run("abc471g", "solve", "--help")
    expect_exit(p, 0)
    lines = [line for line in p.stdout.splitlines() if line.strip().startswith("gpu-direct")]
    expect(lines and lines[0].rstrip().endswith("[GPU]"), f"gpu-direct in --help, marked [GPU]:\n{p.stdout}")


@suite.test
def ladder_unknown_rung_exits_2_naming_it(s):
    p = s.run("abc471g", "ladder", "--rungs", "g99")
    expect_exit(p, 2, "g99", "g01", "g13")
    p = s.run("abc471g", "ladder", "--rungs", "g01,,g13")
    expect_exit(p, 2, "--rungs")


@suite.test
def ladder_bad_case_or_mode_exits_2(s):
    expect_exit(s.run("abc471g", "ladder", "--case", "huge"), 2, "huge")
    expect_exit(s.run("abc471g", "ladder", "--mode", "lukewarm"), 2, "lukewarm")
    expect_exit(s.run("abc471g", "ladder", "--input", "/nonexistent/case.in"), 2, "/nonexistent/case.in")


@suite.test
def ladder_without_a_gpu_exits_1_saying_no_gpu(s):
    no_gpu_or_skip(s)
    p = s.run("abc471g", "ladder", timeout=120)
    expect_exit(p, 1, "no GPU")
    p = s.run("abc471g", "ladder", "--validate-only", "--case", "small", timeout=120)
    expect_exit(p, 1, "no GPU")


@suite.test
def ladder_lists_every_rung_in_its_help(s):
    p = s.run("abc471g", "ladder", "--help")
    expect_exit(p, 0)
    for rung in ("g01_lane_per_thread", "g02_chunked", "g08_geometry", "g13_persistent"):
        expect(rung in p.stdout, f"{rung} in `ladder --help`:\n{p.stdout}")


@suite.test
def ladder_validates_the_small_case_on_the_gpu(s):
    if not s.gpu():
        raise Skip(f"no GPU: {s._gpu_reason}")
    p = s.run("abc471g", "ladder", "--validate-only", "--case", "small", timeout=600)
    expect_exit(p, 0, "g01_lane_per_thread", "g13_persistent")
    expect("FAILED" not in p.stdout, f"a rung failed:\n{p.stdout}")
    rows = [line for line in p.stdout.splitlines() if line.startswith("| g")]
    expect(len(rows) >= 15, f"one validation row per rung:\n{p.stdout}")
    for row in rows:
        expect(row.rstrip(" |").endswith("exact"), f"not exact: {row}")


@suite.test
def gpu_direct_solves_the_small_case_on_the_gpu(s):
    if not s.gpu():
        raise Skip(f"no GPU: {s._gpu_reason}")
    p = s.run("abc471g", "solve", "--solver", "gpu-direct", "--explain", stdin=SMALL)
    expect_exit(p, 0)
    expect(p.stdout == SMALL_OUT, f"gpu-direct's answer: {p.stdout!r}")
    expect("GPU_COMPUTE" in p.stderr, f"--explain reports the GPU scopes: {p.stderr!r}")


@suite.test
def quick_tour_step_is_skipped_without_a_gpu_and_records_the_ladder_with_one(s):
    out = os.path.join(s.tmp, "tour-gpu")
    p = s.run("run", "--quick", "--only", "abc471g-gpu", "--out", out, "--no-report", "--progress", "none",
              timeout=600)
    expect_exit(p, 0)
    with open(os.path.join(out, "records.json")) as f:
        recs = json.load(f)["records"]
    if not s.gpu():
        expect(len(recs) == 1 and recs[0]["skipped"] and "no GPU" in recs[0]["skipped"],
               f"one skipped step record saying why: {recs}")
        return
    rungs = {r["variant"]: r for r in recs if r["experiment"] == "abc471g" and r["rung"] >= 1}
    expect(set(rungs) == {"g01_lane_per_thread", "g15_warp_summed"}, f"quick: g01 and the final rung: {sorted(rungs)}")
    for name, r in rungs.items():
        expect(r["validation"] == "exact" and r["summary"]["n"] >= 1, f"{name}: {r['validation']}")
        expect("validation_suite" in r["extra"] and "geometry" in r["extra"], f"{name}: extra {sorted(r['extra'])}")
    expect(ladder(rungs["g15_warp_summed"])["x_baseline"] > 1, "the final rung is faster than g01")
    scopes = [r for r in recs if r["variant"] == "gpu-direct" and r["scope"] != "VALUE"]
    expect(sorted(r["scope"] for r in scopes) == ["EXTERNAL", "GPU_COMPUTE", "GPU_PIPELINE", "PROGRAM"],
           f"the four scopes: {[r['scope'] for r in scopes]}")
    expect(len({ladder(r)["scope_set"] for r in scopes}) == 1, "measured together: one scope_set")


suite.main()
