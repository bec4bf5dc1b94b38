"$(dirname "$MYCL_HOT")/mycl-share" --max-lines abc "$DATA/symfs/mycl-fixtures/hotloop"
