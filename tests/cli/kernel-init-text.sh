"$MYCL_HOT" -q --wide --children --kallsyms "$DATA/idle.g.kallsyms" --buildid-dir "" --debug-dir "" --sort sym "$DATA/idle.g.data" | grep -E "start_kernel|x86_64_start|0xffffffff8"
