"$MYCL_HOT" --locks --lock-rules "$DATA/gen.sh" "$DATA/ttas.g.data"
