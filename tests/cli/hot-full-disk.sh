# A report that cannot be written (a full disk): the file and the reason said, exit 5.
"$MYCL_HOT" -o /dev/full "$DATA/hotloop.data"
