#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
Where the kernel's map ends.  perf's MMAP record for the kernel covers its
text (_text to _etext); the boot CPU's idle stack returns into init text
(start_kernel, x86_64_start_kernel), above _etext, and perf still names those
frames: the kernel's map reaches up to the next map, a module's.  A module's
map ends where its record says.

Writes a perf.data of kernel samples and call chains at addresses in the
kernel's text, above it (init text), in a module, past the module's end and
below the kernel, and in a BPF program a KSYMBOL record names (among the
modules, in no map), with a kallsyms naming a function at each, and checks that
mycl-hot names each frame as perf does (`perf report --kallsyms`), flat and
--children, and the shares of the boot stack's frames.  One difference is
kept: perf also names an address below the kernel's start from kallsyms (it
moves the map's start down to the first symbol it loaded); nothing runs below
_text, and mycl says the address is in no known mapping.

usage: kmap_synth.py MYCL_HOT WORKDIR
"""
import os
import struct
import subprocess
import sys

from checks import perf_spelling
from lbr_synth import pad8, rec, trailer, write_file

KBASE = 0xffffffff81000000
KTEXT = 0x100000            # the MMAP record's length: _text to _etext
MBASE = 0xffffffffc0000000
MLEN = 0x10000
BPF = MBASE + 0x100000      # a BPF program, among the modules, in no map
CTX_KERNEL = (1 << 64) - 128
S_IP, S_TID, S_TIME, S_CALLCHAIN, S_PERIOD = 1, 2, 4, 32, 256
MISC_KERNEL = 1

KALLSYMS = [
    (KBASE - 0x100000, "t", "below_kernel"),
    (KBASE, "T", "_text"),
    (KBASE + 0x1000, "T", "idle_halt"),
    (KBASE + 0x2000, "T", "do_idle_loop"),
    (KBASE + 0x3000, "t", "text_last"),
    (KBASE + KTEXT, "T", "_etext"),
    (KBASE + 0x200000, "T", "boot_start"),
    (KBASE + 0x201000, "T", "boot_entry"),
    (KBASE + 0x202000, "t", "init_last"),
    (MBASE + 0x1000, "t", "mod_work\t[mymod]"),
    (MBASE + 0x2000, "t", "mod_last\t[mymod]"),
    (MBASE + 0x20000, "t", "past_module"),
    (MBASE + 0x21000, "t", "past_last"),
]


def kernel_mmap(start, length, name):
    return rec(1, MISC_KERNEL, struct.pack("<IIQQQ", 0xffffffff, 0, start, length, start) +
               pad8(name + b"\0") + trailer(0xffffffff, 0))


def ksymbol(addr, length, name):
    """A KSYMBOL record (a BPF program, type 1), as perf writes for each JITed program."""
    return rec(17, 0, struct.pack("<QIHH", addr, length, 1, 0) + pad8(name + b"\0") +
               trailer(0xffffffff, 0))


def sample(ip, time, chain):
    body = struct.pack("<QIIQQ", ip, 0, 0, time, 1000)
    body += struct.pack("<Q", len(chain)) + b"".join(struct.pack("<Q", c) for c in chain)
    return rec(9, MISC_KERNEL, body)


def write(path):
    # sample_id_all, ksymbol
    attr = struct.pack("<IIQQQQQIIQQQQIiQIHHIIQ", 1, 128, 0, 1000,
                       S_IP | S_TID | S_TIME | S_CALLCHAIN | S_PERIOD, 0, (1 << 18) | (1 << 22),
                       0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    data = kernel_mmap(KBASE, KTEXT, b"[kernel.kallsyms]_text")
    data += kernel_mmap(MBASE, MLEN, b"/lib/modules/6.1.0/kernel/mymod.ko")
    data += ksymbol(BPF, 0x200, b"bpf_prog_6deef7357e7b4530_sd_fw_egress")
    idle = KBASE + 0x1010
    boot = [KBASE + 0x2040, KBASE + 0x201040, KBASE + 0x200040]
    t = 1
    # The boot CPU's idle: text called from init text.
    for _ in range(40):
        data += sample(idle, t, [CTX_KERNEL, idle] + boot)
        t += 1
    # Init text itself, a module called from text, past the module, below the kernel.
    for ip, chain, n in ((KBASE + 0x201020, [KBASE + 0x200040], 20),
                         (BPF + 0x40, [KBASE + 0x2040], 25),
                         (MBASE + 0x1020, [KBASE + 0x2040], 15),
                         (MBASE + 0x20020, [KBASE + 0x2040], 15),
                         (KBASE - 0x100000 + 0x20, [], 10)):
        for _ in range(n):
            data += sample(ip, t, [CTX_KERNEL, ip] + chain)
            t += 1
    write_file(path, attr, data)


def rows(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    got = {}
    for line in out.splitlines():
        f = line.split()
        if not f or line.startswith("#") or not f[0].endswith("%"):
            continue
        # percentages, then (mycl) a sample count, then dso, [k], symbol
        i = f.index("[k]")
        pcts = tuple(round(float(x.rstrip("%")), 2) for x in f if x.endswith("%"))
        got[(f[i - 1], perf_spelling(f[i - 1], f[i + 1]))] = pcts
    return got


def main():
    hot, work = sys.argv[1:3]
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "kmap.data")
    ksyms = os.path.join(work, "kmap.kallsyms")
    write(path)
    with open(ksyms, "w") as f:
        for a, t, n in KALLSYMS:
            f.write(f"{a:016x} {t} {n}\n")
    ok = True
    for view in ([], ["--children"]):
        perf = rows(["perf", "report", "-i", path, "--kallsyms", ksyms, "--stdio", "--sort",
                     "dso,sym", "--no-children", "-g", "none"] if not view else
                    ["perf", "report", "-i", path, "--kallsyms", ksyms, "--stdio", "--sort",
                     "dso,sym", "--children", "-g", "none"])
        mine = rows([hot, "-q", "--wide", "--kallsyms", ksyms, "--buildid-dir", "", "--debug-dir",
                     "", "--sort", "dso,sym", *view, path])
        name = "children" if view else "flat"
        below = [k for k in mine if k[1].startswith("0x") and int(k[1], 16) < KBASE]
        if len(below) == 1:
            mine[("[kernel.kallsyms]", "below_kernel")] = mine.pop(below[0])
        if perf != mine:
            ok = False
            print(f"FAIL: {name}: perf {sorted(perf.items())}\n      mycl {sorted(mine.items())}")
        else:
            print(f"ok: {name}: {len(mine)} rows as perf")
    # What does not depend on perf: init text named, nothing past the module or below the kernel.
    mine = rows([hot, "-q", "--wide", "--kallsyms", ksyms, "--buildid-dir", "", "--debug-dir", "",
                 "--sort", "dso,sym", "--children", path])
    pct = lambda n: round(100.0 * n / 125, 2)  # noqa: E731
    want = {("[kernel.kallsyms]", "boot_start"): (pct(60), 0.0),
            ("[kernel.kallsyms]", "boot_entry"): (pct(60), pct(20)),
            ("[kernel.kallsyms]", "idle_halt"): (pct(40), pct(40)),
            ("[mymod]", "mod_work"): (pct(15), pct(15)),
            ("bpf_prog_6deef7357e7b4530_sd_fw_egress", "bpf_prog_6deef7357e7b4530_sd_fw_egress"):
            (pct(25), pct(25))}
    for key, pcts in want.items():
        if mine.get(key) != pcts:
            ok = False
            print(f"FAIL: {key}: {mine.get(key)}, wanted {pcts}")
    for key, pcts in (("0xffffffffc0020020", (pct(15), pct(15))),
                      ("0xffffffff80f00020", (pct(10), pct(10)))):
        if mine.get(("[unknown]", key)) != pcts:
            ok = False
            print(f"FAIL: {key}: {mine.get(('[unknown]', key))}, wanted {pcts} as [unknown]")
    print("ok" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
