"""The small markdown subset joseki writes (headings, pipe tables, lists, paragraphs, inline
code, bold, italics, links, images) as HTML. Not a general markdown parser, on purpose: the
report's markdown is generated, so this only has to read what joseki writes."""
import html
import re

INLINE = [
    (re.compile(r"\*\*([^*]+)\*\*"), lambda m: f"<strong>{m.group(1)}</strong>"),
    (re.compile(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])"), lambda m: f"<em>{m.group(1)}</em>"),
    (re.compile(r"!\[([^\]]*)\]\(([^)]+)\)"), lambda m: f'<img alt="{m.group(1)}" src="{m.group(2)}">'),
    (re.compile(r"\[([^\]]+)\]\(([^)]+)\)"), lambda m: f'<a href="{m.group(2)}">{m.group(1)}</a>'),
]


def inline(text):
    # Code spans first, so that what is inside them is not read as emphasis.
    parts = re.split(r"(`[^`]+`)", text)
    out = []
    for p in parts:
        if p.startswith("`") and p.endswith("`") and len(p) > 1:
            out.append(f"<code>{html.escape(p[1:-1])}</code>")
            continue
        s = html.escape(p, quote=False)
        for rx, fn in INLINE:
            s = rx.sub(fn, s)
        out.append(s)
    return "".join(out)


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def split_row(line):
    cells, cur, i = [], "", 0
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body) and body[i + 1] == "|":
            cur += "|"
            i += 2
            continue
        if c == "|":
            cells.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    cells.append(cur.strip())
    return cells


def table(lines):
    head = split_row(lines[0])
    rows = [split_row(l) for l in lines[2:]]
    numeric = re.compile(r"^[-+]?[\d.,]+\s*(%|x|[a-zA-Zµ/]+)?$")
    out = ['<div class="table"><table><thead><tr>']
    out += [f"<th>{inline(h)}</th>" for h in head]
    out.append("</tr></thead><tbody>")
    for r in rows:
        out.append("<tr>" + "".join(
            f'<td class="num">{inline(c)}</td>' if numeric.match(c) else f"<td>{inline(c)}</td>" for c in r) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def to_html(md, hooks=None):
    """hooks: {line: html} replaces a whole line (e.g. the plots marker) with raw HTML."""
    hooks = hooks or {}
    lines = md.splitlines()
    out, para, i = [], [], 0

    def flush():
        if para:
            out.append("<p>" + inline(" ".join(para)) + "</p>")
            para.clear()

    while i < len(lines):
        line = lines[i]
        s = line.strip()
        if s in hooks:
            flush()
            out.append(hooks[s])
        elif not s:
            flush()
        elif s.startswith("<!--"):
            flush()
        elif s.startswith("#"):
            flush()
            level = len(s) - len(s.lstrip("#"))
            text = s[level:].strip()
            out.append(f'<h{level} id="{slug(text)}">{inline(text)}</h{level}>')
        elif s.startswith("|") and i + 1 < len(lines) and re.match(r"^\|[\s|:-]+\|$", lines[i + 1].strip()):
            flush()
            block = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                block.append(lines[i])
                i += 1
            out.append(table(block))
            continue
        elif s.startswith("- "):
            flush()
            items = []
            while i < len(lines) and lines[i].strip().startswith("- "):
                items.append(f"<li>{inline(lines[i].strip()[2:])}</li>")
                i += 1
            out.append("<ul>" + "".join(items) + "</ul>")
            continue
        else:
            para.append(s)
        i += 1
    flush()
    return "\n".join(out)
