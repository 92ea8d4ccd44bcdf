"""The report's plots, in report order. Each plot function takes records and returns Plot objects;
a plot whose records are absent is a Plot with `absent` set to the reason, never an error, and a
plot that fails to draw says so instead of ending the report."""
from style import Plot  # first: selects the Agg backend before pyplot is imported elsewhere

from ladders import ladder, sweep  # noqa: E402
from probes import x_axis, curve, scopes, startup  # noqa: E402
from records import extra, measured  # noqa: E402


def safe(fn, pid, section, title, *args, **kw):
    """A plot that fails to draw says so in the report instead of ending it."""
    try:
        return fn(*args, **kw)
    except Exception as e:  # noqa: BLE001 - the report must survive odd records
        return Plot(pid, section, title, absent=f"could not be drawn: {type(e).__name__}: {e}")


def all_plots(records, ladders):
    out = []
    for lad in ladders:
        out.append(safe(ladder, "plot-ladder-" + lad["id"], "Ladders", lad["title"], lad, records))
    if not ladders:
        out.append(Plot("plot-ladders", "Ladders", "Ladders", absent="no ladder (two or more measured rungs) in this run"))
    sweeps = {}
    for r in records:
        if extra(r, "sweep") is not None:
            sweeps.setdefault((r["experiment"], str(extra(r, "sweep"))), []).append(r)
    for (exp, name), rs in sweeps.items():
        out.append(safe(sweep, f"plot-sweep-{exp}-{name}", "Sweeps", f"{exp}: sweep {name}", exp, name, rs))
    if not sweeps:
        out.append(Plot("plot-sweeps", "Sweeps", "Sweeps", absent="no records with extra.sweep in this run"))
    by_exp = {}
    for r in records:
        by_exp.setdefault(r["experiment"], []).append(r)
    fixed = [("probe.caches", "plot-caches", "Memory hierarchy", "Working set: L1, L2, HBM (probe.caches)", True),
             ("probe.coalescing", "plot-coalescing", "Access patterns", "Global loads by stride (probe.coalescing)", False),
             ("probe.banks", "plot-banks", "Access patterns", "Shared-memory banks by stride (probe.banks)", False)]
    for exp, pid, section, title, caches in fixed:
        out.append(safe(curve, pid, section, title, pid, section, title, by_exp.get(exp, []), records, exp, caches))
    out.append(safe(scopes, "plot-scopes", "Scopes", "Four scopes", records))
    out.append(safe(startup, "plot-startup", "Start-up", "Start-up split", records))
    for exp, rs in by_exp.items():
        if exp.startswith("probe.") and exp not in ("probe.caches", "probe.coalescing", "probe.banks", "probe.startup"):
            live = [r for r in rs if measured(r) and extra(r, "verdict") is None]
            if len(live) >= 3 and x_axis(live):
                pid = "plot-" + exp.replace(".", "-")
                out.append(safe(curve, pid, "Other probes", exp, pid, "Other probes", exp, live, records, exp))
    return out
