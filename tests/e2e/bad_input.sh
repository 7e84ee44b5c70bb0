#!/bin/sh
# bad_input.sh - bad input gets one clear error line naming the file,
# exit status 2, and nothing on stdout: never a crash or partial output.
. tests/lib.sh

# expect_error NAME FILE [ARGS...]: exit 2, stdout empty, one stderr line naming FILE
expect_error() {
	name=$1 file=$2; shift 2
	# a hang is a failure too (kbuffer loops for ever on some corrupt pages)
	timeout 120 "$SCHEDLINT" analyze "$@" "$file" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	lines=$(wc -l < "$TMP/err")
	if [ "$rc" = 2 ] && [ ! -s "$TMP/out" ] && [ "$lines" = 1 ] && grep -qF "$file" "$TMP/err"; then
		pass "$name: exit 2 with one line ($(cat "$TMP/err"))"
	else
		fail "$name: exit 2 with one line naming the file" \
			"rc=$rc stdout=$(wc -c < "$TMP/out")B stderr: $(head -c 300 "$TMP/err")"
	fi
}

: > "$TMP/empty.dat"
expect_error "empty file" "$TMP/empty.dat"
expect_error "missing file" "$TMP/does-not-exist.dat"
expect_error "a directory" "$TMP"
head -c 65536 /dev/urandom > "$TMP/random.bin"
expect_error "random bytes" "$TMP/random.bin"
printf 'hello world\nthis is not a trace\n%.0s' 1 2 3 > "$TMP/garbage.txt"
expect_error "garbage text" "$TMP/garbage.txt"
printf '\027\010\104tracing9\000\000\010\000\020\000\000' > "$TMP/v9.dat"
expect_error "unsupported version" "$TMP/v9.dat"
printf '\027\010\104trac' > "$TMP/short.dat"
expect_error "truncated magic" "$TMP/short.dat"

# truncated at many offsets: a recorded v7 zstd file and its v6 conversion
for dat in "$TESTDATA/real/hogs.dat"; do
	trace-cmd convert --file-version 6 -i "$dat" -o "$TMP/v6.dat" >/dev/null 2>&1
	for src in "$dat" "$TMP/v6.dat"; do
		size=$(wc -c < "$src")
		for frac in 1 5 20 40 60 80 90 95 99; do
			n=$((size * frac / 100))
			head -c "$n" "$src" > "$TMP/trunc.dat"
			expect_error "$(basename "$src") truncated at $frac% ($n bytes)" "$TMP/trunc.dat"
		done
		# the end of the file: the CPU data in v6, the last options
		# section in v7 (libtracecmd does not notice that one missing)
		for cut in 1 8 4096 20000; do
			n=$((size - cut))
			head -c "$n" "$src" > "$TMP/trunc.dat"
			expect_error "$(basename "$src") without its last $cut bytes" "$TMP/trunc.dat"
			expect_error "$(basename "$src") without its last $cut bytes (libtracecmd)" \
				"$TMP/trunc.dat" --reader=libtracecmd
		done
	done
done

# v7 cut exactly between two sections, and inside each: the sections still
# tile what is left when the cut falls between them, so only the missing
# strings section (written last, pointed to by nothing but the sections'
# descriptions) tells; libtracecmd reads such a file without a word.
trace-cmd convert --compression none -i "$TESTDATA/real/hogs.dat" -o "$TMP/none.dat" >/dev/null 2>&1
for src in "$TESTDATA/real/hogs.dat" "$TMP/none.dat"; do
	label="$(basename "$src") v7 $(python3 tests/dat_edit.py sections "$src" | wc -l) sections"
	python3 tests/dat_edit.py sections "$src" > "$TMP/sections"
	check "$label: the last is the strings section" test "$(tail -1 "$TMP/sections" | cut -d' ' -f2)" = 15
	while read -r off id size; do
		[ "$off" -gt 64 ] || continue
		for n in "$off" $((off + 16 + size / 2)); do
			[ "$n" -lt "$(wc -c < "$src")" ] || continue
			head -c "$n" "$src" > "$TMP/trunc.dat"
			for reader in flyrecord libtracecmd; do
				expect_error "$label cut at byte $n (section id $id at $off, $reader)" \
					"$TMP/trunc.dat" --reader=$reader
			done
		done
	done < "$TMP/sections"
done

# Corrupt ring-buffer pages (tests/dat_edit.py): an error naming the CPU and
# the page, from both readers (the libtracecmd one checks the pages before
# libtracecmd reads them: kbuffer would loop for ever on padding-loop).
export SCHEDLINT
trace-cmd convert --file-version 6 -i "$TESTDATA/real/hackbench.dat" -o "$TMP/hb6.dat" >/dev/null 2>&1
trace-cmd convert --compression none -i "$TESTDATA/real/hackbench.dat" -o "$TMP/hb7.dat" >/dev/null 2>&1
for kind in commit overrun big-length padding-loop lost-room; do
	for src in "$TMP/hb6.dat" "$TMP/hb7.dat"; do
		python3 tests/dat_edit.py edit "$src" "$TMP/corrupt.dat" $kind
		for reader in flyrecord libtracecmd; do
			expect_error "$(basename "$src") $kind page ($reader)" "$TMP/corrupt.dat" \
				--reader=$reader
			check "$(basename "$src") $kind page ($reader): names the CPU and page" \
				grep -q "corrupt trace.dat: CPU [0-9]*: .*(page at byte [0-9]*)" "$TMP/err"
		done
	done
done
# compressed chunks: one that runs past the CPU's data, one with garbage
# inside (zstd keeps no checksum: the garbage surfaces as a bad page or event);
# a CPU's chunk count that does not match its data (0xffffffff once made
# explore allocate 96 GB, 1 or 0 dropped the rest of the CPU silently)
for kind in chunk-size chunk-data count-huge count-short count-zero count-long; do
	python3 tests/dat_edit.py edit "$TESTDATA/real/hackbench.dat" "$TMP/corrupt.dat" $kind
	for reader in flyrecord libtracecmd; do
		expect_error "v7 zstd $kind ($reader)" "$TMP/corrupt.dat" --reader=$reader
		check "v7 zstd $kind ($reader): names the CPU" \
			grep -q "corrupt trace.dat: CPU [0-9]*: " "$TMP/err"
	done
done

# a bad option is a usage error, not an analysis
"$SCHEDLINT" analyze --min-cost=banana "$TESTDATA/real/hogs.dat" > "$TMP/out" 2> "$TMP/err"
rc=$?
if [ "$rc" = 2 ] && [ ! -s "$TMP/out" ] && grep -q 'min-cost' "$TMP/err"; then
	pass "bad option value: exit 2, names the option"
else
	fail "bad option value: exit 2, names the option" "rc=$rc $(cat "$TMP/err")"
fi
"$SCHEDLINT" analyze --no-such-option "$TESTDATA/real/hogs.dat" > "$TMP/out" 2> "$TMP/err"
expect_eq "unknown option: exit 2" "$?" 2
"$SCHEDLINT" frobnicate > "$TMP/out" 2> "$TMP/err"
expect_eq "unknown command: exit 2" "$?" 2

# --- a trace.dat's options on a perf.data or a text: refused (issue 32, 16) ---
# --buffer=x on a text or a perf.data analyzed everything, exit 0, no word.
for f in real/pipe.txt perf/pipe.data; do
	for o in --buffer=x --reader=libtracecmd; do
		"$SCHEDLINT" analyze $o "$TESTDATA/$f" > "$TMP/out" 2> "$TMP/err"
		expect_eq "analyze $o $f: exit 2, one line saying so, nothing on stdout" \
			"$?, $(wc -l < "$TMP/err"), $(grep -c -- "${o%%=*} applies to a trace.dat" "$TMP/err"), $(wc -c < "$TMP/out")" \
			"2, 1, 1, 0"
	done
done

# --- --llc naming CPUs the trace does not have: refused as --cpus is (issue 32, 22) ---
"$SCHEDLINT" analyze --llc=5-6 "$TESTDATA/real/pipe.dat" > "$TMP/out" 2> "$TMP/err"
expect_eq "--llc=5-6 on a 2-CPU trace: exit 2, says which CPU" \
	"$?, $(cat "$TMP/err"), $(wc -c < "$TMP/out")" \
	"2, schedlint: $TESTDATA/real/pipe.dat: --llc 5-6: CPU 5 is not in the trace (it has 2 CPUs), 0"
"$SCHEDLINT" analyze --llc=0-1 "$TESTDATA/real/pipe.dat" > /dev/null 2>&1
expect_eq "--llc=0-1 on it: exit 0" "$?" 0

echo "1..$_n"
