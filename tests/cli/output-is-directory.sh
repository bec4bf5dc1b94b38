# An output that names a directory: said with the reason, exit 5 (an output not written).
mkdir out-dir.d
"$MYCL_HOT" -o out-dir.d "$DATA/hotloop.data"
