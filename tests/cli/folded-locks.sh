"$MYCL_HOT" --folded --locks "$DATA/hotloop.g.data"
