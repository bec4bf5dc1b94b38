# The header's data size is wrong (-1000 bytes) but the records are intact: read them all, with a warning.
python3 - "$DATA/hotloop.data" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
struct.pack_into("<Q", b, 0x30, struct.unpack_from("<Q", b, 0x30)[0] -1000)
open("size.data", "wb").write(b)
PY
"$MYCL_HOT" --no-summary size.data | grep '^# Event'
