"$(dirname "$MYCL_HOT")/mycl-share" "$DATA"
