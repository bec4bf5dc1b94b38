head -c 12000 "$DATA/hotloop.data" > cut.data
"$MYCL_HOT" --buildid-dir "" --debug-dir "" --no-summary cut.data > /dev/null
