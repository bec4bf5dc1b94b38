# A --source-dir that is not there is named, not silently skipped.
"$MYCL_HOT" --annotate --source-dir "$DATA/no-such-dir" "$DATA/hotloop.data"
