# The chains as perf shows them: no frame put back from a call instruction.
"$MYCL_HOT" --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" -g --no-call-site-frames --comm hotloop --dso hotloop --no-header --no-summary --percent-limit 5 "$DATA/hotloop.g.data"
