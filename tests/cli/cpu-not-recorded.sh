# --cpu on a recording whose samples carry no CPU number: said, not an empty report.
"$MYCL_HOT" --cpu 0 "$DATA/hotloop.g.data"
