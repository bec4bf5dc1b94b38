# --no-demangle means the same in mycl-report and mycl-diff as in mycl-hot: C++ names as the
# symbol table has them.
tools=$(dirname "$MYCL_HOT")
f="$DATA/locks/members.dwarf.data"
"$tools/mycl-report" --no-demangle --no-share --symfs "$DATA/symfs" --buildid-dir "" "$f" |
	grep -o "_ZN7Journal6appendEl" | head -1
"$tools/mycl-diff" --no-demangle --symfs "$DATA/symfs" --buildid-dir "" "$f" "$f" | grep -o "_ZL5spendj"
"$MYCL_HOT" -q --no-demangle --symfs "$DATA/symfs" --buildid-dir "" "$f" | grep -o "_ZL5spendj"
