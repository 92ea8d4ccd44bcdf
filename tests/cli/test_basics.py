"""The joseki CLI: exit codes (0 ok, 1 run failure, 2 bad usage/input), messages that
name the bad value, GPU-absent behaviour, and records that validate against the schema."""
import glob
import json
import os

from harness import Skip, Suite, expect, expect_exit, validate_records

suite = Suite()


@suite.test
def help_exits_zero_and_lists_subcommands(s):
    p = s.run("--help")
    expect_exit(p, 0, "device", "check", "run", "table")


@suite.test
def no_subcommand_is_bad_usage(s):
    expect_exit(s.run(), 2, "error")


@suite.test
def unknown_subcommand_is_bad_usage(s):
    expect_exit(s.run("frobnicate"), 2, "frobnicate")


@suite.test
def negative_device_is_bad_usage_naming_the_value(s):
    expect_exit(s.run("--device", "-1", "device"), 2, "-1")


@suite.test
def non_numeric_device_is_bad_usage(s):
    expect_exit(s.run("--device", "abc", "device"), 2, "abc")


@suite.test
def bad_stopping_rule_is_bad_usage(s):
    expect_exit(s.run("device", "--max-noise", "-3"), 2, "-3")


@suite.test
def device_and_check_without_gpu_fail_with_a_clear_message(s):
    if s.gpu():
        raise Skip("a GPU is present; covered by device_and_check_on_gpu")
    for cmd in ("device", "check"):
        p = s.run(cmd)
        expect_exit(p, 1, "no GPU")


@suite.test
def device_and_check_on_gpu(s):
    if not s.gpu():
        raise Skip("no GPU here")
    path = os.path.join(s.tmp, "device.json")
    p = s.run("--json", path, "device")
    expect_exit(p, 0, "Measured ceilings", "d2d_copy", "stream_read", "context_creation")
    doc = validate_records(path)
    expect(len(doc["records"]) >= 8, "expected at least 8 ceiling records")
    expect_exit(s.run("check"), 0, "check: OK")


@suite.test
def bad_device_index_on_gpu_machine_names_it(s):
    if not s.gpu():
        raise Skip("no GPU here")
    expect_exit(s.run("--device", "99", "device"), 2, "99")


@suite.test
def run_without_gpu_says_so_and_lists_skipped_steps(s):
    if s.gpu():
        raise Skip("a GPU is present")
    out = os.path.join(s.tmp, "run")
    p = s.run("run", "--quick", "--out", out)
    expect_exit(p, 0, "No GPU:", "skipped")
    first = p.stdout.strip().splitlines()[0]
    expect(first.startswith("No GPU:"), f"first line should say there is no GPU: {first!r}")
    doc = validate_records(os.path.join(out, "records.json"))
    expect(any(r["skipped"] for r in doc["records"]), "GPU steps should be recorded as skipped")
    for r in doc["records"]:
        if r["skipped"]:
            expect("no GPU" in r["skipped"], f"skip reason should say why: {r['skipped']!r}")


@suite.test
def run_only_unknown_step_is_bad_usage(s):
    expect_exit(s.run("run", "--only", "nosuchstep", "--out", os.path.join(s.tmp, "x")), 2, "nosuchstep")


@suite.test
def json_to_unwritable_path_is_a_run_failure(s):
    p = s.run("--json", "/proc/joseki-cannot-write/x.json", "table", "docs/records.schema.json")
    expect(p.returncode in (1, 2), f"exit code {p.returncode}")


@suite.test
def table_reads_records_and_rejects_non_records(s):
    out = os.path.join(s.tmp, "run2")
    expect_exit(s.run("run", "--quick", "--out", out, "--only", "check"), 0)
    p = s.run("table", os.path.join(out, "records.json"))
    expect_exit(p, 0, "| Variant")
    expect_exit(s.run("table", "docs/records.schema.json"), 2, "records.schema.json")
    expect_exit(s.run("table", os.path.join(s.tmp, "missing.json")), 2, "missing.json")


suite.main()
