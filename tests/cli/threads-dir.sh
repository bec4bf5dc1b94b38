# A perf record --threads directory: 'data' and one file of records per writer thread.
"$MYCL_HOT" --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" -g --comm hotloop --dso hotloop --no-header --no-summary --percent-limit 5 "$DATA/hotloop.threads"
