# A flame graph that cannot be written: the file and the reason said, exit 5 (as the report).
"$MYCL_HOT" --flamegraph /dev/full "$DATA/hotloop.g.data"
