# Leader sampling: the members of the group side by side, as perf report shows them.
"$MYCL_HOT" --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" --dso hotloop --no-header --no-summary "$DATA/group.data"
