"$MYCL_HOT" --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" --dso hotloop --no-header --no-summary - < "$DATA/hotloop.pipe.data"
