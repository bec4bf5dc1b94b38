"$MYCL_HOT" --format json --folded "$DATA/hotloop.g.data"
