"$MYCL_HOT" --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" --dso hotloop --format json "$DATA/group.data" |
python3 -c '
import json, sys
d = json.load(sys.stdin)
for e in d["events"]:
    print(e["name"], e["samples"], e["event_count"])
for g in d["groups"]:
    print(g["leader"], g["members"])
    for r in g["rows"][:4]:
        print(r["overhead"], r["samples"], r["symbol"])
'
