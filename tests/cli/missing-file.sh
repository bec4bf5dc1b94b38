"$MYCL_HOT" /nonexistent/perf.data
