# A --lock-rules file not in the format, without --locks (only the text report's lock
# summary reads it): refused before the report, not "writing the report failed" after it.
"$MYCL_HOT" --lock-rules "$DATA/gen.sh" "$DATA/ttas.g.data"
