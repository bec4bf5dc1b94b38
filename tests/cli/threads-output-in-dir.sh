# An output among the files a --threads directory is read from is refused, before anything is written.
cp -r "$DATA/hotloop.threads" rec && "$MYCL_HOT" -q -o rec/data.1 rec
rc=$?; cmp -s rec/data.1 "$DATA/hotloop.threads/data.1" || echo "data.1 was written"; exit $rc
