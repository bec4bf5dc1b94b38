"$MYCL_HOT" --archive "$DATA/archive/ledger.tar.bz2" --archive "$DATA/archive/ledger.tar.bz2" "$DATA/archive/ledger.data"
