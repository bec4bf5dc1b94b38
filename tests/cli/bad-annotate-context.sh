"$MYCL_HOT" --annotate --annotate-context=-2 "$DATA/hotloop.data"
