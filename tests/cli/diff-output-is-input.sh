# -o naming NEW: refused before anything is opened for writing (the recording was overwritten).
cp "$DATA/hotloop.data" new.data
"$(dirname "$MYCL_HOT")/mycl-diff" -o new.data "$DATA/hotloop.data" new.data
rc=$?
cmp -s new.data "$DATA/hotloop.data" || echo "new.data was changed" >&2
exit $rc
