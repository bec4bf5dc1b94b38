"$MYCL_HOT" --kallsyms "$DATA/gen.sh" "$DATA/hotloop.data"
