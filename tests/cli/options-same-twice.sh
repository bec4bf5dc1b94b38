# The same value twice is no conflict; --source-dir adds directories (read by --annotate) and -v words.
"$MYCL_HOT" --sort sym --sort sym -v -v --annotate=1 --source-dir "$DATA" --source-dir "$DATA/symfs" --no-header --no-summary --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" --max-rows 3 "$DATA/hotloop.data"
