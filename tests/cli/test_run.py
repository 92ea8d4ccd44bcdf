"""`joseki run`: the tour runs to completion with its progress display (plain lines off a
terminal, one redrawn bar on a terminal), a summary on stdout, all records in one folder
(valid against the schema) and the report made from them; --only, --list, bad options."""
import json
import os
import pty
import select
import time

from harness import Skip, Suite, expect, expect_exit, validate_records

suite = Suite()


def tour(s):
    """One `joseki run --quick` for several checks (it is the slowest thing here)."""
    if not hasattr(s, "_tour"):
        out = os.path.join(s.tmp, "tour")
        t0 = time.monotonic()
        p = s.run("run", "--quick", "--out", out, timeout=850)
        s._tour = (p, out, time.monotonic() - t0)
    return s._tour


def steps(s):
    p = s.run("run", "--list")
    expect_exit(p, 0, "| step")
    return [line.split("|")[1].strip() for line in p.stdout.splitlines()[2:] if line.startswith("|")]


@suite.test
def list_shows_every_step_with_estimates(s):
    names = steps(s)
    expect("device" in names and "check" in names, f"steps: {names}")


@suite.test
def quick_tour_completes_with_progress_summary_records_and_report(s):
    p, out, secs = tour(s)
    expect_exit(p, 0, "## Summary", "### Ladders")
    first = p.stdout.strip().splitlines()[0]
    if not s.gpu():
        expect(first.startswith("No GPU:"), f"first line should say there is no GPU: {first!r}")
    names = steps(s)
    # Off a terminal the progress is plain lines on stderr: a start and an end line per step.
    for i, name in enumerate(names):
        expect(f"[{i + 1}/{len(names)}] {name}: " in p.stderr, f"no progress line for step {name}\n{p.stderr}")
    expect("left)" in p.stderr and "\x1b[K" not in p.stderr, "plain progress lines expected off a terminal")
    doc = validate_records(os.path.join(out, "records.json"))
    seen = {r["experiment"] for r in doc["records"]}
    expect(len(doc["records"]) >= len(names), f"{len(doc['records'])} records for {len(names)} steps")
    for r in doc["records"]:
        if r["skipped"] and r["backend"] == "cuda" and not s.gpu():
            expect("no GPU" in r["skipped"] or r["skipped"], f"a skipped GPU row must say why: {r}")
    expect(os.path.exists(os.path.join(out, "report.md")), "report.md missing from the run folder")
    with open(os.path.join(out, "report.md")) as f:
        md = f.read()
    expect("## Summary" in md and "## All records" in md, "report.md incomplete")
    expect(os.path.exists(os.path.join(out, "report.html")) or "Plots were skipped" in md,
           "either report.html or a reason for its absence")
    print(f"  quick tour: {secs:.1f} s, {len(doc['records'])} records, experiments {sorted(seen)}")


@suite.test
def without_gpu_every_gpu_row_says_why(s):
    if s.gpu():
        raise Skip("a GPU is present")
    p, out, _ = tour(s)
    with open(os.path.join(out, "records.json")) as f:
        doc = json.load(f)
    gpu_skips = [r for r in doc["records"] if r["skipped"] and r["backend"] == "cuda"]
    expect(gpu_skips, "GPU rows should be recorded as skipped")
    for r in gpu_skips:
        expect(r["skipped"].strip(), f"empty skip reason in {r['experiment']}/{r['variant']}")
    expect("### Skipped" in p.stdout, "the summary lists the skipped rows")


@suite.test
def vulkan_step_runs_the_ladder_or_says_why_not(s):
    """The tour's Vulkan step (issue 16): the Vulkan ladder and probes where a Vulkan device exists
    (lavapipe in CI), and then the report's cross-device rankings section; else one skipped record."""
    p, out, _ = tour(s)
    expect("vulkan" in steps(s), "no vulkan step in the tour")
    with open(os.path.join(out, "records.json")) as f:
        recs = json.load(f)["records"]
    with open(os.path.join(out, "report.md")) as f:
        md = f.read()
    timed = [r for r in recs if r["backend"] == "vulkan" and r["experiment"] == "reduce" and not r["skipped"]
             and r["rung"] >= 1]
    if timed:
        expect({r["variant"] for r in timed} >= {"vk_v1_atomic", "vk_v2_tree", "vk_v3_coarsen"}, "v1..v3 not all timed")
        expect(all(r["validation"] == "exact" for r in timed), "a Vulkan rung in the tour was not exact")
        expect(any(r["experiment"] == "probe.vulkan" for r in recs), "no Vulkan probe records")
        expect("\n## Rankings across devices and APIs" in md and "from the seed, not measured here" in md,
               "the tour's report lacks the rankings section")
    else:
        skips = [r for r in recs if r["experiment"] == "vulkan" and r["skipped"]]
        expect(skips and "Vulkan" in skips[0]["skipped"], f"no Vulkan records and no skip reason: {skips}")
        expect("vulkan: skipped (" in p.stderr, "the progress does not say the vulkan step was skipped")


@suite.test
def vulkan_step_without_a_driver_is_skipped_with_the_reason(s):
    out = os.path.join(s.tmp, "novk")
    p = s.run("run", "--quick", "--only", "vulkan", "--out", out, "--progress", "lines",
              env={"VK_ICD_FILENAMES": "/nonexistent/icd.json", "VK_DRIVER_FILES": "/nonexistent/icd.json"})
    expect_exit(p, 0, "### Skipped")
    expect("vulkan: skipped (no Vulkan device: " in p.stderr, f"progress: {p.stderr[-600:]}")
    with open(os.path.join(out, "records.json")) as f:
        recs = json.load(f)["records"]
    expect(len(recs) == 1 and recs[0]["skipped"].startswith("no Vulkan device: ") and recs[0]["summary"] is None,
           f"want one skipped record with the reason: {recs}")


@suite.test
def only_selects_steps_and_accepts_lists(s):
    out = os.path.join(s.tmp, "only")
    p = s.run("run", "--quick", "--only", "check,device", "--out", out, "--no-report")
    expect_exit(p, 0)
    with open(os.path.join(out, "records.json")) as f:
        exps = {r["experiment"] for r in json.load(f)["records"]}
    expect(exps <= {"check", "device"} and exps, f"--only check,device ran {exps}")
    expect("[1/2] check" in p.stderr and "[2/2] device" in p.stderr, p.stderr)
    expect(not os.path.exists(os.path.join(out, "report.md")), "--no-report wrote a report")


@suite.test
def only_accepts_an_experiment_prefix(s):
    names = steps(s)
    prefixed = [n for n in names if "-" in n]
    if not prefixed:
        raise Skip(f"no step named EXPERIMENT-PART in this build ({names})")
    exp = prefixed[0].split("-")[0]
    p = s.run("run", "--list", "--only", exp)
    expect_exit(p, 0)
    for n in names:
        expect((n in p.stdout) == n.startswith(exp + "-") or n == exp, f"--only {exp} and step {n}:\n{p.stdout}")


@suite.test
def bar_on_a_terminal_is_one_redrawn_line(s):
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
        os.environ["TERM"] = "xterm"
        os.execv(s.exe, [s.exe, "run", "--quick", "--only", "check", "--no-report", "--out",
                         os.path.join(s.tmp, "bar")])
    data, deadline = b"", time.monotonic() + 300
    while time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], 1.0)
        if not r:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    _, status = os.waitpid(pid, 0)
    text = data.decode("utf-8", "replace")
    expect(os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, f"exit status {status}\n{text}")
    expect("\r\x1b[K[" in text, f"no redrawn bar line on the terminal:\n{text!r}")
    expect("elapsed" in text and "left" in text, "the bar shows elapsed and estimated time left")
    expect("## Summary" in text, "the tables still reach the terminal")
    expect(text.rstrip().endswith(("json", "records.json")) or "joseki run: done" in text, text[-300:])


@suite.test
def progress_none_and_quiet_print_no_progress(s):
    for args in (["--progress", "none"], []):
        glob_args = ["--quiet"] if not args else []
        p = s.run(*glob_args, "run", "--quick", "--only", "check", "--no-report", *args, "--out",
                  os.path.join(s.tmp, "quiet"))
        expect_exit(p, 0)
        expect("[1/1]" not in p.stderr, f"progress printed with {glob_args + args}: {p.stderr}")


@suite.test
def bad_options_are_bad_usage(s):
    expect_exit(s.run("run", "--progress", "sparkles"), 2, "sparkles")
    expect_exit(s.run("run", "--only", "nosuchstep"), 2, "nosuchstep")
    expect_exit(s.run("run", "--only", "check", "--out", "/proc/joseki-cannot/x"), 2, "--out")


suite.main()
