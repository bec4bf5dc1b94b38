# The header says what each recording cannot answer, with the command that would.
fx() { "$MYCL_HOT" --wide --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" --kallsyms "$DATA/artefact.kallsyms" "$@"; }
for f in lost.g.data stackcopy.data artefact.data idle.data hotloop.g.data group.data; do
	echo "== $f"
	fx -g --no-group "$DATA/$f" 2>/dev/null | grep -A1 '^# WARNING'
done
echo "== json"
# (--wide is for the text report: refused with JSON)
"$MYCL_HOT" --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" --kallsyms "$DATA/artefact.kallsyms" \
	-g --format json "$DATA/stackcopy.data" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print([w["kind"] for w in d["warnings"]], d["events"][0]["rows"][0]["ci95"])
'
