#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
The folder READMEs of src/ against the code: each README's last line, "Calls: A B" (or
"Calls: nothing"), must name exactly the folders whose code the folder's files use: the
folders of the private headers they include, and the folders that define the public
functions (MYCL_API mycl_...) they call.  Each README's lines are at most 100 columns.

usage: layers_check.py SRC_DIR
"""
import os
import re
import sys

from checks import check, summary


def files(d):
    return [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith((".c", ".h"))]


def main():
    src = sys.argv[1]
    folders = sorted(f for f in os.listdir(src) if os.path.isdir(os.path.join(src, f)))
    header_of = {}
    api_of = {}
    text = {}
    for d in folders:
        for p in files(os.path.join(src, d)):
            header_of.setdefault(os.path.basename(p), d)
            text[p] = open(p, errors="replace").read()
            for m in re.finditer(r"MYCL_API\s[^;{]*?\b(mycl_\w+)\s*\(", text[p]):
                api_of[m.group(1)] = d
    for d in folders:
        used = set()
        for p in files(os.path.join(src, d)):
            for h in re.findall(r'#include "([\w.]+)"', text[p]):
                if h in header_of:
                    used.add(header_of[h])
            for fn in re.findall(r"\b(mycl_\w+)\s*\(", text[p]):
                if fn in api_of:
                    used.add(api_of[fn])
        used.discard(d)
        readme = os.path.join(src, d, "README")
        lines = open(readme).read().splitlines() if os.path.exists(readme) else []
        calls = [ln for ln in lines if ln.startswith("Calls: ")]
        said = set(calls[-1][7:].split()) - {"nothing"} if calls else None
        check(f"{d}/README says what the folder calls: {sorted(used)}",
              said is not None and said == used,
              f"README says {sorted(said) if said is not None else 'nothing (no Calls: line)'}")
        long = [ln for ln in lines if len(ln) > 100]
        check(f"{d}/README within 100 columns", lines and not long, long[:1])
    return summary()


if __name__ == "__main__":
    sys.exit(main())
