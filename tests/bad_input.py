#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Every class of bad input of doc/input.md's "Bad input" table, made from the
fixtures, with the exit code and the message mycl gives for it.  The test
also reads that table from doc/input.md: a row there without a case here (or
with another exit code or message) fails, and so does a case not in it.
usage: bad_input.py MYCL_HOT MYCL_SHARE DATA_DIR INPUT_MD WORKDIR [--print]"""
import os
import re
import shutil
import struct
import subprocess
import sys

from checks import check, summary

hot, share, data, readme, work = sys.argv[1:6]
printing = "--print" in sys.argv
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
hotloop = open(os.path.join(data, "hotloop.data"), "rb").read()
zdata = open(os.path.join(data, "hotloop.z.data"), "rb").read()
SYMFS = ["--symfs", os.path.join(data, "symfs"), "--buildid-dir", "", "--debug-dir", ""]


def put(name, blob):
    path = os.path.join(work, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(blob)
    return path


def records(blob):
    """(offset, type, size) of each record of a file-mode perf.data's data section."""
    off, size = struct.unpack_from("<QQ", blob, 40)
    end, out = off + size, []
    while off + 8 <= end:
        t, _, s = struct.unpack_from("<IHH", blob, off)
        out.append((off, t, s))
        if s == 0:
            break
        off += s
    return out


def patched(blob, off, fmt, *vals):
    b = bytearray(blob)
    struct.pack_into(fmt, b, off, *vals)
    return bytes(b)


def first(blob, rtype):
    return next(o for o, t, _ in records(blob) if t == rtype)


def zstd(raw):
    return subprocess.run(["zstd", "-19", "-q", "-c"], input=raw, capture_output=True,
                          check=True).stdout


def replace_record(blob, off, new):
    """BLOB with the record at OFF replaced by NEW: data size and feature offsets moved."""
    old = struct.unpack_from("<H", blob, off + 6)[0]
    delta = len(new) - old
    data_off, data_size = struct.unpack_from("<QQ", blob, 40)
    nfeat = sum(bin(b).count("1") for b in blob[72:104])
    b = bytearray(blob[:off] + new + blob[off + old:])
    struct.pack_into("<Q", b, 48, data_size + delta)
    table = data_off + data_size + delta
    for i in range(nfeat):
        o = struct.unpack_from("<Q", b, table + 16 * i)[0]
        struct.pack_into("<Q", b, table + 16 * i, o + delta)
    return bytes(b)


def period_at(blob):
    """Where a SAMPLE record of BLOB (one event) holds its period, from the record's start."""
    attrs_off = struct.unpack_from("<Q", blob, 24)[0]
    st = struct.unpack_from("<Q", blob, attrs_off + 24)[0]
    assert st & (1 << 8), "no PERIOD in the samples"
    # IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU come before PERIOD, 8 bytes each
    return 8 + 8 * sum(1 for bit in (16, 0, 1, 2, 3, 6, 9, 7) if st & (1 << bit))


def period_past(path):
    """hotloop.data with one sample's period 2^63: a damaged record, not 99.9% of the time."""
    off = first(hotloop, 9)
    return put(path, patched(hotloop, off + period_at(hotloop), "<Q", 1 << 63))


def period_overflow(path):
    """hotloop.data whose first sample, its period 2^44 (the most a sample may claim), comes
    2^20 + 8 times: the event's periods sum past 2^64 (42 MB, made here and removed after)."""
    off = first(hotloop, 9)
    size = struct.unpack_from("<H", hotloop, off + 6)[0]
    rec = patched(hotloop[off:off + size], period_at(hotloop), "<Q", 1 << 44)
    return put(path, replace_record(hotloop, off, rec * ((1 << 20) + 8)))


def bomb():
    """hotloop.z.data with its first COMPRESSED record replaced by one holding 200 MB of
    FINISHED_ROUND records squeezed into 17 KB of zstd."""
    frame = zstd(struct.pack("<IHH", 68, 0, 8) * (25 << 20))
    frame += b"\0" * (-len(frame) % 8)
    new = struct.pack("<IHH", 81, 0, 8 + len(frame)) + frame
    return replace_record(zdata, first(zdata, 81), new)


def feature_at(blob, fid):
    """Where feature FID's section starts in BLOB (the table follows the data section)."""
    data_off, data_size = struct.unpack_from("<QQ", blob, 40)
    bits = int.from_bytes(blob[72:104], "little")
    k = bin(bits & ((1 << fid) - 1)).count("1")
    assert bits >> fid & 1, "no feature %d" % fid
    return struct.unpack_from("<Q", blob, data_off + data_size + 16 * k)[0]


def bomb_claimed():
    """The bomb of 200 MB in a file whose COMPRESSED feature claims a 4 GiB ring (mmap_len):
    refused for inflating 1000 times past its compressed bytes, not read to the end."""
    b = bomb()
    return patched(b, feature_at(b, 27) + 16, "<I", 0xffffffff)


def threads_dir(name, cut=0, fifo=False):
    """A perf record --threads directory (threads_synth.py's shape): 'data', data.0, data.1."""
    import threads_synth as ts
    d = os.path.join(work, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "data"), "wb") as f:
        f.write(ts.header_file(ts.comm("worker", 0), {ts.FEAT_DIR_FORMAT: struct.pack("<Q", 1)}))
    for k in (0, 1):
        blob = b"".join(ts.sample(1000 + 2 * t + k) for t in range(100))
        with open(os.path.join(d, f"data.{k}"), "wb") as f:
            f.write(blob[:len(blob) - cut] if k == 0 else blob)
    if fifo:
        os.unlink(os.path.join(d, "data.1"))
        os.mkfifo(os.path.join(d, "data.1"))
    return d


def bad_sections(path):
    """A copy of the fixture binary whose section header table points past the end."""
    elf = bytearray(open(os.path.join(data, "symfs", "mycl-fixtures", "hotloop"), "rb").read())
    struct.pack_into("<Q", elf, 0x28, len(elf) + 4096)       # e_shoff
    return put(path, bytes(elf))


def fixture_elf():
    return open(os.path.join(data, "symfs", "mycl-fixtures", "hotloop"), "rb").read()


def as_core(path):
    """The fixture binary with e_type ET_CORE: what a core dump's header says."""
    elf = bytearray(fixture_elf())
    struct.pack_into("<H", elf, 0x10, 4)                     # e_type = ET_CORE
    return put(path, bytes(elf))


def as_debug_file(path):
    """The fixture binary with its .text made NOBITS, as objcopy --only-keep-debug leaves it."""
    elf = bytearray(fixture_elf())
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3a)
    stroff, = struct.unpack_from("<Q", elf, shoff + shstrndx * shentsize + 0x18)
    for i in range(shnum):
        sh = shoff + i * shentsize
        name, = struct.unpack_from("<I", elf, sh)
        if elf[stroff + name:stroff + name + 6] == b".text\0":
            struct.pack_into("<I", elf, sh + 4, 8)               # sh_type = SHT_NOBITS
    return put(path, bytes(elf))


def as_ar(path):
    """A static library: an ar archive holding the fixture binary as its member."""
    member = fixture_elf()
    head = b"%-16s%-12d%-6d%-6d%-8s%-10d`\n" % (b"hotloop.o/", 0, 0, 0, b"644", len(member))
    return put(path, b"!<arch>\n" + head + member + (b"\n" if len(member) % 2 else b""))


def fifo_symfs():
    """A symfs whose hotloop is a FIFO no one writes: opening it would wait forever."""
    d = os.path.join(work, "fifo-symfs")
    os.makedirs(os.path.join(d, "mycl-fixtures"), exist_ok=True)
    f = os.path.join(d, "mycl-fixtures", "hotloop")
    if not os.path.exists(f):
        os.mkfifo(f)
    return [hot, "--wide", "--symfs", d, "--buildid-dir", "", "--debug-dir", "", "-g",
            os.path.join(data, "hotloop.g.data")]


def damaged_debug():
    """A stripped hotloop under --symfs and, by its build-id in a --debug-dir, its debug file
    cut short (a copy interrupted): said, where it was skipped without a word."""
    root = os.path.join(work, "damaged-debug")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(os.path.join(root, "symfs", "mycl-fixtures"))
    fixture = os.path.join(data, "symfs", "mycl-fixtures", "hotloop")
    subprocess.run(["strip", "-o", os.path.join(root, "symfs", "mycl-fixtures", "hotloop"),
                    fixture], check=True)
    bid = "b95461d259ac09b55eeb6bbd4066540b2fe99606"
    os.makedirs(os.path.join(root, "debug", ".build-id", bid[:2]))
    with open(os.path.join(root, "debug", ".build-id", bid[:2], bid[2:] + ".debug"), "wb") as f:
        f.write(fixture_elf()[:9000])
    return [hot, "--wide", "--symfs", os.path.join(root, "symfs"), "--buildid-dir", "",
            "--debug-dir", os.path.join(root, "debug"), os.path.join(data, "hotloop.data")]


def damaged_binary():
    """The binary itself cut short under --symfs: named as damaged, not as not found."""
    root = os.path.join(work, "damaged-bin", "mycl-fixtures")
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "hotloop"), "wb") as f:
        f.write(fixture_elf()[:9000])
    return [hot, "--wide", "--symfs", os.path.dirname(root), "--buildid-dir", "", "--debug-dir",
            "", os.path.join(data, "hotloop.data")]


def mismatched_symfs():
    """A symfs whose hotloop is another binary (another build-id)."""
    root = os.path.join(work, "symfs-other")
    os.makedirs(os.path.join(root, "mycl-fixtures"))
    shutil.copy(os.path.join(data, "symfs", "mycl-fixtures", "deepstack"),
                os.path.join(root, "mycl-fixtures", "hotloop"))
    return root


attr_size = struct.unpack_from("<Q", hotloop, 16)[0] - 16
attrs_off = struct.unpack_from("<Q", hotloop, 24)[0]


def collide():
    """two-events.data with the second event's ids section pointing at the first's."""
    blob = open(os.path.join(data, "two-events.data"), "rb").read()
    entry = struct.unpack_from("<Q", blob, 16)[0]
    table = struct.unpack_from("<Q", blob, 24)[0]
    ids = blob[table + entry - 16:table + entry]
    return blob[:table + 2 * entry - 16] + ids + blob[table + 2 * entry:]

feat_table = sum(struct.unpack_from("<QQ", hotloop, 40))
def hostile_path():
    return put("dotdot.data", hotloop.replace(b"/mycl-fixtures/hotloop", b"/../../../../etc/hosts"))


def missing_binary():
    return put("missing.data", hotloop.replace(b"/mycl-fixtures/hotloop", b"/nonexistent-dir/hotlp"))


arc_blob = open(os.path.join(data, "archive", "ledger.tar.bz2"), "rb").read()
LEDGER = os.path.join(data, "archive", "ledger.data")
ALONE = ["--symfs", work, "--buildid-dir", "", "--debug-dir", ""]


def archive_of(members, name):
    """A bzip2 tarball of (name, bytes) members."""
    import bz2
    import io
    import tarfile
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as t:
        for n, b in members:
            ti = tarfile.TarInfo(n)
            ti.size = len(b)
            t.addfile(ti, io.BytesIO(b))
    return put(name, bz2.compress(buf.getvalue()))


def archive_bomb():
    import bz2
    import tarfile
    # Of a build-id ledger.data names (the archive's own): others' members are only skipped.
    with tarfile.open(os.path.join(data, "archive", "ledger.tar.bz2")) as t:
        bid = next(m.name.split("/")[-2] for m in t if m.name.endswith("/elf"))
    ti = tarfile.TarInfo("usr/bin/x/" + bid + "/elf")
    ti.size = 5 << 30
    return put("bomb.tar.bz2", bz2.compress(ti.tobuf(tarfile.GNU_FORMAT)))


def arc(path):
    return [hot] + ALONE + ["--archive", path, LEDGER]


def kallsyms_of(text, name):
    """artefact.data (kernel samples) read with the kallsyms TEXT."""
    return [hot, "--wide", "--symfs", os.path.join(data, "symfs"), "--buildid-dir", "",
            "--debug-dir", "", "--kallsyms", put(name, text), os.path.join(data, "artefact.data")]


artefact_kallsyms = open(os.path.join(data, "artefact.kallsyms"), "rb").read()


# Each case: class, how it is made, the command, the exit code, what the output says
# (a piece of stderr or of the report).
CASES = [
    ("wrong magic", "a text file", lambda: [hot, put("text.data", b"hello, not perf data\n" * 8)],
     3, "not a perf.data file: bad magic"),
    ("empty file", "0 bytes", lambda: [hot, put("empty.data", b"")], 3, "empty input"),
    ("truncated header", "the first 60 bytes", lambda: [hot, put("head.data", hotloop[:60])],
     3, "file header is cut short (60 bytes; a perf.data header has 104)"),
    ("truncated record", "cut in the middle of a record",
     lambda: [hot, "--no-summary", put("cut.data", hotloop[:12000])],
     0, "the file is truncated, reading to its last whole record"),
    ("record size 0", "a record's size field set to 0",
     lambda: [hot, put("size0.data", patched(hotloop, records(hotloop)[5][0] + 6, "<H", 0))],
     3, "has size 0 (a record is at least 8 bytes)"),
    ("record size past the end", "the last record claims 65,520 bytes",
     lambda: [hot, put("past.data", patched(hotloop, records(hotloop)[-1][0] + 6, "<H", 0xfff0))],
     0, "claims 65520 bytes, 8 remain: the file is truncated; read up to its last whole record"),
    ("record size damaged inside the file", "a record claims 4,080 bytes, records go on sooner",
     lambda: [hot, put("resync.data", patched(hotloop, records(hotloop)[3][0] + 6, "<H", 0xff0))],
     3, "its size field is corrupt"),
    ("data section past the end", "data.size 1 TB",
     lambda: [hot, put("datasize.data", patched(hotloop, 48, "<Q", 1 << 40))],
     3, "data section claims 1099511627776 bytes"),
    ("attr count that overflows", "attrs.size 2^63",
     lambda: [hot, put("attrs.data", patched(hotloop, 32, "<Q", 1 << 63))],
     3, "attr section at offset 0x78 claims 9223372036854775808 bytes"),
    ("attr size 0", "attr_size 0", lambda: [hot, put("attrsize.data", patched(hotloop, 16, "<Q", 0))],
     3, "gives attr size 0 (expected 80 to 4096)"),
    ("id collision", "two events given the same sample ids",
     lambda: [hot, put("ids.data", collide())],
     0, "their samples cannot be told apart"),
    ("id section past the end", "an event's id section claims 2^40 bytes",
     lambda: [hot, put("idsize.data", patched(hotloop, attrs_off + attr_size + 8, "<Q", 1 << 40))],
     3, "lie outside the file"),
    ("bad feature offset", "the first feature section's offset 2^40",
     lambda: [hot, "--no-summary", put("feat.data", patched(hotloop, feat_table, "<Q", 1 << 40))],
     0, "claims 300 bytes past the end; skipped"),
    ("decompression bomb", "a COMPRESSED record of 17 KB that inflates to 200 MB",
     lambda: [hot, put("bomb.data", bomb())], 3, "refused as a decompression bomb"),
    ("decompression bomb: ring claimed", "the same in a file whose header claims a 4 GiB ring",
     lambda: [hot, put("bomb-claim.data", bomb_claimed())], 3,
     "1000 times their 17"),
    ("directory as input", "a directory", lambda: [hot, work], 3, "is a directory"),
    ("--threads directory: a file cut short", "perf record --threads' directory whose data.0 "
     "ends inside a record", lambda: [hot, threads_dir("cut-dir", cut=13)], 0,
     "data.0: record at offset 0xf78 claims 40 bytes, 27 remain: the file is truncated"),
    ("--threads directory: its 'data' alone", "the header file of such a directory, given "
     "instead of the directory", lambda: [hot, os.path.join(threads_dir("alone-dir"), "data")], 0,
     "the records of its threads are in the data.N files beside it; give the directory"),
    ("--threads directory: a FIFO in it", "such a directory whose data.1 is a FIFO",
     lambda: [hot, threads_dir("fifo-dir", fifo=True)], 3, "data.1 is a FIFO, not a file of records"),
    ("missing input", "a path that does not exist",
     lambda: [hot, os.path.join(work, "nothere.data")], 2, "cannot open: No such file or directory"),
    ("not ELF (mycl-share)", "mycl-share on a perf.data", lambda: [share, os.path.join(data, "hotloop.data")],
     3, "not an ELF file"),
    ("ELF with bad section headers", "mycl-share on a binary whose e_shoff is past the end",
     lambda: [share, bad_sections("badsh.elf")], 3, "not a readable ELF file: its section header table"),
    ("core dump (mycl-share)", "mycl-share on an ELF file whose e_type is ET_CORE",
     lambda: [share, as_core("core.elf")], 3, "a core dump, not a program or library"),
    ("separate debug file (mycl-share)", "mycl-share on a binary whose .text is NOBITS",
     lambda: [share, as_debug_file("only.debug")], 3,
     "a separate debug file (its code sections are empty): give the program or library"),
    ("static library (mycl-share)", "mycl-share on an ar archive of the fixture",
     lambda: [share, as_ar("lib.a")], 3, "a static library (ar archive), not an ELF binary"),
    ("missing binary", "the recording's binary is nowhere",
     lambda: [hot, "--buildid-dir", "", "--debug-dir", "", missing_binary()],
     0, "binary not found; /nonexistent-dir/hotlp not found"),
    ("mismatched binary", "another binary at the recorded path (another build-id)",
     lambda: [hot, "--symfs", mismatched_symfs(), "--buildid-dir", "", "--debug-dir", "",
              os.path.join(data, "hotloop.data")],
     0, "the binary changed since the recording"),
    ("hostile path", "'/../../../../etc/hosts' as a binary's name, with --symfs (more: tests/safety_checks.py)",
     lambda: [hot] + SYMFS + [hostile_path()], 0, "/../../../../etc/hosts not found under --symfs"),
    ("impossible period", "one sample's period set to 2^63",
     lambda: [hot, period_past("period.data")], 0,
     "1 samples claim a period past 2^44 (the first 9223372036854775808)"),
    ("periods that sum past 2^64", "2^20 + 8 samples of period 2^44",
     lambda: [hot, period_overflow("overflow.data")], 3,
     "the periods of event 'cpu-clock:u' sum past 2^64 after"),
    ("output onto the input", "-o naming the recording being read (also --html, --flamegraph; every tool)",
     lambda: [hot, "-o", put("self.data", hotloop), os.path.join(work, "self.data")], 1,
     "is also the recording: writing it would destroy what is read"),
    ("output onto the binary (mycl-share)", "mycl-share -o naming the binary it reads",
     lambda: [share, "-o", put("self.elf", fixture_elf()), put("self.elf", fixture_elf())], 1,
     "is also the binary: writing it would destroy what is read"),
    ("damaged debug file", "the debug file found by build-id cut short (a stripped binary)",
     damaged_debug, 0, "5461d259ac09b55eeb6bbd4066540b2fe99606.debug is damaged (its section "
     "header table"),
    ("damaged binary", "the binary under --symfs cut short", damaged_binary, 0,
     "mycl-fixtures/hotloop is damaged (its section header table"),
    ("FIFO as a binary", "a FIFO at the binary's path (under --symfs; -g unwinds too)",
     fifo_symfs, 0, "hotloop is not a regular file (a FIFO"),
    ("FIFO (mycl-share)", "mycl-share on a FIFO",
     lambda: [share, fifo_symfs()[3] + "/mycl-fixtures/hotloop"], 3,
     "not a regular file (a FIFO), not an ELF binary"),
    ("archive: not a tarball", "--archive given a perf.data",
     lambda: arc(LEDGER), 3, "not a tar archive (perf archive writes a .tar.bz2)"),
    ("archive: truncated", "the first half of a perf archive",
     lambda: arc(put("half.tar.bz2", arc_blob[:len(arc_blob) // 2])), 3,
     "bzip2: the input ends inside a stream (the stream at byte 0)"),
    ("archive: corrupt block", "one byte of a perf archive changed",
     lambda: arc(put("flip.tar.bz2", arc_blob[:5000] + bytes([arc_blob[5000] ^ 0x40]) +
                     arc_blob[5001:])), 3, "bzip2: corrupt data (a block's CRC or its tables do not hold)"),
    ("archive: other compression", "a gzip file",
     lambda: arc(put("z.tar.gz", b"\x1f\x8b\x08\x00" + bytes(60))), 3,
     "gzip-compressed; recompress it"),
    ("archive: not perf's", "a tar.bz2 without PATH/BUILD-ID/elf entries",
     lambda: arc(archive_of([("README", b"hello")], "other.tar.bz2")), 3,
     "no build-id cache entry (PATH/BUILD-ID/elf): not made by perf archive?"),
    ("archive: decompression bomb", "a 98-byte tar.bz2 whose member claims 5 GiB",
     lambda: arc(archive_bomb()), 3, "members inflate past 1024 MiB"),
    ("archive: binary not in it", "a perf archive of another build-id",
     lambda: arc(archive_of([("usr/bin/x/" + "ab" * 20 + "/elf", b"\x7fELF")], "lacks.tar.bz2")),
     0, "not found under --symfs; not in"),
    ("kallsyms: not one", "--kallsyms given a shell script", lambda: kallsyms_of(
        b"#!/bin/sh\necho hello\n", "k.sh"), 1, "not a kallsyms line (ADDRESS TYPE NAME)"),
    ("kallsyms: all addresses 0", "--kallsyms as read without root (kptr_restrict)",
     lambda: kallsyms_of(b"".join(b"0000000000000000" + l[16:] + b"\n"
                                   for l in artefact_kallsyms.splitlines()), "zero.kallsyms"),
     0, "all addresses are 0 (kptr_restrict): no kernel symbols"),
    ("kallsyms: terminal escapes in names", "an ESC sequence in the sampled function's name",
     lambda: kallsyms_of(artefact_kallsyms.replace(b"pvm_irq_enable\n",
                                                   b"pvm_\x1b[2Jirq_enable\n"), "esc.kallsyms"),
     0, "pvm_\\x1b[2Jirq_enable"),
    ("lock rules: not a file", "--lock-rules /dev/null (with or without --locks)",
     lambda: [hot, "--lock-rules", "/dev/null", os.path.join(data, "hotloop.data")],
     1, "/dev/null: cannot read lock rules: not a regular file"),
    ("lock rules: not rules, flat report", "--lock-rules naming a shell script, no --locks",
     lambda: [hot, "--lock-rules", os.path.join(data, "gen.sh"), os.path.join(data, "hotloop.data")],
     1, "not a lock rule (LAYER KIND PATTERN lines)"),
    ("option no view reads", "--lock-rules with --format json, no --locks (also --source-dir, --prefix-map without --annotate or --html)",
     lambda: [hot, "--lock-rules", os.path.join(os.path.dirname(readme), "data", "lock-rules.txt"),
              "--format", "json", os.path.join(data, "hotloop.data")],
     1, "--lock-rules goes with --locks, --html or the text report"),
    ("output onto a full disk", "-o /dev/full (also --flamegraph, --html, --format pprof; every tool)",
     lambda: [hot, "-o", "/dev/full", os.path.join(data, "hotloop.data")],
     5, "writing the report to /dev/full failed: No space left on device"),
    ("output onto a directory", "-o naming a directory (also --flamegraph, --html; every tool)",
     lambda: [hot, "-o", os.path.dirname(put("outdir/x", b"")), os.path.join(data, "hotloop.data")],
     5, "Is a directory"),
    ("diff: events that count different things", "mycl-diff of a cpu-clock recording and a sched_switch one (no --event, no --by-share)",
     lambda: [os.path.join(os.path.dirname(hot), "mycl-diff"), os.path.join(data, "hotloop.g.data"),
              os.path.join(data, "waits.data")],
     1, "they count different things; give --event NAME of an event both recorded, or --by-share"),
    ("--cpu without CPU numbers", "--cpu 0 (also --sort cpu) on a recording without PERF_SAMPLE_CPU",
     lambda: [hot, "--cpu", "0", os.path.join(data, "hotloop.g.data")],
     1, "its samples carry no CPU number (perf record -a, -C or --sample-cpu records one): --cpu cannot use it"),
    ("id list out of range", "--pid 4294967297 (also --tid, --cpu; negative, empty items, ranges backwards)",
     lambda: [hot, "--pid", "4294967297", os.path.join(data, "hotloop.data")],
     1, "--pid takes a comma list of numbers and ranges (0-3) from 0 to 2147483647, not '4294967297'"),
    ("filters that keep nothing", "--comm no-such-command (any filter, any view)",
     lambda: [hot, "--comm", "no-such-command", os.path.join(data, "hotloop.data")],
     4, "none of its 487 samples passes --comm no-such-command"),
    ("empty option value", "-o '' (any option that takes a value, any tool; '' is none for --buildid-dir, --debug-dir)",
     lambda: [hot, "-o", "", os.path.join(data, "hotloop.data")],
     1, "--output needs a value, not ''"),
    ("option given twice", "--sort sym --sort dso (any option that takes a value, any tool)",
     lambda: [hot, "--sort", "sym", "--sort", "dso", os.path.join(data, "hotloop.data")],
     1, "--sort given twice ('sym', then 'dso'): give it once"),
    ("opposite options", "-q -v (also --group --no-group, --children --no-children)",
     lambda: [hot, "-q", "-v", os.path.join(data, "hotloop.data")],
     1, "-q and -v do not go together"),
    ("text option with a document", "--format json --wide (also --no-header, --no-summary; pprof, --folded)",
     lambda: [hot, "--format", "json", "--wide", os.path.join(data, "hotloop.data")], 1,
     "--format json and --wide do not go together: --wide is for the text report"),
    ("option no report reads (mycl-share)", "mycl-share --what-if --line-size 128 (also --arch; --symbol with --all or --max-lines; --disassemble with --format json, --wide, --all, --max-lines; --format json --wide)",
     lambda: [share, "--what-if", "--line-size", "128", os.path.join(data, "share", "server.gcc")],
     1, "--what-if and --line-size do not go together: it shows 64, 128 and 256 bytes, whatever the line size"),
    ("option given twice (mycl-share)", "mycl-share --arch aarch64 --arch x86_64",
     lambda: [share, "--arch", "aarch64", "--arch", "x86_64", os.path.join(data, "share", "truth.aarch64")],
     1, "--arch given twice ('aarch64', then 'x86_64')"),
]


def readme_rows():
    """The rows of doc/input.md's bad-input table: class -> (exit, says)."""
    rows, on = {}, False
    for line in open(readme):
        if line.startswith("<!-- bad-input table"):
            on = True
        elif on and line.startswith("<!-- end"):
            break
        elif on and line.startswith("| ") and not line.startswith("| class") and "---" not in line:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows[cells[0]] = (int(cells[2]), cells[3].strip("`"))
    return rows


if printing:
    print("<!-- bad-input table: tests/bad_input.py checks every row (--print writes it) -->")
    print("| class | made as | exit | what mycl says (part of) |")
    print("|---|---|---|---|")
    for name, how, _, code, says in CASES:
        print(f"| {name} | {how} | {code} | `{says}` |")
    print("<!-- end of the bad-input table -->")
    sys.exit(0)

table = readme_rows()
for name, how, make, code, says in CASES:
    cmd = make()
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=120)
    out = p.stderr + p.stdout
    check(f"{name}: exit {code}", p.returncode == code, f"exit {p.returncode}: {p.stderr[-300:]}")
    check(f"{name}: says '{says}'", says in out, p.stderr[-300:])
    check(f"{name}: one message line at most on stderr when it fails",
          code == 0 or len([l for l in p.stderr.splitlines() if "warning" not in l]) == 1, p.stderr[-400:])
    check(f"{name}: no sanitizer or crash report", "Sanitizer" not in p.stderr and p.returncode >= 0,
          p.stderr[-300:])
    check(f"{name}: doc/input.md's table has this row", table.get(name) == (code, says), table.get(name))
for name in table:
    check(f"doc/input.md row '{name}' is a case here", any(c[0] == name for c in CASES))
if os.path.exists(os.path.join(work, "overflow.data")):
    os.remove(os.path.join(work, "overflow.data"))      # 42 MB
sys.exit(summary())
