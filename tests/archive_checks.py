#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
--archive on the committed perf archive fixture (tests/data/archive: a static,
stripped program recorded from a directory that no longer exists, its binary
and split debug info only in ledger.tar.bz2).

- Symbols come from the archive alone: every sample's function agrees with the
  archive's own symbol table (nm on the member, an independent oracle; perf
  6.1 itself misnames these samples), and the output is byte for byte what
  mycl-hot prints with the same archive unpacked as a build-id cache.
- The same archive repacked as plain tar, zstd, pax and GNU long names, and
  as concatenated bzip2 streams, reads the same.
- mycl-report and mycl-diff take it too; the summary names the member used and
  says when the archive lacks a binary.
- Bad archives get one message naming the file, exit 3 (2 when unreadable);
  nothing is written anywhere (strace).

usage: archive_checks.py MYCL_HOT MYCL_REPORT MYCL_DIFF DATA_DIR WORK_DIR
"""
import bz2
import io
import os
import shutil
import subprocess
import sys
import tarfile

from checks import check, summary


def run(*args, **kw):
    return subprocess.run(list(args), capture_output=True, timeout=300, **kw)


def members(blob):
    """The tarball's members and their data (symlinks kept as they are)."""
    out = []
    with tarfile.open(fileobj=io.BytesIO(blob), mode="r:*") as t:
        for m in t.getmembers():
            data = t.extractfile(m).read() if m.isfile() else None
            out.append((m, data))
    return out


def repack(ms, fmt, rename=None):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=fmt) as t:
        for m, data in ms:
            if rename:
                m.name = rename(m.name)
            t.addfile(m, io.BytesIO(data) if data is not None else None)
    return buf.getvalue()


def func_oracle(elf, ips):
    """Each ip's function from nm of ELF: {name: samples}."""
    syms = []
    for line in run("nm", "-S", "--defined-only", elf).stdout.decode().splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tTwW":
            syms.append((int(f[0], 16), int(f[1], 16), f[3]))
    counts = {}
    for ip in ips:
        name = next((n for a, s, n in syms if a <= ip < a + s), None)
        counts[name] = counts.get(name, 0) + 1
    return counts


def rows(text):
    """mycl-hot's flat rows: {symbol: samples}."""
    out = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 6 and f[0].endswith("%") and f[4] == "[.]":
            out[f[5]] = int(f[1])
    return out


def main():
    hot, report, diff, data, work = sys.argv[1:6]
    adir = os.path.join(data, "archive")
    rec = os.path.join(adir, "ledger.data")
    arc = os.path.join(adir, "ledger.tar.bz2")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    empty = os.path.join(work, "empty")
    os.makedirs(empty)
    # Nothing but the archive: no --symfs copy, no build-id cache, no debug directory.
    only = ["--symfs", empty, "--buildid-dir", "", "--debug-dir", ""]
    blob = open(arc, "rb").read()
    ms = members(blob)

    r = run(hot, rec, *only, "--archive", arc)
    out = r.stdout.decode()
    got = rows(out)
    check("mycl-hot --archive: exit 0", r.returncode == 0, r.stderr.decode())
    check("every sample resolved from the archive alone",
          "100.0% of 536 samples resolved" in out, out[-600:])
    member = next(m.name for m, d in ms if m.name.endswith("/debug"))
    wide = run(hot, rec, *only, "--archive", arc, "--wide").stdout.decode()
    check("the summary names the archive's member symbols came from",
          f"symbols from {arc}:{member}" in wide, wide[-400:])
    r0 = run(hot, rec, *only)
    check("without it the binary is missing (the recorded path exists nowhere)",
          "binary not found" in r0.stdout.decode() and not rows(r0.stdout.decode()).get(
              "ledger_digest"), r0.stdout.decode()[-300:])

    # The oracle: the archive's own symbol table, read by nm, for every sample's ip.
    unpacked = os.path.join(work, "cache")
    with tarfile.open(arc, "r:bz2") as t:
        t.extractall(unpacked)
    dbg = os.path.join(unpacked, member)
    ips = [int(x, 16) for x in run("perf", "script", "-i", rec, "-F", "ip", "-G").stdout.decode().split()]
    want = func_oracle(dbg, ips)
    check(f"functions and counts agree with nm of the archived debug file ({len(ips)} samples)",
          got == want and len(ips) == 536, f"{got} vs {want}")

    # Byte-identical to reading the same files unpacked as a build-id cache.
    for view in ([], ["-g"], ["--children"], ["--annotate=2"], ["--folded"]):
        a = run(hot, rec, *only, "--archive", arc, "--no-summary", *view).stdout
        b = run(hot, rec, "--symfs", empty, "--buildid-dir", unpacked, "--debug-dir", "",
                "--no-summary", *view).stdout
        check(f"{' '.join(view) or 'flat'}: same bytes as the archive unpacked", a == b and a,
              len(a))

    # Other packings of the same members.
    plain = repack(ms, tarfile.GNU_FORMAT)
    variants = {
        "plain tar": plain,
        "pax with long paths": bz2.compress(repack(ms, tarfile.PAX_FORMAT,
                                                   lambda n: "deep/" * 30 + n)),
        "GNU long names": bz2.compress(repack(ms, tarfile.GNU_FORMAT,
                                              lambda n: "gnu/" * 40 + n)),
        "concatenated bzip2 streams": bz2.compress(plain[:len(plain) // 2], 1) +
        bz2.compress(plain[len(plain) // 2:], 9),
    }
    # Made with links followed (tar -h): the files under .build-id/XX/REST/ themselves.
    deref = []
    for m, d in ms:
        if m.isfile():
            bid, kind = m.name.split("/")[-2:]
            t = tarfile.TarInfo(f".build-id/{bid[:2]}/{bid[2:]}/{kind}")
            t.size = m.size
            deref.append((t, d))
    variants["links followed (.build-id/XX/REST/elf)"] = bz2.compress(
        repack(deref, tarfile.GNU_FORMAT))
    if shutil.which("zstd"):
        variants["zstd"] = run("zstd", "-q", "-c", input=plain).stdout
    ref = run(hot, rec, *only, "--archive", arc, "--no-summary").stdout
    for name, v in variants.items():
        p = os.path.join(work, "variant.tar")
        open(p, "wb").write(v)
        r = run(hot, rec, *only, "--archive", p, "--no-summary")
        check(f"{name}: the same report", r.returncode == 0 and r.stdout == ref,
              r.stderr.decode())

    # The other tools.
    r = run(report, rec, *only, "--archive", arc)
    out = r.stdout.decode()
    check("mycl-report --archive: exit 0, the hot function annotated, build facts read",
          r.returncode == 0 and "Annotation of ledger_digest" in out and
          "ledger: GCC" in out and "static" in out, r.stderr.decode() + out[-500:])
    check("mycl-report --archive: false sharing of the binary, shown by its recorded name",
          "mycl-share: /tmp/mycl-archive-" in out and "/proc/self/fd" not in out, out[-800:])
    r = run(diff, rec, rec, "--symfs", empty, "--debug-dir", "", "--archive", f"{arc},{arc}")
    check("mycl-diff --archive BASE,NEW: names resolved", r.returncode == 0 and
          "ledger_digest" in r.stdout.decode(), r.stderr.decode())

    # What the archive lacks, said.
    p = os.path.join(work, "other.tar")
    open(p, "wb").write(repack([(m, d) for m, d in ms], tarfile.GNU_FORMAT,
                               lambda n: n.replace("b198c361", "00000000")))
    out = run(hot, rec, *only, "--archive", p, "--wide").stdout.decode()
    check("an archive without the binary: the summary says it is not in it, and what to do",
          f"not found under --symfs; not in {p} either" in out and
          f"{p} lacks it (it was not in that machine's build-id cache); copy it from where it "
          "ran under --symfs" in out, out[-500:])

    # Bad archives: one message naming the file, exit 3; unreadable: exit 2.
    bad = {
        "truncated": (blob[:len(blob) // 2], 3, "input ends"),
        "a flipped byte": (blob[:5000] + bytes([blob[5000] ^ 0x40]) + blob[5001:], 3, "bzip2"),
        "gzip": (b"\x1f\x8b\x08\x00" + b"\0" * 60, 3, "gzip-compressed"),
        "not a tarball": (open(rec, "rb").read(), 3, "not a tar archive"),
        "a tarball of other files": (repack([(tarfile.TarInfo("README"), None)],
                                            tarfile.GNU_FORMAT), 3, "no build-id cache entry"),
        "tar cut inside a member": (plain[:len(plain) - 200000], 3, "ends inside"),
        "empty": (b"", 3, "empty"),
    }
    # A member that says it is larger than memory should hold: refused at its header.
    # Of a build-id the recording names: other build-ids' members are skipped, not kept.
    wanted = next(m.name.split("/")[-2] for m, _ in members(blob) if m.name.endswith("/elf"))
    hdr = tarfile.TarInfo("usr/bin/x/" + wanted + "/elf")
    hdr.size = 5 << 30
    bad["a 5 GiB member (bomb)"] = (bz2.compress(hdr.tobuf(tarfile.GNU_FORMAT)), 3,
                                    "inflate past")
    for name, (content, code, words) in bad.items():
        p = os.path.join(work, "bad.tar.bz2")
        open(p, "wb").write(content)
        r = run(hot, rec, *only, "--archive", p)
        err = r.stderr.decode().strip()
        check(f"{name}: exit {code}, one line naming the file ({words})",
              r.returncode == code and err.count("\n") == 0 and p in err and words in err and
              not r.stdout, f"{r.returncode} {err!r}")
    # The budget is the user's: --archive-max 1 refuses the 5 GiB claim at 1 MiB; the real
    # archive's members (770 KB) fit in it.
    r = run(hot, rec, *only, "--archive", p, "--archive-max", "1")
    check("--archive-max 1: the claim refused at 1 MiB", r.returncode == 3 and
          "members inflate past 1 MiB" in r.stderr.decode(), r.stderr.decode())
    r = run(hot, rec, *only, "--archive", arc, "--archive-max", "1")
    check("--archive-max 1: the real archive fits", r.returncode == 0 and
          "100.0% of 536 samples resolved" in r.stdout.decode(), r.stderr.decode())
    for name, p, code in (("missing", os.path.join(work, "nope.tar.bz2"), 2),
                          ("a directory", work, 3)):
        r = run(hot, rec, "--archive", p)
        err = r.stderr.decode().strip()
        check(f"{name}: exit {code}, one line naming it", r.returncode == code and p in err and
              err.count("\n") == 0, f"{r.returncode} {err!r}")

    # Nothing written: no file opened for writing, created, renamed or removed.
    if shutil.which("strace"):
        log = os.path.join(work, "strace.txt")
        run("strace", "-f", "-qq", "-o", log, "-e", "trace=%file,%desc", hot, rec, *only,
            "--archive", arc, "-g")
        writes = [x for x in open(log) if ("O_WRONLY" in x or "O_RDWR" in x or "O_CREAT" in x or
                                            "unlink" in x or "rename" in x or "mkdir" in x) and
                  "/dev/tty" not in x]
        memfds = [x for x in open(log) if "memfd_create" in x]
        check("strace: no file opened for writing, created or removed", not writes, writes[:3])
        check("strace: members held in memfds", len(memfds) >= 2, len(memfds))
    return summary()


if __name__ == "__main__":
    sys.exit(main())
