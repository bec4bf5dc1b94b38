"$MYCL_HOT" --graph-limit 1 "$DATA/hotloop.g.data"
