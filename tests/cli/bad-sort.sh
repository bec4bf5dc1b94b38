"$MYCL_HOT" --sort nonsense "$DATA/hotloop.data"
