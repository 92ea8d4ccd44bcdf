"""The report's cross-device plot (issue 16): per (device, API, size) column of the rankings table,
each reduction rung's median time normalised to that column's best rung, with the rules that flip
between columns marked. The numbers come from joseki (plan["rankings"], built by the same C++ code
as `joseki rankings`: src/report/rankings.cpp), so the plot and the table cannot disagree."""
import numpy as np

from style import Plot, plt, render

SECTION = "Rankings across devices and APIs"
PID = "plot-rankings"
TITLE = "Reduction rungs per device and API, time / that set's best rung"
RUNGS = ["v1", "v2", "v3", "v4", "v5", "v6"]


def plot(plan):
    if not plan or not plan.get("columns"):
        return Plot(PID, SECTION, TITLE, absent="no timed reduce ladder records (cuda or vulkan) in this run")
    cols = plan["columns"]
    flipped = plan.get("flipped", [])
    rungs = [k for k in RUNGS if any(k in c["t"] for c in cols)]
    fig, ax = plt.subplots(figsize=(max(6.5, 1.1 * len(rungs) * max(1, len(cols)) * 0.45 + 3), 4.2))
    width = 0.8 / len(cols)
    x = np.arange(len(rungs))
    top = 1.0
    for i, c in enumerate(cols):
        t = c["t"]
        best = min(t.values())
        ys = [t[k] / best if k in t else np.nan for k in rungs]
        top = max([top] + [y for y in ys if y == y])
        bars = ax.bar(x + (i - (len(cols) - 1) / 2) * width, ys, width, label=f"{i + 1}: {c['label']}")
        for b, y in zip(bars, ys):
            if y == y and abs(y - 1.0) < 1e-9:
                ax.annotate("best", (b.get_x() + b.get_width() / 2, y), ha="center", va="bottom", fontsize=7)
    ax.set_xticks(x, rungs)
    ax.set_yscale("log")
    ax.set_ylabel("median time / the set's best rung (log)")
    ax.axhline(1.0, color="#777", lw=0.6, ls=":")
    ax.set_ylim(0.8, top * (2.5 + 1.5 * len(flipped)))  # room above the bars for the flips box
    lines = []
    for rule in flipped:
        states = [f"{i + 1}: {'holds' if c['rules'][rule] else 'does not'}" for i, c in enumerate(cols)
                  if rule in c["rules"]]
        ref_rules = (plan.get("reference") or {}).get("rules", {})
        if rule in ref_rules:
            states.append(f"seed M4: {'holds' if ref_rules[rule] else 'does not'}")
        lines.append(f"FLIPS: {rule} ({', '.join(states)})")
    if flipped:
        ax.text(0.01, 0.99, "\n".join(lines), transform=ax.transAxes, va="top", ha="left", fontsize=7,
                color="#b00020", bbox={"facecolor": "white", "alpha": 0.85, "edgecolor": "#b00020"})
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=1, frameon=False)
    ax.set_title(TITLE)
    ref = plan.get("reference") or {}
    caption = (f"{plan.get('mode', 'cold')} mode, offset 0. Rules that flip between the columns (the table's "
               f"'flips' rows, the seed's reference rows included): {'; '.join(flipped) if flipped else 'none'}. "
               f"Reference, from the seed, not measured here: {ref.get('label', '')}, ranking {ref.get('ranking', '')}.")
    return Plot(PID, SECTION, TITLE, caption=caption, png=render(fig))
