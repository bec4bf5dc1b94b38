"$MYCL_HOT" -q --wide --kallsyms "$DATA/artefact.kallsyms" --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" --annotate=pvm_irq_enable "$DATA/artefact.data" | grep "^# Annotation"
