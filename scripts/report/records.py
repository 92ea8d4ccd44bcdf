"""Reading joseki records (docs/RECORDS.md) and the small helpers every plot shares.

Only the record conventions are assumed: rung, ladder.sweep / chosen / tie_rule,
ladder.scope_set (extra.* in joseki.record/1), extra.verdict, extra.pre_main_s / post_main_s / program_s, throughput.
"""
import json
import math


def load(files):
    """Records of all files, concatenated in order (the indices joseki's plan refers to)."""
    records = []
    for path in files:
        with open(path) as f:
            doc = json.load(f)
        if doc.get("schema") != "joseki.records/1":
            raise ValueError(f"{path}: not a joseki record set")
        records.extend(doc["records"])
    return records


def measured(r):
    return not r.get("skipped") and r.get("summary") is not None


def median(r):
    return r["summary"]["median"] if r.get("summary") else None


LADDER_KEYS = ("previous", "baseline", "x_previous", "x_baseline", "ceiling", "x_ceiling", "sweep", "chosen",
               "tie_rule", "scope_set")


def extra(r, key, default=None):
    """A record's field by name: the typed ladder fields (schema joseki.record/2, `ladder`) or,
    in /1 records and for every other key, `extra`."""
    if key in LADDER_KEYS and key in (r.get("ladder") or {}):
        return r["ladder"][key]
    e = r.get("extra") or {}
    return e.get(key, default)


def extra_num(r, *keys):
    """The first of these extra fields that is a number, else None."""
    for k in keys:
        v = extra(r, k)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return float(v)
    return None


def rel_noise(r):
    s = r.get("summary")
    if not s:
        return 0.0
    return 1.4826 * s["rel_mad"] if s.get("rel_mad", 0) > 0 else s.get("rel_stdev", 0.0)


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def varying_axes(recs):
    """Axis names (in axis order) whose values differ between these records."""
    names, values = [], {}
    for r in recs:
        for k, v in (r.get("axes") or {}).items():
            if k not in values:
                names.append(k)
                values[k] = set()
            values[k].add(json.dumps(v))
    return [k for k in names if len(values[k]) > 1]


def figure_of(r):
    """(value, kind) to plot for a record: bandwidth when a time record declares bytes,
    else its median in its own unit. kind: "GB/s" | "time" | the unit."""
    t = r.get("throughput")
    if r.get("unit") == "s" and t and t.get("bytes_per_s", 0) > 0:
        return t["bytes_per_s"] / 1e9, "GB/s"
    if r.get("unit") == "s":
        return median(r), "time"
    if r.get("unit") == "B/s":
        return median(r) / 1e9, "GB/s"
    return median(r), r.get("unit", "")


def time_scale(seconds_max):
    """(factor, unit) so that seconds * factor reads well."""
    for factor, unit in ((1, "s"), (1e3, "ms"), (1e6, "µs")):
        if seconds_max >= 1 / factor:
            return factor, unit
    return 1e9, "ns"


def fmt_time(s):
    if s is None or not math.isfinite(s):
        return "-"
    a = abs(s)
    if a >= 1:
        return f"{s:.3f} s"
    if a >= 1e-3:
        return f"{s * 1e3:.3f} ms"
    if a >= 1e-6:
        return f"{s * 1e6:.2f} µs"
    return f"{s * 1e9:.1f} ns"


def fmt_bytes(b):
    for unit, f in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if b >= f:
            v = b / f
            return f"{v:.0f} {unit}" if v == int(v) else f"{v:.1f} {unit}"
    return f"{b:.0f} B"


def device_of(records):
    for r in records:
        d = r.get("device") or {}
        if d.get("present"):
            return d
    return None
