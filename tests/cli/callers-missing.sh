"$MYCL_HOT" --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" --callers no_such_function "$DATA/hotloop.g.data"
