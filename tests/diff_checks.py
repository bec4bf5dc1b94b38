#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
mycl-diff checks on tests/data/diff: two builds of blockcodec.c that differ in
one function (checksum_block does its work twice in the new one), recorded
doing the same work.  The comparison must find that function and nothing else
above sampling noise; its formats and its answers to bad input.

usage: diff_checks.py MYCL_DIFF DATA_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

from checks import check, over_width, summary


def run(tool, *args):
    return subprocess.run([tool, *args], capture_output=True, text=True, timeout=300)


def main():
    tool, data = sys.argv[1:3]
    symfs = os.path.join(data, "symfs")
    base = os.path.join(data, "diff", "base.data")
    new = os.path.join(data, "diff", "new.data")

    r = run(tool, "--symfs", symfs, "--format", "json", base, new)
    doc = json.loads(r.stdout)
    changed = [x["symbol"] for x in doc["rows"] if x["changed"]]
    check("by amount: checksum_block changed, nothing else above noise",
          changed == ["checksum_block"], str(changed))
    top = doc["rows"][0]
    check("by amount: checksum_block first, about twice the time",
          top["symbol"] == "checksum_block" and 1.5 < top["new_period"] / top["base_period"] < 2.5,
          str(top))
    same = {x["symbol"]: x for x in doc["rows"]}
    check("by amount: the unchanged functions within 4 standard errors",
          all(abs(same[s]["z"]) < 4 for s in ("decode_block", "parse_header", "write_out")),
          str([(s, same[s]["z"]) for s in ("decode_block", "parse_header", "write_out")]))
    check("matched by name across the two builds (each symbol once, with both sides)",
          all(same[s]["base_samples"] > 0 and same[s]["new_samples"] > 0
              for s in ("checksum_block", "decode_block", "parse_header", "write_out")), "")

    r = run(tool, "--symfs", symfs, "--by-share", "--format", "json", base, new)
    doc = json.loads(r.stdout)
    check("by share: checksum_block's share grew most",
          doc["rows"][0]["symbol"] == "checksum_block" and doc["rows"][0]["delta"] > 0 and
          doc["rows"][0]["changed"], str(doc["rows"][0]))

    r = run(tool, "--symfs", symfs, base, new)
    lines = r.stdout.splitlines()
    check("text: within 100 columns, the change marked",
          r.returncode == 0 and not over_width(r.stdout) and
          any(x.lstrip().startswith("*") and "checksum_block" in x for x in lines), r.stdout)
    r = run(tool, "--symfs", symfs, "--format", "markdown", base, new)
    check("markdown: a table with the change",
          "| base | new | delta |" in r.stdout and "**changed**" in r.stdout, r.stdout[:300])
    # (read back by pandoc's GitHub markdown: the header's four lines a list, not one paragraph)
    doc = json.loads(subprocess.run(["pandoc", "-f", "gfm", "-t", "json"], input=r.stdout,
                                    capture_output=True, text=True, check=True).stdout)["blocks"]
    check("markdown: the header a list of its 4 lines, then the table",
          [b["t"] for b in doc][:2] == ["BulletList", "Table"] and len(doc[0]["c"]) == 4,
          [b["t"] for b in doc])

    # Kernel rows name their binary in one pair of brackets; code without a symbol is
    # compared address by address, spelled as every view spells it (binary+0xoffset).
    r = run(tool, "--by-share", "--kallsyms", os.path.join(data, "artefact.kallsyms"),
            os.path.join(data, "artefact.data"), os.path.join(data, "idle.data"))
    check("kernel rows: '[kernel.kallsyms]' in one pair of brackets",
          r.returncode == 0 and "pvm_irq_enable [kernel.kallsyms]" in r.stdout and
          "[[" not in r.stdout, r.stdout[:400])
    r = run(tool, "--by-share", "--format", "json", os.path.join(data, "hotloop.g.data"),
            os.path.join(data, "hotloop.data"))
    rows = json.loads(r.stdout)["rows"] if r.returncode == 0 else []
    unres = [x for x in rows if x["dso"] == "hotloop" and not x["symbol"]]
    check("unresolved code: one row per address of the binary, with its address",
          len(unres) > 3 and all(x.get("address", "0x0") != "0x0" for x in unres),
          [(x.get("address"), x["base_samples"], x["new_samples"]) for x in unres][:4])
    r = run(tool, "--by-share", os.path.join(data, "hotloop.g.data"), os.path.join(data, "hotloop.data"))
    check("unresolved code spelled hotloop+0x...", re.search(r" hotloop\+0x[0-9a-f]+\n", r.stdout),
          r.stdout[:400])

    # Per lock site: two lock patterns of tests/data/locks (a TTAS lock taken in
    # reserve_seat, a TAS latch in pin_buffer_slot) and a recording against itself.
    locks = os.path.join(data, "locks")
    r = run(tool, "--symfs", symfs, "--locks", "--format", "json",
            os.path.join(locks, "ttas.fp.data"), os.path.join(locks, "tas.fp.data"))
    doc = json.loads(r.stdout) if r.returncode == 0 else {"rows": []}
    got = {(x["symbol"], x["changed"], x["base_samples"] > 0, x["new_samples"] > 0) for x in doc["rows"]}
    check("--locks: the TTAS site gone, the TAS site new, both beyond noise",
          doc.get("rows_are") == "lock site" and
          got == {("reserve_seat", True, True, False), ("pin_buffer_slot", True, False, True)},
          f"{r.stderr} {got}")
    r = run(tool, "--symfs", symfs, "--locks", os.path.join(locks, "ttas.fp.data"),
            os.path.join(locks, "ttas.fp.data"))
    check("--locks: a recording against itself: no change",
          r.returncode == 0 and "1 lock site, 0 changed" in r.stdout, r.stdout + r.stderr)

    # Per cache line of a binary's globals (mycl-share weighted by each recording).
    zoo = os.path.join(symfs, "mycl-fixtures", "locks", "zoo")
    ttas = os.path.join(locks, "ttas.fp.data")
    r = run(tool, "--share", zoo, "--format", "json", ttas, ttas)
    doc = json.loads(r.stdout) if r.returncode == 0 else {"rows": []}
    check("--share: a recording against itself: lines with samples, none changed",
          doc.get("rows_are") == "cache line" and doc["rows"] and
          all(x["symbol"].startswith("line of ") and x["base_samples"] == x["new_samples"] and
              not x["changed"] for x in doc["rows"]), r.stderr + str(doc)[:300])
    r = run(tool, "--share", zoo + "," + zoo, os.path.join(locks, "tas.fp.data"), ttas)
    check("--share BIN,BIN: two recordings compared line by line",
          r.returncode == 0 and "cache line [dso]" in r.stdout and "line of " in r.stdout, r.stderr)
    r = run(tool, "--share", zoo, "--locks", ttas, ttas)
    check("--share with --locks: refused", r.returncode == 1 and "--locks" in r.stderr, r.stderr)

    with tempfile.TemporaryDirectory() as tmp:
        # The differential flame graph: the functions coloured beyond noise are
        # those the table marks changed, by amount (checksum_block alone) and by
        # share (decode_block's share fell as checksum_block's rose).
        for mode in ([], ["--by-share"]):
            svg = os.path.join(tmp, "diff.svg")
            r = run(tool, "--symfs", symfs, *mode, "--flamegraph", svg, base, new)
            frames = re.findall(r'<g class="fg-f" data-d="(\d+)" data-n="([^"]*)"><title>([^<]*)</title>',
                                open(svg).read()) if r.returncode == 0 else []
            beyond = sorted(n for d, n, t in frames if int(d) >= 2 and "beyond sampling noise" in t)
            table = json.loads(run(tool, "--symfs", symfs, *mode, "--format", "json", base, new).stdout)
            marked = sorted(x["symbol"] for x in table["rows"] if x["changed"])
            check(f"flame graph {' '.join(mode) or 'by amount'}: {beyond} beyond noise, as the table",
                  beyond == marked and "checksum_block" in beyond, f"{r.stderr} {beyond} {marked}")
        r = run(tool, "--symfs", symfs, "--flamegraph", os.path.join(tmp, "x"), "-o",
                os.path.join(tmp, "x"), base, new)
        check("flame graph and -o naming one file: refused", r.returncode == 1, r.stderr)
        text = os.path.join(tmp, "notes.txt")
        with open(text, "w") as f:
            f.write("not a recording\n")
        for name, args, code in (
                ("one recording only", [base], 1),
                ("a missing file", [base, os.path.join(tmp, "none.data")], 2),
                ("a text file", [base, text], 3),
                ("an event neither has", ["--event", "no-such-event", base, new], 4),
                ("--wide with JSON", ["--wide", "--format", "json", base, new], 1),
                ("--noise out of range", ["--noise", "0", base, new], 1),
                ("both from standard input", ["-", "-"], 1)):
            r = run(tool, "--symfs", symfs, *args)
            check(f"bad input: {name}: exit {code}, one message",
                  r.returncode == code and r.stderr.startswith("mycl-diff:") and
                  not r.stdout, f"exit {r.returncode}: {r.stderr}")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
