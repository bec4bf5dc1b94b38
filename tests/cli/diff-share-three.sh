# --share BIN,NEW_BIN,MORE: refused, not the second comma taken into a file name.
"$(dirname "$MYCL_HOT")/mycl-diff" --share "$DATA/share/truth.aarch64,x,y" "$DATA/hotloop.data" "$DATA/hotloop.data"
