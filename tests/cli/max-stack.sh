# A chain 300 calls deep: cut at 127 frames as perf report cuts it (callee
# order: the innermost kept), ended in a marked frame and said in a warning;
# --max-stack keeps more; a bad value is refused.
fx() { "$MYCL_HOT" --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" "$@" "$DATA/deep/deep.data"; }
depth() { awk '{ n = split($1, f, ";"); print n - 1, f[n], f[2] }' | sort | uniq -c; }
echo "== default"
fx --folded 2>/dev/null | depth
fx -g --wide 2>/dev/null | grep -A1 'WARNING: .*longer than'
echo "== --max-stack 400"
fx --folded --max-stack 400 2>/dev/null | depth
fx -g --wide --max-stack 400 2>/dev/null | grep -c 'longer than'
echo "== --max-stack 10 --children"
fx --children --max-stack 10 2>/dev/null | grep -E 'descend|cut' | head -3
echo "== bad"
fx --max-stack 0 2>&1; echo "exit $?"
