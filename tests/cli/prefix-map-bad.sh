# --prefix-map without OLD=NEW is refused, not ignored.
"$MYCL_HOT" --annotate --prefix-map /build "$DATA/hotloop.data"
