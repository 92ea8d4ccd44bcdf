"""`joseki probe`: bad names (exit 2, naming the probe), the list, the no-GPU path (CPU-side
probes run, GPU probes recorded as skipped), and records that validate against the schema."""
import os

from harness import Skip, Suite, expect, expect_exit, validate_records

suite = Suite()
PROBES = ["exec", "divergence", "coalescing", "banks", "caches", "caches_l2", "atomics", "fences", "barriers", "occupancy",
          "launch", "startup", "profile", "diagnose", "dsmem", "tma", "mma"]


@suite.test
def unknown_probe_is_bad_input_naming_it(s):
    p = s.run("probe", "nosuchprobe")
    expect_exit(p, 2, "nosuchprobe", "no such probe", "coalescing")


@suite.test
def unknown_probe_among_good_ones_is_bad_input(s):
    expect_exit(s.run("probe", "startup", "bankz"), 2, "bankz")


@suite.test
def probe_needs_a_name(s):
    expect_exit(s.run("probe"), 2)


@suite.test
def bad_stopping_rule_is_bad_input(s):
    expect_exit(s.run("probe", "startup", "--min-samples", "0"), 2, "0")


@suite.test
def list_names_every_probe(s):
    p = s.run("probe", "list")
    expect_exit(p, 0, *PROBES)


@suite.test
def help_lists_the_probes(s):
    expect_exit(s.run("probe", "--help"), 0, "diagnose", "startup", "list")


@suite.test
def run_kernels_only_with_diagnose(s):
    expect_exit(s.run("probe", "exec", "--run-kernels"), 2, "--run-kernels")


@suite.test
def startup_runs_without_gpu_and_records_validate(s):
    path = os.path.join(s.tmp, "startup.json")
    p = s.run("--json", path, "probe", "startup", "--quick")
    expect_exit(p, 0, "probe.startup", "PLAIN", "pre-main")
    doc = validate_records(path)
    plain = [r for r in doc["records"] if r["variant"] == "PLAIN" and r["axes"].get("part") == "total"]
    expect(len(plain) == 1, "one PLAIN total record")
    expect(plain[0]["scope"] == "EXTERNAL" and plain[0]["summary"]["median"] > 0, str(plain[0]["summary"]))
    for key in ("pre_main_s", "in_main_s", "post_main_s"):
        expect(plain[0]["extra"][key] > 0, key)


@suite.test
def gpu_probe_without_gpu_is_a_clear_run_failure(s):
    if s.gpu():
        raise Skip("a GPU is present")
    expect_exit(s.run("probe", "banks"), 1, "no GPU")


@suite.test
def all_without_gpu_runs_cpu_probes_and_skips_gpu_ones(s):
    if s.gpu():
        raise Skip("a GPU is present; covered by the device step (probe all)")
    path = os.path.join(s.tmp, "all.json")
    p = s.run("--json", path, "probe", "all", "--quick")
    expect_exit(p, 0, "No GPU:", "probe.startup", "Verdicts")
    doc = validate_records(path)
    exps = {r["experiment"] for r in doc["records"]}
    for name in PROBES:
        expect("probe." + name in exps, f"no record for probe {name}")
    for r in doc["records"]:
        if r["experiment"] != "probe.startup":
            expect(r["skipped"] and "no GPU" in r["skipped"], f"{r['experiment']} should be skipped: {r['skipped']!r}")
    verdicts = [r for r in doc["records"] if "verdict" in r["extra"]]
    for r in verdicts:
        expect(r["extra"]["verdict"] in ("holds", "does not hold", "depends"), r["extra"]["verdict"])
        expect(r["extra"]["rule"] and r["extra"]["figure"], "rule and figure")


@suite.test
def exec_on_gpu_gives_a_verdict(s):
    if not s.gpu():
        raise Skip("no GPU here")
    path = os.path.join(s.tmp, "exec.json")
    expect_exit(s.run("--json", path, "probe", "exec", "--quick"), 0, "warp")
    doc = validate_records(path)
    v = [r for r in doc["records"] if r["variant"] == "verdict:warp"]
    expect(len(v) == 1 and v[0]["extra"]["verdict"] == "holds", str(v))


suite.main()
