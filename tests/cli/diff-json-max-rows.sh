# mycl-diff: --max-rows with JSON (the document holds every row) is refused, not dropped.
"$(dirname "$MYCL_HOT")/mycl-diff" --format json --max-rows 3 "$DATA/hotloop.data" "$DATA/hotloop.data"
