#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
Timer samples that belong elsewhere, decided from what the recording shows.
With a software clock (cpu-clock, task-clock), a sample that falls while
interrupts are off is taken where they come back on: the kernel functions
that re-enable them hold samples piled on one instruction, whatever they are
called (finish_task_switch.isra.0 and _raw_spin_unlock_irqrestore on common
VM kernels).  Writes recordings of kernel samples with a kallsyms whose names
no list knows, and checks that mycl-hot's artefact warning
  - fires on a software clock when piled functions hold 20% or more, naming
    them with the piled instruction, and leaves out a function whose samples
    spread and one with too few samples to tell;
  - stays quiet on a hardware event (cycles) with the same samples, and when
    the piles hold less than 20%.

usage: artefact_synth.py MYCL_HOT WORKDIR
"""
import json
import os
import struct
import subprocess
import sys

from lbr_synth import pad8, rec, trailer, write_file

KBASE = 0xffffffff81000000
S_IP, S_TID, S_TIME, S_PERIOD = 1, 2, 4, 256
MISC_KERNEL = 1
PID = 4242

KALLSYMS = [
    (KBASE, "T", "_text"),
    (KBASE + 0x1000, "t", "finish_task_switch.isra.0"),
    (KBASE + 0x1400, "T", "_raw_spin_unlock_irqrestore"),
    (KBASE + 0x2000, "T", "checksum_spread"),
    (KBASE + 0x3000, "T", "rarely_sampled"),
    (KBASE + 0x4000, "T", "_etext"),
]


def sample(ip, time):
    return rec(9, MISC_KERNEL, struct.pack("<QIIQQ", ip, PID, PID, time, 1000000))


def write(path, hw_type, spread_extra):
    """cpu-clock (type 1, config 0) or cycles (type 0, config 0), kernel samples only."""
    attr = struct.pack("<IIQQQQQIIQQQQIiQIHHIIQ", hw_type, 128, 0, 1000,
                       S_IP | S_TID | S_TIME | S_PERIOD, 0, (1 << 18),
                       0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    assert len(attr) == 128
    data = rec(3, 0, struct.pack("<II", PID, PID) + pad8(b"server\0") + trailer(PID, 1))
    data += rec(1, MISC_KERNEL, struct.pack("<IIQQQ", 0xffffffff, 0, KBASE, 0x4000, KBASE) +
                pad8(b"[kernel.kallsyms]_text\0") + trailer(0xffffffff, 0))
    ips = ([KBASE + 0x1000 + 0x8d] * 40 + [KBASE + 0x1000 + 0x20] * 2 +
           [KBASE + 0x1400 + 0x1b] * 15 +
           [KBASE + 0x2000 + 4 * (i % 12) for i in range(60 + spread_extra)] +
           [KBASE + 0x3000 + 0x10] * 5)
    for t, ip in enumerate(ips):
        data += sample(ip, 10 + t)
    write_file(path, attr, data)
    return len(ips)


def warning(hot, ksyms, path):
    out = subprocess.run([hot, "-q", "--format", "json", "--kallsyms", ksyms, "--buildid-dir", "",
                          "--debug-dir", "", path], capture_output=True, text=True, check=True)
    ws = [w for w in json.loads(out.stdout)["warnings"] if w["kind"] == "artefact"]
    return ws[0] if ws else None


def main():
    hot, work = sys.argv[1:3]
    os.makedirs(work, exist_ok=True)
    ksyms = os.path.join(work, "artefact.kallsyms")
    with open(ksyms, "w") as f:
        for a, t, n in KALLSYMS:
            f.write(f"{a:016x} {t} {n}\n")
    ok = True

    def check(cond, what):
        nonlocal ok
        ok &= bool(cond)
        print(f"{'ok' if cond else 'FAIL'}: {what}")

    clock = os.path.join(work, "clock.data")
    n = write(clock, 1, 0)
    w = warning(hot, ksyms, clock)
    check(w, "cpu-clock with piled kernel functions: an artefact warning")
    if w:
        msg = w["message"]
        want = 100.0 * (42 + 15) / n
        check(abs(w["share"] - want) < 0.01, f"its share {w['share']:.2f}% is the piles' {want:.2f}%")
        check("finish_task_switch.isra.0+0x8d" in msg and "_raw_spin_unlock_irqrestore+0x1b" in msg,
              f"it names both piles at their instruction: {msg}")
        check("checksum_spread" not in msg and "rarely_sampled" not in msg,
              "a function whose samples spread, and one of 5 samples, are not named")
        check("cycles" in w["fix"], f"with the fix: {w['fix']}")
    cycles = os.path.join(work, "cycles.data")
    write(cycles, 0, 0)
    w = warning(hot, ksyms, cycles)
    check(not w, "cycles (a hardware event) with the same samples: no artefact warning"
          + (f" (got: {w['message']})" if w else ""))
    diluted = os.path.join(work, "diluted.data")
    n = write(diluted, 1, 300)
    w = warning(hot, ksyms, diluted)
    check(not w, f"piles holding {100.0 * 57 / n:.0f}% of cpu-clock (under 20%): no warning"
          + (f" (got: {w['message']})" if w else ""))
    print("ok" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
