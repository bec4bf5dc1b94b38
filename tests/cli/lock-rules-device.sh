# --lock-rules naming a device, not a file, even without --locks: refused before any report.
"$MYCL_HOT" --lock-rules /dev/null "$DATA/ttas.g.data"
