#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes a C file defining SYMBOL as the text of INPUT (so data files ship inside the library)."""
import sys

src, out, sym = sys.argv[1:4]
text = open(src, encoding="utf-8").read()
with open(out, "w", encoding="utf-8") as f:
    f.write(f"/* Generated from {src.split('/')[-1]} by embed.py. */\nconst char {sym}[] =\n")
    for line in text.splitlines(True):
        f.write('\t"' + line.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"\n')
    f.write(";\n")
