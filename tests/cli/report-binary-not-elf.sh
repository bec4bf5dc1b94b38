# A BINARY argument that is no ELF file (here a recording): refused before any work, named.
"$(dirname "$MYCL_HOT")/mycl-report" "$DATA/hotloop.data" "$DATA/hotloop.g.data"
