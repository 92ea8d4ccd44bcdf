"""Ladder and sweep plots: each ladder as bars in rung order (time, % of limit); each sweep as a
heat map (two axes) or a line (one axis), with the chosen point marked."""
import matplotlib.pyplot as plt
import numpy as np

from records import extra, extra_num, figure_of, fmt_time, is_number, measured, median, time_scale, varying_axes
from style import BASE, FAST, LIGHT, RUNG, Plot, render


def rung_label(r):
    return f"{r['variant']}  ·  rung {r['rung']}" if r.get("rung", -1) >= 0 else r["variant"]


def ladder(lad, records):
    recs = [records[i] for i in lad["records"]]
    fastest = records[lad["fastest"]]
    n = len(recs)
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(10, 0.42 * n + 1.3), gridspec_kw={"width_ratios": [3, 2]},
                                  sharey=True)
    y = np.arange(n)[::-1]
    med = np.array([median(r) for r in recs])
    lo = np.array([r["summary"]["min"] for r in recs])
    hi = np.array([r["summary"]["max"] for r in recs])
    f, unit = time_scale(med.max())
    colors = [FAST if r is fastest else BASE if (r["rung"] == 0 or r["variant"] == lad.get("baseline")) else RUNG
              for r in recs]
    ax.barh(y, med * f, color=colors, xerr=[(med - lo) * f, (hi - med) * f], ecolor="#444", capsize=2, height=0.65)
    if med.max() / max(med.min(), 1e-30) > 30:
        ax.set_xscale("log")
    for yi, r, m, h in zip(y, recs, med, hi):
        xp = extra_num(r, "x_previous")
        note = fmt_time(m) + (f"   {xp:.2f}x prev" if xp else "")
        ax.annotate(note, (h * f, yi), xytext=(4, 0), textcoords="offset points", va="center", fontsize=8)
    ax.set_yticks(y, [rung_label(r) for r in recs])
    ax.set_xlabel(f"median time ({unit}); whiskers: min to max")
    ax.margins(x=0.35)
    ax.set_title("median time (orange: fastest, grey: baselines)")

    ceil = np.array([(r.get("throughput") or {}).get("pct_ceiling", 0) for r in recs])
    ds = np.array([(r.get("throughput") or {}).get("pct_datasheet", 0) for r in recs])
    if ceil.max() > 0 or ds.max() > 0:
        names = {(r.get("throughput") or {}).get("ceiling_name") for r in recs} - {None, ""}
        ax2.barh(y + 0.17, ceil, height=0.34, color=RUNG)
        ax2.barh(y - 0.17, ds, height=0.34, color=LIGHT)
        for yi, c, d in zip(y, ceil, ds):
            if c > 0:
                ax2.annotate(f"{c:.1f}%", (c, yi + 0.17), xytext=(3, 0), textcoords="offset points", va="center",
                             fontsize=7)
        ax2.axvline(100, color="#444", lw=0.8, ls="--")
        ax2.set_xlim(0, max(110, ceil.max() * 1.15, ds.max() * 1.15))
        ax2.set_xlabel(f"% of limit\ndark: measured {'/'.join(sorted(names)) or 'ceiling'}; light: datasheet")
    else:
        ax2.text(0.5, 0.5, "no bytes declared:\nno % of limit", ha="center", va="center", transform=ax2.transAxes,
                 color="#666")
        ax2.set_xticks([])
        ax2.spines["bottom"].set_visible(False)
    ax2.set_title("how close to the limit")
    fig.suptitle(lad["title"], fontweight="bold", x=0.01, ha="left")
    fig.tight_layout()
    return Plot("plot-ladder-" + lad["id"], "Ladders", lad["title"],
                "Median per variant in rung order (top: first rung); whiskers span min to max; "
                "right: share of the measured ceiling and of the datasheet bandwidth.", render(fig))


# ---------------------------------------------------------------- sweeps
def _ordered(values):
    vals = list(dict.fromkeys(values))
    return sorted(vals) if all(is_number(v) for v in vals) else vals


def _axis_fmt(v):
    return f"{v:g}" if is_number(v) else str(v)


def sweep(exp, name, recs):
    axes = varying_axes(recs)
    pid = f"plot-sweep-{exp}-{name}".replace(".", "-").replace(" ", "-")
    title = f"{exp}: sweep {name}"
    live = [r for r in recs if measured(r)]
    if not live or not axes:
        return Plot(pid, "Sweeps", title, absent="no measured points, or no axis varies")
    val, kind = figure_of(live[0])
    better_high = kind == "GB/s"
    chosen = [r for r in recs if extra(r, "chosen") is True]
    tie = extra(chosen[0], "tie_rule", "") if chosen else ""
    caption = ("Chosen point outlined in red. " + (f"Tie rule: {tie}" if tie else "")).strip()
    if len(axes) == 1:
        ax_name = axes[0]
        fig, ax = plt.subplots(figsize=(8, 3.6))
        pts = [r for r in live if ax_name in r["axes"]]
        if all(is_number(r["axes"][ax_name]) for r in pts):
            pts.sort(key=lambda r: r["axes"][ax_name])
        xs = [r["axes"][ax_name] for r in pts]
        scale, unit = (time_scale(max(figure_of(r)[0] for r in pts)) if kind == "time" else (1, kind))
        ys = [figure_of(r)[0] * scale for r in pts]
        if all(is_number(x) for x in xs):
            ax.plot(xs, ys, "o-", color=RUNG)
            if min(xs) > 0 and max(xs) / min(xs) >= 8:
                ax.set_xscale("log", base=2)
        else:
            ax.plot(range(len(xs)), ys, "o-", color=RUNG)
            ax.set_xticks(range(len(xs)), [str(x) for x in xs])
        for r in chosen:
            if measured(r):
                x = r["axes"][ax_name] if all(is_number(v) for v in xs) else xs.index(r["axes"][ax_name])
                ax.plot([x], [figure_of(r)[0] * scale], "o", ms=12, mfc="none", mec="red", mew=2)
        ax.set_xlabel(ax_name)
        ax.set_ylabel(unit)
        ax.set_title(title)
        fig.tight_layout()
        return Plot(pid, "Sweeps", title, caption, render(fig))

    ya, xa = axes[0], axes[1]
    rest = axes[2:]
    facets = list(dict.fromkeys(tuple(r["axes"].get(k) for k in rest) for r in recs))[:6]
    fig, axs = plt.subplots(1, len(facets), figsize=(min(16, 1.2 + 6.5 * len(facets)), 4.6), squeeze=False)
    scale, unit = (time_scale(max(figure_of(r)[0] for r in live)) if kind == "time" else (1, kind))
    vmin = min(figure_of(r)[0] for r in live) * scale
    vmax = max(figure_of(r)[0] for r in live) * scale
    for ax, facet in zip(axs[0], facets):
        sub = [r for r in recs if tuple(r["axes"].get(k) for k in rest) == facet]
        xs = _ordered(r["axes"][xa] for r in sub if xa in r["axes"])
        ys = _ordered(r["axes"][ya] for r in sub if ya in r["axes"])
        grid = np.full((len(ys), len(xs)), np.nan)
        for r in sub:
            if xa in r["axes"] and ya in r["axes"] and measured(r):
                grid[ys.index(r["axes"][ya]), xs.index(r["axes"][xa])] = figure_of(r)[0] * scale
        im = ax.imshow(grid, cmap="viridis" if better_high else "viridis_r", aspect="auto", origin="lower",
                       vmin=vmin, vmax=vmax)
        for r in sub:
            if xa not in r["axes"] or ya not in r["axes"]:
                continue
            xi, yi = xs.index(r["axes"][xa]), ys.index(r["axes"][ya])
            if not measured(r):
                ax.add_patch(plt.Rectangle((xi - 0.5, yi - 0.5), 1, 1, fill=False, hatch="///", ec="#bbb", lw=0))
                continue
            if len(xs) * len(ys) <= 150:
                v = grid[yi, xi]
                bright = (v - vmin) / max(vmax - vmin, 1e-30)  # viridis: dark at 0; viridis_r: dark at 1
                dark = bright < 0.45 if better_high else bright > 0.55
                ax.text(xi, yi, f"{v:.0f}" if abs(v) >= 100 else f"{v:.3g}", ha="center", va="center", fontsize=7,
                        color="white" if dark else "black")
            if extra(r, "chosen") is True:
                ax.add_patch(plt.Rectangle((xi - 0.5, yi - 0.5), 1, 1, fill=False, ec="red", lw=2.2))
        ax.set_xticks(range(len(xs)), [_axis_fmt(v) for v in xs], rotation=45 if len(xs) > 8 else 0)
        ax.set_yticks(range(len(ys)), [_axis_fmt(v) for v in ys])
        ax.set_xlabel(xa)
        ax.set_ylabel(ya)
        if rest:
            ax.set_title(" ".join(f"{k}={_axis_fmt(v)}" for k, v in zip(rest, facet)), fontsize=9)
    fig.colorbar(im, ax=axs[0].tolist(), label=f"{'median ' if kind == 'time' else ''}{unit}"
                 + (" (bright: faster)" if not better_high else " (bright: higher)"))
    fig.suptitle(title + f"  ({ya} x {xa}; hatched: skipped)", fontweight="bold", x=0.01, ha="left")
    return Plot(pid, "Sweeps", title, caption, render(fig))
