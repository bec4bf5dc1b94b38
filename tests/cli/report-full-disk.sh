# mycl-report onto a full disk: the file and the reason said, exit 5.
"$(dirname "$MYCL_HOT")/mycl-report" --no-share -o /dev/full "$DATA/hotloop.data"
