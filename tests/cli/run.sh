#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# CLI golden tests: each CASE.sh runs with $MYCL_HOT and $DATA set; its exit
# status must equal CASE.exit (0 when absent), its stdout CASE.stdout.exact
# when present, and every line of CASE.stderr.contains must occur in stderr.
# Every case runs twice: reading in the calling thread and with the
# read-ahead thread (MYCL_READ_AHEAD=off, on); both must give the goldens.
# MYCL_CLI_WRAP="valgrind ...": every tool runs under that command (the
# cases call mycl-hot and the tools beside it); MYCL_CLI_MODES: the
# read-ahead modes to run (default "off on").
# usage: run.sh MYCL_HOT CASE_DIR DATA_DIR
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
MYCL_HOT=$(abs "$1"); CASES=$(abs "$2"); DATA=$(abs "$3")
pass=0; fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${MYCL_CLI_WRAP:-}" ]; then
	mkdir "$tmp/bin"
	for tool in "$(dirname "$MYCL_HOT")"/mycl-*; do
		[ -x "$tool" ] || continue
		printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$MYCL_CLI_WRAP" "$(abs "$tool")" \
			> "$tmp/bin/$(basename "$tool")"
		chmod +x "$tmp/bin/$(basename "$tool")"
	done
	MYCL_HOT=$tmp/bin/$(basename "$MYCL_HOT")
fi
export MYCL_HOT DATA
for t in "$CASES"/*.sh; do
for ra in ${MYCL_CLI_MODES:-off on}; do
	name=$(basename "$t" .sh)
	[ "$name" = run ] && continue
	mkdir -p "$tmp/work" && (cd "$tmp/work" && MYCL_READ_AHEAD=$ra sh "$t") > "$tmp/out" 2> "$tmp/err"
	rc=$?
	want=0
	[ -f "$CASES/$name.exit" ] && want=$(cat "$CASES/$name.exit")
	ok=1
	if [ "$rc" != "$want" ]; then
		echo "FAIL $name: exit $rc, expected $want"; sed 's/^/    stderr: /' "$tmp/err" | head -5; ok=0
	fi
	if [ -f "$CASES/$name.stdout.exact" ] && ! cmp -s "$tmp/out" "$CASES/$name.stdout.exact"; then
		echo "FAIL $name: stdout differs"; diff "$CASES/$name.stdout.exact" "$tmp/out" | head -20; ok=0
	fi
	if [ -f "$CASES/$name.stderr.contains" ]; then
		while IFS= read -r line; do
			grep -qF -- "$line" "$tmp/err" || { echo "FAIL $name: stderr lacks '$line'"; ok=0; }
		done < "$CASES/$name.stderr.contains"
	fi
	if [ $ok = 1 ]; then pass=$((pass + 1)); echo "ok   $name ($ra)"; else fail=$((fail + 1)); echo "     ($name with read-ahead $ra)"; fi
done
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
