# An ELF binary of a machine mycl-share cannot disassemble: named, with the list it can.
python3 -c '
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[18:20] = (8).to_bytes(2, "little")   # EM_MIPS
open("mips.elf", "wb").write(b)' "$DATA/symfs/mycl-fixtures/hotloop"
"$(dirname "$MYCL_HOT")/mycl-share" mips.elf
