# Names that carry terminal escapes (comm, binary path, symbol: tests/data/escape)
# never reach the output raw, in any view, on stdout or stderr; JSON stays valid.
for v in "" "-g" "--children" "--folded" "--format json" "--annotate=1" "--locks" "--callers main"; do
	"$MYCL_HOT" --buildid-dir "$DATA/escape/buildid" --debug-dir "" $v "$DATA/escape/esc.data" > out 2> err
	rc=$?
	bad=$(cat out err | LC_ALL=C tr -d '\n\t\040-\176\200-\301\303-\377' | LC_ALL=C grep -c .)
	shown=$(grep -c 'spin\\x1b\]0;owned\\x07\\x1b\[2J\|e\\x1b\[31m\\u009bx\\x0a#' out)
	json=""
	[ "$v" = "--format json" ] && { python3 -m json.tool out > /dev/null && json=", valid JSON" || json=", bad JSON"; }
	echo "${v:-flat}: exit $rc, raw control bytes: $bad, escaped names shown: $([ "$shown" -gt 0 ] && echo yes || echo no)$json"
done
