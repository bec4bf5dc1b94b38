"$MYCL_HOT" --max-rows -1 "$DATA/hotloop.data"
