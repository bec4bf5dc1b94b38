# A name that is no UTF-8 (a comm or a symbol in another encoding, a damaged name): JSON,
# pprof's protobuf strings, the SVG flame graph and the HTML page stay UTF-8, the bytes as
# U+FFFD (they went out raw: JSON readers, protoc and browsers refused the whole file).
sed 's/ pvm_irq_enable$/ pvm\xff\xfeirq\xc3(/' "$DATA/artefact.kallsyms" > k
set -- --kallsyms k --symfs "$DATA/symfs" --buildid-dir= --debug-dir=
for tool in "$MYCL_HOT" "$(dirname "$MYCL_HOT")/mycl-report"; do
	"$tool" --format json "$@" "$DATA/artefact.data" |
		python3 -c 'import json, sys; json.loads(sys.stdin.buffer.read().decode("utf-8")); print("json valid")'
done
"$MYCL_HOT" -q "$@" --flamegraph f.svg --html p.html "$DATA/artefact.data" > /dev/null
"$MYCL_HOT" -q "$@" --format pprof -o p.pb "$DATA/artefact.data"
python3 - <<'PY'
import gzip, xml.etree.ElementTree as et
et.parse("f.svg"); print("svg valid")
open("p.html", "rb").read().decode("utf-8"); print("html utf-8")
# every length-delimited string of the profile's string_table (field 6) is UTF-8
b = gzip.open("p.pb").read(); i = 0; n = 0
def varint():
    global i
    v = s = 0
    while True:
        c = b[i]; i += 1; v |= (c & 0x7f) << s; s += 7
        if c < 0x80: return v
while i < len(b):
    key = varint(); f, t = key >> 3, key & 7
    if t == 0: varint()
    elif t == 2:
        ln = varint(); data = b[i:i + ln]; i += ln
        if f == 6: data.decode("utf-8"); n += 1
    elif t == 1: i += 8
    elif t == 5: i += 4
print("pprof strings utf-8" if n else "no strings")
PY
