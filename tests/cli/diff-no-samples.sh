# A recording without samples (here every SAMPLE record's type changed to one no reader knows):
# nothing to compare against, exit 4, where every symbol of the other was "changed".
python3 - "$DATA/hotloop.data" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
off, size = struct.unpack_from("<QQ", b, 40)
end = off + size
while off + 8 <= end:
    t, _, s = struct.unpack_from("<IHH", b, off)
    if t == 9:
        struct.pack_into("<I", b, off, 99)
    off += s or end
open("empty.data", "wb").write(b)
PY
"$(dirname "$MYCL_HOT")/mycl-diff" empty.data "$DATA/hotloop.data"
