# A name holding ``` stays inside the ticket's code blocks: each fence is longer than any run
# of backquotes in its block (the block ended early and the rest was read as markdown).
sed 's/ default_idle$/ default```idle/' "$DATA/idle.g.kallsyms" > k
"$(dirname "$MYCL_HOT")/mycl-report" --format markdown --kallsyms k --symfs "$DATA/symfs" \
	--buildid-dir "" --debug-dir "" "$DATA/idle.g.data" | grep -c '^````$'
