# mycl-diff of a cpu-clock recording against a sched_switch one: time against counts, refused
# (it compared them with a note before); --by-share or --event are the ways on.
"$(dirname "$MYCL_HOT")/mycl-diff" "$DATA/hotloop.g.data" "$DATA/waits.data"
