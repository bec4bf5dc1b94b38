#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
An ELF file with a million symbols, made here from the hotloop fixture: its own
symbols, then 1,000,000 functions past the end of its .text (a symbol table
that lies about its section), a function spanning the whole .text around the
real ones, a zero-size global and a weak alias at real functions' starts, and a
name given twice.  The binary keeps its build-id, so hotloop.data's samples
resolve against it under --symfs.  Checks, on any machine:
  - mycl-hot (flat, -g, --annotate) names the rows as perf report does with the
    same --symfs, and as mycl-hot does with the fixture's own symbols (the
    noise past .text, the span, the zero-size and weak ones take no sample from
    the real functions);
  - peak memory stays under 300 MB (the fixture alone: ~25 MB);
  - mycl-share reads it (exit 0) under the same bound.
No timing is asserted.  The 37 MB file is made in WORKDIR and removed after.

usage: bigsyms.py MYCL_HOT MYCL_SHARE DATA_DIR WORKDIR [rss|no-rss]
(no-rss: a sanitizer build, whose memory is ASan's: the bound is not checked)
"""
import os
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, perf_spelling, summary  # noqa: E402

hot, share, data, work = sys.argv[1:5]
measure_rss = (sys.argv[5] if len(sys.argv) > 5 else "rss") == "rss"
NOISE = 1_000_000
RSS_MB = 300


def sections(elf):
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3a)
    hdrs = [list(struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize)) for i in range(shnum)]
    names = hdrs[shstrndx][4]
    out = {}
    for i, h in enumerate(hdrs):
        end = elf.index(b"\0", names + h[0])
        out[elf[names + h[0]:end].decode()] = i
    return shoff, shentsize, hdrs, out


def big_elf(src, dst):
    """SRC with its .symtab and .strtab replaced by ones holding a million more symbols."""
    elf = bytearray(open(src, "rb").read())
    shoff, shentsize, hdrs, idx = sections(elf)
    sym, strt, text = hdrs[idx[".symtab"]], hdrs[idx[".strtab"]], hdrs[idx[".text"]]
    old_syms = bytes(elf[sym[4]:sym[4] + sym[5]])
    old_str = bytes(elf[strt[4]:strt[4] + strt[5]])
    strtab = bytearray(old_str)
    syms = bytearray(old_syms)
    by_name = {}
    for off in range(0, len(old_syms), 24):
        name, info, other, shndx, value, size = struct.unpack_from("<IBBHQQ", old_syms, off)
        if name:
            by_name[old_str[name:old_str.index(b"\0", name)].decode()] = (value, size)

    def add(name, value, size, bind=1, typ=2, shndx=None):
        off = len(strtab)
        strtab.extend(name.encode() + b"\0")
        syms.extend(struct.pack("<IBBHQQ", off, bind << 4 | typ, 0,
                                idx[".text"] if shndx is None else shndx, value, size))

    text_lo, text_hi = text[3], text[3] + text[5]
    add("span_of_text", text_lo, text_hi - text_lo)                 # around every function
    add("zero_at_checksum", by_name["checksum.constprop.0"][0], 0)  # sized beats zero-sized
    add("weak_mix_hash", *by_name["mix_hash"], bind=2)              # weak alias of a local
    add("cmp_u32", 0x1000000, 16)                                   # a name given twice
    for i in range(NOISE):                                          # past .text: a table that lies
        add("noise_%d" % i, 0x100000 + 16 * i, 16)
    while len(elf) % 8:
        elf.append(0)
    sym_off = len(elf)
    elf.extend(syms)
    str_off = len(elf)
    elf.extend(strtab)
    while len(elf) % 8:
        elf.append(0)
    new_shoff = len(elf)
    for i, h in enumerate(hdrs):
        if i == idx[".symtab"]:
            h = h[:4] + [sym_off, len(syms)] + h[6:]
        elif i == idx[".strtab"]:
            h = h[:4] + [str_off, len(strtab)] + h[6:]
        elf.extend(struct.pack("<IIQQQQIIQQ", *h))
    struct.pack_into("<Q", elf, 0x28, new_shoff)
    with open(dst, "wb") as f:
        f.write(elf)


def rows(text):
    """(percent, symbol) of each row of a flat text report (comm, dso, sym)."""
    out = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 5 and parts[0].endswith("%") and not line.startswith("#"):
            out.append((parts[0], perf_spelling(parts[-3], parts[-1])))
    return out


def peak(cmd):
    """(exit code, stdout, peak RSS in MB) of CMD; RSS 1 when not measured (no-rss)."""
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True,
                       errors="replace")
    try:
        rss = int(p.stderr.strip().splitlines()[-1]) / 1024
    except (ValueError, IndexError):
        rss = -1
    return p.returncode, p.stdout, rss if measure_rss else 1


os.makedirs(work, exist_ok=True)
symfs = os.path.join(work, "symfs")
shutil.rmtree(symfs, ignore_errors=True)
os.makedirs(os.path.join(symfs, "mycl-fixtures"))
fixture = os.path.join(data, "symfs", "mycl-fixtures", "hotloop")
big = os.path.join(symfs, "mycl-fixtures", "hotloop")
big_elf(fixture, big)
_, _, _hdrs, _idx = sections(open(big, "rb").read())
nsyms = _hdrs[_idx[".symtab"]][5] // 24
check(f"the binary holds a million symbols more ({nsyms} in .symtab)", nsyms > NOISE, nsyms)
rec = os.path.join(data, "hotloop.data")
common = ["--buildid-dir", "", "--debug-dir", "", "--no-header", "--no-summary", "-q"]
try:
    rc, big_out, rss = peak([hot, "--symfs", symfs] + common + [rec])
    check(f"mycl-hot, flat: exit 0, peak RSS {rss:.0f} MB under {RSS_MB} MB",
          rc == 0 and 0 < rss < RSS_MB, (rc, rss))
    _, own_out, _ = peak([hot, "--symfs", os.path.join(data, "symfs")] + common + [rec])
    check("the rows are those the fixture's own symbols give (noise, span, zero-size and "
          "weak symbols take no sample from the real functions)",
          rows(big_out) == rows(own_out), (rows(big_out)[:6], rows(own_out)[:6]))
    perf = subprocess.run(["perf", "report", "-i", rec, "--stdio", "--symfs", symfs,
                           "--no-children", "--sort", "comm,dso,sym"],
                          capture_output=True, text=True, errors="replace")
    if perf.returncode == 0:
        # One difference, on purpose: where a zero-size global starts at a sized function,
        # perf 6.1 names the zero-size one (its symbols__fixup_end gives the sized symbol the
        # next one's start, the same address, before the duplicates are chosen between);
        # mycl names the function that has a size.
        want = [(p, "checksum.constprop.0" if s == "zero_at_checksum" else s)
                for p, s in rows(perf.stdout)]
        check("the same rows as perf report --symfs on this binary (the oracle), but the "
              "zero-size label", rows(big_out) == want, (rows(big_out)[:6], want[:6]))
    for view in (["-g"], ["--annotate=2"], ["--locks"]):
        rc, _, rss = peak([hot, "--symfs", symfs] + common + view + [rec])
        check(f"mycl-hot {view[0]}: exit 0, peak RSS {rss:.0f} MB under {RSS_MB} MB",
              rc == 0 and 0 < rss < RSS_MB, (rc, rss))
    rc, out, rss = peak([share, "--debug-dir", "", big])
    check(f"mycl-share: exit 0, peak RSS {rss:.0f} MB under {RSS_MB} MB",
          rc == 0 and 0 < rss < RSS_MB, (rc, rss, out[-300:]))
finally:
    shutil.rmtree(symfs, ignore_errors=True)
sys.exit(summary())
