# --cpu takes ranges as perf does (0-1); a list with an empty item or a number past 2^31 - 1 is refused.
"$MYCL_HOT" --cpu 0-1 --no-header --no-summary "$DATA/idle.data" > /dev/null && "$MYCL_HOT" --pid 4294967297 "$DATA/idle.data"
