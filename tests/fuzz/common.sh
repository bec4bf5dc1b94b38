# SPDX-License-Identifier: LGPL-2.1-or-later
# Sourced by run.sh and campaign.sh: builds the libFuzzer targets and their
# seed directories.  Needs $top (the source tree) and $out (a work directory).

# Every target, with what its inputs are.
#   fuzz_perf_data   perf.data bytes: the reader (file and pipe, zstd), plain and read-ahead
#   fuzz_profile     perf.data bytes: everything after the reader, and the writers
#   fuzz_elf         an ELF file: symbols, segments, DWARF lines and inlines, lock code
#   fuzz_share       an ELF file: mycl-share (relocations, DWARF variables, every disassembler)
#   fuzz_unwind      a sample's registers and stack copy, unwound with DWARF
#   fuzz_tracepoint  tracing data and a tracepoint sample's raw bytes
#   fuzz_archive     a perf archive: bzip2, zstd or tar; ustar, GNU and pax names
#   fuzz_kallsyms    a kallsyms file, checked against a plain reading of it
fuzz_targets="fuzz_perf_data fuzz_profile fuzz_elf fuzz_share fuzz_unwind fuzz_tracepoint fuzz_archive fuzz_kallsyms"

# The regression inputs each target replays (tests/fuzz/regress/DIR).
fuzz_regress_dir() {
	case $1 in
	fuzz_perf_data|fuzz_profile) echo perf ;;
	fuzz_elf|fuzz_share) echo elf ;;
	fuzz_unwind) echo unwind ;;
	fuzz_tracepoint) echo tracepoint ;;
	fuzz_archive) echo archive ;;
	fuzz_kallsyms) echo kallsyms ;;
	esac
}

fuzz_dict() {
	case $1 in
	fuzz_perf_data|fuzz_profile) echo "$top/tests/fuzz/perf_data.dict" ;;
	fuzz_elf|fuzz_share) echo "$top/tests/fuzz/elf.dict" ;;
	fuzz_archive) echo "$top/tests/fuzz/archive.dict" ;;
	*) echo "" ;;
	esac
}

# The targets' environment, exported (paths quoted for the sanitizers' option parser: a checkout's
# path may hold spaces).
fuzz_env() {
	export LSAN_OPTIONS="suppressions=\"$top/tests/fuzz/lsan.supp\""
	export MYCL_FUZZ_SYMFS="$top/tests/data/symfs"
	export MYCL_FUZZ_UNWIND_DATA="$top/tests/data/stackcopy.data"
	export MYCL_FUZZ_KALLSYMS="$top/tests/data/locks/kallsyms"
}

# Builds every target into $out with clang, ASan and UBSan; 1 when clang cannot.
# Nothing is compiled again when the sources, the flags and clang are those of
# the last build in $out (a long campaign starts many runs on one tree).
fuzz_build() {
	flags="-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -D_GNU_SOURCE -std=gnu11"
	# (include directories through CPATH and objects by names relative to $out: no word of a
	# command line holds the checkout's path, which may have spaces)
	CPATH="$top/include$(for d in "$top"/src/*/; do printf ':%s' "$d"; done)"
	export CPATH
	stamp=$( (echo "$flags"; clang --version; cd "$top" && find src include tests/fuzz \
		data/lock-rules.txt -type f \( -name '*.[ch]' -o -name '*.py' -o -name '*.txt' \) |
		LC_ALL=C sort | xargs sha256sum) | sha256sum)
	if [ -f "$out/build.stamp" ] && [ "$(cat "$out/build.stamp")" = "$stamp" ] &&
	   (for t in $fuzz_targets; do [ -x "$out/$t" ] || exit 1; done); then
		echo "fuzz: the targets in $out are built from these sources" >> "$out/build.log"
		return 0
	fi
	rm -f "$out/build.stamp"
	mkdir -p "$out/obj"
	python3 "$top/src/embed.py" "$top/data/lock-rules.txt" "$out/lock_rules.c" mycl_default_lock_rules
	objs=""
	for src in "$top"/src/*/*.c "$out/lock_rules.c"; do
		objs="$objs obj/$(basename "$(dirname "$src")")_$(basename "$src" .c).o"
	done
	# (the library's files compiled side by side, as many at once as there are CPUs)
	FUZZ_FLAGS=$flags
	export FUZZ_FLAGS
	if ! printf '%s\0' "$top"/src/*/*.c "$out/lock_rules.c" | (cd "$out" &&
		xargs -0 -n 1 -P "$(nproc 2>/dev/null || echo 1)" sh -c '
			o="obj/$(basename "$(dirname "$1")")_$(basename "$1" .c).o"
			clang $FUZZ_FLAGS -fsanitize=fuzzer-no-link -c "$1" -o "$o" 2> "$o.log" ||
				{ echo "fuzz: clang cannot build $1:"; tail -3 "$o.log"; exit 255; }' sh); then
		cat "$out"/obj/*.log >> "$out/build.log" 2>/dev/null
		return 1
	fi
	cat "$out"/obj/*.log >> "$out/build.log" 2>/dev/null
	for target in $fuzz_targets; do
		if ! (cd "$out" && clang $flags -fsanitize=fuzzer "$top/tests/fuzz/$target.c" $objs \
			-lelf -ldw -lzstd -lbz2 -lz -liberty -lstdc++ -lcapstone -ltraceevent -lm -o "$target") \
			2>> "$out/build.log"; then
			echo "fuzz: clang cannot build $target:"; tail -3 "$out/build.log"
			return 1
		fi
	done
	echo "$stamp" > "$out/build.stamp"
}

# Fills DIR with the seeds of TARGET: fixtures, regression inputs, and what
# the recordings hold for the targets that take parts of them.
fuzz_seeds() {
	target=$1; dir=$2
	mkdir -p "$dir"
	case $target in
	fuzz_perf_data|fuzz_profile)
		cp "$top"/tests/data/*.data "$dir/"
		cp "$top"/tests/data/locks/*.fp.data "$top"/tests/data/locks/*.waits.data "$dir/" ;;
	fuzz_share|fuzz_elf)
		# the ground truth of every architecture, the statically linked one left out (856 KB)
		for f in "$top"/tests/data/share/truth.* "$top"/tests/data/share/server.* \
			 "$top"/tests/data/cross/globals.* "$top"/tests/data/types/inventory.* \
			 "$top"/tests/data/types/depot.* "$top"/tests/data/typeshare/kiosk.gcc-O2 \
			 "$top"/tests/data/typeshare/relay.clang++-O2; do
			case $f in *.c|*.cc|*.static|*.data|*.sh|*aarch64*depot*|*depot*aarch64*) ;;
			*) cp "$f" "$dir/" ;; esac
		done
		[ $target = fuzz_elf ] && cp "$top"/tests/data/symfs/mycl-fixtures/hotloop \
			"$top"/tests/data/symfs/mycl-fixtures/locks/members "$dir/" ;;
	fuzz_unwind)
		fuzz_env
		MYCL_FUZZ_WRITE_SEEDS="$dir" "$out/fuzz_unwind" -runs=0 /dev/null \
			> /dev/null 2>&1 ;;
	fuzz_tracepoint)
		for r in waits.data locks/condq.waits.data; do
			mkdir -p "$dir/$r.d"
			MYCL_FUZZ_TRACE_DATA="$top/tests/data/$r" MYCL_FUZZ_WRITE_SEEDS="$dir/$r.d" \
				"$out/fuzz_tracepoint" > /dev/null 2>&1
			for f in "$dir/$r.d"/*; do
				[ -f "$f" ] && mv "$f" "$dir/$(echo "$r" | tr / -)-$(basename "$f")"
			done
			rmdir "$dir/$r.d"
		done ;;
	fuzz_kallsyms)
		cp "$top/tests/data/locks/kallsyms" "$dir/" ;;
	esac
	cp "$top/tests/fuzz/regress/$(fuzz_regress_dir "$target")"/* "$dir/" 2>/dev/null
	# What earlier campaigns grew, minimised (keep.sh writes it); with FUZZ_CORPUS_MAX=N
	# (run.sh's bounded run) every k-th input by name, at most N, the rest left for the
	# campaigns: replaying a corpus of thousands first is most of a short run
	if [ -f "$top/tests/fuzz/corpus/$target.tar.zst" ]; then
		mkdir -p "$dir/.grown"
		zstd -q -d -c "$top/tests/fuzz/corpus/$target.tar.zst" | tar xf - -C "$dir/.grown"
		ls "$dir/.grown" | sort | awk -v max="${FUZZ_CORPUS_MAX:-0}" -v s="${seed:-1}" '
			{ name[NR] = $0 }
			END { k = max > 0 ? int((NR + max - 1) / max) : 1; if (k < 1) k = 1
			      for (i = 1; i <= NR; i++) if (i % k == s % k) print name[i] }' |
		while read -r f; do mv "$dir/.grown/$f" "$dir/"; done
		rm -rf "$dir/.grown"
	fi
	true
}

# The maximum input length of TARGET.
fuzz_maxlen() {
	case $1 in
	fuzz_share|fuzz_elf) echo 131072 ;;
	fuzz_tracepoint|fuzz_unwind) echo 262144 ;;
	*) echo 65536 ;;
	esac
}
