"$MYCL_HOT" --event cpu "$DATA/two-events.data"
