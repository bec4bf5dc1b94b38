# A kallsyms of zeros (kptr_restrict): its warning once, where the first kernel sample wants the
# kernel's symbols (read beside the samples before it), the kernel's rows unresolved; a recording
# of user code only reads no kernel symbols: no warning.
awk '{print "0000000000000000", $2, $3}' "$DATA/artefact.kallsyms" > zero.kallsyms
fx() { "$MYCL_HOT" --wide --symfs "$DATA/symfs" --buildid-dir "" --debug-dir "" --kallsyms zero.kallsyms "$@"; }
fx "$DATA/artefact.data" 2> err | grep -m2 "\[k\]"
echo "warnings: $(grep -c "all addresses are 0" err)"
fx "$DATA/hotloop.data" 2> err > /dev/null
echo "warnings: $(grep -c "all addresses are 0" err)"
