: > empty; "$(dirname "$MYCL_HOT")/mycl-share" empty
