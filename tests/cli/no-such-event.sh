"$MYCL_HOT" --event cycles "$DATA/two-events.data"
