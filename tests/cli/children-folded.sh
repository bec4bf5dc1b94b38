"$MYCL_HOT" --children --folded "$DATA/hotloop.g.data"
