# An empty name where one is needed (--comm, --dso, --event, --callers, --callees, -i): refused.
"$MYCL_HOT" --callers "" "$DATA/hotloop.data"
