"$MYCL_HOT" --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" --callers mix_hash "$DATA/hotloop.g.data"
