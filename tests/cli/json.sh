"$MYCL_HOT" --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" --dso hotloop --format json "$DATA/two-events.data" |
python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["schema"], d["header"]["arch"], d["sort"])
for e in d["events"]:
    total = sum(r["overhead"] for r in e["rows"])
    print(e["name"], e["samples"] > 0, round(total), [r["symbol"] for r in e["rows"][:1]])
'
