# A value given twice to mycl-report: refused, naming both.
"$(dirname "$MYCL_HOT")/mycl-report" --top 3 --top 5 "$DATA/hotloop.data"
