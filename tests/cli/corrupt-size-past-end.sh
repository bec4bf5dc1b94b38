# A record's size field damaged past the end of the data: not taken for a truncated file.
python3 - "$DATA/hotloop.data" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
off = struct.unpack_from("<Q", b, 0x28)[0]
for _ in range(7):
    off += struct.unpack_from("<H", b, off + 6)[0]
struct.pack_into("<H", b, off + 6, 0xffff)
open("corrupt.data", "wb").write(b)
PY
"$MYCL_HOT" corrupt.data
