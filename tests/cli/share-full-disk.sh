# A report that cannot be written (a full disk): said, exit 5, not exit 0 with the output lost.
"$(dirname "$MYCL_HOT")/mycl-share" "$DATA/share/truth.aarch64" > /dev/full
