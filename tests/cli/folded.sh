"$MYCL_HOT" --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" --folded "$DATA/hotloop.g.data" | grep -v '\[k\]' | grep -E 'checksum|mix_hash' | sort
