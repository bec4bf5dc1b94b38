"$MYCL_HOT" "$DATA/expected.txt"
