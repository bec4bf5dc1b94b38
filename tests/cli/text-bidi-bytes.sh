# A name with direction overrides (U+202E, U+2066) and a byte that starts no UTF-8 sequence (0x9b,
# an 8-bit CSI): the text report shows them escaped, so the terminal shows the name as it is.
sed 's/ pvm_irq_enable$/ pvm\xe2\x80\xaeirq\x9b\xe2\x81\xa6x\xc3\xa9/' "$DATA/artefact.kallsyms" > k
"$MYCL_HOT" -q --kallsyms k --symfs "$DATA/symfs" --buildid-dir= --debug-dir= "$DATA/artefact.data" |
	grep -a -o 'pvm[^ ]*' | sort -u
