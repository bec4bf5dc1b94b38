# --children and --no-children together: which one? refused.
"$MYCL_HOT" --children --no-children "$DATA/hotloop.g.data"
