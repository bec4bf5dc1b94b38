# Outputs replace the file that was there only once whole: a run with nothing to report keeps the
# old report, a written one takes its place with the old file's mode, no temporary file stays.
echo old > r.txt; chmod 640 r.txt
"$(dirname "$MYCL_HOT")/mycl-share" --symbol no_such_variable -o r.txt "$DATA/share/heaparg.gcc-O0" 2> /dev/null
echo "nothing to report: exit $?, $(cat r.txt)"
"$MYCL_HOT" -q --comm no-such-command -o r.txt "$DATA/hotloop.data" 2> /dev/null
echo "filters keep nothing: exit $?, $(cat r.txt)"
"$MYCL_HOT" -q -o r.txt --html p.html "$DATA/hotloop.data"
echo "written: exit $?, $(head -c 19 r.txt), mode $(stat -c %a r.txt)"
ls -A | grep "^\.[rp]\." || echo "no temporary file left"
