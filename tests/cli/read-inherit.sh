# A sample reading its own count (non-group READ) with inherit: increases per thread, shares add up.
"$MYCL_HOT" --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" --no-header --no-summary "$DATA/read-inherit.data"
