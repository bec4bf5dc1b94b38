# --html with --children (a profile without the lock analysis): the page's section of lock
# primitives names them by the --lock-rules given too (it read the built-in rules only).
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
printf 'app spin mix_hash\n' > "$d/r"
"$MYCL_HOT" --symfs "$DATA/symfs" --children --lock-rules "$d/r" --html "$d/p.html" "$DATA/hotloop.g.data" > /dev/null
grep -o 'mix_hash  *app  *spin' "$d/p.html" | head -1
