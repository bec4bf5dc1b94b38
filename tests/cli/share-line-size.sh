"$(dirname "$MYCL_HOT")/mycl-share" --line-size 100 "$DATA/symfs/mycl-fixtures/hotloop"
