#!/usr/bin/env python3
"""Check README's headline figures and the results folders' build commits against the committed records.

Two checks (issue 17, item 4), both from the repository's files only (no GPU, no network):

1. Headline figures. docs/headline_figures.json describes each row of README's headline table: the
   records folder it cites and, for every number the row quotes, where that number comes from (a record
   field, a ratio of two records, or a constant that is not a measurement, with the reason). The check
   fails when a row does not cite its folder, when a quoted number is not described, or when a described
   figure does not equal the records' value at the precision the README prints.

2. Build commits. Every results folder with records has a NOTE.md with a "## Build commit" table:

       | records | build.git_commit | dirty | NOTE's commit | why they differ |
       |---|---|---|---|---|
       | `final/` | `ba19bf1` | yes | `1b16018` | built from ba19bf1 with ... uncommitted |

   Every record file under the folder (down to the next folder with its own NOTE.md) must match the row
   with the longest `records` prefix in build.git_commit (prefix) and git_dirty. A row whose build commit
   differs from the NOTE's commit, or whose build was dirty, must say why (the last column); the NOTE's
   commit must be named elsewhere in the NOTE's text too.

Usage: check_figures.py [--root DIR] [--only figures|commits] [-v]
Exit 0 when every check passes, 1 when one fails (each failure printed), 2 on bad usage or input.
"""
from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import re
import sys

UNITS = {  # unit written in the README -> factor from the record's unit (seconds, B/s, ...)
    "s": 1.0, "ms": 1e3, "us": 1e6, "µs": 1e6, "ns": 1e9,
    "TB/s": 1e-12, "GB/s": 1e-9, "x": 1.0, "×": 1.0, "%": 1.0, "": 1.0, "/s": 1.0,
}


class Bad(Exception):
    """Bad input (exit 2)."""


def load_records(path: str) -> list[dict] | None:
    """The records of a file, or None when it is not a records file."""
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rt", encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError, EOFError):
        return None
    if isinstance(doc, dict) and isinstance(doc.get("records"), list):
        return doc["records"]
    return None


def record_files(folder: str, stop_at_notes: bool) -> list[str]:
    out = []
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        if stop_at_notes and root != folder and os.path.exists(os.path.join(root, "NOTE.md")):
            dirs[:] = []
            continue
        for name in sorted(files):
            if name.endswith((".json", ".json.gz")):
                out.append(os.path.join(root, name))
    return out


# ---------------------------------------------------------------------------------------------
# 1. headline figures

def get_field(rec: dict, field: str):
    cur = rec
    for part in field.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return None
        cur = cur[part]
    return cur


def matches(rec: dict, sel: dict) -> bool:
    for key, want in sel.items():
        if key in ("file", "field", "pick"):
            continue
        if key == "axes":
            axes = rec.get("axes") or {}
            if any(axes.get(k) != v for k, v in want.items()):
                return False
        elif key == "extra":
            extra = rec.get("extra") or {}
            for k, v in want.items():
                if v is True and k not in extra:
                    return False
                if v is not True and extra.get(k) != v:
                    return False
        elif rec.get(key) != want:
            return False
    return True


class Records:
    def __init__(self, root: str):
        self.root = root
        self.cache: dict[str, list[dict]] = {}

    def file(self, path: str) -> list[dict]:
        if path not in self.cache:
            full = os.path.join(self.root, path)
            recs = load_records(full)
            if recs is None:
                raise Bad(f"{path}: not a records file")
            self.cache[path] = recs
        return self.cache[path]

    def value(self, folder: str, sel: dict) -> float:
        if "file" not in sel:
            raise Bad(f"selector without 'file': {sel}")
        recs = [r for r in self.file(os.path.join(folder, sel["file"])) if matches(r, sel)]
        pick = sel.get("pick", "one")
        if not recs:
            raise LookupError(f"no record in {folder}/{sel['file']} matches {sel}")
        if pick == "one" and len(recs) != 1:
            raise LookupError(f"{len(recs)} records in {folder}/{sel['file']} match {sel} (want one; add axes or 'pick')")
        field = sel.get("field", "summary.median")
        vals = [get_field(r, field) for r in recs]
        if any(not isinstance(v, (int, float)) for v in vals):
            raise LookupError(f"field {field} missing in a record matching {sel}")
        if pick in ("one", "first"):
            return float(vals[0])
        if pick == "best":  # the record with the smallest median (the best rung of a ladder), then its field
            best = min(range(len(recs)), key=lambda i: get_field(recs[i], "summary.median") or math.inf)
            return float(vals[best])
        if pick == "min":
            return float(min(vals))
        if pick == "max":
            return float(max(vals))
        raise Bad(f"pick {pick!r}: want one, first, min or max")


NUM = re.compile(r"(?<![\w.^·])(\d+(?:\.\d+)?)(?![\w^])")


def numbers_in(text: str) -> list[str]:
    """The numbers a cell quotes: plain decimals not part of an identifier (g15, r07, 2^28, sm_90)."""
    text = re.sub(r"\[[^\]]*\]\([^)]*\)", lambda m: m.group(0).split("](")[0], text)  # link text only
    text = re.sub(r"\d+\^\d+", " ", text)          # powers: sizes, not measurements
    text = re.sub(r"\d+(?:\.\d+)?·10\^\d+", " ", text)
    return NUM.findall(text)


def close_enough(printed: str, value: float) -> bool:
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    return abs(round(value, decimals) - float(printed)) <= 0.5 * 10 ** -decimals + 1e-9 * max(1.0, abs(value)) \
        or math.isclose(float(printed), value, rel_tol=0, abs_tol=0.5 * 10 ** -decimals)


def headline_table(readme: str) -> list[list[str]]:
    lines = readme.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith("## On the lab's H200")), None)
    if start is None:
        raise Bad("README.md: no '## On the lab's H200' section")
    rows, in_table = [], False
    for line in lines[start + 1:]:
        if line.startswith("|"):
            in_table = True
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif in_table:
            break
    if len(rows) < 3:
        raise Bad("README.md: the headline table is missing")
    return rows


def check_figures(root: str, verbose: bool) -> list[str]:
    errors: list[str] = []
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        table = headline_table(f.read())
    header, body = table[0], [r for r in table[2:]]
    try:
        rec_col = next(i for i, h in enumerate(header) if h.lower().startswith("records"))
    except StopIteration:
        return ["README.md: the headline table has no 'records' column (each row must cite its records folder)"]
    spec_path = os.path.join(root, "docs", "headline_figures.json")
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    records = Records(root)
    described = {row["row"]: row for row in spec["rows"]}
    for cells in body:
        question = cells[0]
        row = next((r for k, r in described.items() if question.startswith(k)), None)
        if row is None:
            errors.append(f"README row {question[:50]!r}: not described in docs/headline_figures.json")
            continue
        folder = row["records"]
        if folder not in cells[rec_col]:
            errors.append(f"README row {question[:50]!r}: its records cell does not cite {folder}")
        if not os.path.isdir(os.path.join(root, folder)):
            errors.append(f"{folder}: no such folder")
            continue
        quoted = " | ".join(c for i, c in enumerate(cells[1:], 1) if i != rec_col)
        wanted = numbers_in(quoted)
        covered: list[str] = []
        for fig in row.get("figures", []):
            text = fig["text"]
            if text not in quoted:
                errors.append(f"row {question[:40]!r}: figure {text!r} is described but the README does not quote it")
                continue
            printed = numbers_in(text)
            if len(printed) != 1:
                raise Bad(f"figure text {text!r} must hold exactly one number")
            covered.append(printed[0])
            try:
                runs = fig.get("runs") or [fig.get("records", folder)]
                if "run_files" in fig:  # several processes' record files in one folder, each a run
                    if "select" not in fig:
                        raise Bad(f"figure {text!r}: run_files needs 'select'")
                    runs = [fig.get("records", folder)] * len(fig["run_files"])
                per_run = []
                for i_run, fdir in enumerate(runs):
                    if "run_files" in fig:
                        per_run.append(records.value(fdir, dict(fig["select"], file=fig["run_files"][i_run]))
                                       * fig.get("scale", UNITS.get(fig.get("unit", ""), 1.0)))
                        continue
                    if "count" in fig:  # how many records match (e.g. verdicts that hold)
                        sel = fig["count"]
                        per_run.append(float(sum(matches(r, sel) for r in records.file(os.path.join(fdir, sel["file"])))))
                    elif "in_field" in fig:  # the number as a record's own text says it (e.g. a verdict's figure)
                        sel = dict(fig["in_field"])
                        recs = [r for r in records.file(os.path.join(fdir, sel["file"])) if matches(r, sel)]
                        texts = [str(get_field(r, sel.get("field", "extra.figure"))) for r in recs]
                        if not any(re.search(r"(?<![\d.])" + re.escape(numbers_in(text)[0]) + r"(?![\d])", t) for t in texts):
                            raise LookupError(f"{numbers_in(text)[0]} is not in {sel.get('field', 'extra.figure')} of the records matching {sel}")
                        per_run.append(float(numbers_in(text)[0]))
                    elif "ratio" in fig:
                        a = records.value(fdir, fig["ratio"][0])
                        b = records.value(fdir, fig["ratio"][1])
                        per_run.append(a / b * fig.get("scale", 1.0))
                    else:
                        per_run.append(records.value(fdir, fig["select"])
                                       * fig.get("scale", UNITS.get(fig.get("unit", ""), 1.0)))
                stat = fig.get("stat", "median" if len(runs) > 1 else "one")
                per_run.sort()
                if stat == "one":
                    value = per_run[0]
                elif stat == "median":
                    m = len(per_run)
                    value = per_run[m // 2] if m % 2 else (per_run[m // 2 - 1] + per_run[m // 2]) / 2
                elif stat in ("min", "max"):
                    value = per_run[0] if stat == "min" else per_run[-1]
                else:
                    raise Bad(f"stat {stat!r}: want one, median, min or max")
            except LookupError as e:
                errors.append(f"row {question[:40]!r}, {text!r}: {e}")
                continue
            ok = close_enough(printed[0], value)
            if verbose or not ok:
                print(f"  {'ok ' if ok else 'BAD'} {question[:40]!r}: {text!r} vs records {value:.6g}")
            if not ok:
                errors.append(f"row {question[:40]!r}: README quotes {text!r}, the records give {value:.6g}")
        for const in row.get("constants", []):
            covered.extend(numbers_in(const["text"]))
            if const["text"] not in quoted:
                errors.append(f"row {question[:40]!r}: constant {const['text']!r} is not in the README row")
            if not const.get("why"):
                errors.append(f"row {question[:40]!r}: constant {const['text']!r} has no 'why'")
        remaining = list(covered)
        for num in wanted:
            if num in remaining:
                remaining.remove(num)
            else:
                errors.append(f"row {question[:40]!r}: the README quotes {num} but docs/headline_figures.json does not say where it comes from")
    for key in described:
        if not any(cells[0].startswith(key) for cells in body):
            errors.append(f"docs/headline_figures.json row {key!r}: no such README row")
    return errors


# ---------------------------------------------------------------------------------------------
# 2. build commits

HEX = re.compile(r"`?([0-9a-f]{7,40})`?")


def build_table(note: str, path: str) -> list[dict]:
    lines = note.splitlines()
    try:
        start = next(i for i, l in enumerate(lines) if l.strip().lower() == "## build commit")
    except StopIteration:
        raise LookupError(f"{path}: no '## Build commit' section")
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("## "):
            break
        if not line.startswith("|") or set(line.replace("|", "").strip()) <= set("-: "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0].lower() == "records":
            continue
        if len(cells) < 5:
            raise LookupError(f"{path}: build-commit row {line!r}: want 5 cells")
        built, noted = HEX.fullmatch(cells[1]), HEX.fullmatch(cells[3])
        if not built or not noted or cells[2] not in ("yes", "no"):
            raise LookupError(f"{path}: build-commit row {line!r}: want `hex` | yes/no | `hex`")
        rows.append({"records": cells[0].strip("`").rstrip("/") or ".", "built": built.group(1),
                     "dirty": cells[2] == "yes", "noted": noted.group(1), "why": " | ".join(cells[4:]).strip()})
    if not rows:
        raise LookupError(f"{path}: the '## Build commit' table has no rows")
    return rows


def check_commits(root: str, verbose: bool) -> list[str]:
    errors: list[str] = []
    results = os.path.join(root, "results")
    for dirpath, dirs, _ in os.walk(results):
        dirs.sort()
        files = record_files(dirpath, stop_at_notes=True) if os.path.exists(os.path.join(dirpath, "NOTE.md")) else []
        if not os.path.exists(os.path.join(dirpath, "NOTE.md")):
            # a folder of records must have a NOTE.md at or above it (below results/<machine>/)
            direct = [f for f in os.listdir(dirpath) if f.endswith((".json", ".json.gz"))]
            rel = os.path.relpath(dirpath, results)
            if direct and not any(os.path.exists(os.path.join(results, *rel.split(os.sep)[:k], "NOTE.md"))
                                  for k in range(1, rel.count(os.sep) + 2)):
                errors.append(f"{os.path.relpath(dirpath, root)}: records without a NOTE.md")
            continue
        note_path = os.path.join(dirpath, "NOTE.md")
        rel_note = os.path.relpath(note_path, root)
        with open(note_path, encoding="utf-8") as f:
            note = f.read()
        recs_by_file = {p: load_records(p) for p in files}
        recs_by_file = {p: r for p, r in recs_by_file.items() if r}
        if not recs_by_file:
            continue
        try:
            table = build_table(note, rel_note)
        except LookupError as e:
            errors.append(str(e))
            continue
        prose = note.split("## Build commit")[0] + note.split("## Build commit")[-1].split("\n## ", 1)[-1]
        for row in table:
            differs = not (row["built"].startswith(row["noted"]) or row["noted"].startswith(row["built"]))
            if (differs or row["dirty"]) and len(row["why"]) < 10:
                errors.append(f"{rel_note}: records {row['records']!r} built at {row['built']}{' + dirty' if row['dirty'] else ''}, NOTE's commit {row['noted']}: say why")
            if row["noted"][:7] not in prose:
                errors.append(f"{rel_note}: the NOTE's commit {row['noted'][:7]} is not named in its text")
        used = set()
        for path, recs in sorted(recs_by_file.items()):
            rel = os.path.relpath(path, dirpath)
            cands = [r for r in table if r["records"] == "." or rel == r["records"] or rel.startswith(r["records"] + "/")]
            if not cands:
                errors.append(f"{rel_note}: no build-commit row covers {rel}")
                continue
            row = max(cands, key=lambda r: 0 if r["records"] == "." else len(r["records"]))
            used.add(id(row))
            for rec in recs:
                b = rec.get("build") or {}
                commit, dirty = str(b.get("git_commit", "")), bool(b.get("git_dirty"))
                if not commit.startswith(row["built"]) or dirty != row["dirty"]:
                    errors.append(f"{rel_note}: {rel} has records built at {commit[:7]}{' + dirty' if dirty else ''}, "
                                  f"the table says {row['built']}{' + dirty' if row['dirty'] else ''}")
                    break
            if verbose:
                print(f"  ok {os.path.relpath(path, root)}: {row['built']} ({'dirty' if row['dirty'] else 'clean'}), NOTE {row['noted']}")
        for row in table:
            if id(row) not in used:
                errors.append(f"{rel_note}: build-commit row {row['records']!r} covers no records file")
    return errors


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--only", choices=["figures", "commits"])
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    if not os.path.exists(os.path.join(root, "README.md")):
        print(f"error: --root {args.root}: no README.md there", file=sys.stderr)
        return 2
    errors = []
    try:
        if args.only in (None, "figures"):
            errors += check_figures(root, args.verbose)
        if args.only in (None, "commits"):
            errors += check_commits(root, args.verbose)
    except (Bad, OSError, ValueError, KeyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for e in errors:
        print(f"FAIL {e}")
    print(f"check_figures: {len(errors)} problem(s)" if errors else "check_figures: every headline figure and build commit matches the records")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
