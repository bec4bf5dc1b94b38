# mycl-report: --width with JSON (no columns) is refused, not dropped.
"$(dirname "$MYCL_HOT")/mycl-report" --format json --width 80 "$DATA/hotloop.data"
