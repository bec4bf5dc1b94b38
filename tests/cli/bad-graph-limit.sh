"$MYCL_HOT" -g --graph-limit xyz "$DATA/hotloop.g.data"
