"""`joseki reduce --backend vulkan` and `joseki vulkan ...`: bad input exits 2 naming the value;
with no Vulkan device (the loader pointed at no driver) every rung is skipped with the reason and
the exit is 0; on a Vulkan device (lavapipe in CI) the ladder is exact and the records carry
backend = vulkan and the device's Vulkan facts. Checks that need a device SKIP without one."""
import json
import os

from harness import ROOT, Skip, Suite, expect, expect_exit

suite = Suite()
NO_DRIVER = {"VK_ICD_FILENAMES": "/nonexistent/icd.json", "VK_DRIVER_FILES": "/nonexistent/icd.json"}


def has_vulkan(s):
    p = s.run("vulkan", "devices")
    if p.returncode != 0 or "none (" in p.stdout:
        raise Skip("no Vulkan device: " + (p.stdout.strip() or p.stderr.strip()))


@suite.test
def bad_backend_is_bad_usage(s):
    p = s.run("reduce", "--backend", "metal")
    expect_exit(p, 2)
    expect("metal" in p.stderr, p.stderr)


@suite.test
def bad_vulkan_rung_is_bad_input(s):
    p = s.run("reduce", "--backend", "vulkan", "--rungs", "v9", "--n", "1000", env=NO_DRIVER)
    expect_exit(p, 2)
    expect("v9" in p.stderr, p.stderr)


@suite.test
def no_driver_skips_with_the_reason(s):
    out = os.path.join(s.tmp, "none.json")
    p = s.run("--json", out, "reduce", "--backend", "vulkan", "--n", "1000", env=NO_DRIVER)
    expect_exit(p, 0)
    recs = json.load(open(out))["records"]
    expect(len(recs) == 6, f"{len(recs)} records")
    for r in recs:
        expect(r["backend"] == "vulkan", r["backend"])
        expect("skipped" in r and r["skipped"], r)
        expect("Vulkan" in r["skipped"], r["skipped"])
    p = s.run("vulkan", "probes", "--n", "4096", env=NO_DRIVER)
    expect_exit(p, 0)
    expect("skipped" in p.stdout, p.stdout)


@suite.test
def lavapipe_ladder_is_exact_and_recorded(s):
    has_vulkan(s)
    out = os.path.join(s.tmp, "vk.json")
    p = s.run("--quiet", "--json", out, "reduce", "--backend", "vulkan", "--n", "2^16+3", "--offset", "3",
              "--mode", "hot", "--sweep", "--min-samples", "3", "--max-samples", "5", "--timeout", "0.3")
    expect_exit(p, 0)
    expect("ranking (fastest first)" in p.stdout, p.stdout)
    doc = json.load(open(out))
    try:
        import jsonschema
        jsonschema.validate(doc, json.load(open(os.path.join(ROOT, "docs/records.schema.json"))))
    except ImportError:
        pass
    recs = doc["records"]
    ladder = [r for r in recs if r["rung"] >= 1 and not r.get("skipped")]
    expect(len(ladder) >= 3, f"{len(ladder)} timed rungs")
    for r in ladder:
        expect(r["validation"] == "exact", r["variant"])
        expect(r["extra"]["vulkan"]["subgroup_size"] > 0, r["extra"]["vulkan"])
        expect(r["extra"]["vulkan"]["api_version"], r["extra"]["vulkan"])


LAVAPIPE = os.path.join(ROOT, "results/dev-2core/2026-12-01-vulkan-lavapipe")
H200_TOUR = os.path.join(ROOT, "results/h200/2026-11-30-tour-final/records.json.gz")
H200_VULKAN = os.path.join(ROOT, "results/h200/2026-12-01-device-call-1")


@suite.test
def rankings_side_by_side_marks_the_flip(s):
    """lavapipe (Vulkan, committed here) vs the H200 (CUDA, the final tour): the tree (v2) loses to one
    atomic per element (v1) on lavapipe, as on the seed's M4, and wins on the H200: that rule flips."""
    import gzip
    if not os.path.isdir(LAVAPIPE) or not os.path.exists(H200_TOUR):
        raise Skip("the committed record sets are not in this checkout")
    h200 = os.path.join(s.tmp, "h200_tour.json")
    with gzip.open(H200_TOUR, "rt") as f, open(h200, "w") as g:
        g.write(f.read())
    p = s.run("rankings", LAVAPIPE, h200, "--n", "2^24")
    expect_exit(p, 0)
    out = p.stdout
    expect("from the seed, not measured here" in out, out[:400])
    row = [l for l in out.splitlines() if "rule: one atomic per element (v1) beats the tree (v2)" in l]
    expect(len(row) == 1, out)
    expect("**flips**" in row[0], row[0])
    expect("llvmpipe" in out and "NVIDIA H200" in out, out[:600])
    p = s.run("rankings", LAVAPIPE, "--no-seed", "--n", "2^24")
    expect_exit(p, 0)
    expect("from the seed" not in p.stdout, p.stdout[:300])


@suite.test
def rankings_same_gpu_two_apis_flip_the_opaque_atomic(s):
    """The H200 through Vulkan (device call 1's records) beside the H200 through CUDA (the final tour):
    an atomic whose address the compiler cannot prove uniform costs 30x a uniform one in CUDA (r01b over
    r01) and about the same through NVIDIA's Vulkan driver (its probes): one GPU, two APIs, the rule flips.
    The other rules agree between the two APIs on the one GPU."""
    import gzip
    names = ["vulkan_2p24_cold.json.gz", "vk_probes.json.gz"]
    if not os.path.exists(H200_TOUR) or not all(os.path.exists(os.path.join(H200_VULKAN, n)) for n in names):
        raise Skip("the committed record sets are not in this checkout")
    sets = {"h200_vulkan": [(os.path.join(H200_VULKAN, n), n[:-3]) for n in names],
            "h200_cuda": [(H200_TOUR, "h200_tour.json")]}
    for d, files in sets.items():
        os.makedirs(os.path.join(s.tmp, d), exist_ok=True)
        for src, name in files:
            with gzip.open(src, "rt") as f, open(os.path.join(s.tmp, d, name), "w") as g:
                g.write(f.read())
    p = s.run("rankings", "--no-seed", os.path.join(s.tmp, "h200_vulkan"), os.path.join(s.tmp, "h200_cuda"),
              "--n", "2^24")
    expect_exit(p, 0)
    out = p.stdout
    header = [l for l in out.splitlines() if l.startswith("| row")]
    expect(len(header) == 1, out[:600])
    cols = [c.strip() for c in header[0].strip("|").split("|")]
    vk = next((i for i, c in enumerate(cols) if "NVIDIA H200 · vulkan" in c), None)
    cu = next((i for i, c in enumerate(cols) if "NVIDIA H200 · cuda" in c), None)
    expect(vk is not None and cu is not None, cols)

    def cells(prefix):
        rows = [l for l in out.splitlines() if l.startswith("| " + prefix)]
        expect(len(rows) == 1, (prefix, out))
        return [c.strip() for c in rows[0].strip("|").split("|")]

    rule = cells("rule: an atomic the compiler cannot prove uniform")
    expect(rule[vk] == "does not hold" and rule[cu] == "holds" and rule[-1] == "**flips**", rule)
    ratio = cells("cost ratio: opaque_over_uniform")
    expect(float(ratio[cu]) > 20 and float(ratio[vk]) < 1.5, ratio)
    for r in ("rule: one atomic per element (v1) beats the tree (v2)", "rule: coarsening (v3) beats v1 and v2",
              "rule: 16-byte loads (v5) beat 4-byte loads (v4)"):
        c = cells(r)
        expect(c[vk] == c[cu] and c[-1] == "same", c)


@suite.test
def rankings_bad_input(s):
    p = s.run("rankings", "/nonexistent/records")
    expect_exit(p, 2)
    expect("/nonexistent/records" in p.stderr, p.stderr)


suite.main()
