# SPDX-License-Identifier: LGPL-2.1-or-later
"""Named checks for the test scripts: each prints ok/FAIL, counted for the summary."""
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + str(detail) if detail and not ok else ''}")
    passed += bool(ok)
    failed += not ok


def summary():
    """Prints the counts; the exit status for them."""
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def perf_spelling(dso, sym):
    """An unresolved address as perf report spells it (0x%016x), from mycl's spelling
    (BINARY+0xADDR, the same in every view) when BINARY is the row's: for comparing rows."""
    if dso and sym.startswith(dso + "+0x"):
        try:
            return "0x%016x" % int(sym[len(dso) + 1:], 16)
        except ValueError:
            pass
    return sym


def over_width(text, width=100):
    """The lines of a text report longer than WIDTH columns, but for a line that holds one word
    alone (a path to copy, which a report never shortens: it has a line of its own)."""
    long = []
    for line in text.splitlines():
        line = line.expandtabs()
        if len(line) <= width:
            continue
        if " " not in line.lstrip("#").strip():
            continue
        long.append(line)
    return long


def unfold(text):
    """A text report with its folded lines joined again, for looking up a whole path: a
    continuation line starts with five spaces or more, deeper than the line it continues, and
    with '#' when that line is a comment."""
    def indent(line):
        body = line[1:] if line.startswith("#") else line
        return len(body) - len(body.lstrip(" "))

    out = []
    for line in text.splitlines():
        prev = out[-1] if out else ""
        comment = prev.startswith("#")
        if prev and (line.startswith("#") == comment) and indent(line) >= 5 and \
                indent(line) > indent(prev) and line.strip("# "):
            out[-1] += " " + line.lstrip("# ")
        else:
            out.append(line)
    return "\n".join(out) + "\n"
