# A lock in an array a global pointer points into (LockSlots, 128-byte padded slots):
# named by its index from the debug info, and by the program's table of names where a
# "names ARRAY TABLE" rule points to it (as PostgreSQL's individual LWLocks).
printf 'names LockSlots LockSlotNames\n' > rules
"$MYCL_HOT" -q --locks --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" \
	"$DATA/locks/tranche.fp.data" | grep -o 'lock: [^(]*([^)]*)\|lock: [^ ]*'
"$MYCL_HOT" -q --locks --lock-rules rules --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" \
	"$DATA/locks/tranche.fp.data" | grep -o 'lock: Journal ([^)]*)'
