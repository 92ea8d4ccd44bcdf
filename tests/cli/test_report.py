"""`joseki report`: report.md and a self-contained report.html with every plot, made from the
fixture records in tests/data/report/full.json (synthetic); graceful when records, Python or
matplotlib are absent; the page rendered by headless Chromium when it is installed."""
import base64
import glob
import json
import os
import re
import shutil
import struct
import subprocess

from harness import ROOT, Skip, Suite, expect, expect_exit

suite = Suite()
FULL = os.path.join(ROOT, "tests/data/report/full.json")
EXPECTED_PLOTS = ["plot-ladder-reduce-n-16777216-cold", "plot-ladder-reduce-n-268435456-cold",
                  "plot-ladder-abc471g-case-max-cold", "plot-sweep-reduce-r03_grid_items",
                  "plot-sweep-abc471g-g08_block_chunk", "plot-sweep-abc471g-g02_chunk", "plot-caches",
                  "plot-coalescing", "plot-banks", "plot-scopes", "plot-startup", "plot-probe-barriers", "plot-rankings"]
RANKINGS = os.path.join(ROOT, "tests/data/report/rankings.json")  # CUDA + Vulkan (H200) + Vulkan (lavapipe)


def have_matplotlib():
    try:
        return subprocess.run(["/usr/bin/python3", "-c", "import matplotlib, numpy"], capture_output=True).returncode == 0
    except OSError:
        return False


def full_report(s):
    """Builds the report of the full fixture once; returns its folder."""
    if not hasattr(s, "_full"):
        d = os.path.join(s.tmp, "full")
        os.makedirs(d, exist_ok=True)
        shutil.copy(FULL, os.path.join(d, "records.json"))
        p = s.run("report", d)
        expect_exit(p, 0, "report.md")
        s._full = d
    return s._full


def need_plots():
    if not have_matplotlib():
        raise Skip("/usr/bin/python3 has no matplotlib here (apt-get install python3-matplotlib)")


def figures(html):
    """id -> (classes, png bytes or None)."""
    out = {}
    for m in re.finditer(r'<figure class="([^"]*)" id="([^"]+)">(.*?)</figure>', html, re.S):
        img = re.search(r'src="data:image/png;base64,([^"]+)"', m.group(3))
        out[m.group(2)] = (m.group(1), base64.b64decode(img.group(1)) if img else None)
    return out


def png_size(png):
    expect(png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG")
    return struct.unpack(">II", png[16:24])


@suite.test
def report_md_has_summary_tables_and_generic_tables(s):
    d = full_report(s)
    with open(os.path.join(d, "report.md")) as f:
        md = f.read()
    for needle in ("## Summary", "### Ladders", "reduce n=16777216 (cold)", "r05_vector_loads (rung 5)",
                   "1.22x cub", "### What reversed the textbook", "r02_shared_tree (rung 2", "does not hold",
                   "### Probe verdicts", "## Device ceilings", "## Four scopes", "abc471g-final", "### newexp",
                   "alpha", "#### Sweep `g08_block_chunk`", "preference: larger chunk"):
        expect(needle in md, f"report.md lacks {needle!r}")


@suite.test
def every_plot_is_in_the_html_and_is_a_real_png(s):
    need_plots()
    d = full_report(s)
    with open(os.path.join(d, "report.html")) as f:
        html = f.read()
    figs = figures(html)
    for pid in EXPECTED_PLOTS:
        expect(pid in figs, f"{pid} missing from report.html (have {sorted(figs)})")
        classes, png = figs[pid]
        expect("absent" not in classes and png, f"{pid} has no picture")
        w, h = png_size(png)
        expect(w >= 400 and h >= 150 and len(png) > 8000, f"{pid}: {w}x{h}, {len(png)} bytes: too small to be a plot")
    with open(os.path.join(d, "report.md")) as f:
        md = f.read()
    links = re.findall(r"!\[[^\]]*\]\((report-plots/[^)]+\.png)\)", md)
    expect(len(links) == len(EXPECTED_PLOTS), f"report.md links {len(links)} plots")
    for link in links:
        expect(os.path.getsize(os.path.join(d, link)) > 8000, f"{link} is missing or tiny")


def rankings_report(s):
    """The report of the CUDA + Vulkan fixture, once; returns (folder, report.md)."""
    if not hasattr(s, "_rankings"):
        d = os.path.join(s.tmp, "rankings")
        p = s.run("report", RANKINGS, "--out", d)
        expect_exit(p, 0, "report.md")
        with open(os.path.join(d, "report.md")) as f:
            s._rankings = (d, f.read())
    return s._rankings


def table_lines(text):
    return [line for line in text.splitlines() if line.startswith("|")]


@suite.test
def report_has_the_rankings_section_with_the_table_rankings_prints(s):
    _, md = rankings_report(s)
    expect("\n## Rankings across devices and APIs" in md, "report.md lacks the rankings section")
    sec = md[md.index("\n## Rankings across devices and APIs") + 1:]
    sec = sec[:sec.index("\n## ", 1)]
    for needle in ("from the seed, not measured here", "Apple M4", "RTX 3060 Laptop", "NVIDIA H200 · cuda · n=2^24 cold",
                   "NVIDIA H200 · vulkan · n=2^24 cold", "llvmpipe (LLVM 15.0.6, 256 bits) · vulkan · n=2^24 cold",
                   "Rules that flip: one atomic per element (v1) beats the tree (v2)"):
        expect(needle in sec, f"rankings section lacks {needle!r}:\n{sec[:1500]}")
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]] for line in table_lines(sec)}
    v1v2 = rows["rule: one atomic per element (v1) beats the tree (v2)"]
    # seed M4, seed RTX (no figure), H200 cuda, H200 vulkan, lavapipe, flips?
    expect(v1v2 == ["holds", "", "holds", "does not hold", "holds", "**flips**"], f"v1/v2 rule row: {v1v2}")
    expect(rows["ranking v1/v2/v3 (fastest first)"][3:5] == ["v3 < v2 < v1", "v3 < v1 < v2"],
           f"rankings: {rows['ranking v1/v2/v3 (fastest first)']}")
    # The same table as `joseki rankings` prints (one code path), row for row.
    p = s.run("rankings", RANKINGS)
    expect_exit(p, 0, "across devices")
    expect(table_lines(p.stdout) == table_lines(sec), "the report's table differs from `joseki rankings`'")


@suite.test
def rankings_plot_is_drawn_and_embedded(s):
    need_plots()
    d, md = rankings_report(s)
    png_path = os.path.join(d, "report-plots", "rankings.png")
    expect(os.path.isfile(png_path), "report-plots/rankings.png missing")
    with open(png_path, "rb") as f:
        w, h = png_size(f.read())
    expect(w >= 400 and h >= 150, f"rankings.png is {w}x{h}")
    expect("report-plots/rankings.png" in md, "report.md does not link the rankings plot")
    expect("Rules that flip between the columns" in md and "one atomic per element (v1) beats the tree (v2)" in md,
           "the plot's caption names the flipped rule")
    with open(os.path.join(d, "report.html")) as f:
        figs = figures(f.read())
    expect("plot-rankings" in figs and figs["plot-rankings"][1], "plot-rankings missing from report.html")


@suite.test
def no_rankings_section_without_a_reduce_ladder(s):
    d = os.path.join(s.tmp, "no-reduce")
    os.makedirs(d, exist_ok=True)
    with open(RANKINGS) as f:
        doc = json.load(f)
    doc["records"] = [r for r in doc["records"] if r["experiment"] != "reduce"] or [dict(doc["records"][0],
                                                                                       experiment="other")]
    with open(os.path.join(d, "records.json"), "w") as f:
        json.dump(doc, f)
    p = s.run("report", d)
    expect_exit(p, 0, "report.md")
    with open(os.path.join(d, "report.md")) as f:
        expect("Rankings across devices and APIs" not in f.read(), "a rankings section without reduce records")


@suite.test
def html_is_self_contained(s):
    need_plots()
    with open(os.path.join(full_report(s), "report.html")) as f:
        html = f.read()
    expect(not re.search(r'(src|href)="(https?:)?//', html), "report.html must not load anything from the network")
    expect("<script" not in html, "report.html needs no scripts")


@suite.test
def headless_chromium_renders_the_page(s):
    need_plots()
    browser = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
    if not browser:
        raise Skip("no chromium here (apt-get install chromium): the rendered page was not checked")
    d = full_report(s)
    shot = os.path.join(s.tmp, "report.png")
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--screenshot={shot}", "--window-size=1400,9000", "file://" + os.path.join(d, "report.html")],
                   capture_output=True, timeout=180)
    expect(os.path.exists(shot), "chromium wrote no screenshot")
    with open(shot, "rb") as f:
        png = f.read()
    w, h = png_size(png)
    expect((w, h) == (1400, 9000), f"screenshot is {w}x{h}")
    try:
        from PIL import Image, ImageStat
    except ImportError:
        expect(len(png) > 200_000, "screenshot looks blank (too small a file)")
        return
    im = Image.open(shot).convert("L")
    # Not blank: the page has text and plots all the way down, i.e. many dark pixels in every third.
    for k in range(3):
        part = im.crop((0, k * h // 3, w, (k + 1) * h // 3))
        dark = sum(part.histogram()[:128])
        expect(dark > 20_000, f"third {k + 1} of the rendered page is nearly blank ({dark} dark pixels)")
        expect(ImageStat.Stat(part).stddev[0] > 20, f"third {k + 1} has no contrast")


@suite.test
def absent_records_give_absent_plots_not_errors(s):
    need_plots()
    import json
    with open(FULL) as f:
        doc = json.load(f)
    doc["records"] = [r for r in doc["records"] if r["experiment"] == "device" and r["variant"] != "context_creation"]
    d = os.path.join(s.tmp, "device_only")
    os.makedirs(d)
    with open(os.path.join(d, "records.json"), "w") as f:
        json.dump(doc, f)
    expect_exit(s.run("report", d), 0)
    with open(os.path.join(d, "report.html")) as f:
        figs = figures(f.read())
    for pid in ("plot-ladders", "plot-sweeps", "plot-caches", "plot-coalescing", "plot-banks", "plot-scopes",
                "plot-startup"):
        expect(pid in figs and "absent" in figs[pid][0], f"{pid} should be present and say its records are absent")
    with open(os.path.join(d, "report.md")) as f:
        md = f.read()
    expect("no probe.caches records in this run" in md, "report.md should say which records are absent")


@suite.test
def without_matplotlib_report_md_says_plots_were_skipped(s):
    d = os.path.join(s.tmp, "nopython")
    os.makedirs(d)
    shutil.copy(FULL, os.path.join(d, "records.json"))
    p = s.run("report", d, env={"JOSEKI_REPORT_PYTHON": "/nonexistent/python3"})
    expect_exit(p, 0, "plots skipped", "/nonexistent/python3")
    with open(os.path.join(d, "report.md")) as f:
        md = f.read()
    expect("Plots were skipped" in md and "python3-matplotlib" in md, "report.md must say why plots are missing")
    expect("### Ladders" in md and "## All records" in md, "the tables must still be there")
    expect(not os.path.exists(os.path.join(d, "report.html")), "no report.html without plots")


@suite.test
def a_report_made_again_does_not_keep_stale_plots(s):
    need_plots()
    d = os.path.join(s.tmp, "again")
    os.makedirs(d)
    shutil.copy(FULL, os.path.join(d, "records.json"))
    expect_exit(s.run("report", d), 0)
    expect(glob.glob(os.path.join(d, "report-plots/*.png")), "plots expected")
    expect_exit(s.run("report", d, env={"JOSEKI_REPORT_SCRIPT": "/nonexistent/make_report.py"}), 0, "plots skipped")
    expect(not os.path.exists(os.path.join(d, "report.html")), "stale report.html left behind")
    expect(not glob.glob(os.path.join(d, "report-plots/*.png")), "stale PNGs left behind")


@suite.test
def record_files_need_an_output_folder(s):
    out = os.path.join(s.tmp, "from_files")
    expect_exit(s.run("report", FULL), 2, "--out")
    expect_exit(s.run("report", FULL, "--out", out), 0)
    expect(os.path.exists(os.path.join(out, "report.md")), "report.md not written to --out")


@suite.test
def bad_inputs_exit_2_naming_them(s):
    expect_exit(s.run("report", os.path.join(s.tmp, "no_such_run")), 2, "no_such_run")
    expect_exit(s.run("report", "docs/records.schema.json", "--out", os.path.join(s.tmp, "x")), 2, "records.schema.json")
    empty = os.path.join(s.tmp, "empty_run")
    os.makedirs(empty)
    expect_exit(s.run("report", empty), 2, "empty_run")



@suite.test
def a_prefixed_ladder_is_its_own_ladder_beside_the_unprefixed_one(s):
    """pairs.r00..r02 (with a scope_set, as the gpu-pairs bench writes them) and g01/g02 of the same
    experiment and workload: two ladders, neither hides nor absorbs the other."""
    import json
    with open(FULL) as f:
        base = next(r for r in json.load(f)["records"] if r.get("rung", -1) >= 1 and r.get("summary"))
    recs = []

    def rung(variant, n, median, scope="GPU_COMPUTE", mode="cold", extra=None):
        r = json.loads(json.dumps(base))
        r.update(experiment="abc471g", variant=variant, rung=n, axes={"case": "max"}, scope=scope, mode=mode,
                 throughput=None, extra=extra or {}, samples=[median] * 5)
        r["summary"] = dict(r["summary"], n=5, min=median, median=median, max=median, mean=median, stdev=0.0,
                            rel_stdev=0.0, mad=0.0, rel_mad=0.0)
        recs.append(r)

    rung("g01_lane_per_thread", 1, 2e-3)
    rung("g02_chunked", 2, 1e-3)
    rung("pairs.r00_cpu_pairs", 0, 4e-2, scope="CPU_COMPUTE", mode="", extra={"scope_set": "a"})
    rung("pairs.r01_atomic_ntt", 1, 1e-3, extra={"scope_set": "b", "baseline": "pairs.r00_cpu_pairs"})
    rung("pairs.r02_atomic_tc_int8", 2, 2e-4, extra={"scope_set": "c", "baseline": "pairs.r00_cpu_pairs"})
    d = os.path.join(s.tmp, "families")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "records.json"), "w") as f:
        json.dump({"schema": "joseki.records/1", "command": "test", "created": "2026-11-30T00:00:00Z", "records": recs}, f)
    p = s.run("report", d)
    expect_exit(p, 0, "report.md")
    with open(os.path.join(d, "report.md")) as f:
        md = f.read()
    table = md.split("### Ladders", 1)[1].split("###", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| abc471g")]
    expect(len(rows) == 2, f"two ladders, got:\n{table}")
    pairs = [r for r in rows if "abc471g pairs" in r]
    expect(len(pairs) == 1 and "| 3 " in pairs[0] and "pairs.r02_atomic_tc_int8 (rung 2)" in pairs[0],
           f"the pairs ladder has its 3 rungs, fastest r02: {rows}")
    direct = [r for r in rows if "abc471g pairs" not in r]
    expect(len(direct) == 1 and "| 2 " in direct[0] and "g02_chunked (rung 2)" in direct[0],
           f"the direct ladder keeps its own 2 rungs: {rows}")

suite.main()
