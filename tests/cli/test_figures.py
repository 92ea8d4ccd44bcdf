"""scripts/check_figures.py (issue 17, item 4): README's headline figures equal the records each row
cites, and every results folder's NOTE.md build-commit table matches its records. Also checks that the
checker fails where it should: a changed figure, a figure no record backs, a wrong build commit, an
unexplained difference, and bad usage (exit 2). Needs no GPU and no joseki binary."""
import json
import os
import shutil
import subprocess
import sys

from harness import ROOT, Suite, expect

suite = Suite()
SCRIPT = os.path.join(ROOT, "scripts", "check_figures.py")


def check(root, *args):
    return subprocess.run([sys.executable, SCRIPT, "--root", root, *args], capture_output=True, text=True, timeout=300)


def copy_tree(s):
    dst = os.path.join(s.tmp, f"repo{len(os.listdir(s.tmp))}")
    os.makedirs(dst)
    shutil.copy(os.path.join(ROOT, "README.md"), dst)
    shutil.copytree(os.path.join(ROOT, "docs"), os.path.join(dst, "docs"))
    shutil.copytree(os.path.join(ROOT, "results"), os.path.join(dst, "results"))
    return dst


def edit(path, old, new):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    expect(old in text, f"{old!r} not in {path}")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new, 1))


@suite.test
def committed_figures_and_commits_pass(s):
    p = check(ROOT, "-v")
    expect(p.returncode == 0, p.stdout + p.stderr)
    oks = [l for l in p.stdout.splitlines() if l.strip().startswith("ok")]
    expect(len(oks) >= 40, f"expected the figures and record files to be checked one by one, got {len(oks)} ok lines")


@suite.test
def a_changed_figure_fails(s):
    root = copy_tree(s)
    readme, spec = os.path.join(root, "README.md"), os.path.join(root, "docs", "headline_figures.json")
    edit(readme, "**CPU 15.1 ms**", "**CPU 15.4 ms**")
    edit(spec, '"**CPU 15.1 ms**"', '"**CPU 15.4 ms**"')
    p = check(root, "--only", "figures")
    expect(p.returncode == 1 and "quotes '**CPU 15.4 ms**', the records give 15.10" in p.stdout, p.stdout + p.stderr)


@suite.test
def a_number_no_record_backs_fails(s):
    root = copy_tree(s)
    edit(os.path.join(root, "README.md"), "editorial NTT 2.87 s", "editorial NTT 2.87 s (3.5 s once)")
    p = check(root, "--only", "figures")
    expect(p.returncode == 1 and "quotes 3.5 but" in p.stdout, p.stdout)


@suite.test
def a_row_without_its_records_fails(s):
    root = copy_tree(s)
    edit(os.path.join(root, "README.md"), "[device call 2, idle_held](results/h200/2026-12-01-device-call-2/NOTE.md)", "elsewhere")
    p = check(root, "--only", "figures")
    expect(p.returncode == 1 and "does not cite results/h200/2026-12-01-device-call-2" in p.stdout, p.stdout)


@suite.test
def a_wrong_build_commit_fails(s):
    root = copy_tree(s)
    edit(os.path.join(root, "results/h200/2026-11-30-tour-final/NOTE.md"), "| `.` | `7c01c7d` | no |", "| `.` | `7c01c7d` | yes |")
    p = check(root, "--only", "commits")
    expect(p.returncode == 1 and "built at 7c01c7d, the table says 7c01c7d + dirty" in p.stdout, p.stdout)


@suite.test
def an_unexplained_difference_fails(s):
    root = copy_tree(s)
    note = os.path.join(root, "results/h200/2026-11-30-refactor-check/NOTE.md")
    with open(note, encoding="utf-8") as f:
        lines = f.read().splitlines()
    lines = [l if not l.startswith("| `.` | `0acf0ed`") else "| `.` | `0acf0ed` | yes | `a1e8a34` | |" for l in lines]
    with open(note, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    p = check(root, "--only", "commits")
    expect(p.returncode == 1 and "NOTE's commit a1e8a34: say why" in p.stdout, p.stdout)


@suite.test
def a_records_folder_without_a_table_fails(s):
    root = copy_tree(s)
    note = os.path.join(root, "results/h200/2026-11-30-final-check/NOTE.md")
    with open(note, encoding="utf-8") as f:
        text = f.read()
    with open(note, "w", encoding="utf-8") as f:
        f.write(text.split("## Build commit")[0])
    p = check(root, "--only", "commits")
    expect(p.returncode == 1 and "no '## Build commit' section" in p.stdout, p.stdout)


@suite.test
def headline_summary_gives_median_and_spread_of_three_tours(s):
    dirs = []
    for t in ("tour", "tour-final", "tour-r03"):
        d = os.path.join(s.tmp, "hs", t)
        os.makedirs(d)
        shutil.copy(os.path.join(ROOT, "results/h200/2026-11-30-" + t, "records.json.gz"), d)
        dirs.append(d)
    p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts/headline_summary.py"), *dirs],
                       capture_output=True, text=True, timeout=300)
    expect(p.returncode == 0, p.stderr)
    expect("| reduce 2^28 best rung TB/s | 4.488 | 4.571 | 4.517 | **4.517** [4.488 .. 4.571] | 3 |" in p.stdout, p.stdout)
    expect("| 2^28 r01b / r01 (same run) | 29.2 | 29.13 | 29.11 | **29.13** [29.11 .. 29.2] | 3 |" in p.stdout, p.stdout)
    expect("run 3 best rungs: 2^28 r10_two_slot" in p.stdout, p.stdout)
    p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts/headline_summary.py"), dirs[0]],
                       capture_output=True, text=True, timeout=60)
    expect(p.returncode == 2 and "usage" in p.stderr, p.stderr)


@suite.test
def bad_root_is_usage_error(s):
    p = check(os.path.join(s.tmp, "no-such-dir"))
    expect(p.returncode == 2 and "no README.md" in p.stderr, p.stdout + p.stderr)


suite.main()
