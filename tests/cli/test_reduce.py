"""`joseki reduce`: bad input exits 2 naming the value; without a GPU the CPU rungs run and
every GPU rung is a skipped record saying why (exit 0); with a GPU every rung is exact and
the records carry the ratios and the ceiling; the JOSEKI_SLOW_VARIANT test hook."""
import json
import os

from harness import Skip, Suite, expect, expect_exit, ladder, validate_records

suite = Suite()
QUICK = ["--min-time", "0.002", "--timeout", "0.3", "--min-samples", "3"]


@suite.test
def zero_size_is_bad_input_naming_it(s):
    expect_exit(s.run("reduce", "--n", "0"), 2, "--n", "'0'")


@suite.test
def negative_size_is_bad_input(s):
    expect_exit(s.run("reduce", "--n=-5"), 2, "-5")


@suite.test
def non_numeric_size_is_bad_input(s):
    expect_exit(s.run("reduce", "--n", "lots"), 2, "'lots'")


@suite.test
def size_beyond_memory_is_bad_input(s):
    expect_exit(s.run("reduce", "--n", "2^36", "--rungs", "cpu_one_core"), 2, "68719476736", "memory")


@suite.test
def unknown_mode_is_bad_input(s):
    expect_exit(s.run("reduce", "--mode", "warm"), 2, "'warm'")


@suite.test
def unknown_rung_is_bad_input_listing_the_rungs(s):
    expect_exit(s.run("reduce", "--rungs", "cpu_one_core,r99_magic"), 2, "'r99_magic'", "r06_single_pass")


@suite.test
def max_samples_below_min_samples_is_bad_input(s):
    expect_exit(s.run("reduce", "--rungs", "cpu_one_core", "--min-samples", "10", "--max-samples", "5"), 2,
                "max_samples 5")


@suite.test
def bad_offset_is_bad_input(s):
    expect_exit(s.run("reduce", "--offset", "x1"), 2, "'x1'")


@suite.test
def malformed_slow_variant_is_bad_input(s):
    p = s.run("reduce", "--rungs", "cpu_one_core", "--n", "1000", env={"JOSEKI_SLOW_VARIANT": "cpu_one_core"})
    expect_exit(p, 2, "JOSEKI_SLOW_VARIANT")


@suite.test
def list_shows_every_rung(s):
    p = s.run("reduce", "--list")
    expect_exit(p, 0, "cpu_one_core", "cpu_all_cores", "r00_cub", "r01_atomic", "r01b_atomic_opaque",
                "r02_shared_tree", "r03_coarsen", "r06_single_pass", "r08_bulk_copy", "r09_packed_ticket",
                "r10_two_slot", "r11_bulk_slab")


@suite.test
def validate_only_cpu_rungs_are_exact(s):
    p = s.run("reduce", "--validate-only", "--rungs", "cpu_one_core,cpu_all_cores")
    expect_exit(p, 0, "validation against the CPU reference", "exact")
    expect("FAILED" not in p.stdout, p.stdout)


def registry(s):
    """(all rungs, GPU rungs) from `joseki reduce --list`, so that the counts follow the registry."""
    p = s.run("reduce", "--list")
    expect_exit(p, 0)
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in p.stdout.splitlines()
            if line.startswith("|") and not line.startswith("|--") and "Backend" not in line]
    expect(len(rows) >= 14, f"the registry lists every rung: {p.stdout}")
    return len(rows), sum(1 for r in rows if r[5] == "cuda")


def run_ladder(s, name, *extra, env=None):
    path = os.path.join(s.tmp, name + ".json")
    p = s.run("--json", path, "reduce", "--n", "2^20+3", "--offset", "0,1", *QUICK, *extra, env=env)
    return p, path


@suite.test
def without_gpu_cpu_rungs_run_and_gpu_rungs_are_skipped(s):
    if s.gpu():
        raise Skip("a GPU is present; covered by with_gpu_every_rung_is_exact")
    p, path = run_ladder(s, "nogpu")
    expect_exit(p, 0, "device: none (no GPU", "cpu_one_core", "cpu_all_cores", "skipped: no GPU")
    doc = validate_records(path)
    recs = doc["records"]
    cpu = [r for r in recs if r["backend"] == "cpu"]
    gpu = [r for r in recs if r["backend"] == "cuda"]
    expect(len(cpu) == 4, f"expected 2 CPU rungs x 2 offsets, got {len(cpu)}")
    for r in cpu:
        expect(r["validation"] == "exact" and r["summary"]["median"] > 0, r)
        expect(r["axes"]["n"] == 1048579, r["axes"])
    _, gpu_rungs = registry(s)
    expect(len(gpu) == 2 * gpu_rungs, f"expected {gpu_rungs} GPU rungs x 2 offsets, got {len(gpu)}")
    for r in gpu:
        expect(r["skipped"] and r["skipped"].startswith("no GPU"), r["skipped"])


@suite.test
def with_gpu_every_rung_is_exact(s):
    if not s.gpu():
        raise Skip("no GPU here")
    p, path = run_ladder(s, "gpu", "--mode", "both")
    expect_exit(p, 0, "## reduce: n = 1048579", "(ceiling) stream_read", "x CUB")
    doc = validate_records(path)
    ladder = [r for r in doc["records"] if r["rung"] >= 0]
    all_rungs, _ = registry(s)
    expect(len(ladder) == all_rungs * 2 * 2, f"{all_rungs} rungs x 2 offsets x 2 modes, got {len(ladder)}")
    for r in ladder:
        expect(r["validation"] == "exact", f"{r['variant']}: {r['validation']}")
        if r["backend"] == "cuda":
            expect("x_baseline" in ladder(r) and r["throughput"]["pct_ceiling"] > 0, r["variant"])
    expect(any(r["variant"] == "stream_read" for r in doc["records"]), "the ceiling is measured in the same run")


@suite.test
def tour_quick_step_runs_the_ladder_at_2p24(s):
    out = os.path.join(s.tmp, "tour")
    p = s.run("run", "--only", "reduce", "--quick", "--out", out)
    expect_exit(p, 0, "## reduce: n = 16777216 (2^24)")
    recs = [r for r in validate_records(os.path.join(out, "records.json"))["records"] if r["experiment"] == "reduce"]
    all_rungs, gpu_rungs = registry(s)
    ladder = [r for r in recs if r["rung"] >= 0]
    expect(len(ladder) == all_rungs, f"one record per rung, got {len(ladder)}")
    for r in ladder:
        expect(r["axes"]["n"] == 1 << 24 and r["mode"] == "cold", r["axes"])
        if r["backend"] == "cpu" or s.gpu():
            expect(r["validation"] == "exact", f"{r['variant']}: {r['validation']}")
        else:
            expect(r["skipped"] and r["skipped"].startswith("no GPU"), r["skipped"])


@suite.test
def slow_variant_hook_repeats_the_work(s):
    path = os.path.join(s.tmp, "slow.json")
    p = s.run("--json", path, "reduce", "--rungs", "cpu_one_core", "--n", "2^20", *QUICK,
              env={"JOSEKI_SLOW_VARIANT": "cpu_one_core:3,other_experiment_variant:2"})
    expect_exit(p, 0)
    recs = json.load(open(path))["records"]
    expect(len(recs) == 1 and recs[0]["extra"].get("slow_factor") == 3, recs)


suite.main()
