"$MYCL_HOT" --no-header --no-summary --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" --event page-faults "$DATA/two-events.data" | head -3
