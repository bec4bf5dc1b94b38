#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes the small perf archives that seed fuzz_archive into regress/archive:
one build-id cache (a .build-id symlink, PATH/BUILD-ID/elf, a hard-linked
debug, a kallsyms) as plain tar, bzip2, zstd, pax and GNU long names, and two
concatenated bzip2 streams.  usage: archive_seeds.py (from anywhere)"""
import bz2
import io
import os
import subprocess
import tarfile

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "regress", "archive")
elf = open(os.path.join(here, "..", "data", "symfs", "mycl-fixtures", "hotloop"), "rb").read()[:3000]


def tar(members, fmt=tarfile.GNU_FORMAT):
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode="w", format=fmt) as t:
        for name, data, kind in members:
            ti = tarfile.TarInfo(name)
            if kind in ("sym", "link"):
                ti.type = tarfile.SYMTYPE if kind == "sym" else tarfile.LNKTYPE
                ti.linkname = data
                t.addfile(ti)
            else:
                ti.size = len(data)
                t.addfile(ti, io.BytesIO(data))
    return b.getvalue()


bid = "ab" * 20
m = [(".build-id/ab/" + "ab" * 19, "../../usr/bin/x/" + bid, "sym"),
     ("usr/bin/x/" + bid + "/elf", elf, "file"),
     ("usr/bin/x/" + bid + "/debug", "usr/bin/x/" + bid + "/elf", "link"),
     ("[kernel.kallsyms]/" + "cd" * 20 + "/kallsyms",
      b"ffffffff81000000 T _text\nffffffff81000100 T f\n", "file")]
plain = tar(m)
os.makedirs(out, exist_ok=True)
files = {
    "small.tar": plain,
    "small.tar.bz2": bz2.compress(plain, 1),
    "pax-long.tar.bz2": bz2.compress(tar([("deep/" * 40 + n, d, k) for n, d, k in m],
                                         tarfile.PAX_FORMAT), 1),
    "gnu-long.tar.bz2": bz2.compress(tar([("gnu/" * 40 + n, d, k) for n, d, k in m]), 1),
    "two-streams.tar.bz2": bz2.compress(plain[:3072], 1) + bz2.compress(plain[3072:], 1),
    "small.tar.zst": subprocess.run(["zstd", "-q", "-c"], input=plain, capture_output=True,
                                    check=True).stdout,
}
for name, data in files.items():
    open(os.path.join(out, name), "wb").write(data)
