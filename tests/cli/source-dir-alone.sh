# --source-dir without --annotate or --html: nothing would read it.
"$MYCL_HOT" --source-dir "$DATA" "$DATA/hotloop.data"
