# clang's code (no .debug_aranges): source lines, the inlined weigh(), and
# g_table.weights[i] read at a computed index from its address in a register (the
# member's name from DWARF).
"$MYCL_HOT" -q --wide --no-header --no-summary --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" \
	--annotate=score "$DATA/annot/annot.data" |
	grep -o 'annot\.c:[0-9]*\|# g_table.weights\[i\] read\|weigh (inlined)' | sort | uniq -c
