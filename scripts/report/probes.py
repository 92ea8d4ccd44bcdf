"""Probe plots: curves over a swept axis (working set, strides, ...), the four scopes stacked, and
the start-up split (pre-main, in main, post-main)."""
import matplotlib.pyplot as plt
import matplotlib.ticker

from records import device_of, extra, extra_num, figure_of, fmt_bytes, fmt_time, is_number, measured, median, \
    time_scale, varying_axes
from style import Plot, render


def _log2_axis(xs):
    """Log scale for a swept size or stride given in powers of two over a wide range."""
    xs = [x for x in xs if x > 0]
    if not xs or max(xs) / min(xs) < 16:
        return False
    pow2 = sum(1 for x in xs if float(x).is_integer() and int(x) & (int(x) - 1) == 0)
    return pow2 >= 0.8 * len(xs) or len(set(xs)) < 0.5 * (max(xs) - min(xs))


def _bytes_axis(name):
    return any(k in name.lower() for k in ("byte", "size", "working", "ws", "footprint"))


def x_axis(recs):
    best, n = None, 0
    for k in varying_axes(recs):
        vals = {r["axes"][k] for r in recs if k in r.get("axes", {})}
        if vals and all(is_number(v) for v in vals) and len(vals) > n:
            best, n = k, len(vals)
    return best


def curve(pid, section, title, recs, records_all, what, mark_caches=False):
    recs = [r for r in recs if measured(r) and extra(r, "verdict") is None]
    if not recs:
        return Plot(pid, section, title, absent=f"no {what} records in this run")
    xa = x_axis(recs)
    if not xa:
        return Plot(pid, section, title, absent=f"the {what} records sweep no numeric axis")
    series, vary = {}, set(varying_axes(recs))
    for r in recs:
        if xa not in r["axes"]:
            continue
        _, kind = figure_of(r)
        others = " ".join(f"{k}={v}" for k, v in r["axes"].items() if k != xa and k in vary)
        label = " ".join(x for x in (r["variant"], r.get("mode", ""), others) if x)
        series.setdefault(kind, {}).setdefault(label, []).append(r)
    kinds = list(series)[:3]
    fig, axs = plt.subplots(1, len(kinds), figsize=(5.2 * len(kinds) + 1.5, 3.9), squeeze=False)
    dev = device_of(records_all)
    for ax, kind in zip(axs[0], kinds):
        allv = [figure_of(r)[0] for s in series[kind].values() for r in s]
        scale, unit = time_scale(max(allv)) if kind == "time" else (1, kind)
        for label, rs in list(series[kind].items())[:10]:
            rs = sorted(rs, key=lambda r: r["axes"][xa])
            ax.plot([r["axes"][xa] for r in rs], [figure_of(r)[0] * scale for r in rs], "o-", ms=3, label=label)
        xs = [r["axes"][xa] for s in series[kind].values() for r in s]
        if _log2_axis(xs):
            ax.set_xscale("log", base=2)
            if _bytes_axis(xa):
                ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: fmt_bytes(v)))
                ax.xaxis.set_major_locator(matplotlib.ticker.LogLocator(base=8))
        if min(allv) > 0 and max(allv) / min(allv) >= 30:
            ax.set_yscale("log")
        if mark_caches and dev:
            for size, name in ((dev.get("l2_bytes", 0), "L2"), (dev.get("smem_per_sm", 0), "smem/SM")):
                if size and min(xs) <= size <= max(xs):
                    ax.axvline(size, color="#c44", lw=0.9, ls="--")
                    ax.annotate(f"{name} {fmt_bytes(size)}", (size, 0.5), xycoords=("data", "axes fraction"),
                                xytext=(3, 0), textcoords="offset points", fontsize=7, color="#c44", rotation=90,
                                va="center")
        ax.set_xlabel(xa)
        ax.set_ylabel(unit if kind != "time" else f"median time ({unit})")
        ax.legend(fontsize=7, frameon=False)
    fig.suptitle(title, fontweight="bold", x=0.01, ha="left")
    fig.tight_layout()
    return Plot(pid, section, title, f"Median per point; x: {xa}.", render(fig))


# ---------------------------------------------------------------- four scopes
def scopes(records):
    sets = {}
    for r in records:
        sid = extra(r, "scope_set")
        if sid is not None and measured(r):
            sets.setdefault(str(sid), []).append(r)
    title = "Four scopes, measured together"
    if not sets:
        return Plot("plot-scopes", "Scopes", title, absent="no records share an extra.scope_set in this run")
    rows = []
    for sid, rs in list(sets.items())[:8]:
        by = {r["scope"]: median(r) for r in rs}
        pre = max((extra_num(r, "pre_main_s") or 0) for r in rs)
        post = max((extra_num(r, "post_main_s") or 0) for r in rs)
        comp = by.get("GPU_COMPUTE", by.get("CPU_COMPUTE"))
        pipe, prog, ext = by.get("GPU_PIPELINE"), by.get("PROGRAM"), by.get("EXTERNAL")
        segs, inner = [], 0.0
        for name, v in (("COMPUTE", comp), ("transfers (PIPELINE - COMPUTE)", pipe),
                        ("rest of main (PROGRAM - PIPELINE)", prog)):
            if v is not None:
                segs.append((name, max(v - inner, 0)))
                inner = max(v, inner)
        if ext is not None:
            if pre or post:
                segs += [("pre-main", pre), ("post-main", post)]
            rest = ext - inner - pre - post
            if rest > 0.001 * ext:
                segs.append(("spawn and wait (EXTERNAL - the rest)" if pre or post else "outside main", rest))
        label = f"{rs[0]['experiment']} / {rs[0]['variant']}"
        rows.append((label if len(sets) == 1 else f"{label} [{sid}]", segs, by))
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(12, 1.0 * len(rows) + 2.2), gridspec_kw={"width_ratios": [3, 2]})
    total = max(sum(v for _, v in s) for _, s, _ in rows)
    f, unit = time_scale(total)
    palette = {"COMPUTE": "#e6772e", "transfers": "#f2b134", "rest of main": "#3b75af", "pre-main": "#8fb9dd",
               "post-main": "#7f7f7f", "spawn": "#c8c8c8", "outside": "#c8c8c8"}
    seen = set()
    for yi, (label, segs, _) in enumerate(rows):
        left = 0.0
        for name, v in segs:
            color = next(c for k, c in palette.items() if name.startswith(k))
            ax.barh(yi, v * f, left=left, color=color, height=0.55, label=None if name in seen else name)
            seen.add(name)
            if v * f > total * f * 0.06:
                ax.text(left + v * f / 2, yi, fmt_time(v), ha="center", va="center", fontsize=7)
            left += v * f
    ax.set_yticks(range(len(rows)), [r[0] for r in rows])
    ax.set_xlabel(f"time ({unit}), stacked: each scope is the one inside it plus its own segment")
    ax.legend(fontsize=7, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.25), ncol=3)
    order = [(s, c) for s, c in (("GPU_COMPUTE", "#e6772e"), ("CPU_COMPUTE", "#e6772e"), ("GPU_PIPELINE", "#f2b134"),
                                 ("PROGRAM", "#3b75af"), ("EXTERNAL", "#555555")) if any(s in r[2] for r in rows)]
    width = 0.8 / len(order)
    for k, (scope, color) in enumerate(order):
        ys = [yi for yi, r in enumerate(rows) if scope in r[2]]
        off = (k - (len(order) - 1) / 2) * width
        ax2.barh([y - off for y in ys], [rows[y][2][scope] * 1e3 for y in ys], height=width, label=scope, color=color)
        for y in ys:
            v = rows[y][2][scope]
            ax2.annotate(fmt_time(v), (v * 1e3, y - off), xytext=(3, 0), textcoords="offset points", va="center",
                         fontsize=6)
    ax2.set_xscale("log")
    ax2.margins(x=0.25)
    ax2.set_yticks(range(len(rows)), [""] * len(rows))
    ax2.set_xlabel("each scope's median (ms, log scale)")
    ax2.legend(fontsize=7, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.25), ncol=3)
    fig.suptitle(title, fontweight="bold", x=0.01, ha="left")
    fig.tight_layout()
    return Plot("plot-scopes", "Scopes", title, "EXTERNAL = pre-main + PROGRAM + post-main (+ the parent's spawn and "
                "wait); PROGRAM includes GPU_PIPELINE, which includes GPU_COMPUTE.", render(fig))


# ---------------------------------------------------------------- start-up split
def startup(records):
    groups = {}
    for r in records:
        if not measured(r) or extra(r, "verdict") is not None:
            continue
        if r["experiment"] == "probe.startup" or (r["experiment"] == "device" and r["variant"] == "context_creation"):
            key = r["variant"] if r["experiment"] == "probe.startup" else "context_creation (joseki device)"
            groups.setdefault(key, []).append(r)
    title = "Process start-up: pre-main, in main, post-main"
    rows = []
    for key, rs in groups.items():
        pre = max((extra_num(r, "pre_main_s", "pre_main") or 0) for r in rs)
        post = max((extra_num(r, "post_main_s", "post_main") or 0) for r in rs)
        prog = next((extra_num(r, "program_s", "in_main_s") for r in rs
                     if extra_num(r, "program_s", "in_main_s") is not None), None)
        if prog is None:
            prog = next((median(r) for r in rs if r["scope"] == "PROGRAM"), None)
        ext = next((median(r) for r in rs if r["scope"] == "EXTERNAL"), None)
        if prog is None and not pre and not post:
            continue
        segs = [("pre-main", pre), ("in main (PROGRAM)", prog or 0), ("post-main", post)]
        if ext is not None and not pre and not post and prog is not None:
            segs = [("in main (PROGRAM)", prog), ("outside main (not split)", max(ext - prog, 0))]
        rows.append((key, segs))
    if not rows:
        return Plot("plot-startup", "Start-up", title,
                    absent="no probe.startup records and no context_creation ceiling in this run")
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(12, 0.5 * len(rows) + 2.0), gridspec_kw={"width_ratios": [3, 2]},
                                  sharey=True)
    colors = {"pre-main": "#8fb9dd", "in main (PROGRAM)": "#3b75af", "post-main": "#7f7f7f",
              "outside main (not split)": "#c8c8c8"}
    total = max(sum(v for _, v in s) for _, s in rows)
    seen = set()
    for yi, (key, segs) in enumerate(rows):
        left, whole = 0.0, sum(v for _, v in segs) or 1.0
        share = 0.0
        for name, v in segs:
            ax.barh(yi, v * 1e3, left=left, color=colors[name], height=0.6, label=None if name in seen else name)
            ax2.barh(yi, 100 * v / whole, left=share, color=colors[name], height=0.6)
            if v / whole > 0.12:
                ax2.text(share + 50 * v / whole, yi, f"{100 * v / whole:.0f}%", ha="center", va="center", fontsize=7,
                         color="white")
            seen.add(name)
            if v > total * 0.08:
                ax.text(left + v * 5e2, yi, fmt_time(v), ha="center", va="center", fontsize=7, color="white")
            left += v * 1e3
            share += 100 * v / whole
        ax.annotate(fmt_time(left / 1e3), (left, yi), xytext=(4, 0), textcoords="offset points", va="center",
                    fontsize=8)
    ax.set_yticks(range(len(rows)), [r[0] for r in rows])
    ax.invert_yaxis()
    ax.margins(x=0.12)
    ax.set_xlabel("ms from spawn to exit (medians)")
    ax.legend(fontsize=7, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=4)
    ax2.set_xlim(0, 100)
    ax2.set_xlabel("share of the process's life (%)")
    fig.suptitle(title, fontweight="bold", x=0.01, ha="left")
    fig.tight_layout()
    return Plot("plot-startup", "Start-up", title, "Pre-main: exec, loading, static initialisers; post-main: static "
                "destructors, driver teardown, exit.", render(fig))
