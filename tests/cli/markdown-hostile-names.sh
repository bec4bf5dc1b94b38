# A thread and a binary named in markdown and HTML (<i>[a](j:)|*_, /tmp/mycl-md-<b>[x](y)): in
# mycl-report's and mycl-diff's markdown they read as themselves. Printed: each line, outside code
# blocks and code spans, where a piece of those names is left raw (HTML, a link, emphasis, a cell
# split), and whether the escaped thread name is shown (the rows are there).
R="$(dirname "$MYCL_HOT")/mycl-report"
D="$(dirname "$MYCL_HOT")/mycl-diff"
{
	"$R" --format markdown --no-share --buildid-dir "" --debug-dir "" "$DATA/escape/md.data"
	"$D" --format markdown "$DATA/escape/md.data" "$DATA/escape/md.data"
} | awk '/^```/ { fence = !fence; next } !fence' | sed 's/`[^`]*`//g' > md
grep -n '<[ib]>\|\[[ax]\](\|[^\\]|\*\|[^\\]\*\\\?_' md
grep -q '&lt;i&gt;\\\[a\\\]\\(j:\\)\\|\\\*\\_' md && echo "the thread name, escaped"
