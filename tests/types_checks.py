#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
Data types: the object behind each memory operand, from DWARF and the code.
  - tests/data/types: inventory.c (a ledger read beside counters written through
    a pointer, per-worker slots, a union, bit fields, an anonymous member, a packed
    struct, a flexible array) and depot.cc (a class with a base, a template member,
    an atomic latch reached through this, a std::vector of records), built by gcc
    and clang at -O0 and -O2 and for aarch64: mycl-share --disassemble names each
    access as the source writes it, on every build, at the instruction that makes it;
  - the same binary with its debug info stripped names nothing and says why;
  - inventory.data, a cpu-clock recording of the gcc -O2 build: --sort type and
    typeoff add up to the event, the rows are the source's members, JSON carries
    type, member, offset and size; --annotate names the member beside the
    instruction and says how much of the function's time it names.

  - mycl-diff --types: the recording against itself compares struct members, none changed.
  - faults.data, page faults of faults.c with data addresses (perf record -d): each sample
    named by the variable its address falls in (what the code cannot name: an embedded
    link's container), checked against the code's naming; heap addresses keep it; a list
    head initialised in .data to point at itself is read as what it points to then.

usage: types_checks.py MYCL_HOT MYCL_SHARE DATA_DIR WORKDIR
"""
import json
import os
import shutil
import subprocess
import sys

from checks import check, summary


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=300)


def accesses(share, binary, func):
    """(instruction text, the note) of each line of --disassemble FUNC with a note."""
    r = run(share, "--disassemble", func, binary)
    out = []
    for line in r.stdout.splitlines():
        if "  # " in line and ":  " in line:
            insn, note = line.split(":  ", 1)[1].split("  # ", 1)
            out.append((insn.strip(), note.strip()))
        elif out and line.startswith("   ") and line.strip().startswith("# "):
            # a long note folded under itself (the 100-column view)
            out[-1] = (out[-1][0], out[-1][1] + " " + line.strip()[2:])
    return r.returncode, out


def exprs(notes):
    return {n.split(" ")[0] for _, n in notes}


# What each function's code touches, as the source writes it: on every build.
PICK = ["l->naisles", "l->aisles", "l->aisles[i]", "l->requests", "s->next", "s->sku",
        "l->tally", "l->tally->picked", "l->tally->restocked", "l->stamp.half.lo",
        "l->last_sku", "s->qty", "inbox->len"]
DEPOT_SERVE = ["b->meter.hits", "b->ring.cells[i]", "b->spares", "b->spares[i]",
               "b->spares[i]->misses"]
DEPOT_ENTER = ["this->word._M_i", "this->waits"]


def main():
    hot, share, data, work = sys.argv[1:5]
    types = os.path.join(data, "types")
    symfs = os.path.join(data, "symfs")
    os.makedirs(work, exist_ok=True)

    for build in ("gcc-O2", "gcc-O0", "clang-O2", "aarch64-O2"):
        binary = os.path.join(types, "inventory." + build)
        rc, notes = accesses(share, binary, "pick")
        got = exprs(notes)
        want = PICK
        if build == "clang-O2":
            # clang loads s->qty and inbox->len with one instruction that both paths reach
            # (rax = s + 4 or inbox + 1): no single name is right for it, and none is given
            want = [e for e in PICK if e not in ("s->qty", "inbox->len")]
            merged = [n for i, n in notes if i.startswith("movl") and i.endswith("(%rax), %eax")]
            check("inventory clang-O2: the load two paths share is not given one path's name",
                  not merged, merged)
        if build == "aarch64-O2":
            # ldp x6, x5, [x0] loads l->aisles and l->naisles: the note names the first
            want = [e for e in PICK if e != "l->naisles"]
        missing = [e for e in want if e not in got]
        check(f"inventory {build}: pick's accesses named as the source writes them",
              rc == 0 and not missing, f"missing {missing}; got {sorted(got)}")
        # the bit fields share one byte: named together, whichever the code sets
        check(f"inventory {build}: the bit fields' byte names all three",
              "l->{open,audited,zone}" in got, sorted(got))
        # a 4-byte store into the union is the member of that size, not the 8-byte raw
        check(f"inventory {build}: the union's member by the access's size",
              "l->stamp.raw" not in got, sorted(got))
        # the counters written through a pointer are read-modify-writes
        rmw = [n for i, n in notes if n.startswith("l->tally->picked") or
               n.startswith("l->tally->restocked")]
        check(f"inventory {build}: the counters behind l->tally are written",
              any(" rmw" in n or " write" in n for n in rmw), rmw)
        rc, notes = accesses(share, binary, "settle")
        got = exprs(notes)
        check(f"inventory {build}: the flexible array's elements are b->items[i], not b[i]",
              "b->items[i]" in got and not any(e.startswith("b[") for e in got), sorted(got))
        # nothing that does not touch memory is named: lea, moves between registers
        bad = [(i, n) for i, n in notes
               if i.split()[0] in ("leaq", "lea", "movq", "mov") and "(" not in i and "[" not in i
               and "%rip" not in i]
        check(f"inventory {build}: no register-only instruction named", not bad, bad)
    # the same walk over a per-thread slot array: slots[id].served, in work() or inlined
    for build in ("gcc-O2", "gcc-O0", "aarch64-O2"):
        binary = os.path.join(types, "inventory." + build)
        rc, notes = accesses(share, binary, "work")
        check(f"inventory {build}: the per-worker slot is slots[i].served",
              "slots[i].served" in exprs(notes), sorted(exprs(notes)))

    for build in ("g++-O2", "clang++-O0", "aarch64-O2"):
        binary = os.path.join(types, "depot." + build)
        rc, notes = accesses(share, binary, "_Z5servePN5depot3BayEi")
        got = exprs(notes)
        missing = [e for e in DEPOT_SERVE if e not in got]
        check(f"depot {build}: serve()'s accesses through the class and its base",
              rc == 0 and not missing, f"missing {missing}; got {sorted(got)}")
        rc, notes = accesses(share, binary, "_ZN5depot4Gate5enterEv")
        got = exprs(notes)
        missing = [e for e in DEPOT_ENTER if e not in got]
        check(f"depot {build}: Gate::enter()'s latch word through this",
              rc == 0 and not missing, f"missing {missing}; got {sorted(got)}")
        atomic = [n for i, n in notes if n.startswith("this->word._M_i rmw")]
        if build != "aarch64-O2":	# (aarch64's exchange is an outline-atomic call)
            check(f"depot {build}: the exchange on the word is a read-modify-write", atomic,
                  notes)

    # Without debug info nothing is named, and the report says why.
    stripped = os.path.join(work, "inventory.stripped")
    shutil.copy(os.path.join(types, "inventory.gcc-O2"), stripped)
    r = run("strip", "-g", stripped)
    rc, notes = accesses(share, stripped, "pick")
    check("stripped: no access named without DWARF",
          r.returncode == 0 and not [n for _, n in notes if "->" in n], notes)

    # The recording: the view adds up, names the members, and agrees with --annotate.
    rec = os.path.join(types, "inventory.data")
    base = [hot, "--symfs", symfs, "--buildid-dir", "", "--debug-dir", "", rec]
    r = run(*base, "--sort", "typeoff", "--format", "json")
    check("--sort typeoff --format json: exit 0", r.returncode == 0, r.stderr)
    doc = json.loads(r.stdout)[0] if r.returncode == 0 else {"rows": [], "samples": 0}
    rows = doc["rows"]
    check("--sort typeoff: the rows add up to the event's samples",
          sum(x["samples"] for x in rows) == doc["samples"] and doc["samples"] > 0,
          (sum(x["samples"] for x in rows), doc["samples"]))
    named = {(x.get("type"), x.get("member")) for x in rows if "type" in x}
    check("--sort typeoff: the hot members are the source's",
          {("struct ledger", "naisles"), ("struct tally_slot", "served"),
           ("struct shelf", "sku")} <= named, sorted(map(str, named)))
    ok = all(isinstance(x.get("offset"), int) and x.get("size", 0) > 0 for x in rows
             if x.get("member"))
    check("--sort typeoff: each member row has its offset and size", ok, rows[:3])
    off = {x["member"]: x["offset"] for x in rows if x.get("type") == "struct ledger"
           and x.get("member")}
    check("--sort typeoff: offsets as pahole gives them (naisles 8, requests 24)",
          off.get("naisles") == 8 and off.get("requests", 24) == 24, off)
    top = max(rows, key=lambda x: x["samples"]) if rows else {}
    check("--sort typeoff: the top row is a member, not an unknown", "type" in top, top)
    r = run(*base, "--sort", "type")
    check("--sort type: text with the struct names",
          r.returncode == 0 and "struct ledger" in r.stdout and "struct tally_slot" in r.stdout,
          r.stdout[-600:])
    r = run(*base, "--sort", "type,dso")
    check("--sort type mixed with other keys: refused", r.returncode == 1 and
          "a view of their own" in r.stderr, r.stderr)
    r = run(*base, "--sort", "type", "-g")
    check("--sort type with -g: refused", r.returncode == 1 and "do not go together" in r.stderr,
          r.stderr)

    r = run(*base, "--annotate=pick", "--format", "json")
    ann = json.loads(r.stdout)[0] if r.returncode == 0 else {}
    ins = ann.get("instructions", [])
    data = [i["data"] for i in ins if "data" in i]
    check("--annotate json: each memory operand carries its data",
          any(d.get("expr") == "l->requests" and d.get("type") == "struct ledger" and
              d.get("member") == "requests" and d.get("offset") == 24 and d.get("size") == 8
              for d in data), data[:4])
    summ = ann.get("data", {})
    check("--annotate json: the function's samples on memory accesses, and how many named",
          summ.get("samples", 0) > 0 and summ.get("known_samples", 0) <= summ.get("samples", 0),
          summ)
    r = run(*base, "--annotate=pick", "--no-header", "--no-summary")
    check("--annotate text: the member beside the instruction and the data summary line",
          "# l->requests rmw (struct ledger +24)" in r.stdout and "# Data: " in r.stdout,
          r.stdout[-800:])
    diff = os.path.join(os.path.dirname(hot), "mycl-diff")
    r = run(diff, "--types", "--symfs", symfs, "--format", "json", rec, rec)
    doc = json.loads(r.stdout) if r.returncode == 0 else {}
    rows = doc.get("rows", [])
    check("mycl-diff --types: rows are struct members, matched by type and member, none changed",
          doc.get("rows_are") == "struct member" and rows and
          not any(x.get("changed") for x in rows) and
          any(x.get("symbol") == "naisles" and x.get("dso") == "struct ledger" for x in rows),
          r.stderr or rows[:3])
    r = run(diff, "--types", "--locks", rec, rec)
    check("mycl-diff --types with --locks: refused", r.returncode == 1, r.stderr)
    data_addresses(hot, types, symfs)
    return summary()


def data_addresses(hot, types, symfs):
    """faults.data: page faults with their data addresses (perf record -d)."""
    rec = os.path.join(types, "faults.data")
    base = [hot, "--symfs", symfs, "--buildid-dir", "", "--debug-dir", "", "--dso", "faults", rec]
    r = run(*base, "--sort", "typeoff", "--format", "json")
    check("data addresses: --sort typeoff --format json exits 0", r.returncode == 0, r.stderr)
    doc = json.loads(r.stdout)[0] if r.returncode == 0 else {"rows": []}
    rows = {(x.get("type"), x.get("member")): x for x in doc["rows"] if "type" in x}
    da = doc.get("data_addresses", {})
    check("data addresses: every sample of the program carries one, and each is accounted for",
          da.get("samples") == doc.get("samples") and da.get("samples", 0) > 0 and
          da["agree"] + da["differ"] + da["address_only"] + da["undescribed"] +
          da["elsewhere"] + da["code"] == da["samples"], da)
    # the stations are reached from their embedded link (container_of): the code cannot
    # name them, each fault's address can: the global array's element and its member
    st = rows.get(("struct station", "visits"), {})
    check("data addresses: what the code cannot name (container_of) named by the address",
          st.get("samples", 0) >= 40 and st.get("address_samples") == st.get("samples") and
          st.get("offset") == 24 and st.get("example") == "stations[i].visits" and
          not any(x.get("unknown", "").startswith("an offset past") for x in doc["rows"]),
          st or doc["rows"][:4])
    # the ledger written directly: the code's name and the address's agree, one row for
    # every element, the member at its offset in the type (as pahole gives it)
    lg = rows.get(("struct ledger", "entries[i].count"), {})
    sp = rows.get(("struct ledger", "entries[i].sum"), {})
    check("data addresses: the code's naming and the address's agree on the ledger",
          lg.get("samples", 0) >= 40 and lg.get("offset") == 8 and da.get("agree", 0) >=
          lg.get("samples", 0) and sp.get("samples", 0) >= 40 and sp.get("offset") == 16,
          (lg, sp, da))
    # the heap: the address names no variable; the code's naming stands
    cl = rows.get(("struct cell", "hits"), {})
    check("data addresses: heap accesses keep the code's naming",
          cl.get("samples", 0) >= 40 and cl.get("where") == "heap" and
          cl.get("address_samples") == 0 and da.get("elsewhere", 0) >= cl.get("samples", 0) and
          da.get("differ") == 0, (cl, da))
    # a list head in .data initialised to point at itself: what it points to is what the
    # program stored last (heap nodes), not its value in the file
    nd = rows.get(("struct node", "seen"), {})
    check("data addresses: a pointer variable's load is not its initial value",
          nd.get("samples", 0) >= 40 and nd.get("example") == "head.next->seen" and
          nd.get("where") == "heap" and da.get("outside_global") == 0, (nd, da))
    r = run(*base, "--sort", "typeoff")
    check("data addresses: the text says how the addresses bear out the code, and no skid",
          r.returncode == 0 and "# Data addresses: " in r.stdout and
          "taken at the instruction" in r.stdout and "a timer's" not in r.stdout, r.stdout[:900])
    r = run(*base, "--annotate=book", "--no-header", "--no-summary")
    check("data addresses: a fault counts for its own instruction in the annotation",
          "(taken at the instruction)" in r.stdout and "after" not in r.stdout, r.stdout[-600:])


if __name__ == "__main__":
    sys.exit(main())
