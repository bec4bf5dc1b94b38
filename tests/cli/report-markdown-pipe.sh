# A name holding | (C++'s std::operator|): escaped in the ticket's markdown table, so the row
# keeps its five cells (an unescaped | splits a cell, in code spans too).
sed 's/ pvm_irq_enable$/ pvm_irq|enable/' "$DATA/artefact.kallsyms" > k
"$(dirname "$MYCL_HOT")/mycl-report" --format markdown --kallsyms k --symfs "$DATA/symfs" \
	--buildid-dir "" --debug-dir "" "$DATA/artefact.data" | grep '^| .*pvm_irq.enable' |
	sed 's/\\|//g' | tr -cd '|\n'
