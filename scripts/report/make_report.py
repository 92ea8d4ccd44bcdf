#!/usr/bin/env python3
"""joseki's report: plots (matplotlib) and a self-contained report.html, made from records only.

Run by `joseki report` and at the end of `joseki run` (not meant to be run by hand):
    python3 make_report.py --plan PLAN.json
The plan, written by joseki, names the record files, report.md (already written by joseki,
with the line <!-- joseki:plots --> where the plots go), the output folder, and the ladders
joseki found in the records (one grouping rule, in C++: src/report/summary.cpp).
This script
  - draws every plot into OUT/report-plots/*.png; a plot whose records are absent says so;
  - replaces the marker in report.md by a Plots section that links the PNGs;
  - writes OUT/report.html: report.md as HTML with the plots embedded as base64 PNG
    (self-contained: no network, no other file needed).
docs/REPORT.md lists the plots and the records each one reads.
"""
import argparse
import base64
import html
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mdhtml  # noqa: E402
import plots  # noqa: E402
import rankings  # noqa: E402
import records as rec  # noqa: E402

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
main{max-width:1240px;margin:0 auto;padding:18px 28px 60px;background:#fff}
h1{font-size:26px;margin:8px 0 4px}h2{font-size:20px;margin-top:34px;border-bottom:1px solid #ddd;padding-bottom:4px}
h3{font-size:16px;margin-top:24px}h4{font-size:14px;margin-top:18px;color:#444}
code{background:#f2f2f4;padding:1px 4px;border-radius:3px;font-size:90%}
.table{overflow-x:auto;margin:8px 0 14px}
table{border-collapse:collapse;font-size:12px}th,td{border:1px solid #e2e2e2;padding:3px 7px;text-align:left;
vertical-align:top}th{background:#f4f6f9}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr:nth-child(even) td{background:#fcfcfd}
figure.plot{margin:14px 0 26px}figure.plot img{max-width:100%;border:1px solid #eee}
figcaption{font-size:12px;color:#555;margin-top:4px}
.absent{border:1px dashed #c9c9c9;background:#fbfbfb;padding:12px 16px;color:#666;font-size:13px}
nav.toc{font-size:13px;margin:10px 0 0}nav.toc a{margin-right:14px}
"""


def plot_file(plot):
    return plot.id[len("plot-"):] + ".png"


def plots_markdown(items, plots_dir):
    md, section = ["## Plots", ""], None
    for p in items:
        if p.section != section:
            section = p.section
            md += [f"### {section}", ""]
        if p.png:
            md += [f"![{p.title}]({plots_dir}/{plot_file(p)})", ""]
            if p.caption:
                md += [f"*{p.caption}*", ""]
        else:
            md += [f"- **{p.title}**: {p.absent}", ""]
    return "\n".join(md)


def plots_html(items):
    out, section = ['<h2 id="plots">Plots</h2>'], None
    for p in items:
        if p.section != section:
            section = p.section
            out.append(f'<h3 id="plots-{mdhtml.slug(section)}">{html.escape(section)}</h3>')
        title = html.escape(p.title)
        if p.png:
            data = base64.b64encode(p.png).decode("ascii")
            cap = f"<b>{title}</b>" + (f": {html.escape(p.caption)}" if p.caption else "")
            out.append(f'<figure class="plot" id="{p.id}"><img alt="{title}" src="data:image/png;base64,{data}">'
                       f"<figcaption>{cap}</figcaption></figure>")
        else:
            out.append(f'<figure class="plot absent" id="{p.id}"><div><b>{title}</b>: {html.escape(p.absent)}'
                       "</div></figure>")
    return "\n".join(out)


def write_atomic(path, data, mode="w"):
    tmp = path + ".tmp"
    with open(tmp, mode) as f:
        f.write(data)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plan", required=True, help="plan written by joseki report")
    args = ap.parse_args()
    with open(args.plan) as f:
        plan = json.load(f)
    records = rec.load(plan["records_files"])
    items = plots.all_plots(records, plan["ladders"])
    if plan.get("rankings"):  # only where the records hold a reduce ladder (issue 16)
        items.append(plots.safe(rankings.plot, rankings.PID, rankings.SECTION, rankings.TITLE, plan["rankings"]))

    out_dir, plots_dir, marker = plan["out_dir"], plan["plots_dir"], plan["marker"]
    os.makedirs(os.path.join(out_dir, plots_dir), exist_ok=True)
    for p in items:
        if p.png:
            write_atomic(os.path.join(out_dir, plots_dir, plot_file(p)), p.png, "wb")

    with open(plan["markdown"]) as f:
        md = f.read()
    if marker not in md:
        md = md.rstrip("\n") + "\n\n" + marker + "\n"
    body = mdhtml.to_html(md, hooks={marker: plots_html(items)})
    heads = ["Plots" if line.strip() == marker else line[3:].strip() for line in md.splitlines()
             if line.startswith("## ") or line.strip() == marker]
    toc = " ".join(f'<a href="#{mdhtml.slug(h)}">{html.escape(h)}</a>' for h in heads)
    dev = rec.device_of(records)
    title = "joseki report" + (f": {dev['name']}" if dev else "")
    page = (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><style>{CSS}</style></head>'
            f'<body><main><nav class="toc">{toc}</nav>\n{body}\n</main></body></html>\n')
    write_atomic(os.path.join(out_dir, "report.html"), page)
    write_atomic(plan["markdown"], md.replace(marker, plots_markdown(items, plots_dir)))
    drawn = sum(1 for p in items if p.png)
    print(f"make_report: {drawn} plots drawn, {len(items) - drawn} absent (said so in the report)")


if __name__ == "__main__":
    main()
