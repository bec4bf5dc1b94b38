# --lock-rules where nothing reads it (JSON without --locks): refused, not dropped.
r=$(mktemp); trap 'rm -f "$r"' EXIT
printf 'app spin my_spin*\n' > "$r"
"$MYCL_HOT" --lock-rules "$r" --format json "$DATA/ttas.g.data"
