# mycl-report cuts call chains as mycl-hot does (--max-stack, default 127), and says so.
"$(dirname "$MYCL_HOT")/mycl-report" --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" "$DATA/deep/deep.data" | grep -c 'longer than 127 frames'
"$(dirname "$MYCL_HOT")/mycl-report" --max-stack 400 --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" "$DATA/deep/deep.data" | grep -c 'longer than'
"$(dirname "$MYCL_HOT")/mycl-report" --max-stack 0 "$DATA/deep/deep.data" 2>&1; echo "exit $?"
