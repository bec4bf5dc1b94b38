# --html with no sample left (here by the filter): nothing to report, exit 4, the filter said,
# not a read error (exit 2, before).
"$MYCL_HOT" --comm no-such-command --html page.html "$DATA/hotloop.data"
