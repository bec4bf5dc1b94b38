# An empty value (--comm, --dso, --event, --callers, -o, --symfs, ... in every tool): refused; '' means none only for --buildid-dir and --debug-dir.
"$MYCL_HOT" --callers "" "$DATA/hotloop.data"
