# A value given twice to mycl-diff: refused, naming both, not the last one silently taken.
"$(dirname "$MYCL_HOT")/mycl-diff" --max-rows 3 --max-rows 5 "$DATA/hotloop.data" "$DATA/hotloop.data"
