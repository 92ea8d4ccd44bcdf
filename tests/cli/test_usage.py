"""README's usage text ("The joseki command") and the binary's --help say the same: every command
README names exists and its --help lists every option README gives it (and each value README lists
for an option with choices); every subcommand the binary has is in README's table; the global
options README names are in `joseki --help`. Runs without a GPU."""
import os
import re

from harness import ROOT, Suite, expect, expect_exit

suite = Suite()


def readme_rows():
    """(row text, [command paths], [(option, [values])]) for each row of README's command table."""
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    section = text.split("## The joseki command", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        if not line.startswith("| `joseki"):
            continue
        first = line.split(" | ", 1)[0]
        paths, last, options = [], None, []
        for tok in re.findall(r"`([^`]+)`", first):
            words = tok.replace("\\|", "|").split()
            if words[0] == "joseki":
                base, words = [], words[1:]
            else:  # "`bench`" after "`joseki abc471g gen`": a sibling of the last command
                base = last[:-1] if last else []
            path, alts = list(base), None
            # options in the command itself: `joseki try FILE.cu --ladder reduce`
            for i, w in enumerate(words):
                if w.startswith("--"):
                    nxt = words[i + 1] if i + 1 < len(words) else ""
                    options.append((w, [nxt] if nxt and not nxt.startswith("-") else []))
            for w in words:
                if w.startswith("-") or "…" in w or not re.fullmatch(r"[a-z0-9|]+", w):
                    break
                if "|" in w:
                    alts = w.split("|")
                    break
                path.append(w)
            if alts:
                for a in alts:
                    paths.append(path + [a])
                last = path + [alts[0]]
            else:
                paths.append(path)
                last = path
        for tok in re.findall(r"`(--[a-z0-9-]+)(?: ([^`]*))?`", line):
            name, arg = tok
            values = arg.replace("\\|", "|").split("|") if "|" in arg else []
            options.append((name, values))
        rows.append((line, paths, options))
    return rows


def help_of(s, path):
    p = s.run(*path, "--help")
    expect_exit(p, 0)
    return p.stdout


@suite.test
def readme_table_is_found(s):
    rows = readme_rows()
    expect(len(rows) >= 10, f"README's command table has {len(rows)} rows")
    expect(all(paths for _, paths, _ in rows), [line for line, paths, _ in rows if not paths])


@suite.test
def every_readme_command_exists_and_its_help_lists_readme_options(s):
    for line, paths, options in readme_rows():
        helps = {" ".join(p): help_of(s, p) for p in paths}
        for name, values in options:
            where = [k for k, h in helps.items() if re.search(re.escape(name) + r"\b", h)]
            expect(where, f"README gives `{name}` to {list(helps)}, whose --help lacks it")
            for v in values:
                expect(any(v in helps[k] for k in where), f"README lists {name} {v}; --help of {where} does not")


@suite.test
def every_subcommand_of_the_binary_is_in_readme(s):
    documented = {" ".join(p) for _, paths, _ in readme_rows() for p in paths}
    prefixes = {" ".join(p[:i]) for _, paths, _ in readme_rows() for p in paths for i in range(1, len(p) + 1)}

    def subcommands(path):
        out = help_of(s, path)
        if "Subcommands:" not in out:
            return []
        block = out.split("Subcommands:", 1)[1]
        return re.findall(r"^  ([a-z0-9-]+)\s", block, re.M)

    missing = []
    for top in subcommands([]):
        if top not in prefixes:
            missing.append(top)
            continue
        for sub in subcommands([top]):
            if f"{top} {sub}" not in prefixes and top not in documented:
                missing.append(f"{top} {sub}")
    expect(not missing, f"subcommands not in README's table: {missing}")


@suite.test
def global_options_match(s):
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    line = next(l for l in text.splitlines() if l.startswith("Global options:"))
    names = re.findall(r"`(--[a-z-]+)", line)
    expect(names, line)
    out = help_of(s, [])
    for n in names:
        expect(n in out, f"README's global option {n} is not in `joseki --help`")


suite.main()
