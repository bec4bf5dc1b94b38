"$MYCL_HOT" --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" --dso hotloop --children --no-header --no-summary --percent-limit 1 "$DATA/hotloop.g.data"
