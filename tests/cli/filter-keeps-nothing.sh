# Filters that keep no sample: said with the filters and the count, exit 4, no empty table.
"$MYCL_HOT" --comm no-such-command --dso libc.so.6 "$DATA/hotloop.data"
