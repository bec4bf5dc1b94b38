#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
mycl-report on committed recordings: a frame-pointer lock recording (ttas),
a two-thread profile (hotloop), DWARF stacks of C++ (members) and a
tracepoint recording (waits).  Every line within the width, the same bytes
on every run, the sections the recording holds, the findings the other tools
make (lock site and object, build facts), markdown that renders (balanced code
blocks, a table), JSON of schema mycl-report/1 whose counts are mycl-hot's,
redaction, colour, and one clear message for each bad input.

usage: report_checks.py MYCL_REPORT MYCL_HOT DATA_DIR
"""
import itertools
import json
import os
import shlex
import subprocess
import sys
import tempfile

from checks import check, over_width, summary, unfold


def run(*args, env=None):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=300, env=env)


def main():
    tool, hot, data = sys.argv[1:4]
    symfs = os.path.join(data, "symfs")
    ttas = os.path.join(data, "locks", "ttas.fp.data")
    cases = [ttas, os.path.join(data, "hotloop.g.data"),
             os.path.join(data, "locks", "members.dwarf.data"), os.path.join(data, "waits.data")]

    for path in cases:
        name = os.path.relpath(path, data)
        r = run(tool, "--symfs", symfs, path)
        lines = r.stdout.splitlines()
        check(f"{name}: exit 0", r.returncode == 0, r.stderr)
        long = over_width(r.stdout)
        check(f"{name}: {len(lines)} lines, all within 100 columns", not long, long[:3])
        check(f"{name}: no tab, no control character",
              all(c == "\n" or c >= " " for c in r.stdout), "")
        again = run(tool, "--symfs", symfs, path)
        check(f"{name}: the same bytes on a second run", again.stdout == r.stdout, "")
        heads = [x[3:-3] for x in lines if x.startswith("== ") and x.endswith(" ==")]
        want = ["Recording", "Over time", "Where the time goes", "Call paths",
                "Lock and spin sites", "Hottest code", "Data types", "False sharing among globals", "Symbols", "Build"]
        # (the data types when the binaries' debug info names any; the off-CPU waits of a
        # recording with sched_switch or futex tracepoints)
        if name == "waits.data":
            want.insert(want.index("Hottest code"), "Off-CPU waits")
        check(f"{name}: sections {heads}", heads in (want, [h for h in want if h != "Data types"]),
              "")
        # Each section opens with one line that says what it shows.
        ok = all(lines[i + 1] and not lines[i + 1].startswith("==")
                 for i, x in enumerate(lines) if x.startswith("== "))
        check(f"{name}: each section says what it shows", ok, "")
        j = json.loads(run(hot, "--symfs", symfs, path, "--format", "json").stdout)
        ev = next(e for e in j["events"] if e["samples"])
        # (the title's paragraph: a long checkout path folds it)
        title = " ".join(x.strip() for x in itertools.takewhile(bool, lines))
        check(f"{name}: the title gives mycl-hot's {ev['samples']} samples of '{ev['name']}'",
              f"{ev['samples']} samples of '{ev['name']}'" in title, title)
        r80 = run(tool, "--symfs", symfs, "--width", "80", path)
        check(f"{name}: --width 80 holds", r80.returncode == 0 and
              not over_width(r80.stdout, 80), over_width(r80.stdout, 80)[:1])

    # What the other tools find, said here too.
    r = run(tool, "--symfs", symfs, ttas)
    text = r.stdout
    check("ttas: the lock site and its object", "reserve_seat (zoo)" in text and
          "lock: hall_gate.held" in text, "")
    check("ttas: the spin-delay seed named", "jitter_state" in text, "")
    check("ttas: build facts of zoo (GCC 12.2.0, static, frame pointers from the flags)",
          "zoo: GCC 12.2.0 (C17)" in text and "static" in text and
          "frame pointers: yes (from the flags)" in text, "")
    check("ttas: hottest code annotated with the global it writes",
          "Annotation of burn in zoo" in text and "work_sink write" in text, "")
    check("ttas: false sharing of zoo weighted by the recording",
          "recording: " in text and "samples in this binary" in text, "")
    # A tree of the function alone says why: libc's msort has no frame pointer, so its
    # frame-pointer chains end there
    r = run(tool, "--symfs", symfs, os.path.join(data, "hotloop.g.data"))
    paths = r.stdout.split("== Call paths ==")[1].split("== Lock")[0]
    check("hotloop.g: a function without callers says its chains end, and what shows more",
          "msort_with_tmp.part.0  [libc.so.6]\n  (no caller for 100% of its samples" in paths and
          "--call-graph dwarf" in paths, paths[-400:])
    r = run(tool, "--symfs", symfs, os.path.join(data, "locks", "members.dwarf.data"))
    check("members (C++, DWARF): call paths with inlined frames",
          "(inlined)" in r.stdout.split("== Call paths ==")[1].split("== Lock")[0], "")

    # Markdown: headings, a table, balanced code blocks.
    r = run(tool, "--symfs", symfs, "--format", "markdown", ttas)
    md = r.stdout
    check("markdown: title and headings", md.startswith("# mycl-report of ") and
          "\n## Where the time goes\n" in md and "\n## Build\n" in md, md[:200])
    check("markdown: the flat profile as a table",
          "| overhead | samples | command | binary | symbol |" in md, "")
    check("markdown: code blocks balanced", md.count("```") % 2 == 0 and md.count("```") >= 6, "")

    # JSON: one document, its counts mycl-hot's.
    r = run(tool, "--symfs", symfs, "--format", "json", ttas)
    try:
        doc = json.loads(r.stdout)
    except ValueError as e:
        doc = {}
        check("json: parses", False, str(e))
    if doc:
        j = json.loads(run(hot, "--symfs", symfs, ttas, "--format", "json").stdout)
        check("json: schema mycl-report/1", doc.get("schema") == "mycl-report/1", "")
        check("json: profile counts are mycl-hot's",
              doc["profile"]["events"][0]["samples"] == j["events"][0]["samples"], "")
        check("json: lock sites", bool(doc["locks"]) and bool(doc["locks"].get("sites")),
              str(doc.get("locks"))[:200])
        check("json: annotations and share", len(doc["annotations"]) == 2 and len(doc["share"]) == 1, "")
        b = doc["build"][0]
        check("json: build facts", b["binary"] == "zoo" and b["static"] is True and
              b["frame_pointers"] is True and b["compiler"].startswith("GCC 12.2.0"), str(b))

    # The off-CPU waits of a tracepoint recording: the lock sites and the futex word, as
    # mycl-hot --locks finds them; the symbolization summary says it counts every event.
    r = run(tool, "--symfs", symfs, os.path.join(data, "waits.data"))
    offcpu = r.stdout.split("== Off-CPU waits ==")[-1].split("== Hottest code ==")[0]
    hot_w = run(hot, "--symfs", symfs, "--locks", os.path.join(data, "waits.data")).stdout
    check("waits: the off-CPU section has mycl-hot's lock sites and futex word",
          "open_table (mutex_wait) via __pthread_mutex_lock" in offcpu and
          "table_lock (mutex_wait)" in offcpu and
          all(x.strip().lstrip("# ") in offcpu for x in hot_w.splitlines()
              if "waits  " in x and "%" in x), offcpu[:300])
    check("waits: the symbolization summary says it counts all 3 events",
          "samples (of all 3 events) resolved" in r.stdout, "")
    jw = json.loads(run(tool, "--symfs", symfs, "--format", "json",
                        os.path.join(data, "waits.data")).stdout)["waits"]
    check("waits json: the waits document", jw and jw["schema"] == "mycl-waits/1" and
          jw["sites"][0]["site"] == "open_table", str(jw)[:200])
    jw = json.loads(run(tool, "--symfs", symfs, "--format", "json", ttas).stdout)["waits"]
    check("ttas json: no tracepoints, waits null", jw is None, str(jw)[:100])

    # The programs' own binaries first, libraries on request: yielder spends 29% in libc's
    # __sched_yield, hotloop 10% in libc's msort; the annotation, false sharing and build facts
    # are of the program, with a line naming what was left out, unless --libraries.
    art = os.path.join(data, "artefact.data")
    r = run(tool, "--symfs", symfs, "--no-share", art)
    ann = [x for x in r.stdout.splitlines() if x.startswith("Annotation of ")]
    check("yielder: the program's function annotated, not libc's hotter __sched_yield",
          ann and " in yielder " in ann[0] and not any(" in libc.so.6 " in a for a in ann), ann)
    check("yielder: a line names the libraries left out and --libraries",
          "leaves out the shared libraries with samples: libc.so.6 (88)" in unfold(r.stdout)
          and "--libraries" in r.stdout, "")
    r = run(tool, "--symfs", symfs, "--no-share", "--libraries", art)
    ann = [x for x in r.stdout.splitlines() if x.startswith("Annotation of ")]
    check("yielder --libraries: libc's __sched_yield annotated first",
          ann and ann[0].startswith("Annotation of __sched_yield in libc.so.6"), ann)
    hl = os.path.join(data, "hotloop.g.data")
    r = run(tool, "--symfs", symfs, hl)
    build = r.stdout.split("== Build ==")[1]
    share = r.stdout.split("== False sharing among globals ==")[1].split("== Symbols ==")[0]
    check("hotloop: build facts and false sharing of hotloop alone",
          "hotloop: GCC" in build and "libc.so.6" not in build and
          "mycl-share: /usr/lib/x86_64-linux-gnu/libc.so.6" not in share and
          "libc.so.6 (48); --libraries" in share, build + share)
    r = run(tool, "--symfs", symfs, "--libraries", hl)
    check("hotloop --libraries: libc's build facts and false sharing too",
          "libc.so.6: GCC" in r.stdout.split("== Build ==")[1] and
          "mycl-share: /usr/lib/x86_64-linux-gnu/libc.so.6" in
          r.stdout.split("== False sharing among globals ==")[1], "")
    jd = json.loads(run(tool, "--symfs", symfs, "--no-share", "--format", "json", art).stdout)
    check("yielder json: the annotations of the program",
          [a.get("dso") for a in jd["annotations"]] == ["yielder"],
          [a.get("dso") for a in jd["annotations"]])

    # Redaction: no host, no command line, no recording directory, home as ~.
    host = json.loads(run(hot, "--symfs", symfs, ttas, "--format", "json").stdout)["header"]["hostname"]
    env = dict(os.environ, HOME="/root")
    # The recording's kernel symbols, committed beside it: the running kernel is not the recorded one.
    ksyms = os.path.join(data, "locks", "kallsyms")
    r = run(tool, "--symfs", symfs, "--kallsyms", ksyms, "--redact", ttas, env=env)
    plain = run(tool, "--symfs", symfs, "--kallsyms", ksyms, ttas, env=env).stdout
    check("--redact: host name replaced", f"host: {host} " in plain and "host: [host]" in r.stdout, "")
    check(f"--redact: only the word '{host}', not inside names (pvm_irq_enable)",
          "[host]" not in r.stdout.replace("host: [host]", "") and "pvm_irq_enable" in r.stdout, "")
    check("--redact: command line dropped", "command line: [redacted]" in r.stdout and
          "-F 499 -o ttas.fp.data" not in r.stdout and "zoo ttas 1 4" not in r.stdout, "")
    check("--redact: the recording named without its directory",
          r.stdout.startswith("mycl-report of ttas.fp.data:"), r.stdout[:80])
    check("--redact: the home directory as ~", "/root/" not in r.stdout and
          ("/root/" not in plain or "~/" in r.stdout), "")

    # The same for markdown and JSON: the document keeps its shape, its strings are redacted.
    r = run(tool, "--symfs", symfs, "--kallsyms", ksyms, "--redact", "--format", "markdown", ttas, env=env)
    check("--redact markdown: host, command line, directory, home",
          "host: [host]" in r.stdout and "command line: [redacted]" in r.stdout and
          "/root/" not in r.stdout and "-F 499" not in r.stdout, r.stdout[:300])
    full = run(tool, "--symfs", symfs, "--kallsyms", ksyms, "--format", "json", ttas, env=env).stdout
    r = run(tool, "--symfs", symfs, "--kallsyms", ksyms, "--redact", "--format", "json", ttas, env=env)
    try:
        red, whole = json.loads(r.stdout), json.loads(full)
    except ValueError as e:
        red, whole = None, None
        check("--redact json: a JSON document", False, f"{e}: {r.stdout[:200]}")

    def shape(v):
        if isinstance(v, dict):
            return {k: shape(x) for k, x in v.items()}
        if isinstance(v, list):
            return [shape(x) for x in v]
        return type(v).__name__

    if red is not None:
        h = red["profile"]["header"]
        check("--redact json: host name, command line and directory gone",
              h["hostname"] == "[host]" and h["cmdline"] == "[redacted]" and h["file"] == "ttas.fp.data",
              str(h)[:300])
        check("--redact json: nothing of them left anywhere",
              "-F 499" not in r.stdout and "/root/" not in r.stdout and
              f'"{host}"' not in r.stdout and ("/root/" not in full or "~/" in r.stdout), "")
        check("--redact json: the same document (keys, types, numbers) as without",
              shape(red) == shape(whole) and
              red["profile"]["events"][0]["samples"] == whole["profile"]["events"][0]["samples"], "")

    # Colour: headings coloured with --color always, never otherwise.
    r = run(tool, "--symfs", symfs, "--color", "always", ttas)
    check("--color always: headings in colour", "\033[1;36m== Recording ==\033[0m" in r.stdout, "")
    r = run(tool, "--symfs", symfs, "--color", "never", ttas)
    check("--color never: no escape", "\033" not in r.stdout, "")
    r = run(tool, "--symfs", symfs, ttas)
    check("--color auto to a pipe: no escape", "\033" not in r.stdout, "")

    # The progress line: on a terminal (util-linux's script gives one), gone when done,
    # never with --quiet or into a pipe.  MYCL_PROGRESS_AFTER=0 shows it on a small file.
    env = dict(os.environ, MYCL_PROGRESS_AFTER="0")
    for name, flags, want in (("a terminal", "", True), ("a terminal, --quiet", "-q", False)):
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "typescript")
            cmd = " ".join(shlex.quote(x) for x in [tool, *flags.split(), "--no-share", "--symfs",
                                                     symfs, ttas]) + " > /dev/null"
            r = run("script", "-qc", cmd, log, env=env)
            seen = open(log, errors="replace", newline="").read() if os.path.exists(log) else ""
            shown = "mycl-report: reading " in seen and "% (" in seen
            check(f"progress line on {name}: {'shown, then cleared' if want else 'none'}",
                  shown == want and (not want or "\r" + " " * 78 + "\r" in seen),
                  seen[-300:])
    r = run(tool, "--no-share", "--symfs", symfs, ttas, env=env)
    check("progress line into a pipe: none", "reading" not in r.stderr, r.stderr)

    # Bad input: one message naming the problem, a documented exit code.
    with tempfile.TemporaryDirectory() as tmp:
        notes = os.path.join(tmp, "notes.txt")
        with open(notes, "w") as f:
            f.write("not a recording\n")
        for name, args, code in (
                ("no recording", [], 1),
                ("a missing recording", [os.path.join(tmp, "none.data")], 2),
                ("a text file", [notes], 3),
                ("a missing binary", [ttas, os.path.join(tmp, "nobinary")], 2),
                ("an event it does not have", ["--event", "nosuch", ttas], 4),
                ("--width 10", ["--width", "10", ttas], 1),
                ("--color always with json", ["--color", "always", "--format", "json", ttas], 1),
                ("--no-share with binaries", ["--no-share", ttas, notes], 1),
                ("--format html", ["--format", "html", ttas], 1)):
            r = run(tool, "--symfs", symfs, *args)
            check(f"bad input: {name}: exit {code}, one message",
                  r.returncode == code and r.stderr.startswith("mycl-report:") and
                  len(r.stderr.strip().splitlines()) <= 2 and not r.stdout,
                  f"exit {r.returncode}: {r.stderr} {r.stdout[:100]}")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
