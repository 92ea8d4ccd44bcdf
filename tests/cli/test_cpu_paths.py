"""The CPU paths, quickly, on any architecture (the arm64 stage's CLI set under qemu-user, and
natively on x86-64): cpu-direct and cpu-pairs on the shared vectors c1..c4 at the best SIMD
level and at the portable one; the SIMD dispatch names its kernel set (NEON on aarch64,
AVX-512/AVX2/scalar on x86-64, never another architecture's) and JOSEKI_SIMD lowers it;
the reduce ladder's CPU rungs are exact and their timed run records them."""
import glob
import os

from harness import ROOT, Skip, Suite, expect, expect_exit, validate_records

suite = Suite()

SHARED = os.environ.get("JOSEKI_ABC471G_TESTDATA") or next(
    (d for d in (os.path.join(os.path.dirname(ROOT), "shared", "testdata", "abc471g"),
                 os.path.join(ROOT, ".device", "testdata", "abc471g")) if os.path.isdir(d)), "")
QUICK = ["--min-time", "0.002", "--timeout", "0.3", "--min-samples", "3"]


def machine(exe):
    """The binary's architecture from its ELF header (e_machine): 'aarch64', 'x86_64' or '?'."""
    with open(exe, "rb") as f:
        head = f.read(20)
    return {0xB7: "aarch64", 0x3E: "x86_64"}.get(int.from_bytes(head[18:20], "little"), "?")


def small_vectors():
    ins = sorted(glob.glob(os.path.join(SHARED, "c[1-4]_*.in"))) if SHARED else []
    if len(ins) != 4:
        raise Skip(f"the shared vectors c1..c4 are not in {SHARED or '../shared/testdata/abc471g'}")
    return ins


def read(path):
    with open(path) as f:
        return f.read()


# The SIMD levels to try: the best (no JOSEKI_SIMD) and the portable one.
LEVELS = [("best", None), ("scalar", {"JOSEKI_SIMD": "scalar"})]


@suite.test
def direct_and_pairs_solve_c1_to_c4_at_every_level(s):
    for path in small_vectors():
        want = read(path[:-3] + ".out")
        for solver in ("cpu-direct", "cpu-pairs"):
            for name, env in LEVELS:
                for threads in ("1", "2"):
                    p = s.run("abc471g", "solve", "--solver", solver, "--threads", threads, path, env=env,
                              timeout=120)
                    expect_exit(p, 0)
                    expect(p.stdout == want,
                           f"{solver} ({name}, {threads} threads) on {os.path.basename(path)}: {p.stdout!r} != {want!r}")


@suite.test
def simd_dispatch_names_this_architectures_kernel_set(s):
    arch = machine(s.exe)
    own = {"aarch64": {"neon"}, "x86_64": {"avx512", "avx2", "scalar"}}.get(arch)
    if own is None:
        raise Skip(f"unknown architecture of {s.exe}")
    # cpu-direct's explanation names the kernel set: "cpu-direct: <set>, ..."
    text = read(small_vectors()[1])
    for env, expected in ((None, own), ({"JOSEKI_SIMD": "scalar"}, {"scalar"})):
        p = s.run("abc471g", "solve", "--solver", "cpu-direct", "--explain", stdin=text, env=env, timeout=120)
        expect_exit(p, 0)
        sets = [w for w in ("neon", "avx512", "avx2", "scalar") if f"cpu-direct: {w}," in p.stderr]
        expect(len(sets) == 1, f"the explanation should name one kernel set: {p.stderr!r}")
        expect(sets[0] in expected, f"{arch}, JOSEKI_SIMD={env}: kernel set {sets[0]}, expected one of {expected}")
        if arch == "aarch64" and env is None:
            expect(sets[0] == "neon", "every AArch64 CPU has NEON: the dispatch must choose it")
    # A level of the other architecture is ignored, never chosen.
    other = "avx2" if arch == "aarch64" else "neon"
    p = s.run("abc471g", "solve", "--solver", "cpu-direct", "--explain", stdin=text, env={"JOSEKI_SIMD": other},
              timeout=120)
    expect_exit(p, 0)
    expect(f"cpu-direct: {other}," not in p.stderr, f"JOSEKI_SIMD={other} on {arch} chose it: {p.stderr!r}")


@suite.test
def reduce_cpu_rungs_are_exact_and_recorded(s):
    p = s.run("reduce", "--validate-only", "--rungs", "cpu_one_core,cpu_all_cores", timeout=300)
    expect_exit(p, 0, "validation against the CPU reference", "exact")
    expect("FAILED" not in p.stdout, p.stdout)
    path = os.path.join(s.tmp, "cpu_rungs.json")
    p = s.run("--json", path, "reduce", "--rungs", "cpu_one_core,cpu_all_cores", "--n", "2^16+3", *QUICK,
              timeout=300)
    expect_exit(p, 0, "cpu_one_core", "cpu_all_cores")
    recs = [r for r in validate_records(path)["records"] if r["backend"] == "cpu"]
    expect(len(recs) == 2, f"one record per CPU rung: {len(recs)}")
    for r in recs:
        expect(r["validation"] == "exact" and r["summary"]["median"] > 0, r)


suite.main()
