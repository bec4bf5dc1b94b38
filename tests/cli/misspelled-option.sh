# A misspelled option: one line naming it and the option it is likely a slip for, not the
# whole usage text; each tool alike.
echo "share lines: $("$(dirname "$MYCL_HOT")/mycl-share" --tpyes "$DATA/share/truth.aarch64" 2>&1 | wc -l)" >&2
"$MYCL_HOT" --chidlren "$DATA/hotloop.g.data"
