#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes a C file defining SYMBOL as the text of INPUT, NUL-terminated (data files ship inside the library)."""
import sys

src, out, sym = sys.argv[1:4]
data = open(src, "rb").read() + b"\0"
with open(out, "w", encoding="utf-8") as f:
    f.write(f"/* Generated from {src.split('/')[-1]} by embed.py. */\n")
    f.write(f"extern const char {sym}[];\nconst char {sym}[] = {{\n")
    for i in range(0, len(data), 16):
        f.write("\t" + ", ".join(f"0x{b:02x}" for b in data[i:i + 16]) + ",\n")
    f.write("};\n")
