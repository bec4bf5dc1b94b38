"$MYCL_HOT" --locks --annotate "$DATA/hotloop.g.data"
