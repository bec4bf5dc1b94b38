# Call-graph views of a recording made without -g: said, with the command that records chains;
# on stderr where the view has no header (folded stacks), in the report's Call paths section.
"$MYCL_HOT" --folded --symfs "$DATA/symfs" "$DATA/hotloop.data" > /dev/null
"$(dirname "$MYCL_HOT")/mycl-report" --symfs "$DATA/symfs" --no-share "$DATA/hotloop.data" |
	sed -n '/^== Call paths ==$/,/^== Lock/p' | head -4
