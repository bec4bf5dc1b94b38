# A binary rebuilt since the recording (another build-id at the recorded path): said in the
# header, before the table of addresses, with the fix; and in the summary with the same fix.
mkdir -p sym/mycl-fixtures/annot
cp "$DATA/symfs/mycl-fixtures/hotloop" sym/mycl-fixtures/annot/annot
"$MYCL_HOT" --wide --symfs sym --buildid-dir "" --debug-dir "" "$DATA/annot/annot.data" 2>/dev/null |
	grep -n "WARNING: 100% of samples are in binaries\|^# Overhead\|the build that ran is needed" |
	sed 's/^\([0-9]*\):#/\1 #/; s/  */ /g'
