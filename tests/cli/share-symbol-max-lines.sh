# mycl-share: an option the chosen report would not read is refused, not dropped.
"$(dirname "$MYCL_HOT")/mycl-share" --symbol stats_hits --max-lines 3 "$DATA/share/server.gcc"
