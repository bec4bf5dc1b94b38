# mycl-share: an option the chosen report would not read is refused, not dropped.
"$(dirname "$MYCL_HOT")/mycl-share" --disassemble main --format json "$DATA/share/server.gcc"
