# A name that is no UTF-8 (a comm or a symbol in another encoding, a damaged name): the JSON
# document stays UTF-8, the bytes as U+FFFD (they went out raw and readers refused the file).
sed 's/ pvm_irq_enable$/ pvm\xff\xfeirq\xc3(/' "$DATA/artefact.kallsyms" > k
for tool in "$MYCL_HOT" "$(dirname "$MYCL_HOT")/mycl-report"; do
	"$tool" --format json --kallsyms k --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" \
		"$DATA/artefact.data" |
		python3 -c 'import json, sys; json.loads(sys.stdin.buffer.read().decode("utf-8")); print("valid")'
done
