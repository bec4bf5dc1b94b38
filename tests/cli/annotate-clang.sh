# clang's code (no .debug_aranges): source lines, the inlined weigh(), and
# g_table's element read at a computed index from its address in a register.
"$MYCL_HOT" -q --wide --no-header --no-summary --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" \
	--annotate=score "$DATA/annot/annot.data" |
	grep -o 'annot\.c:[0-9]*\|# g_table+0x8\[i\] read\|weigh (inlined)' | sort | uniq -c
