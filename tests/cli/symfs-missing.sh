"$MYCL_HOT" --symfs /nonexistent/symfs "$DATA/hotloop.data"
