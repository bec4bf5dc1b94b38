# A report that cannot be written (a full disk): said, exit 5, not exit 0 with the output lost.
"$(dirname "$MYCL_HOT")/mycl-diff" -o /dev/full "$DATA/hotloop.data" "$DATA/hotloop.data"
