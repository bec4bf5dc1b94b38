#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
mycl-share checks:
  - cross-architecture fixtures (aarch64, ppc64le, s390x): the architecture's
    line size, the seed's writer and the switch's reader found by disassembly,
    and both named in the disassembly of the functions that touch them;
  - samples/ttas_mutex laid out as the article's block: the seed's line is
    flagged at 128 and 256 bytes, not at 64;
  - Debian's mariadbd (when installed): the grouping of .dynsym variables into
    lines equals one computed independently from readelf (writable sections,
    less what GNU_RELRO makes read-only once relocated), at 64, 128 and 256
    bytes;
  - the corpus's perf.data.weight_struct: its data addresses bucketed into lines;
  - tests/data/share/chains.c and its recording with call chains: the writers
    of each variable listed by function, and --perf ranking the lines whose
    writers run (on the chains, or sampled) above those the code alone ranks
    first; start-up writers on the chains never count.

usage: share_checks.py MYCL_SHARE DATA_DIR TTAS_MUTEX CORPUS_DIR MYCL_HOT
"""
import json
import os
import re
import shutil
import subprocess
import sys

from checks import check, over_width, summary


def share(tool, *args):
    r = subprocess.run([tool, *args], capture_output=True, text=True, timeout=300)
    return r


def share_json(tool, *args):
    r = share(tool, "--format", "json", *args)
    if r.returncode != 0:
        raise RuntimeError(f"mycl-share {args}: exit {r.returncode}: {r.stderr}")
    return json.loads(r.stdout)


def members(doc):
    out = {}
    for line in doc["lines"]:
        for m in line["members"]:
            out[m["name"]] = (m, line)
    return out


def cross(tool, data):
    want = {"aarch64": ("aarch64", 128), "powerpc64le": ("ppc64", 128), "s390x": ("s390x", 256)}
    for suffix, (arch, size) in want.items():
        path = os.path.join(data, "cross", f"globals.{suffix}")
        doc = share_json(tool, "--all", path)
        m = members(doc)
        check(f"{suffix}: arch {arch}, {size}-byte lines",
              doc["arch"] == arch and doc["line_size"] == size, f"{doc['arch']} {doc['line_size']}")
        seed, line = m["seed_counter"]
        sw, _ = m["search_enabled"]
        # The compilers keep the seed in a register through the loop and store it
        # once after: one store and one load of the seed, one load of the switch.
        check(f"{suffix}: the seed's store and load, the switch's load",
              seed["stores"] == 1 and seed["loads"] == 1 and sw["loads"] == 1 and
              sw["stores"] + sw["rmws"] == 0, f"seed {seed} switch {sw}")
        # _start calls spin once, and the compilers store the seed after the loop:
        # a write while the program runs, not a hot one, so the line is not flagged.
        check(f"{suffix}: seed and switch on one line; the seed's one store runs once",
              "search_enabled" in [x["name"] for x in line["members"]] and
              seed["warm_writes"] == 1 and seed["hot_writes"] == 0 and line["verdict"] == "ok",
              f"{line['verdict']} {seed}")
        spin = share(tool, "--disassemble", "spin", path).stdout
        look = share(tool, "--disassemble", "lookup", path).stdout
        check(f"{suffix}: disassembly names the store and the load",
              "seed_counter write" in spin and "search_enabled read" in look, spin + look)


def ttas(tool, binary):
    flagged = {}
    for size in (64, 128, 256):
        doc = share_json(tool, "--line-size", str(size), binary)
        flagged[size] = any(line["verdict"] != "ok" and
                            "ut_rnd_ulint_counter" in [m["name"] for m in line["members"]]
                            for line in doc["lines"])
    check("ttas_mutex: the seed's line flagged at 128 and 256, not at 64",
          flagged == {64: False, 128: True, 256: True}, str(flagged))
    doc = share_json(tool, "--all", binary)
    seed, _ = members(doc)["ut_rnd_ulint_counter"]
    check("ttas_mutex: the seed's writers found, hot (worker threads, in a loop up the chain)",
          seed["stores"] + seed["rmws"] >= 1 and seed["hot_writes"] >= 1, str(seed))


def readelf_groups(binary, size):
    """Lines -> variable addresses, from readelf alone."""
    secs = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True).stdout
    writable = {}
    for line in secs.splitlines():
        m = re.match(r"\s*\[\s*(\d+)\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S+\s+(\S*)", line)
        if m and "W" in m.group(5) and "T" not in m.group(5) and "X" not in m.group(5):
            writable[int(m.group(1))] = True
    # what the loader makes read-only once relocated (GNU_RELRO: vtables) is no variable
    relro = (0, 0)
    for line in subprocess.run(["readelf", "-lW", binary], capture_output=True,
                               text=True).stdout.splitlines():
        f = line.split()
        if f and f[0] == "GNU_RELRO":
            relro = (int(f[2], 16), int(f[2], 16) + int(f[5], 16))
    syms = subprocess.run(["readelf", "--dyn-syms", "-W", binary], capture_output=True,
                          text=True).stdout
    groups = {}
    for line in syms.splitlines():
        f = line.split()
        if len(f) < 8 or f[3] != "OBJECT" or not f[6].isdigit() or int(f[6]) not in writable:
            continue
        addr, n = int(f[1], 16), int(f[2], 0) if not f[2].startswith("0x") else int(f[2], 16)
        if relro[0] <= addr < relro[1]:
            continue
        for start in {addr & ~(size - 1), (addr + max(n, 1) - 1) & ~(size - 1)}:
            groups.setdefault(start, set()).add(addr)
    return groups


def mariadbd(tool):
    binary = shutil.which("mariadbd") or "/usr/sbin/mariadbd"
    if not os.path.exists(binary):
        print("skip mariadbd: not installed")
        return
    for size in (64, 128, 256):
        doc = share_json(tool, "--all", "--line-size", str(size), "--debug-dir", "", binary)
        ours = {}
        middle = 0
        for line in doc["lines"]:
            start = int(line["start"], 16)
            # (a large variable's line between its first and last, where the code writes it hot,
            # is ours alone: readelf groups a variable by its ends)
            ends = set()
            for m in line["members"]:
                a, n = int(m["address"], 16), max(int(m["size"]), 1)
                if start in (a & ~(size - 1), (a + n - 1) & ~(size - 1)):
                    ends.add(a)
                elif a < start < a + n:
                    middle += 1
            if ends:
                ours[start] = ends
        theirs = readelf_groups(binary, size)
        diff = [k for k in set(ours) | set(theirs) if ours.get(k) != theirs.get(k)]
        check(f"mariadbd: {len(ours)} lines of {size} bytes as readelf groups them", not diff,
              f"{len(diff)} lines differ, e.g. {[hex(k) for k in diff[:3]]}")
    # How long it takes is measured by bench/run.sh, never asserted here.


def weight_struct(tool, corpus, binary):
    path = os.path.join(corpus, "perf_data_converter/src/quipper/testdata/perf.data.weight_struct")
    if not os.path.exists(path):
        print("skip weight_struct: corpus absent")
        return
    doc = share_json(tool, "--perf", path, binary)
    n = sum(b["samples"] for b in doc["data_lines"])
    check("weight_struct: data addresses bucketed into lines",
          doc["data_samples"] == 14 and n == 14 and
          all(int(b["line"], 16) % doc["line_size"] == 0 for b in doc["data_lines"]),
          f"{doc['data_samples']} samples, {n} bucketed")


def copied(tool, data):
    """The recording's binary copied elsewhere under another name: found by build-id."""
    import tempfile
    zoo = os.path.join(data, "symfs", "mycl-fixtures", "locks", "zoo")
    rec = os.path.join(data, "locks", "ttas.fp.data")
    with tempfile.TemporaryDirectory() as d:
        copy = os.path.join(d, "zoo-copied-here")
        shutil.copy(zoo, copy)
        r = share(tool, "--format", "json", "--perf", rec, copy)
        doc = json.loads(r.stdout) if r.returncode == 0 else {}
        check("--perf with a copy of the recorded binary (other path, other name): its samples "
              "found by build-id, no warning", doc.get("binary_samples", 0) > 500 and
              "no sample falls" not in r.stderr, r.stderr[:300] + str(doc.get("binary_samples")))


def why_words(tool, data):
    """Why a write runs, in words: "it is itself a callback", "from main" (not "itself
    callback", "from main main")."""
    zoo = os.path.join(data, "symfs", "mycl-fixtures", "locks", "zoo")
    whys = {w.get("why", "") for ln in share_json(tool, "--all", zoo)["lines"]
            for m in ln["members"] for w in m.get("writers", [])}
    bad = [w for w in whys if "; itself " in w or "main main" in w]
    check("zoo: writers' why in words (it is itself a ..., from main)",
          not bad and any("; it is itself a " in w for w in whys) and
          any(w.endswith("; from main") or "; from main;" in w for w in whys), bad[:3])


TRUTH = ["truth.gcc-O0", "truth.gcc-O2", "truth.clang-O0", "truth.clang-O2", "truth.nopie",
         "truth.static", "truth.aarch64", "truth.ppc64le", "truth.s390x", "truth.i386", "truth.armhf",
         "truth.riscv64", "truth.aarch64-O0", "truth.armhf-O0", "truth.ppc64le-O0",
         "truth.riscv64-Os", "truth.s390x-nopie", "truth.i386-nopie"]
ARCH = {"truth.aarch64": ("aarch64", 128), "truth.ppc64le": ("ppc64", 128),
        "truth.s390x": ("s390x", 256), "truth.i386": ("i386", 64), "truth.armhf": ("arm", 64),
        "truth.riscv64": ("riscv64", 64)}


def truth(tool, data):
    """Ground truth in tests/data/share/truth.c, built eighteen ways."""
    for name in TRUTH:
        path = os.path.join(data, "share", name)
        arch = ARCH.get(name.split("-")[0])
        if arch:
            doc = share_json(tool, path)
            check(f"{name}: the architecture and its line size read from the ELF header",
                  (doc["arch"], doc["line_size"]) == arch, f"{doc['arch']} {doc['line_size']}")
        at = {}
        for size in (64, 128, 256):
            doc = share_json(tool, "--all", "--line-size", str(size), path)
            at[size] = doc
        m = members(at[128])
        seed, seed_line = m["jitter_seed"]
        check(f"{name}: a thread entry found, the program threaded",
              at[64]["threaded"] and at[64]["thread_entries"] >= 1, str(at[64]["thread_entries"]))
        check(f"{name}: the seed written hot (in a loop up the chain from the worker)",
              seed["hot_writes"] >= 1 and "worker" in (seed["hot_path"] or ""), str(seed))
        flagged = {}
        for size in (128, 256):
            mm = members(at[size])
            _, line = mm["jitter_seed"]
            flagged[size] = line["verdict"] != "ok" and \
                "cache_on" in [x["name"] for x in line["members"]]
        check(f"{name}: seed and read-mostly switch flagged together at 128 and 256",
              flagged == {128: True, 256: True}, str(flagged))
        for v in ("boot_mode", "boot_flags"):
            b, _ = m[v]
            check(f"{name}: {v} written at start-up only",
                  b["startup_writes"] >= 1 and b["hot_writes"] + b["warm_writes"] == 0, str(b))
            check(f"{name}: {v}'s writers are start-up code (parse_options, or main it is in)",
                  b["writers"] and all(x["heat"] == "startup" for x in b["writers"]) and
                  writer_names(b) <= {"parse_options", "main"}, str(b["writers"]))
        check(f"{name}: the seed's hot writer listed (next_jitter, or what it is inlined in)",
              writer_names(seed, "hot") & {"next_jitter", "handle_request", "worker"} and
              len(seed["writers"]) == len({x["address"] for x in seed["writers"]}),
              str(seed["writers"]))
        served, sline = members(at[64])["served"]
        check(f"{name}: served is a hot shared counter, alone on its line",
              served["counter_writes"] >= 1 and sline["verdict"] == "hot_counter",
              f"{served} {sline['verdict']}")
        hits, hline = members(at[64])["hits"]
        check(f"{name}: hits[] written through a pointer by a callee: per-thread slots",
              hits["callee_writes"] >= 1 and hits["indexed_writes"] >= 1 and
              hline["verdict"] in ("slots", "writers"), f"{hits} {hline['verdict']}")
        st, sl = members(at[64])["stat_slots"]
        check(f"{name}: stat_slots[] written through the address stats_for() returns: slots",
              st["hot_writes"] >= 1 and st["indexed_writes"] >= 1 and
              sl["verdict"] in ("slots", "writers"), f"{st} {sl['verdict']}")
        names = {x["name"] for l in at[64]["lines"] for x in l["members"]}
        check(f"{name}: thread_local and const data not listed",
              "per_thread_total" not in names and "table_size" not in names, "")
        for size, doc in at.items():
            if size != 64:
                continue
            text = share(tool, "--line-size", str(size), path).stdout
            check(f"{name}: text report within 100 columns", not over_width(text),
                  over_width(text)[:1])
            # '#' opens the head's comment lines only, as in perf's reports: each finding
            # and its rows are data lines
            finds = [ln for ln in text.splitlines() if re.match(r"#? *\d+\. line 0x", ln)]
            rows = [ln for ln in text.splitlines() if re.match(r"#? *[+-]0x[0-9a-f]+ +\d+ ", ln)]
            check(f"{name}: findings and their rows are no comment lines",
                  finds and rows and not any(ln.startswith("#") for ln in finds + rows),
                  (finds + rows)[:2])


def server(tool, data):
    """tests/data/share/server.cc: when a server's code runs."""
    for name in ("server.gcc", "server.clang", "server.gcc-O0"):
        doc = share_json(tool, "--all", os.path.join(data, "share", name))
        m = members(doc)
        mod, _ = m["module_state"]
        check(f"{name}: set-up after a first thread, in a loop over modules: once, not hot",
              mod["hot_writes"] == 0 and mod["warm_writes"] + mod["startup_writes"] >= 1, str(mod))
        conn, _ = m["conns_accepted"]
        check(f"{name}: main's poll loop is a serving loop: its counter is hot",
              conn["hot_writes"] >= 1 and "main" in (conn["hot_path"] or ""), str(conn))
        t, _ = m["Tuning::get()::t"]
        check(f"{name}: a guarded function-local static is written once",
              t["startup_writes"] >= 1 and t["hot_writes"] + t["warm_writes"] == 0, str(t))
        hits, _ = m["stats_hits"]
        check(f"{name}: the workers' writer is hot",
              hits["hot_writes"] >= 1 and "worker" in (hits["hot_path"] or ""), str(hits))
        fb, _ = m["flag_bits"]
        check(f"{name}: a flag only tested (test/cmp on memory) is read, never written",
              fb["stores"] + fb["rmws"] == 0 and fb["loads"] >= 1, str(fb))


def flagged_vars(doc):
    """Names of the variables on lines with a verdict, and their verdicts."""
    out = {}
    for line in doc["lines"]:
        if line["verdict"] != "ok":
            for m in line["members"]:
                out.setdefault(m["name"], set()).add(line["verdict"])
    return out


def hot_writes(name, m, var, what, writes=1):
    """VAR is written WRITES times or more in hot code."""
    x, _ = m[var]
    check(f"{name}: {var} written hot {what}", x["hot_writes"] >= writes, str(x))


def warm_once(name, m, var, what, says, words):
    """VAR is written while threads run but not hot (WHAT), and every warm writer's account
    holds one of WORDS (SAYS)."""
    x, _ = m[var]
    check(f"{name}: {var}, {what}, not hot", x["hot_writes"] == 0 and x["warm_writes"] >= 1, str(x))
    said = [w["why"] for w in x["writers"] if w["heat"] == "warm"]
    check(f"{name}: {var}: {says}", said and all(any(k in w for k in words) for w in said),
          str(said))


def is_hot_counter(name, m, var, what):
    """VAR (of the members M of NAME's report) is written hot and its line a hot shared counter."""
    x, line = m[var]
    check(f"{name}: {var} ({what}) is a hot shared counter",
          x["hot_writes"] >= 1 and line["verdict"] == "hot_counter", f"{x} {line['verdict']}")


def startup_only(name, m, var, what, writes=1):
    """VAR is written WRITES times or more, all before the threads start."""
    x, _ = m[var]
    check(f"{name}: {var} written {what} only", x["startup_writes"] >= writes and
          x["hot_writes"] + x["warm_writes"] == 0, str(x))


def never_written(name, m, var, what):
    x, _ = m[var]
    check(f"{name}: {var} ({what}) not written",
          x["hot_writes"] + x["warm_writes"] + x["startup_writes"] == 0, str(x))


def pool(tool, data):
    """tests/data/share/pool.cc: C++ threads by std::thread, padded and unpadded slots."""
    for name in ("pool.gcc", "pool.clang-O0"):
        path = os.path.join(data, "share", name)
        doc = share_json(tool, "--all", path)
        m = members(doc)
        check(f"{name}: std::thread's state runner is a thread entry",
              doc["threaded"] and doc["thread_entries"] >= 1, str(doc["thread_entries"]))
        pw, _ = m["per_worker"]
        whys = [line["why"] for line in doc["lines"] if line["verdict"] == "slots" and
                "per_worker" in [x["name"] for x in line["members"]]]
        check(f"{name}: per_worker[] (16-byte structs by reference): slots, 16 bytes apart",
              pw["stride"] == 16 and pw["hot_writes"] >= 1 and whys and
              all("16-byte elements" in w for w in whys), f"{pw} {whys}")
        pad, _ = m["padded"]
        fl = flagged_vars(share_json(tool, path))
        check(f"{name}: padded[] (a line per element) written hot but not flagged",
              pad["stride"] == 64 and pad["hot_writes"] >= 1 and "padded" not in fl,
              f"{pad} {fl.get('padded')}")
        for v in ("g_build_tag", "g_config"):
            x, _ = m[v]
            check(f"{name}: {v} written before the threads only (static constructor, options)",
                  x["startup_writes"] >= 1 and x["hot_writes"] + x["warm_writes"] == 0, str(x))
        sd, sl = m["g_shutdown_reason"]
        check(f"{name}: a write after the join is never hot",
              sd["hot_writes"] == 0 and sd["warm_writes"] + sd["startup_writes"] >= 1, str(sd))
        sv, svl = m["g_served"]
        check(f"{name}: g_served (atomic, every request) a hot shared counter",
              sv["hot_writes"] >= 1 and svl["verdict"] == "hot_counter", f"{sv} {svl['verdict']}")
        cfg, _ = m["g_config"]
        if name == "pool.gcc":
            # Without debug info the element sizes come from the code (shl $6, shl $4).
            import tempfile
            with tempfile.TemporaryDirectory() as tmp:
                bare = os.path.join(tmp, "pool.nodebug")
                subprocess.run(["strip", "-g", "-o", bare, path], check=True)
                fl = flagged_vars(share_json(tool, bare))
                nd = members(share_json(tool, "--all", bare))
            check("pool.gcc without debug info: padded[] not flagged, per_worker[] 16 bytes apart",
                  "padded" not in fl and "slots" in fl.get("per_worker", set()) and
                  nd["padded"][0]["elem_size"] == 64 and nd["per_worker"][0]["elem_size"] == 16,
                  f"{fl} {nd['padded'][0]['elem_size']} {nd['per_worker'][0]['elem_size']}")
        check(f"{name}: types from DWARF (clang's DW_OP_addrx too)",
              cfg["type"] == "Config" and pw["type"] == "Slot[8]", f"{cfg['type']} {pw['type']}")


PLAIN = ["plain.gcc-O2", "plain.gcc-O0", "plain.clang-O0", "plain.aarch64", "plain.aarch64-O0",
         "plain.ppc64le", "plain.s390x", "plain.riscv64", "plain.armhf", "plain.i386-O0"]


def plain(tool, data):
    """tests/data/share/plain.c: plain ++ counters are counters on every machine and at -O0."""
    for name in PLAIN:
        path = os.path.join(data, "share", name)
        doc = share_json(tool, "--all", "--line-size", "64", path)
        m = members(doc)
        for v in ("plain_hits", "int_hits"):
            x, line = m[v]
            check(f"{name}: {v} (a plain ++ by every worker) is a hot shared counter",
                  x["counter_writes"] >= 1 and line["verdict"] == "hot_counter",
                  f"{x} {line['verdict']}")
        for v in ("seed", "total"):
            x, line = m[v]
            check(f"{name}: {v} (rewritten from itself, or once after the loop) is no counter",
                  x["counter_writes"] == 0 and line["verdict"] == "ok", f"{x} {line['verdict']}")


def lockword(tool, data):
    """tests/data/share/lockword.c: mutexes written by the C library's lock calls."""
    for name in ("lockword.gcc-O2", "lockword.clang-O0"):
        doc = share_json(tool, "--all", os.path.join(data, "share", name))
        m = members(doc)
        for v in ("table_lock", "lone_lock"):
            x, _ = m[v]
            check(f"{name}: {v}, locked on every request, is written hot by its lock calls",
                  x["hot_writes"] >= 1 and x["atomics"] >= 1 and
                  "lookup" in writer_names(x, "hot"), str(x))
        b, _ = m["boot_lock"]
        check(f"{name}: boot_lock, locked before the threads start, is no hot writer",
              b["hot_writes"] + b["warm_writes"] == 0 and b["startup_writes"] >= 1, str(b))
        for line in doc["lines"]:
            names = {x["name"]: x for x in line["members"]}
            locks = [v for v in ("table_lock", "lone_lock") if v in names]
            if not locks:
                continue
            readers = [n for n, x in names.items() if n not in locks and x["hot_writes"] == 0 and
                       x["runtime_reads"] >= 1 and x["kind"] == "plain"]
            writers = [n for n, x in names.items() if n not in locks and x["hot_writes"] >= 1]
            want = "ok" if not readers and not writers else None
            check(f"{name}: line {line['start']} with {locks} and readers {readers}, writers "
                  f"{writers}: flagged exactly when others share it",
                  line["verdict"] == want if want else line["verdict"] != "ok", line["verdict"])


def ring(tool, data):
    """tests/data/share/ring.c: writers of different threads inside one variable."""
    for name in ("ring.gcc-O2", "ring.clang-O0", "ring.aarch64"):
        path = os.path.join(data, "share", name)
        doc = share_json(tool, "--all", "--line-size", "64", path)
        lines = {}
        for line in doc["lines"]:
            for x in line["members"]:
                lines.setdefault(x["name"], []).append(line)
        rl = [l for l in lines["ring"] if l["verdict"] != "ok"]
        check(f"{name}: ring's head and tail, written by producer and consumer, flagged by member",
              len(rl) == 1 and "ring.head and ring.tail" in rl[0]["why"] and
              "producer" in rl[0]["why"] and "consumer" in rl[0]["why"],
              str([(l["verdict"], l["why"]) for l in lines["ring"]]))
        check(f"{name}: padded_ring (head and tail a line apart) not flagged at 64 bytes",
              all(l["verdict"] == "ok" for l in lines["padded_ring"]),
              str([(l["verdict"], l["why"]) for l in lines["padded_ring"]]))
        bl = lines["both_stats"]
        check(f"{name}: both_stats (both members written by both threads) is no member pair",
              all("members of one variable" not in (l["why"] or "") for l in bl),
              str([(l["verdict"], l["why"]) for l in bl]))


def tasks(tool, data):
    """tests/data/share/tasks.c and tasks.cc: callbacks reached through memory, and what runs once."""
    for name in ("tasks.gcc-O2", "tasks.clang-O0", "tasks.aarch64", "tasks.ppc64le", "tasks.s390x",
                 "tasks.riscv64", "tasks.armhf"):
        doc = share_json(tool, "--all", "--line-size", "64", os.path.join(data, "share", name))
        m = members(doc)
        is_hot_counter(name, m, "requests_served",
                       "a task's handler's, stored by main before the threads")
        for v, what in (("got_hup", "a signal handler"),
                        ("tables_ready", "pthread_once's initialiser"),
                        ("crc_table", "pthread_once's initialiser, in its own loop"),
                        ("worker_ids", "each worker once at its start")):
            x, _ = m[v]
            check(f"{name}: {v}, written by {what}, while threads run but not hot",
                  x["hot_writes"] == 0 and x["warm_writes"] >= 1, str(x))
        x, _ = m["exit_reports"]
        check(f"{name}: exit_reports, written by an exit handler, never while threads run",
              x["hot_writes"] + x["warm_writes"] == 0, str(x))
        whys = {v: " ".join(w["why"] for w in m[v][0]["writers"]) for v in ("got_hup", "tables_ready")}
        check(f"{name}: the writers' account says signal handler and run once",
              "signal handler" in whys["got_hup"] and "run once" in whys["tables_ready"], str(whys))
    for name in ("tasks.g++", "tasks.clang++"):
        doc = share_json(tool, "--all", os.path.join(data, "share", name))
        m = members(doc)
        is_hot_counter(name, m, "g_hits", "a std::function task's")
        startup_only(name, m, "g_config_loaded", "before the pool starts")


def methods(tool, data):
    """tests/data/share/methods.cc: an object's address handed down through methods (-O0)."""
    for name in ("methods.g++-O0", "methods.clang++-O0", "methods.g++-O2"):
        m = members(share_json(tool, "--all", os.path.join(data, "share", name)))
        hot_writes(name, m, "g_server", "by every worker through handle -> record -> add", 2)
        startup_only(name, m, "g_config", "through load -> add (both writes) before the threads",
                     writes=2)


def ptrvar(tool, data):
    """tests/data/share/ptrvar.c: writes through a pointer variable initialised to a global."""
    for name in ("ptrvar.gcc-O2", "ptrvar.nopie", "ptrvar.aarch64", "ptrvar.ppc64le", "ptrvar.s390x",
                 "ptrvar.riscv64"):
        doc = share_json(tool, "--all", "--line-size", "64", os.path.join(data, "share", name))
        m = members(doc)
        is_hot_counter(name, m, "stats_a", "written through cur_stats by every worker")
        c, _ = m["cur_stats"]
        check(f"{name}: cur_stats itself read on every request", c["hot_reads"] >= 1, str(c))
        never_written(name, m, "cur_stats", "the pointer")
        never_written(name, m, "stats_b", "never pointed to")


def modinit(tool, data):
    """tests/data/share/modinit.c: threads started from a module's init handler in a table."""
    for name in ("modinit.gcc-O2", "modinit.clang-O0", "modinit.ppc64le"):
        doc = share_json(tool, "--all", "--line-size", "64", os.path.join(data, "share", name))
        m = members(doc)
        is_hot_counter(name, m, "jobs_done", "a loop of atomic adds in the pool's workers")
        for v in ("opt_verbose", "opt_workers"):
            x, _ = m[v]
            check(f"{name}: {v}, written in main's option loop, never hot",
                  x["hot_writes"] == 0 and x["warm_writes"] + x["startup_writes"] >= 1, str(x))


def thrarg(tool, data):
    """tests/data/share/thrarg.c: the element or struct a thread is handed as its argument."""
    for name in ("thrarg.gcc-O2", "thrarg.clang-O2", "thrarg.gcc-O0", "thrarg.aarch64", "thrarg.ppc64le",
                 "thrarg.s390x", "thrarg.riscv64", "thrarg.armhf"):
        path = os.path.join(data, "share", name)
        fl = flagged_vars(share_json(tool, "--line-size", "64", path))
        check(f"{name}: slots[] (an element handed to each worker, four to a line): slots",
              fl.get("slots") == {"slots"}, str(fl))
        check(f"{name}: padded[] (an element a line) not flagged at 64 bytes", "padded" not in fl,
              str(fl))
        check(f"{name}: shared (one struct handed to every counter thread): a hot shared counter",
              fl.get("shared") == {"hot_counter"}, str(fl))


def tlsptr(tool, data):
    """tests/data/share/tlsptr.c: writes through pointers kept in a thread-local and a global."""
    for name in ("tlsptr.gcc-O2", "tlsptr.clang-O2", "tlsptr.gcc-O0", "tlsptr.aarch64"):
        path = os.path.join(data, "share", name)
        fl = flagged_vars(share_json(tool, "--line-size", "64", path))
        m = members(share_json(tool, "--all", "--line-size", "64", path))
        check(f"{name}: slots[] (each thread's element, through its thread-local pointer): slots",
              fl.get("slots") == {"slots"}, str(fl))
        p, _ = m["padded"]
        check(f"{name}: padded[] written hot through its thread-local pointer, not flagged",
              p["hot_writes"] >= 1 and "padded" not in fl, f"{p} {fl}")
        a, _ = m["stats_a"]
        check(f"{name}: stats_a written on every request through the global pointer active",
              a["hot_writes"] >= 1, str(a))
        check(f"{name}: stats_a a hot shared counter (at -O0 and on aarch64 a load, add and store "
              "through the pointer)", fl.get("stats_a") == {"hot_counter"}, str(fl))
        never_written(name, m, "stats_b", "never pointed to")


def arm_plt(tool, data):
    """armhf: every PLT entry named by its GOT slot (a Thumb caller's entries are 4 bytes longer)."""
    path = os.path.join(data, "share", "tasks.armhf")
    r = subprocess.run(["readelf", "-rW", path], capture_output=True, text=True)
    names = [ln.split()[4].split("@")[0] for ln in r.stdout.splitlines() if "R_ARM_JUMP_SLOT" in ln]
    bad = []
    for n in names:
        out = share(tool, "--disassemble", n + "@plt", path).stdout.splitlines()
        first = out[1].split(":", 1)[1].split() if len(out) > 1 and ":" in out[1] else []
        if first[:2] not in (["bx", "pc"], ["add", "ip,"]) or (first[:2] == ["add", "ip,"] and
                                                               first[2] != "pc,"):
            bad.append((n, out[1:2]))
    check("tasks.armhf: each PLT entry's symbol starts at its entry (bx pc, or add ip, pc)",
          len(names) >= 10 and not bad, f"{len(names)} {bad}")


def accessor(tool, data):
    """tests/data/share/accessor.cc: globals reached through functions returning their address."""
    for name in ("accessor.g++-O0", "accessor.clang++-O0", "accessor.g++-O2"):
        m = members(share_json(tool, "--all", os.path.join(data, "share", name)))
        for v, what in (("g_registry", "registry()->lookups++"), ("stats()::s", "stats().hits")):
            hot_writes(name, m, v, f"through {what}")
        startup_only(name, m, "g_settings", "through settings()->bump() before the threads")


def libwrite(tool, data):
    """tests/data/share/libwrite.c: variables the C library writes for the program."""
    for name in ("libwrite.gcc-O2", "libwrite.clang-O0", "libwrite.aarch64"):
        m = members(share_json(tool, "--all", os.path.join(data, "share", name)))
        hot_writes(name, m, "last_query", "(snprintf into it on every request)")
        startup_only(name, m, "boot_stats", "by memset before the threads")
        n, _ = m["now"]
        check(f"{name}: now, set by clock_gettime once in a timer thread, written but not hot",
              n["warm_writes"] >= 1 and n["hot_writes"] == 0, str(n))


def sigact(tool, data):
    """tests/data/share/sigact.c: function addresses stored into locals (handlers, queued tasks)."""
    for name in ("sigact.gcc-O2", "sigact.gcc-O0", "sigact.clang-O2", "sigact.aarch64"):
        m = members(share_json(tool, "--all", os.path.join(data, "share", name)))
        for v in ("stop_requested", "reloads"):
            x, _ = m[v]
            check(f"{name}: {v}, written by a handler installed with sigaction, not hot",
                  x["hot_writes"] == 0 and x["warm_writes"] >= 1, str(x))
        hot_writes(name, m, "served", "by a task built on main's stack and queued")
        why = " ".join(w["why"] for w in m["reloads"][0]["writers"])
        check(f"{name}: reloads' writer said to be a signal handler", "signal handler" in why, why)


def perreq(tool, data):
    """tests/data/share/perreq.c: repetition without a loop of its own (a thread per request,
    recursion), and the same shapes at start-up or once."""
    for name in ("perreq.gcc-O0", "perreq.gcc-O2", "perreq.clang-O0", "perreq.clang-O2",
                 "perreq.aarch64", "perreq.ppc64le-O0"):
        m = members(share_json(tool, "--all", "--line-size", "64", os.path.join(data, "share", name)))
        is_hot_counter(name, m, "requests_handled", "one-shot threads started by an accept loop")
        x, _ = m["workers_started"]
        check(f"{name}: workers_started, once per thread of a pool started by a counted loop, not hot",
              x["hot_writes"] == 0 and x["warm_writes"] >= 1, str(x))
        hot_writes(name, m, "jobs_done", "in the pool's loop")
        hot_writes(name, m, "tokens_seen", "by a parser's item and list calling each other")
        hot_writes(name, m, "nodes_walked", "by a tree walk calling itself")
        startup_only(name, m, "config_nodes", "by a recursive build before the threads")
        x, _ = m["freed_nodes"]
        check(f"{name}: freed_nodes, by a recursive release run once after the join, not hot",
              x["hot_writes"] == 0, str(x))
        why = " ".join(w["why"] for w in m["requests_handled"][0]["writers"])
        check(f"{name}: requests_handled's writer repeated by main's loop", "loop of main" in why, why)
        hot_writes(name, m, "leaves_counted", "by a leaf count calling itself, in a pool worker")
        hot_writes(name, m, "parity_steps", "by an even/odd pair calling each other, in a pool worker",
                   writes=2)
        why = " ".join(w["why"] for w in m["leaves_counted"][0]["writers"])
        check(f"{name}: leaves_counted's writer said to call itself",
              "count_leaves, which calls itself;" in why, why)
        why = " ".join(w["why"] for w in m["parity_steps"][0]["writers"])
        check(f"{name}: parity_steps' writers said to call each other",
              "is_even, which calls itself through is_odd" in why and
              "is_odd, which calls itself through is_even" in why, why)


def inner(tool, data):
    """tests/data/share/inner.c: a member written hot beside a member only read (one struct)."""
    for name in ("inner.gcc-O2", "inner.gcc-O0", "inner.aarch64", "inner.ppc64le"):
        doc = share_json(tool, "--line-size", "64", os.path.join(data, "share", name))
        flagged = {}
        for line in doc["lines"]:
            if line["verdict"] != "ok":
                for m in line["members"]:
                    flagged.setdefault(m["name"], []).append(line)
        rl = flagged.get("rng", [])
        check(f"{name}: rng.seed written hot beside rng.mode, read hot, named by member",
              len(rl) == 1 and rl[0]["verdict"] == "writer_with_readers" and
              "rng.seed is written" in rl[0]["why"] and "rng.mode" in rl[0]["why"] and
              "move rng.seed out of rng" in rl[0]["fix"], str([(x["verdict"], x["why"]) for x in rl]))
        if name.startswith("inner.gcc"):
            cl = flagged.get("cfg", [])
            check(f"{name}: cfg.hits a hot counter beside cfg.enabled, read hot; cfg whole not the fix",
                  len(cl) == 1 and cl[0]["verdict"] == "hot_counter" and
                  "cfg.hits is a counter" in cl[0]["why"] and "cfg.enabled" in cl[0]["why"] and
                  "kept out of cfg" in cl[0]["fix"], str([(x["verdict"], x["why"]) for x in cl]))
        for v, what in (("tuned", "tuned.level is set while threads run"),
                        ("pair", "both members written"), ("far", "far.enabled is 128 bytes away")):
            bad = [x["why"] for x in flagged.get(v, []) if "read on hot paths and never written" in x["why"]]
            check(f"{name}: {v}: no read-mostly member ({what})", not bad, str(bad))


def sides(tool, data):
    """tests/data/share/sides.c: a counter returned as one of two addresses, written through
    the result and through a struct it is stored in."""
    for name in ("sides.gcc-O2", "sides.gcc-O0", "sides.clang-O2", "sides.clang-O0",
                 "sides.aarch64", "sides.aarch64-O0"):
        m = members(share_json(tool, "--all", os.path.join(data, "share", name)))
        for v in ("tally_left", "tally_right"):
            hot_writes(name, m, v, "through the address side() returns (one of two)")
        never_written(name, m, "step", "read in the loop")


def spin_seed(tool, data):
    """tests/data/locks/backoff.c: the globals a spin-wait writes (InnoDB's inlined
    ut_rnd_ulint_counter; a back-off generator's state in a function the loop calls)."""
    for name in ("backoff.gcc", "backoff.clang", "backoff.clang-O0", "backoff.aarch64"):
        path = os.path.join(data, "locks", name)
        m = members(share_json(tool, "--all", path))
        for v in ("ut_rnd_ulint_counter", "backoff_state"):
            check(f"{name}: {v} written while spinning", m[v][0]["spin_writes"] >= 1, str(m[v][0]))
        others = [k for k, (x, _) in m.items() if x["spin_writes"] and x["kind"] == "plain" and
                  k not in ("ut_rnd_ulint_counter", "backoff_state")]
        check(f"{name}: nothing else the program writes is marked written while spinning",
              not others, str(others))
        text = share(tool, "--all", path).stdout
        row = [ln for ln in text.splitlines() if " ut_rnd_ulint_counter " in ln and
               ln.lstrip().startswith(("+0x", "-0x"))]
        check(f"{name}: the seed's row says spin", row and row[0].rstrip().endswith(" spin"), row)


def picker(tool, data):
    """tests/data/share/picker.c: counters chosen by address (one of two), written through it."""
    names = ("served_even", "served_odd", "spills_even", "spills_odd")
    for name in ("picker.gcc-O2", "picker.gcc-O0", "picker.clang-O2", "picker.clang-O0",
                 "picker.aarch64-O0", "picker.aarch64"):
        doc = share_json(tool, "--all", "--line-size", "64", os.path.join(data, "share", name))
        m = members(doc)
        for v in names:
            hot_writes(name, m, v, "through the address a worker picked (one of two)")
        never_written(name, m, "limit", "read in the loop")
        # counters on one line, written by different threads: writer/writer sharing
        lines = {}
        for v in names:
            lines.setdefault(m[v][1]["start"], []).append(v)
        shared = [vs for vs in lines.values() if len(vs) > 1]
        check(f"{name}: counters sharing a line are flagged as several hot writers",
              shared and all(m[vs[0]][1]["verdict"] == "writers" for vs in shared),
              str({k: (vs, m[vs[0]][1]["verdict"]) for k, vs in lines.items()}))


def lse(tool, data):
    """tests/data/share/lse.c: atomics as LSE instructions capstone 4 cannot decode, or helpers."""
    for name in ("lse.gcc", "lse.aarch64", "lse.aarch64-lse"):
        doc = share_json(tool, "--all", os.path.join(data, "share", name))
        members = {m["name"]: (m, line) for line in doc["lines"] for m in line["members"]}
        for var, what in (("hits", "fetch-and-add"), ("peak", "CAS loop"), ("owner", "exchange")):
            m, line = members.get(var, ({}, {}))
            check(f"{name}: {var} written hot by its {what}", m.get("hot_writes", 0) >= 1,
                  m.get("hot_writes"))
        m, line = members.get("hits", ({}, {}))
        check(f"{name}: hits counted as incremented, its line (sink's too) flagged",
              m.get("counter_writes", 0) >= 1 and line.get("verdict") not in (None, "ok"),
              (m.get("counter_writes"), line.get("verdict")))


def scan_thread(tool, data):
    """The walk on a thread of its own (a large x86_64 .text): the report as without it."""
    for name in ("truth.static", "dispatch.static"):
        path = os.path.join(data, "share", name)
        out = {}
        for mode in ("on", "off"):
            r = subprocess.run([tool, "--format", "json", "--all", path], capture_output=True, text=True,
                               env=dict(os.environ, MYCL_SCAN_THREAD=mode))
            out[mode] = (r.returncode, r.stdout)
        check(f"{name}: the same report with the walk on a thread of its own and without",
              out["on"] == out["off"] and out["on"][0] == 0 and len(out["on"][1]) > 1000,
              (out["on"][0], out["off"][0], len(out["on"][1]), len(out["off"][1])))


def c11ring(tool, data):
    """tests/data/share/c11ring.c: C11 threads; a ring's positions, its slots at a computed index."""
    for name in ("c11ring.gcc-O2", "c11ring.clang-O0", "c11ring.aarch64", "c11ring.ppc64le"):
        doc = share_json(tool, "--all", os.path.join(data, "share", name))
        where = {}
        for line in doc["lines"]:
            for m in line["members"]:
                where.setdefault(m["name"], []).append((m, line))
        (h, hl), (t, tl) = where.get("head_pos", [({}, {})])[0], where.get("tail_pos", [({}, {})])[0]
        check(f"{name}: head_pos and tail_pos, written by the producer and the consumer, one flagged line",
              h.get("hot_writes", 0) >= 1 and t.get("hot_writes", 0) >= 1 and hl is tl and
              hl.get("verdict") not in (None, "ok"), (h.get("hot_writes"), t.get("hot_writes"), hl is tl))
        sl = where.get("slots", [])
        check(f"{name}: slots written hot at a computed index, its lines flagged",
              sl and all(m.get("hot_writes", 0) >= 1 and m.get("indexed_writes", 0) >= 1 for m, _ in sl) and
              any(ln.get("verdict") not in (None, "ok") for _, ln in sl),
              [(m.get("hot_writes"), m.get("indexed_writes"), ln.get("verdict")) for m, ln in sl])
        pw = where.get("per_worker", [({}, {})])[0][0]
        check(f"{name}: per_worker, one counter a worker handed by address, written hot",
              pw.get("hot_writes", 0) >= 1, pw.get("hot_writes"))
        tr = where.get("tracing", [({}, {})])[0][0]
        check(f"{name}: tracing, set by main before the threads, not written hot",
              tr.get("hot_writes", 0) == 0, tr.get("hot_writes"))


def pooled(tool, data):
    """tests/data/share/pooled.c: threads another library starts, joined here."""
    for name in ("pooled.gcc-O2", "pooled.clang-O0", "pooled.aarch64"):
        doc = share_json(tool, "--all", os.path.join(data, "share", name))
        check(f"{name}: threads joined (pthread_join) but started by a library: threaded",
              doc.get("threaded") and doc.get("threads_joined_with") == "pthread_join",
              (doc.get("threaded"), doc.get("threads_joined_with")))
        m, line = members(doc).get("served", ({}, {}))
        check(f"{name}: served, every pooled worker's counter, written hot and flagged",
              m.get("hot_writes", 0) >= 1 and line.get("verdict") not in (None, "ok"),
              (m.get("hot_writes"), line.get("verdict")))
        text = share(tool, os.path.join(data, "share", name)).stdout
        check(f"{name}: the report says where the threads come from",
              "started outside this binary" in text and "pthread_join" in text, text[:300])
    text = re.sub(r"\s*\n#\s+", " ", share(tool, os.path.join(data, "share", "pooled.nojoin")).stdout)
    check("pooled.nojoin: no sign of threads but its own atomic update: said, no line flagged",
          "yet its own code updates served atomically" in text and ", 0 flagged" in text, text[:400])


def spsc(tool, data):
    """tests/data/share/spsc.cc: a ring's two positions written by two threads, a stats singleton."""
    for name in ("spsc.g++-O2", "spsc.clang++-O2", "spsc.g++-O0"):
        doc = share_json(tool, "--all", os.path.join(data, "share", name))
        members = {}
        for line in doc["lines"]:
            for m in line["members"]:
                members[m["name"].split(".")[0] if m["name"].endswith((".0", ".1")) else m["name"]] = (m, line)
        check(f"{name}: no variable shown by its mangled name",
              not [m["name"] for line in doc["lines"] for m in line["members"] if m["name"].startswith("_Z")],
              [m["name"] for line in doc["lines"] for m in line["members"] if m["name"].startswith("_Z")])
        (p, pl), (c, cl) = members.get("prod_pos", ({}, {})), members.get("cons_pos", ({}, {}))
        check(f"{name}: the producer's and the consumer's positions written hot, their shared line flagged",
              p.get("hot_writes", 0) >= 1 and c.get("hot_writes", 0) >= 1 and pl is cl and
              pl.get("verdict") not in (None, "ok"), (p.get("hot_writes"), c.get("hot_writes"),
                                                      pl.get("verdict"), pl is cl))
        s_, sl = members.get("stats()::s", ({}, {}))
        check(f"{name}: the singleton's counters written hot, their line flagged",
              s_.get("hot_writes", 0) >= 1 and sl.get("verdict") not in (None, "ok"),
              (s_.get("hot_writes"), sl.get("verdict")))
        lv, _ = members.get("log_level", ({}, {}))
        check(f"{name}: log_level, set by main before the threads, not written hot",
              lv.get("hot_writes", 0) == 0, lv.get("hot_writes"))
        r, _ = members.get("requests_seen", ({}, {}))
        check(f"{name}: requests_seen, every worker's counter, written hot",
              r.get("hot_writes", 0) >= 1, r.get("hot_writes"))


def span(tool, data):
    """tests/data/share/span.c: variables larger than a line, judged by where their hot writes land."""
    for name in ("span.gcc-O2", "span.clang-O0", "span.aarch64"):
        doc = share_json(tool, "--all", "--line-size", "64", os.path.join(data, "share", name))

        def line_of(var, first):
            for line in doc["lines"]:
                for m in line["members"]:
                    if m["name"] == var and (m["offset"] >= 0) == first:
                        return line
            return None

        def not_for(var, first, what):
            ln = line_of(var, first)
            check(f"{name}: {var}'s {what} line, which no hot write reaches, not flagged for it",
                  ln is not None and (ln["verdict"] == "ok" or var not in ln["why"]),
                  str(ln and (ln["verdict"], ln["why"])))

        def counter_on(var, first, what):
            ln = line_of(var, first)
            check(f"{name}: {var}'s {what} line, with its counter, flagged",
                  ln is not None and ln["verdict"] == "hot_counter" and var in ln["why"],
                  str(ln and (ln["verdict"], ln["why"])))

        not_for("head_hot", False, "last")
        counter_on("head_hot", True, "first")
        not_for("tail_hot", True, "first")
        counter_on("tail_hot", False, "last")
        # the C library writes the mutex somewhere in its 40 bytes, which the debug info
        # gives: the struct's tail line, past the mutex, is not written
        not_for("stack_pool", False, "last")
    # without debug info the mutex's extent is not known: the tail line is kept
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        bare = os.path.join(d, "span.bare")
        subprocess.run(["strip", "-g", "-o", bare, os.path.join(data, "share", "span.gcc-O2")],
                       check=True)
        doc = share_json(tool, "--all", "--line-size", "64", bare)
        tail = [line for line in doc["lines"] for m in line["members"]
                if m["name"] == "stack_pool" and m["offset"] < 0]
        check("span.gcc-O2 without debug info: stack_pool's tail line kept (the mutex's "
              "bytes are not known)", tail and tail[0]["verdict"] != "ok" and
              "stack_pool" in (tail[0]["why"] or ""), str(tail and tail[0]["why"]))


def binlog(tool, data):
    """tests/data/share/binlog.cc: a global object of 1,384 bytes (as MariaDB's mysql_bin_log)
    written through its methods: a mutex at its start (the C library writes it), a counter deep
    inside beside a mode read per request, per-worker slots by index, untouched tails. Judged
    member by member: only the counter's line is flagged, naming the member; no line calls the
    whole object a counter; its other lines, alone, are not flagged."""
    for name in ("binlog.g++-O2", "binlog.clang++-O0", "binlog.aarch64"):
        doc = share_json(tool, "--all", os.path.join(data, "share", name))
        mine = [line for line in doc["lines"] if line["verdict"] != "ok" and
                any(m["name"] == "journal" for m in line["members"])]
        whole = [line["why"] for line in mine if line["why"].startswith("journal is")]
        check(f"{name}: no line says the whole journal is a counter", not whole, str(whole))
        check(f"{name}: at most the counter's line of journal flagged", len(mine) <= 1,
              str([(line["start"], line["why"]) for line in mine]))
        if name == "binlog.clang++-O0":
            continue    # (-O0: the += is a load and a store, no increment)
        ctr = [line for line in mine if line["verdict"] == "hot_counter"]
        check(f"{name}: the line of journal.bytes_written flagged, naming the member",
              len(ctr) == 1 and ctr[0]["why"].startswith("journal.bytes_written is a counter") and
              "journal.mode" in ctr[0]["why"], str(ctr and ctr[0]["why"]))
        check(f"{name}: the evidence counts the writes landing on that line",
              ctr and re.search(r"\d+ hot writes? of \d+ to journal lands? on this line",
                                ctr[0]["evidence"] or ""), str(ctr and ctr[0]["evidence"]))


def rwlatch(tool, data):
    """tests/data/share/rwlatch.c: the program's own reader-writer latch (readers add 1 to its
    word and subtract it again, a writer compares and swaps it) at the start of an object whose
    bucket count every reader reads; an id allocator (fetch_add, and a maximum kept by
    compare-and-swap, never subtracted) on a line of its own.  The latch's line is flagged as a
    hot writer beside read-mostly data, naming the word, not as a counter to shard; the id's
    line stays a counter."""
    for name in ("rwlatch.gcc-O2", "rwlatch.clang-O2", "rwlatch.gcc-O0"):
        doc = share_json(tool, os.path.join(data, "share", name))
        by = {m["name"]: line for line in doc["lines"] for m in line["members"]}
        tbl, ids = by.get("tbl", {}), by.get("ids", {})
        check(f"{name}: the latch's word beside the bucket count: a hot writer, no counter",
              tbl.get("verdict") == "writer_with_readers" and
              (tbl.get("why") or "").startswith("tbl.latch.readers is written on hot paths") and
              "tbl.buckets" in (tbl.get("why") or ""), str((tbl.get("verdict"), tbl.get("why"))))
        check(f"{name}: the id kept by fetch_add and compare-and-swap stays a counter",
              ids.get("verdict") == "hot_counter" and
              (ids.get("why") or "").startswith("ids.next is a counter"),
              str((ids.get("verdict"), ids.get("why"))))


def decode_ahead(tool, data):
    """Capstone's decoding ahead on a second thread (code ranges of 256 KB and more) gives the
    report the decoding in the caller gives, byte for byte."""
    paths = [os.path.join(data, "share", n) for n in ("truth.static", "dispatch.static")]
    paths += [p for p in ("/usr/sbin/mariadbd",) if os.path.exists(p)]
    for path in paths:
        outs = []
        for mode in ("off", "on"):
            r = subprocess.run([tool, "--all", "--format", "json", path], capture_output=True,
                               text=True, timeout=300, env={**os.environ, "MYCL_DECODE_AHEAD": mode})
            outs.append((r.returncode, r.stdout, r.stderr))
        check(f"{os.path.basename(path)}: the same report decoded ahead and in the caller",
              outs[0] == outs[1] and outs[0][0] == 0 and len(outs[0][1]) > 1000,
              f"exit {outs[0][0]} / {outs[1][0]}, {len(outs[0][1])} / {len(outs[1][1])} bytes")


def paced(tool, data):
    """tests/data/share/paced.c, pacedcc.cc: loops that go round only through a sleep."""
    for name in ("paced.gcc-O2", "paced.clang-O0", "paced.aarch64", "pacedcc.g++-O0",
                 "pacedcc.g++-O2"):
        c = name.startswith("pacedcc")
        paced_vars = ("sweeps",) if c else ("flushes", "last_flush", "ticks")
        m = members(share_json(tool, "--all", "--line-size", "64", os.path.join(data, "share", name)))
        for v in paced_vars:
            x, _ = m[v]
            check(f"{name}: {v}, written in a loop paced by a sleep, not hot",
                  x["hot_writes"] == 0 and x["warm_writes"] >= 1, str(x))
        for v in (("served",) if c else ("processed", "requests")):
            hot_writes(name, m, v, "by workers (one backs off with usleep when idle)" if not c
                       else "by the workers' loop")


def napper(tool, data):
    """tests/data/share/napper.c: loops paced by the program's own sleep functions, defined
    after their callers: a nanosleep wrapper, select and poll on no descriptors, a wrapper of a
    wrapper; one that sleeps only when idle, and select on a descriptor, pace nothing."""
    for name in ("napper.gcc-O2", "napper.gcc-O0", "napper.clang-O2", "napper.clang-O0",
                 "napper.aarch64", "napper.ppc64le"):
        m = members(share_json(tool, "--all", "--line-size", "64", os.path.join(data, "share", name)))
        for v, how in (("sweeps", "pace() -> doze_ms() -> nanosleep"),
                       ("last_sweep", "in pace(), after its doze"),
                       ("reaped", "rest_us(): select(0, NULL, NULL, NULL, &t)"),
                       ("last_reap", "rest_us()"), ("beacons", "settle(): poll(NULL, 0, ms)")):
            x, _ = m[v]
            check(f"{name}: {v}, written in a loop paced by {how}, not hot",
                  x["hot_writes"] == 0 and x["warm_writes"] >= 1, str(x))
        hot_writes(name, m, "handled", "by the worker, whose maybe_rest() dozes only when idle")
        hot_writes(name, m, "polled", "by the listener, whose select() waits on a descriptor")


def lazy(tool, data):
    """tests/data/share/lazy.c: flags set once on the request path, each store only on one side
    of a test of the flag itself; beside them stores that repeat on every request."""
    for name in ("lazy.gcc-O2", "lazy.gcc-O0", "lazy.clang-O2", "lazy.clang-O0",
                 "lazy.aarch64-O0", "lazy.aarch64", "lazy.ppc64le"):
        m = members(share_json(tool, "--all", "--line-size", "64", os.path.join(data, "share", name)))
        for v, how in (("tables_ready", "if (!tables_ready) { fill(); tables_ready = 1; }"),
                       ("warned_slow", "a warning given once"),
                       ("spare_buf", "if (spare_buf) { free(spare_buf); spare_buf = NULL; }")):
            warm_once(name, m, v, f"a flag set once ({how})", "its writer says it is set once",
                      ("once: a flag stored only past a test of itself",))
        for v, how in (("batch_fill", "reset to 0 when full, incremented on every request"),
                       ("busy", "1 then 0 around every request"), ("seen", "1 on every request"),
                       ("marked", "1 when another variable says so")):
            hot_writes(name, m, v, f"({how})")
        # fill()'s writes run once too, past the flag's test
        x, _ = m["table"]
        check(f"{name}: table, written by fill() called once past tables_ready's test, not hot",
              x["hot_writes"] == 0 and x["warm_writes"] >= 1, str(x))


def oncecall(tool, data):
    """tests/data/share/oncecall.c: work called once from the request path, behind a flag set
    once (a loader, a double-checked index build and its mutex), beside work behind a flag
    another thread clears and a function called both once and on every request."""
    for name in ("oncecall.gcc-O2", "oncecall.gcc-O0", "oncecall.clang-O2", "oncecall.clang-O0",
                 "oncecall.aarch64", "oncecall.ppc64le"):
        m = members(share_json(tool, "--all", "--line-size", "64", os.path.join(data, "share", name)))
        for v, how in (("cfg_port", "by load_config()"), ("cfg_depth", "by load_config()"),
                       ("cfg_names", "by snprintf in a loop of load_config()"),
                       ("index_keys", "in a loop of build_index()"),
                       ("index_lock", "locked only until the index is built")):
            warm_once(name, m, v, f"written {how} once past a flag set once",
                      "its writer says it runs once past the flag's test",
                      ("called once by", "once: only past the test of a flag set once"))
        for v in ("cfg_loaded", "index_built", "reload_done"):
            x, _ = m[v]
            check(f"{name}: {v}, a flag set once, not hot", x["hot_writes"] == 0 and x["warm_writes"] >= 1,
                  str(x))
        for v, how in (("change_count", "behind a flag the flusher clears again"),
                       ("refreshes", "by refresh(), once behind a flag and on every third request"),
                       ("served", "on every request"),
                       ("dirty", "set behind its test, cleared by the flusher")):
            hot_writes(name, m, v, f"({how})")


def guard(tool, data):
    """tests/data/share/guard.cc: std::lock_guard<std::mutex> on every request (at -O0 the mutex
    reaches pthread_mutex_lock four calls down, kept in the guard's member on the way), threads
    running a member function, static class members and a std::atomic."""
    for name in ("guard.g++-O0", "guard.clang++-O0", "guard.g++-O2", "guard.clang++-O2"):
        m = members(share_json(tool, "--all", "--line-size", "64", os.path.join(data, "share", name)))
        hot_writes(name, m, "app::table_lock", "(std::lock_guard on every request)")
        for v in ("app::Stats::served", "app::Stats::errors", "app::bytes_in"):
            hot_writes(name, m, v, "by the member function the threads run")
        for v in ("app::log_level", "app::table_size", "app::max_bytes"):
            x, _ = m[v]
            check(f"{name}: {v}, set by main before the threads, written at start-up only",
                  x["hot_writes"] == 0 and x["warm_writes"] == 0 and x["startup_writes"] >= 1, str(x))


def spawn(tool, data):
    """tests/data/share/spawn.c: a pool whose workers pthread_create gets from a struct on the
    stack (p->fn), each counting itself in once before its loop; per-thread stats by a
    thread-local id; a spinlock beside its total; a config pointer swapped by a paced reloader."""
    for name in ("spawn.gcc-O0", "spawn.gcc-O2", "spawn.clang-O0", "spawn.clang-O2", "spawn.aarch64"):
        path = os.path.join(data, "share", name)
        doc = share_json(tool, "--all", "--line-size", "64", path)
        m = members(doc)
        for v, how in (("stats", "per request, at a thread-local index"), ("spin", "a spinlock"),
                       ("spin_protected_total", "under the spinlock on every request")):
            hot_writes(name, m, v, f"({how})")
        for v, how in (("cur_cfg", "swapped by a reloader paced by sleep(1)"),
                       ("pool_started", "once, after the pool starts")):
            x, _ = m[v]
            check(f"{name}: {v} ({how}) not hot", x["hot_writes"] == 0, str(x))
        # clang -O0 copies the pool from a constant template (memcpy): the entry is not followed
        if name == "spawn.clang-O0":
            continue
        check(f"{name}: the workers started through pool->fn are thread entries",
              doc.get("thread_entries", 0) >= 2, str(doc.get("thread_entries")))
        x, _ = m["running"]
        check(f"{name}: running, counted once by each worker before its loop, not hot",
              x["hot_writes"] == 0 and x["warm_writes"] >= 1, str(x))


def callonce(tool, data):
    """tests/data/share/callonce.cc: a table built once by std::call_once from the request path
    beside counters every request writes (std::atomic, plain, a function-local static's member,
    a std::mutex and its ring), options parsed before the threads."""
    for name in ("callonce.g++-O2", "callonce.clang++-O2", "callonce.g++-O0", "callonce.clang++-O0"):
        m = members(share_json(tool, "--all", "--line-size", "64", os.path.join(data, "share", name)))
        for v, how in (("g_requests", "a std::atomic, every request"), ("g_errors", "every seventh key"),
                       ("Stats::get()::s", "a function-local static's member, every request"),
                       ("g_qlock", "a std::mutex, every request"), ("g_ring_pos", "under it")):
            hot_writes(name, m, v, f"({how})")
        x, _ = m["g_opts"]
        check(f"{name}: g_opts, parsed by main before the threads, written at start-up only",
              x["hot_writes"] == 0 and x["warm_writes"] == 0 and x["startup_writes"] >= 1, str(x))
        # (inlined: the callable kept in a local, then pthread_once; at -O0 std::call_once<F>
        # is a function of the binary handed build_table)
        warm_once(name, m, "g_table", "built once by std::call_once",
                  "its writer says it runs once", ("initialiser run once",))


def oneloop(tool, data):
    """tests/data/share/oneloop.c: lines written hot by one thread only (main's event loop, a
    sampler started once: nothing shared) beside two threads started once writing one line
    and a pool's shared counter."""
    for name in ("oneloop.gcc-O0", "oneloop.gcc-O2", "oneloop.clang-O0", "oneloop.clang-O2",
                 "oneloop.aarch64"):
        m = members(share_json(tool, "--all", "--line-size", "64", os.path.join(data, "share", name)))
        for v, how in (("ev_processed", "main's event loop, a paced reporter reading it"),
                       ("samples_taken", "a sampler thread started once")):
            x, line = m[v]
            check(f"{name}: {v}, written hot by one thread only ({how}), its line not flagged",
                  x["hot_writes"] >= 1 and line["verdict"] == "ok", f"{x['hot_writes']} {line['verdict']}")
        x, line = m["flushes"]
        check(f"{name}: flushes and compactions, written by two threads started once, share a line",
              line["verdict"] == "writers", line["verdict"])
        x, line = m["pool_hits"]
        check(f"{name}: pool_hits, written by every worker of a pool, flagged",
              line["verdict"] in ("hot_counter", "writers"), line["verdict"])


def tested(tool, data):
    """tests/data/share/tested.c: values workers store only when a test of the variable itself
    lets them (a time stamp 5 s old, a watermark passed, a pointer unset) beside the same kind
    of stores without the test, or under a test of another variable, a counter tested
    against its bound, and stores on both sides of a test of the variable (x86_64: gcc and
    clang, -O0 and -O2)."""
    for name in ("tested.gcc-O0", "tested.gcc-O2", "tested.clang-O0", "tested.clang-O2"):
        m = members(share_json(tool, "--all", "--line-size", "64", os.path.join(data, "share", name)))
        for v, what in (("last_warn", "a time stamp stored when the last is 5 s old"),
                        ("peak_depth", "a watermark stored when passed"),
                        ("scratch", "a buffer pointer stored when unset")):
            warm_once(name, m, v, what, "its writer says it is stored only past a test of itself",
                      ("test of its own value",))
        for v, what in (("last_seen", "(a time stamp on every pass, no test)"),
                        ("last_key", "(under a test of another variable)"),
                        ("capped", "(a counter tested against its bound)"),
                        ("mode_val", "(stored on both sides of a test of itself)")):
            hot_writes(name, m, v, what)
        x, _ = m["total_ops"]
        check(f"{name}: total_ops, folded in once per worker after its loop, written warm",
              x["hot_writes"] == 0 and x["warm_writes"] >= 1, str(x))


def fntable(tool, data):
    """tests/data/share/fntable.c: calls through tables of functions at a computed index. A
    thread's own slot of wstats[] handed to the handler a command table holds, &tallies handed
    to the reporter a table holds: both written hot, wstats' lines flagged; the options
    read from a file before thrd_create, the switches set once and the atexit summary are not
    hot (x86_64 gcc and clang -O0/-O2, non-PIE; aarch64 -O0/-O2)."""
    for name in ("fntable.gcc-O0", "fntable.gcc-O2", "fntable.clang-O0", "fntable.clang-O2",
                 "fntable.nopie", "fntable.aarch64", "fntable.aarch64-O0"):
        doc = share_json(tool, "--all", "--line-size", "64", os.path.join(data, "share", name))
        m = members(doc)
        hot_writes(name, m, "wstats", "by the handler a command table holds, handed the slot",
                   writes=2)
        check(f"{name}: wstats' lines are flagged (per-thread slots, or hot writers)",
              flagged_vars(doc).get("wstats", set()) & {"slots", "writers"},
              str(flagged_vars(doc).get("wstats")))
        hot_writes(name, m, "tallies", "by the reporters a table holds, handed &tallies", writes=2)
        hot_writes(name, m, "xs_state", "(a seed written on every request)")
        x, _ = m["requests_served"]
        check(f"{name}: requests_served, a counter every request adds to, written hot and flagged",
              x["hot_writes"] >= 1 and x["counter_writes"] >= 1 and
              "requests_served" in flagged_vars(doc), str(x))
        for v in ("opt_buckets", "opt_verbose", "opt_name", "lookup_enabled", "tally_mode"):
            startup_only(name, m, v, "before the threads (options, switches set once)")
        x, _ = m["exit_total"]
        check(f"{name}: exit_total, written by the atexit summary, not hot",
              x["hot_writes"] + x["warm_writes"] == 0, str(x))


def thrmember(tool, data):
    """tests/data/share/thrmember.cc: std::thread running a member function on a global object
    (&Worker::run on &workers[i], &Server::loop on &g_server) and functions handed objects
    (run_ctx(&ctxs[i]), run_ref(std::ref(solo[i]))): the object reaches the callable through
    the thread's state, not through a register the code shows. All written hot and flagged; a
    Worker and a Stats no thread runs, and the options, written at start-up only; per-thread
    rows padded to a line each not flagged (g++ and clang++, -O0 and -O2)."""
    for name in ("thrmember.g++-O0", "thrmember.g++-O2", "thrmember.clang++-O0",
                 "thrmember.clang++-O2"):
        doc = share_json(tool, "--all", os.path.join(data, "share", name))
        m, flagged = members(doc), flagged_vars(doc)
        hot_writes(name, m, "workers", "by Worker::run, on each thread's own element", writes=2)
        check(f"{name}: workers' lines are flagged (per-thread slots)",
              flagged.get("workers", set()) & {"slots", "writers"}, str(flagged.get("workers")))
        hot_writes(name, m, "g_server", "by Server::loop's atomic add")
        check(f"{name}: g_server's line is flagged", "g_server" in flagged, str(flagged))
        for v, what in (("spare_worker", "by main, a Worker no thread runs"),
                        ("g_stats", "by a method main calls"), ("g_opts", "options")):
            if v in m:		# (clang -O2 folds some away)
                startup_only(name, m, v, what)
        for v, what in (("ctxs", "by run_ctx, handed &ctxs[i] by std::thread"),
                        ("solo", "by run_ref, handed std::ref(solo[i])")):
            hot_writes(name, m, v, what)
            check(f"{name}: {v}'s lines are flagged", v in flagged, str(flagged))
        hot_writes(name, m, "padded_hits", "(each thread its own line)")
        check(f"{name}: padded_hits, a line per thread, not flagged", "padded_hits" not in flagged,
              str(flagged.get("padded_hits")))


def workq(tool, data):
    """tests/data/share/workq.cc: a std::deque under a std::mutex drained by std::thread
    lambdas. The deque's cursors are pointers push and pop move with an add to memory, like a
    counter's: no counter, and no member of the deque to move out of it (the library's layout);
    the request count, an atomic, is a hot counter; per-worker stats by index flagged as slots;
    a timestamp written per request beside a level read per request flagged; the options
    written at start-up only (g++ and clang++, -O0 and -O2)."""
    for name in ("workq.g++-O0", "workq.g++-O2", "workq.clang++-O0", "workq.clang++-O2"):
        doc = share_json(tool, "--all", os.path.join(data, "share", name))
        m, flagged = members(doc), flagged_vars(doc)
        q, _ = m["queue_items"]
        check(f"{name}: queue_items' cursors (pointers) are not counted as a counter's adds",
              q["counter_writes"] == 0 and "hot_counter" not in flagged.get("queue_items", set()),
              f"{q['counter_writes']} {flagged.get('queue_items')}")
        inner = [line["why"] for line in doc["lines"]
                 if "queue_items._M_" in (line["why"] or "")]
        check(f"{name}: no finding asks to move a member out of the std::deque", not inner,
              str(inner))
        t, _ = m["total_requests"]
        check(f"{name}: total_requests, an atomic add per request, is a hot counter",
              t["hot_writes"] >= 1 and t["counter_writes"] >= 1 and
              flagged.get("total_requests", set()) & {"hot_counter", "writers"},
              f"{t} {flagged.get('total_requests')}")
        hot_writes(name, m, "wstats", "by index, a worker's own element")
        check(f"{name}: wstats' lines are flagged (per-worker slots)",
              flagged.get("wstats", set()) & {"slots", "writers"}, str(flagged.get("wstats")))
        hot_writes(name, m, "last_request_time", "per request")
        _, line = m["last_request_time"]
        beside = [x["name"] for x in line["members"]]
        if "verbose_level" in beside:	# (g++ -O2 lays the two out on two lines)
            check(f"{name}: last_request_time's line, verbose_level on it, is flagged",
                  "writer_with_readers" in flagged.get("last_request_time", set()),
                  str(flagged.get("last_request_time")))
        else:
            check(f"{name}: last_request_time alone on its line ({beside}): not flagged",
                  "last_request_time" not in flagged, str(flagged.get("last_request_time")))
        for v, what in (("config_name", "by the option parser"),
                        ("verbose_level", "by the option parser")):
            startup_only(name, m, v, what)


def lambdas(tool, data):
    """tests/data/share/lambda.cc: std::thread running a lambda capturing an element of a global
    array by reference ([&c] { c.record(k); }) or by pointer ([s] { run_shard(s, n); }), and a
    function object holding one (Pump{&tallies[i], n}): the address reaches the thread inside
    the callable object, copied into its state, and the callable's code loads it back (its
    operator(), inlined into the state's _M_run at -O2, a tail call there). Nothing of the
    three was written before (g++ and clang++, -O0 and -O2)."""
    for name in ("lambda.g++-O0", "lambda.g++-O2", "lambda.clang++-O0", "lambda.clang++-O2"):
        doc = share_json(tool, "--all", os.path.join(data, "share", name))
        m, flagged = members(doc), flagged_vars(doc)
        for v, what in (("counters", "by Counter::record, handed the lambda's reference"),
                        ("tallies", "by Pump::operator(), through the object's pointer")):
            hot_writes(name, m, v, what)
            check(f"{name}: {v}' lines are flagged (per-thread slots)",
                  flagged.get(v, set()) & {"slots", "writers"}, str(flagged.get(v)))
        # (a callee's loop does not make its stores through an address handed to it hot:
        # a loop filling a buffer once a call looks the same, Redis's getRandomHexChars)
        x, _ = m["shards"]
        check(f"{name}: shards written while the threads run, by run_shard",
              x["hot_writes"] + x["warm_writes"] >= 1 and x["startup_writes"] == 0, str(x))
        x, _ = m["verbose"]
        check(f"{name}: verbose, set from argc by main, not written while threads run",
              x["hot_writes"] + x["warm_writes"] == 0, str(x))


def selfcap(tool, data):
    """tests/data/share/selfcap.cc: a method starting its object's workers, with a lambda
    capturing this ([this] { loop(); }) or with a member pointer (std::thread(&Poller::run,
    this)), called by main on globals; and std::async(f, &accs[i]). The object reaches the
    threads as the method's own argument: g_server and g_poller were never written hot, nothing
    flagged (g++ and clang++, -O0 and -O2)."""
    for name in ("selfcap.g++-O0", "selfcap.g++-O2", "selfcap.clang++-O0", "selfcap.clang++-O2"):
        doc = share_json(tool, "--all", os.path.join(data, "share", name))
        m, flagged = members(doc), flagged_vars(doc)
        for v, what in (("g_server", "by Server::loop, on the threads its start() runs"),
                        ("g_poller", "by Poller::run, std::thread(&Poller::run, this)"),
                        ("accs", "by accumulate, run by std::async")):
            hot_writes(name, m, v, what)
            check(f"{name}: {v}'s line is flagged", v in flagged, str(flagged.get(v)))
        x, _ = m["g_server"]
        check(f"{name}: g_server's requests, an atomic add per request, counted as increments",
              x["counter_writes"] >= 1, str(x))


def startfn(tool, data):
    """tests/data/share/startfn.c: threads started by a function handed the object to give
    them (server_start(&g_srv, n) running pthread_create(..., worker, s) for its own argument;
    pool_start(&pools[i], &t) tail-calling pthread_create at -O2, called in main's loop): each
    worker writes through its argument in a loop. Never written hot before; pools' threads
    started in main's loop are more than one (gcc and clang, -O0 and -O2, aarch64)."""
    for name in ("startfn.gcc-O0", "startfn.gcc-O2", "startfn.clang-O0", "startfn.clang-O2",
                 "startfn.aarch64"):
        doc = share_json(tool, "--all", os.path.join(data, "share", name))
        m, flagged = members(doc), flagged_vars(doc)
        hot_writes(name, m, "g_srv", "by worker, through the server its starter was handed")
        check(f"{name}: g_srv's hits, every worker's atomic add, a hot shared counter",
              "hot_counter" in flagged.get("g_srv", set()), str(flagged.get("g_srv")))
        hot_writes(name, m, "pools", "by pool_main, through the pool its starter was handed")
        check(f"{name}: pools' line is flagged (a thread's element each)",
              flagged.get("pools", set()) & {"slots", "writers"}, str(flagged.get("pools")))


def heaparg(tool, data):
    """tests/data/share/heaparg.c: threads handed a struct holding their slot's address
    (a->slot = &slots[i] on the heap, or in an array of structs on the stack; a->slot handed
    to a function): the slots written hot by each thread's loop, their lines flagged; a slot
    main hands the same way to a start-up function, and the options, not written while
    threads run (x86_64 gcc and clang -O0/-O2, aarch64)."""
    for name in ("heaparg.gcc-O0", "heaparg.gcc-O2", "heaparg.clang-O0", "heaparg.clang-O2",
                 "heaparg.aarch64"):
        doc = share_json(tool, "--all", "--line-size", "64", os.path.join(data, "share", name))
        m, flagged = members(doc), flagged_vars(doc)
        for v, what in (("heap_slots", "through a->slot, a struct on the heap"),
                        ("stack_slots", "through a->slot, a struct of an array on the stack"),
                        ("call_slots", "by count(a->slot), a function the thread hands it")):
            hot_writes(name, m, v, what)
            check(f"{name}: {v}'s lines are flagged (per-thread slots)",
                  flagged.get(v, set()) & {"slots", "writers"}, str(flagged.get(v)))
        for v, what in (("boot_slot", "handed in a struct to a start-up function"),
                        ("opt_rounds", "an option")):
            x, _ = m[v]
            check(f"{name}: {v} ({what}) not written while threads run",
                  x["hot_writes"] + x["warm_writes"] == 0, str(x))


def taskctx(tool, data):
    """tests/data/share/taskctx.c: callbacks queued with their context (submit(fn, &ctx)), run
    by a pool as t.fn(t.arg), or stored beside the function into the queue (inlined at -O2):
    the context a thread's loop queues is written hot; a cleanup registered once at start-up
    with its context, and an option, are not (gcc and clang -O0/-O2, aarch64)."""
    for name in ("taskctx.gcc-O0", "taskctx.gcc-O2", "taskctx.clang-O0", "taskctx.clang-O2",
                 "taskctx.aarch64"):
        doc = share_json(tool, "--all", "--line-size", "64", os.path.join(data, "share", name))
        m, flagged = members(doc), flagged_vars(doc)
        for v, what in (("req_stats", "by count_request, queued with &req_stats in a loop"),
                        ("inline_stats", "by count_inline, stored beside &inline_stats")):
            hot_writes(name, m, v, what)
            check(f"{name}: {v}'s line is flagged", v in flagged, str(flagged))
        for v, what in (("final_stats", "the context of a cleanup registered once"),
                        ("opt_tasks", "an option")):
            x, _ = m[v]
            check(f"{name}: {v} ({what}) not written hot", x["hot_writes"] == 0, str(x))


def statenames(tool, data):
    """tests/data/share/statenames.c: functions named like std::thread's state functions but
    cut short, unbalanced, with empty classes: read without harm (exit 0, JSON that parses),
    ws written hot by the one thread that runs (entry's loop)."""
    name = "statenames.gcc-O0"
    r = share(tool, "--all", "--format", "json", os.path.join(data, "share", name))
    try:
        doc = json.loads(r.stdout)
    except ValueError:
        doc = None
    check(f"{name}: hostile state-function names read, exit 0, JSON parses",
          r.returncode == 0 and doc is not None, f"exit {r.returncode}")
    if doc:
        hot_writes(name, members(doc), "ws", "by W::run in the thread's loop")


def loader(tool, data):
    """tests/data/share/loader.c: a loader thread main starts and joins before it starts the
    workers writes at start-up (config: start-up writes only); a loader started while the
    workers run writes while they run (live_config); the workers' counter is hot (gcc and
    clang -O0/-O2, aarch64)."""
    for name in ("loader.gcc-O0", "loader.gcc-O2", "loader.clang-O0", "loader.clang-O2",
                 "loader.aarch64"):
        doc = share_json(tool, "--all", "--line-size", "64", os.path.join(data, "share", name))
        m = members(doc)
        hot_writes(name, m, "served", "(every worker's counter)")
        # (clang -O2 splits each struct into the members read: config.0, live_config.0)
        cfg = "config" if "config" in m else "config.0"
        live = [v for v in ("live_config", "live_config.0", "live_config.1") if v in m]
        startup_only(name, m, cfg, "by the loader joined before the workers start")
        check(f"{name}: live_config, by a loader started while the workers run, written while "
              "threads run", live and max(m[v][0]["hot_writes"] + m[v][0]["warm_writes"]
                                          for v in live) >= 1, str(live))


def disassemble_names(tool, data):
    """--disassemble takes a function as the reports name it, with its parameters, mangled, or
    an unnamed one by its start (as writers lists show it); anything else: exit 4."""
    path = os.path.join(data, "share", "guard.g++-O0")
    want = share(tool, "--disassemble", "app::Server::handle", path).stdout.splitlines()[1:]
    for form in ("app::Server::handle(int)", "_ZN3app6Server6handleEi"):
        r = share(tool, "--disassemble", form, path)
        check(f"--disassemble {form}: the function the report calls app::Server::handle",
              r.returncode == 0 and len(want) > 5 and r.stdout.splitlines()[1:] == want,
              f"exit {r.returncode}, {len(r.stdout)} bytes")
    start = want[0].split(":")[0].strip()
    r = share(tool, "--disassemble", "0x" + start, path)
    check(f"--disassemble 0x{start}: a function by its start",
          r.returncode == 0 and r.stdout.splitlines()[1:] == want, f"exit {r.returncode}")
    for bad in ("0x" + format(int(start, 16) + 1, "x"), "app::Server::nosuch", "0xzz"):
        r = share(tool, "--disassemble", bad, path)
        check(f"--disassemble {bad}: no such function, exit 4 and said",
              r.returncode == 4 and "no function named" in r.stderr, f"exit {r.returncode}")


def virt(tool, data):
    """tests/data/share/virt.cc: virtual calls on a global object, devirtualized from its data."""
    for name in ("virt.g++-O0", "virt.clang++-O0", "virt.g++-O2", "virt.aarch64-O0"):
        m = members(share_json(tool, "--all", "--line-size", "64", os.path.join(data, "share", name)))
        hot_writes(name, m, "g_impl", "by the virtual on_request every worker calls")
        never_written(name, m, "g_spare", "an Impl nothing calls")
        never_written(name, m, "g_handler", "the pointer to g_impl")


def omp(tool, data):
    """tests/data/share/omp.c: OpenMP's parallel loop body runs on the team's threads."""
    for name in ("omp.gcc-O2", "omp.clang-O2"):
        doc = share_json(tool, "--all", os.path.join(data, "share", name))
        m = members(doc)
        h, line = m["hits"]
        check(f"{name}: the outlined parallel body is a thread entry; hits[] are slots",
              doc["threaded"] and doc["thread_entries"] >= 1 and h["hot_writes"] >= 1 and
              line["verdict"] == "slots", f"{doc['thread_entries']} {h} {line['verdict']}")


def dispatch(tool, data):
    """tests/data/share/dispatch.c, static: the C library's objects are not the program's."""
    path = os.path.join(data, "share", "dispatch.static")
    doc = share_json(tool, "--all", path)
    m = members(doc)
    kinds = {x["name"]: x["kind"] for line in doc["lines"] for x in line["members"]}
    fl = flagged_vars(share_json(tool, path))
    check("dispatch.static: get_hits and set_hits, written by the workers' handlers, flagged",
          "writers" in fl.get("get_hits", set()) and "writers" in fl.get("set_hits", set()),
          str(fl))
    lib = [n for n, k in kinds.items() if k == "linked_library"]
    check("dispatch.static: the C library's own objects (malloc's arena) told apart",
          kinds.get("main_arena") == "linked_library" and len(lib) >= 50, f"{len(lib)} {lib[:8]}")
    check("dispatch.static: the program's variables stay its own",
          all(kinds.get(v) == "plain" for v in ("get_hits", "set_hits", "log_level", "banner")),
          str({v: kinds.get(v) for v in ("get_hits", "set_hits", "log_level", "banner")}))
    first = next(line for line in share_json(tool, path)["lines"] if line["verdict"] != "ok")
    check("dispatch.static: the first flagged line is the program's handlers' counters",
          "get_hits" in [x["name"] for x in first["members"]], str(first["members"]))
    text = share(tool, path).stdout
    check("dispatch.static: the report says what it set apart",
          "a library linked in" in text and not doc["static_without_debug_info"], text[-600:])
    blind = os.path.join(data, "share", "truth.static")
    doc = share_json(tool, blind)
    text = share(tool, blind).stdout
    check("truth.static (no debug info): says the C library's objects cannot be set apart",
          doc["static_without_debug_info"] and "cannot be told from the program's" in text,
          text[:800])
    doc = share_json(tool, os.path.join(data, "share", "truth.gcc-O2"))
    check("truth.gcc-O2 (dynamic): no such warning", not doc["static_without_debug_info"], "")


def stripped(tool, data):
    """A program without its symbol table: the stores it cannot name are counted and said."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "truth.stripped")
        subprocess.run(["strip", "--strip-all", "-o", path,
                        os.path.join(data, "share", "truth.gcc-O2")], check=True)
        doc = share_json(tool, path)
        text = share(tool, path).stdout
        check("stripped program: its stores to unnamed data counted and said, with the fix",
              doc["unnamed_writes"] >= 4 and "unseen:" in text and "--debug-dir" in text,
              f"{doc['unnamed_writes']} {text[-400:]}")
        full = share_json(tool, os.path.join(data, "share", "truth.gcc-O2"))
        check("with its symbols: nothing unseen", full["unnamed_writes"] == 0,
              str(full["unnamed_writes"]))


def writer_names(member, heat=None):
    return {w["function"].split(".")[0] for w in member.get("writers", [])
            if heat is None or w["heat"] == heat}


def chains(tool, hot, data):
    """chains.c: what the code alone ranks first is not what runs; the recording's chains say."""
    d = os.path.join(data, "share")
    binary, rec = os.path.join(d, "chains.gcc"), os.path.join(d, "chains.fp.data")
    plain = share_json(tool, "--all", binary)
    weighed = share_json(tool, "--all", "--perf", rec, binary)
    m, w = members(plain), members(weighed)
    check("chains: writers listed by function with their heat",
          writer_names(m["adm_opens"][0], "hot") == {"run_stats"} and
          writer_names(m["req_served"][0], "hot") == {"run_get"} and
          writer_names(m["batches_served"][0], "hot") == {"serve_batch"} and
          writer_names(m["warm_level"][0]) == {"warm_up"} and
          all(x["heat"] == "startup" for x in m["warm_level"][0]["writers"]),
          str({k: m[k][0].get("writers") for k in ("adm_opens", "req_served", "warm_level")}))

    def rank(doc, var):
        flagged = [ln for ln in doc["lines"] if ln["verdict"] != "ok"]
        for i, ln in enumerate(flagged):
            if var in [x["name"] for x in ln["members"]]:
                return i
        return None

    check("chains: the code alone flags the admin counters' line, and ranks it first",
          rank(plain, "adm_opens") == 0, str(rank(plain, "adm_opens")))
    folded = subprocess.run([hot, "--folded", "--no-summary", rec], capture_output=True,
                            text=True).stdout
    check("chains: the recording's chains hold warm_up, serve_batch and run_get, not run_stats",
          all(f in folded for f in (";warm_up ", "serve_batch", "run_get")) and
          "run_stats" not in folded, folded[:300])
    check("chains: with --perf, the lines whose writers run are flagged; the admin line, whose "
          "writer never ran, is not (its counters unrun)",
          rank(weighed, "req_served") is not None and rank(weighed, "batches_served") is not None
          and rank(weighed, "adm_opens") is None and w["adm_opens"][0].get("chain_unseen") and
          not w["req_served"][0].get("chain_unseen"),
          f"{rank(weighed, 'req_served')} {rank(weighed, 'batches_served')} "
          f"{rank(weighed, 'adm_opens')} {w['adm_opens'][0]}")
    bs, bl = w["batches_served"]
    check("chains: batches_served, never sampled itself, is credited by its writer's chains",
          bs["samples"] == 0 and bs["chain_samples"] > 100 and
          bs["chain_writer"].startswith("serve_batch") and
          bl["evidence"].startswith("run: serve_batch"), f"{bs} {bl['evidence']}")
    check("chains: a start-up writer on the chains (warm_up) credits nothing; nor does a writer "
          "that never ran (run_stats)",
          w["warm_level"][0]["chain_samples"] == 0 and
          all(w[v][0]["chain_samples"] == 0 for v in ("adm_opens", "adm_closes", "adm_bytes")),
          str(w["warm_level"][0]))
    text = share(tool, "--perf", rec, binary).stdout
    check("chains: the legend says what unrun means", "unrun hot by the code" in text, text[:900])
    check("chains: text report within 100 columns", not over_width(text), over_width(text)[:1])
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "chains-copied")
        shutil.copy(binary, copy)
        cw = members(share_json(tool, "--all", "--perf", rec, copy))
        check("chains: a copy of the binary under another name gets the same chain credit",
              cw["batches_served"][0]["chain_samples"] == bs["chain_samples"],
              f"{cw['batches_served'][0]['chain_samples']} {bs['chain_samples']}")
    leaf = os.path.join(d, "chains.leaf.data")
    text = share(tool, "--perf", leaf, binary).stdout
    lw = members(share_json(tool, "--all", "--perf", leaf, binary))
    check("chains: a recording without call chains says so, and credits writers by their own "
          "samples only", "a writer counts by its own" in text and "on the call chains of" not in text and
          lw["batches_served"][0]["chain_samples"] < bs["chain_samples"] and
          lw["warm_level"][0]["chain_samples"] == 0, text[:600])


def perconn(tool, data):
    """perconn.c: per-connection writes beside the per-query loop the chains pass."""
    d = os.path.join(data, "share")
    binary = os.path.join(d, "perconn.gcc")
    for rec in ("perconn.fp.data", "perconn.dwarf.data"):
        doc = share_json(tool, "--all", "--perf", os.path.join(d, rec), binary)
        w = members(doc)
        per_conn = [w[v] for v in ("conns_served", "slot_owner")]
        check(f"{rec}: a chain through the query loop is no evidence for the writes outside it",
              all(m["chain_samples"] == 0 and m.get("chain_unseen") for m, _ in per_conn),
              str([m for m, _ in per_conn]))
        check(f"{rec}: the per-connection writers' lines are not flagged as hot",
              all(ln["verdict"] == "ok" for _, ln in per_conn),
              str([(ln["verdict"], ln["evidence"]) for _, ln in per_conn]))
        q, ql = w["queries_done"]
        check(f"{rec}: the per-query counter runs: its writer (a frame the chain lost) credited",
              q["chain_samples"] > 100 and q["chain_writer"] == "run_query" and
              not q.get("chain_unseen") and ql["verdict"] != "ok", f"{q} {ql['verdict']}")


def main():
    tool, data, ttas_bin, corpus, hot = sys.argv[1:6]
    stripped(tool, data)
    why_words(tool, data)
    truth(tool, data)
    server(tool, data)
    pool(tool, data)
    dispatch(tool, data)
    plain(tool, data)
    lockword(tool, data)
    ring(tool, data)
    tasks(tool, data)
    methods(tool, data)
    ptrvar(tool, data)
    modinit(tool, data)
    thrarg(tool, data)
    tlsptr(tool, data)
    arm_plt(tool, data)
    accessor(tool, data)
    libwrite(tool, data)
    sigact(tool, data)
    perreq(tool, data)
    inner(tool, data)
    picker(tool, data)
    spin_seed(tool, data)
    sides(tool, data)
    lse(tool, data)
    spsc(tool, data)
    pooled(tool, data)
    c11ring(tool, data)
    scan_thread(tool, data)
    span(tool, data)
    binlog(tool, data)
    rwlatch(tool, data)
    paced(tool, data)
    napper(tool, data)
    lazy(tool, data)
    oncecall(tool, data)
    spawn(tool, data)
    callonce(tool, data)
    oneloop(tool, data)
    tested(tool, data)
    fntable(tool, data)
    thrmember(tool, data)
    workq(tool, data)
    lambdas(tool, data)
    selfcap(tool, data)
    startfn(tool, data)
    heaparg(tool, data)
    taskctx(tool, data)
    statenames(tool, data)
    loader(tool, data)
    guard(tool, data)
    disassemble_names(tool, data)
    decode_ahead(tool, data)
    virt(tool, data)
    omp(tool, data)
    cross(tool, data)
    ttas(tool, ttas_bin)
    copied(tool, data)
    mariadbd(tool)
    weight_struct(tool, corpus, ttas_bin)
    chains(tool, hot, data)
    perconn(tool, data)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
