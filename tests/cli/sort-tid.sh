"$MYCL_HOT" --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" --dso hotloop --sort tid,sym --percent-limit 5 --no-header --no-summary "$DATA/hotloop.g.data"
