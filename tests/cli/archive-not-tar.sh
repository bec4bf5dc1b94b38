"$MYCL_HOT" --archive "$DATA/hotloop.data" "$DATA/hotloop.data"
