"$MYCL_HOT" --group -g "$DATA/group.data"
