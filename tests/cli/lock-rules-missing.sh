# A --lock-rules file that is not there: one message naming it.
"$MYCL_HOT" --locks --lock-rules "$DATA/no-such-rules" "$DATA/ttas.g.data"
