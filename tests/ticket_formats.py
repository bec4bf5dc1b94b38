#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
mycl-report's markup, read back by a parser of each format (pandoc's GitHub
markdown and Jira wiki readers), on committed recordings and on one whose
kernel symbol names hold every character that opens markup in either format
(a table cell's bar, emphasis, a macro, a {noformat} that would close a
block, a link, an image, a heading's hash, emoticons, HTML, backquotes, a
backslash):
  - the title and the sections are the text report's, as headings;
  - the flat profile is a table whose cells read as the names themselves
    (mycl-hot's JSON rows), nothing in them taken as markup;
  - each code block holds the text report's lines of that section;
  - no markup but the report's own (its headings, tables, code, and the
    emphasis of each section's first line).

usage: ticket_formats.py MYCL_REPORT MYCL_HOT DATA_DIR WORKDIR
"""
import html
import json
import os
import shutil
import subprocess
import sys

from checks import check, summary

HOSTILE = (r"ev|l*b_x_{noformat}[a](b)!i!#h:)(x)&amp;<b>`q`\q~s~^u^-d-+i+??c??"
           r"{code}{{m}}")


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=300)


def pandoc(fmt, text):
    r = subprocess.run(["pandoc", "-f", fmt, "-t", "json"], input=text, capture_output=True,
                       text=True, timeout=120, check=True)
    return json.loads(r.stdout)["blocks"]


ENTITIES = False     # Jira renders HTML entities, which pandoc's reader leaves as text


def inline_text(x, marks):
    """The text of pandoc inlines; the kinds of markup met are added to MARKS."""
    if isinstance(x, list):
        return "".join(inline_text(i, marks) for i in x)
    t, c = x["t"], x.get("c")
    if t == "Str":
        return html.unescape(c) if ENTITIES else c
    if t in ("Space", "SoftBreak"):
        return " "
    if t == "LineBreak":
        marks.add("LineBreak")
        return "\n"
    if t == "Code":
        marks.add("Code")
        return c[1]
    marks.add(t)
    if t in ("Emph", "Strong", "Strikeout", "Superscript", "Subscript", "Underline", "SmallCaps"):
        return inline_text(c, marks)
    if t in ("Link", "Image"):
        return inline_text(c[1], marks)
    if t == "Quoted":
        q = '"' if c[0]["t"] == "DoubleQuote" else "'"
        return q + inline_text(c[1], marks) + q
    if t == "RawInline":
        return c[1]
    return ""


def cell_text(cell, marks):
    blocks = cell[4]
    return " ".join(inline_text(b["c"], marks) for b in blocks if b["t"] in ("Plain", "Para"))


def table_rows(tbl, marks):
    """Header cells and body rows of a pandoc Table (API 1.22)."""
    c = tbl["c"]
    head = [cell_text(cell, marks) for row in c[3][1] for cell in row[1]]
    body = []
    for tb in c[4]:
        for row in tb[2] + tb[3]:
            body.append([cell_text(cell, marks) for cell in row[1]])
    return head, body


def text_sections(text):
    """Section title -> the lines between its heading's description and the next heading."""
    secs, cur = {}, None
    for line in text.splitlines():
        if line.startswith("== ") and line.endswith(" =="):
            cur = line[3:-3]
            secs[cur] = []
        elif cur is not None:
            secs[cur].append(line)
    return secs


def check_doc(label, fmt, doc, text, rows):
    global ENTITIES
    ENTITIES = fmt == "jira"
    blocks = pandoc("gfm" if fmt == "markdown" else "jira", doc)
    marks = set()
    heads = [(b["c"][0], inline_text(b["c"][2], marks)) for b in blocks if b["t"] == "Header"]
    tsecs = text_sections(text)
    title = " ".join(x.strip() for x in text.split("\n\n")[0].splitlines())
    check(f"{label} {fmt}: the title as a heading",
          heads and heads[0] == (1, title), f"{heads[:1]} / {title}")
    check(f"{label} {fmt}: the sections as headings", [h for lv, h in heads if lv == 2] ==
          list(tsecs), f"{[h for lv, h in heads if lv == 2]} / {list(tsecs)}")
    marks.discard("Code")
    tables = [b for b in blocks if b["t"] == "Table"]
    check(f"{label} {fmt}: one table (the flat profile)", len(tables) == 1, len(tables))
    if tables:
        tmarks = set()
        head, body = table_rows(tables[0], tmarks)
        check(f"{label} {fmt}: its columns", head == ["overhead", "samples", "command", "binary",
                                                      "symbol"], head)
        want = [(f"{r['overhead']:.2f}%", str(r["samples"]),
                 r.get("symbol") or f"{r['dso']}+{r['address']}") for r in rows[:len(body)]]
        got = [(b[0], b[1], b[4].removesuffix(" [k]")) for b in body]
        # (names shortened in the middle are compared by their ends)
        same = all(g[:2] == w[:2] and (g[2] == w[2] or ("..." in g[2] and
                   w[2].startswith(g[2].split("...")[0]) and w[2].endswith(g[2].split("...")[-1])))
                   for g, w in zip(got, want))
        check(f"{label} {fmt}: {len(body)} rows whose cells read as the names", same and body,
              [(g, w) for g, w in zip(got, want) if g != w][:2])
        check(f"{label} {fmt}: no markup in the cells but code", tmarks <= {"Code"}, tmarks)
    # Code blocks: the text report's lines of the same section
    codes = [b["c"][1] for b in blocks if b["t"] == "CodeBlock"]
    if fmt == "jira":
        # (what would close a {noformat} block is shown with a backslash)
        codes = [c.replace("{noformat\\}", "{noformat}") for c in codes]
    wanted = []
    for name, lines in tsecs.items():
        if name == "Where the time goes":
            continue
        body = "\n".join(lines).strip("\n")
        if body:
            wanted.append((name, body))
    missing = []
    joined = "\n".join(codes)
    # (a section's description and its prose are paragraphs, folded in the text report)
    prose = " ".join(inline_text(b["c"], set()) for b in blocks if b["t"] == "Para")
    prose = " ".join(prose.split())
    # (a block's line one byte longer, "{noformat\\}", folds elsewhere: compared unfolded)
    flat = " ".join(joined.split())
    for name, body in wanted:
        for line in body.splitlines():
            words = " ".join(line.split())
            if words and words not in flat and words not in prose:
                missing.append((name, line))
    check(f"{label} {fmt}: every line of the text report's sections is there",
          not missing, missing[:3])
    paras = [b for b in blocks if b["t"] == "Para"]
    for b in paras:
        inline_text(b["c"], marks)
    extra = marks - {"Emph"}
    check(f"{label} {fmt}: no markup but headings, the table, code and emphasis", not extra, extra)


def main():
    tool, hot, data, work = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    symfs = os.path.join(data, "symfs")
    ksyms = os.path.join(work, "hostile.kallsyms")
    with open(os.path.join(data, "artefact.kallsyms")) as f, open(ksyms, "w") as g:
        for line in f:
            g.write(line.replace(" pvm_irq_enable\n", " " + HOSTILE + "\n"))
    cases = [("ttas", [os.path.join(data, "locks", "ttas.fp.data")]),
             ("hostile", ["--kallsyms", ksyms, os.path.join(data, "artefact.data")])]
    for label, args in cases:
        common = ["--symfs", symfs, "--buildid-dir", "", "--debug-dir", ""]
        text = run(tool, *common, *args)
        check(f"{label}: text exit 0", text.returncode == 0, text.stderr)
        j = json.loads(run(hot, *common, "--format", "json", *args).stdout)
        rows = next(e for e in j["events"] if e["samples"])["rows"]
        if label == "hostile":
            check("hostile: the name is a row of mycl-hot's",
                  any(r.get("symbol") == HOSTILE for r in rows), "")
        for fmt in ("markdown", "jira"):
            r = run(tool, *common, "--format", fmt, *args)
            check(f"{label} {fmt}: exit 0", r.returncode == 0, r.stderr)
            check_doc(label, fmt, r.stdout, text.stdout, rows)
    r = run(tool, "--format", "jira", "--format", "markdown", os.path.join(data, "waits.data"))
    check("--format twice: refused", r.returncode == 1 and "--format" in r.stderr, r.stderr)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
