"$MYCL_HOT" --sort ',' "$DATA/hotloop.data"
