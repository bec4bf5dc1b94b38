mkdir -p empty-symfs; "$MYCL_HOT" -q --symfs empty-symfs --buildid-dir "" --debug-dir "" --annotate=checksum.constprop.0 "$DATA/hotloop.data" > /dev/null
