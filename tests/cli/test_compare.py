"""`joseki compare A B`: SAME / FASTER / SLOWER judged with the noise of both runs, exit code 3
on a regression beyond the threshold, added/removed results, devices named, bad input -> 2.
Fixtures: tests/data/report/compare_*.json (synthetic, made by make_fixtures.py); and, when
the build has `joseki reduce`, an end-to-end run slowed with JOSEKI_SLOW_VARIANT."""
import json
import os
import shutil

from harness import ROOT, Skip, Suite, expect, expect_exit

suite = Suite()
DATA = os.path.join(ROOT, "tests/data/report")


def fx(name):
    return os.path.join(DATA, f"compare_{name}.json")


def statuses(out):
    """variant -> status, from the markdown table that compare prints."""
    rows = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 11 and cells[0] not in ("Experiment", "") and not cells[0].startswith("-"):
            rows[cells[1]] = cells[10]
    return rows


@suite.test
def unchanged_run_is_same_everywhere(s):
    p = s.run("compare", fx("base"), fx("rerun"))
    expect_exit(p, 0, "Only in A (removed)", "r00_removed_later", "Only in B (added)", "r08_added")
    st = statuses(p.stdout)
    expect(len(st) == 9, f"expected 9 matched results, got {st}")
    expect(all(v == "SAME" for v in st.values()), f"all should be SAME: {st}")


@suite.test
def a_run_against_itself_is_same(s):
    p = s.run("compare", fx("slowed"), fx("slowed"))
    expect_exit(p, 0, "0 regression(s)")
    expect(set(statuses(p.stdout).values()) == {"SAME"}, p.stdout)


@suite.test
def slowed_rungs_are_slower_and_exit_3(s):
    p = s.run("compare", fx("base"), fx("slowed"))
    expect_exit(p, 3, "2 regression(s)")
    st = statuses(p.stdout)
    expect(st["r04_warp_shuffle"].startswith("SLOWER (beyond 5%)"), st)
    expect(st["cpu_one_core"].startswith("SLOWER (beyond 5%)"), st)
    expect(st["r05_vector_loads"] == "SAME", st)


@suite.test
def threshold_decides_the_exit_code_not_the_status(s):
    p = s.run("compare", "--threshold", "250", fx("base"), fx("slowed"))
    expect_exit(p, 0, "0 regression(s)")
    expect(statuses(p.stdout)["r04_warp_shuffle"] == "SLOWER", p.stdout)


@suite.test
def noise_and_min_diff_decide_same(s):
    p = s.run("compare", fx("base"), fx("small"))
    expect_exit(p, 0)
    st = statuses(p.stdout)
    expect(st["cpu_all_cores"] == "SAME", f"+6% inside ~8% noise should be SAME: {st}")
    expect(st["r06_single_pass"] == "SLOWER", f"+3% on a quiet rung is SLOWER (below threshold): {st}")
    expect(st["r05_vector_loads"] == "FASTER", st)
    expect(st["cub"] == "SAME", st)
    p = s.run("compare", "--threshold", "2", fx("base"), fx("small"))
    expect_exit(p, 3, "1 regression(s)")
    p = s.run("compare", "--min-diff", "5", fx("base"), fx("small"))
    expect(statuses(p.stdout)["r06_single_pass"] == "SAME", "a 3% change is SAME with --min-diff 5")


@suite.test
def changed_only_hides_same(s):
    p = s.run("compare", "--changed-only", fx("base"), fx("small"))
    expect_exit(p, 0)
    expect(set(statuses(p.stdout)) == {"r06_single_pass", "r05_vector_loads"}, p.stdout)


@suite.test
def different_devices_are_named(s):
    p = s.run("compare", fx("base"), fx("other_gpu"))
    expect_exit(p, 3, "NVIDIA H200", "NVIDIA H100 80GB HBM3", "different devices")


@suite.test
def failed_validation_in_b_is_a_regression(s):
    with open(fx("base")) as f:
        doc = json.load(f)
    for r in doc["records"]:
        if r["variant"] == "r03_coarsen":
            r.update(samples=[], summary=None, throughput=None, skipped="validation failed",
                     validation="failed: 3 mismatches, first at index 17")
    b = os.path.join(s.tmp, "failed.json")
    with open(b, "w") as f:
        json.dump(doc, f)
    p = s.run("compare", fx("base"), b)
    expect_exit(p, 3, "FAILED in B")
    expect(statuses(p.stdout)["r03_coarsen"] == "FAILED in B", p.stdout)


@suite.test
def run_folders_are_accepted(s):
    run = os.path.join(s.tmp, "run_a")
    os.makedirs(run, exist_ok=True)
    shutil.copy(fx("base"), os.path.join(run, "records.json"))
    expect_exit(s.run("compare", run, fx("rerun")), 0, "run_a")


@suite.test
def bad_inputs_exit_2_naming_them(s):
    expect_exit(s.run("compare", fx("base"), os.path.join(s.tmp, "missing.json")), 2, "missing.json")
    expect_exit(s.run("compare", "docs/records.schema.json", fx("base")), 2, "records.schema.json")
    expect_exit(s.run("compare", "--threshold", "-1", fx("base"), fx("base")), 2, "-1")
    expect_exit(s.run("compare", fx("base")), 2)


def reduce_available(s):
    p = s.run("--help")
    return p.returncode == 0 and any(line.strip().startswith("reduce") for line in p.stdout.splitlines())


@suite.test
def end_to_end_slowed_cpu_rung_is_flagged(s):
    """The reduce experiment honours JOSEKI_SLOW_VARIANT=<variant>:<k> (a real k-fold slowdown)."""
    if not reduce_available(s):
        raise Skip("this build has no `joseki reduce` (JOSEKI_EXPERIMENTS leaves it out, or it is not written yet)")
    a, b, c = (os.path.join(s.tmp, f"{x}.json") for x in "abc")
    args = ["reduce", "--rungs", "cpu_one_core", "--n", "4194304"]
    expect_exit(s.run("--json", a, *args), 0)
    expect_exit(s.run("--json", b, *args, env={"JOSEKI_SLOW_VARIANT": "cpu_one_core:3"}), 0)
    expect_exit(s.run("--json", c, *args), 0)
    p = s.run("compare", a, b)
    expect_exit(p, 3, "SLOWER (beyond 5%)")
    expect(statuses(p.stdout).get("cpu_one_core", "").startswith("SLOWER"), p.stdout)
    p = s.run("compare", a, a)
    expect_exit(p, 0)
    expect(statuses(p.stdout).get("cpu_one_core") == "SAME", p.stdout)
    # An unchanged re-run on a shared machine: no regression at a generous threshold (timing
    # noise between runs is not the subject here; the fixtures test the SAME rule exactly).
    expect_exit(s.run("compare", "--threshold", "50", a, c), 0)


suite.main()
