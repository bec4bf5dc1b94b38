# Leader sampling, each member in its own table (perf report --no-group).
"$MYCL_HOT" --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" --dso hotloop --no-header --no-summary --no-group "$DATA/group.data"
