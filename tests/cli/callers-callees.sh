"$MYCL_HOT" --callers main --callees main "$DATA/hotloop.g.data"
