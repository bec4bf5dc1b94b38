"$MYCL_HOT" --max-rows 1e3 "$DATA/hotloop.data"
