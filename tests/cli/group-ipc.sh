# A group of cycles and instructions (hardware events, made from group.data by
# rewriting its first two attrs: this machine has no PMU): an IPC column, each
# row's instructions over its cycles.
python3 - "$DATA/group.data" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
attr_size, attrs_off, attrs_size = struct.unpack_from("<QQQ", b, 0x10)
for i, config in enumerate((0, 1)):              # PERF_COUNT_HW_CPU_CYCLES, _INSTRUCTIONS
    struct.pack_into("<IIQ", b, attrs_off + i * attr_size, 0,
                     struct.unpack_from("<I", b, attrs_off + i * attr_size + 4)[0], config)
for old, new in ((b"cpu-clock:u\0", b"cycles:u\0"), (b"page-faults:u\0", b"instructions:u\0")):
    at = b.find(old)
    b[at:at + len(new)] = new
open("ipc.data", "wb").write(b)
PY
"$MYCL_HOT" --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" --dso hotloop --no-header --no-summary ipc.data
"$MYCL_HOT" --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" --format json ipc.data | python3 -c '
import json, sys
g = json.load(sys.stdin)["groups"][0]
ok = all(abs(r["ipc"] - r["period"][1] / r["period"][0]) < 1e-4 for r in g["rows"] if "ipc" in r)
print(g["members"], "ipc of", sum("ipc" in r for r in g["rows"]), "rows is instructions/cycles:", ok)
'
