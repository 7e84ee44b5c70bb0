#!/bin/sh
# output_errors.sh - a closed pipe ends a command quietly; any other write
# error (a full disk) exits 2 with one message.  For every command that
# writes to stdout, and for help and version output.
. tests/lib.sh

T=$TESTDATA/real/hogs.dat
BIG=$TESTDATA/real/hackbench.dat	# its dump is megabytes: head closes early

# The commands that write (later ones join when they exist).  timehist
# of pipe.dat lost the errno ("Input/output error": issue 32, 13).
cmds="analyze $T
analyze --json $T
dump $T
timehist $T
timehist $TESTDATA/real/pipe.dat
analyze --help
dump --help
--help
--version"
for c in diff explore record; do
	"$SCHEDLINT" $c --help >/dev/null 2>&1 && cmds="$cmds
$c --help"
done
if "$SCHEDLINT" diff --help >/dev/null 2>&1; then
	cmds="$cmds
diff $T $T
diff --json $T $T
diff --markdown $T $T"
fi

while IFS= read -r cmd; do
	# shellcheck disable=SC2086
	"$SCHEDLINT" $cmd > /dev/full 2> "$TMP/err"
	rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l < "$TMP/err")" = 1 ] &&
	   grep -q 'write error on output: No space left on device' "$TMP/err"; then
		pass "schedlint $cmd > /dev/full: exit 2, one message"
	else
		fail "schedlint $cmd > /dev/full: exit 2, one message" "rc=$rc $(head -c 300 "$TMP/err")"
	fi
done <<EOF
$cmds
EOF

# record on a full disk: exit 2, one message naming the file, no file left
# (needs root for tracefs and a small tmpfs: CI and make check run as root)
if [ "$(id -u)" = 0 ] && "$SCHEDLINT" record --help >/dev/null 2>&1; then
	mkdir -p "$TMP/tiny"
	if mount -t tmpfs -o size=16k tmpfs "$TMP/tiny"; then
		# (one recording test at a time on this machine: tests/lib.sh)
		record_locked "$SCHEDLINT" record -o "$TMP/tiny/t.dat" --duration 200ms -- true \
			> /dev/null 2> "$TMP/err.all"
		rc=$?
		# A record killed earlier on this machine (a cancelled job, another
		# test run) leaves its instance behind; this record removes it and
		# says so on a line of its own.  That note is not the error.
		grep -v '^schedlint record: removed the tracing instance ' "$TMP/err.all" > "$TMP/err"
		if [ "$rc" = 2 ] && [ "$(wc -l < "$TMP/err")" = 1 ] && grep -q "$TMP/tiny/t.dat" "$TMP/err" &&
		   grep -q 'No space left on device' "$TMP/err" && [ ! -e "$TMP/tiny/t.dat" ]; then
			pass "record -o FILE on a full disk: exit 2, one message naming FILE, no FILE"
		else
			fail "record -o FILE on a full disk: exit 2, one message naming FILE, no FILE" \
				"rc=$rc $(head -c 300 "$TMP/err") $(ls "$TMP/tiny")"
		fi
		umount "$TMP/tiny"
	else
		fail "mount a 16k tmpfs to fill up"
	fi
fi

# | head: SIGPIPE, no message, no core; also when SIGPIPE comes in ignored
for ign in "" "SIGPIPE ignored"; do
	for cmd in "dump $BIG" "analyze $BIG" "analyze --json $BIG"; do
		(
			[ -n "$ign" ] && trap '' PIPE
			# shellcheck disable=SC2086
			{ "$SCHEDLINT" $cmd 2> "$TMP/err"; echo $? > "$TMP/rc"; } | head -c 100 > "$TMP/out"
		)
		rc=$(cat "$TMP/rc")
		# analyze may have written its whole report before head closed: 0 is fine
		if { [ "$rc" = 141 ] || [ "$rc" = 0 ]; } && [ ! -s "$TMP/err" ] && [ -s "$TMP/out" ]; then
			pass "schedlint $cmd | head${ign:+ ($ign)}: quiet (status $rc)"
		else
			fail "schedlint $cmd | head${ign:+ ($ign)}: quiet" "rc=$rc stderr: $(head -c 300 "$TMP/err")"
		fi
	done
done
# the dump is long: the pipe must have closed on it
( { "$SCHEDLINT" dump "$BIG" 2>/dev/null; echo $? > "$TMP/rc"; } | head -1 >/dev/null )
expect_eq "schedlint dump BIG | head -1: ended by SIGPIPE" "$(cat "$TMP/rc")" 141
( trap '' PIPE; { "$SCHEDLINT" dump "$BIG" 2>/dev/null; echo $? > "$TMP/rc"; } | head -1 >/dev/null )
expect_eq "same with SIGPIPE ignored: ended by SIGPIPE all the same" "$(cat "$TMP/rc")" 141
echo "1..$_n"
