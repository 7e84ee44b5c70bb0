#!/bin/sh
# options.sh - an option or argument a command would not use is refused:
# exit 2, nothing on stdout, one error line naming it (and at most the
# usage after it), never silently ignored.  'schedlint version
# --bogus' printed the version and exited 0; 'analyze --json --brief'
# wrote the whole JSON report as if --brief had not been given.
#
# --help is the exception, as in GNU tools: the options and arguments
# before it are checked, what follows it is not ('schedlint analyze
# trace.dat --help' shows analyze's options).
. tests/lib.sh

D=$TESTDATA/real/pipe.dat

# One case a line: ARGS | a string the error line must hold.
# ARGS are split on blanks; @D stands for a trace, @T for a scratch file.
while IFS='|' read -r args want; do
	case $args in ''|'#'*) continue ;; esac
	args=$(echo "$args" | sed "s|@D|$D|g; s|@T|$TMP/o|g; s/ *$//")
	want=$(echo "$want" | sed 's/^ *//')
	# shellcheck disable=SC2086
	timeout 60 "$SCHEDLINT" --no-pager $args < /dev/null > "$TMP/out" 2> "$TMP/err"
	rc=$?
	lines=$(wc -l < "$TMP/err")
	# the usage after the error may go on over indented lines (record's has three)
	if [ "$rc" = 2 ] && [ ! -s "$TMP/out" ] && [ "$lines" -ge 1 ] &&
	   head -n 1 "$TMP/err" | grep -qF -- "$want" &&
	   { [ "$lines" = 1 ] || { sed -n 2p "$TMP/err" | grep -q '^usage: ' &&
	     ! sed -n '3,$p' "$TMP/err" | grep -qv '^ '; }; }; then
		pass "schedlint $args: exit 2, one error ($(head -n 1 "$TMP/err"))"
	else
		fail "schedlint $args: exit 2, nothing on stdout, one error holding '$want'" \
			"rc=$rc stdout=$(wc -c < "$TMP/out")B stderr: $(head -c 300 "$TMP/err")"
	fi
done <<'EOF'
# the global options, help and version
version --bogus                 | 'version' takes no arguments (got '--bogus')
version extra                   | 'version' takes no arguments (got 'extra')
--version --bogus               | '--version' takes no arguments (got '--bogus')
-V extra                        | '-V' takes no arguments (got 'extra')
-v extra                        | '-v' takes no arguments (got 'extra')
--help extra                    | '--help' takes no arguments (got 'extra')
-h --bogus                      | '-h' takes no arguments (got '--bogus')
help analyze extra              | 'help' takes one command (got 'extra' too)
help --bogus                    | unknown command '--bogus'
--bogus                         | unknown option '--bogus'
--no-pager --bogus analyze @D   | unknown option '--bogus'
# analyze: the text report's options with a report that is not text
analyze --json --brief @D       | --brief shapes the text report, not --json's
analyze --json --full @D        | --full shapes the text report, not --json's
analyze --json --top=3 @D       | --top shapes the text report, not --json's
analyze --json --color=always @D | --color shapes the text report, not --json's
analyze --html=- --brief @D     | --brief shapes the text report, not --html=-'s
analyze --html=- --top=3 @D     | --top shapes the text report, not --html=-'s
analyze --bogus @D              | unrecognized option '--bogus'
analyze --allow-unmeasured @D   | --allow-unmeasured applies to --fail-on rules, and none is given
analyze @D extra                | one trace at a time (got 'extra' too)
# diff: --list-metrics lists and exits; runs beside it were never read
diff --list-metrics @D          | --list-metrics takes no runs (got 'testdata/real/pipe.dat')
diff --list-metrics --bogus     | unrecognized option '--bogus'
diff --json --color=always @D @D | --color shapes the text table, not --json's
diff --allow-unmeasured --fail-on=none @D @D | --allow-unmeasured applies to --fail-on rules, and --fail-on none gives none
# diff: its metrics have no latency-over-time windows (--window changed nothing)
diff --window=1ms @D @D         | --window shapes analyze's latency over time; diff's metrics have none
# dump --layout prints where the CPU data is, not the events
dump --layout --ns @D           | --ns applies to the events, not to --layout
dump --layout --cpus=0 @D       | --cpus applies to the events, not to --layout
dump --layout --from=+1ms @D    | --from applies to the events, not to --layout
dump @D extra                   | more than one trace given
# export: NDJSON has no latency-over-time windows
export -o @T.ndjson --window=1ms @D | --window shapes the Perfetto trace's latency counters; NDJSON has none
# timehist: -s prints no rows, -I only the switches into and out of idle
timehist -s -w @D               | -w adds rows; -s prints only the summary
timehist -s -n @D               | -n adds a column to the rows; -s prints only the summary
timehist -s -V @D               | -V adds a column to the rows; -s prints only the summary
timehist -s -S @D               | -s and -S exclude each other
timehist -I -w @D               | -w adds rows; -I prints only the switches into and out of idle
timehist -I -M @D               | -M adds rows; -I prints only the switches into and out of idle
# record: --interval is --live's refresh (refused before anything is recorded)
record --interval=2s -o @T.dat -- true | --interval is the refresh of --live's summary: it needs --live
# record --live reads the ring buffers, no trace.dat: the trace.dat reader's
# options were taken and ignored, and --buffer came back in the findings'
# dump commands ("schedlint dump ... --buffer foo out.dat": no such buffer)
record --live --reader=libtracecmd -o @T.dat -- true | --reader chooses how a trace.dat is read: record reads the ring buffers
record --live --buffer=foo -o @T.dat -- true | --buffer chooses how a trace.dat is read: record reads the ring buffers
EOF

# what must still work
for args in "version" "--version" "-V" "--help" "help" "analyze --help --bogus" \
	"analyze $D --help" "diff --list-metrics" "analyze --json $D" "analyze --brief --top=3 $D" \
	"dump --layout $D" "diff --color=always $D $D" "timehist -s -I --state $D" \
	"timehist -S -w -M -n -V $D" "timehist -I -n -V $D" "timehist -s -M $D"; do
	# shellcheck disable=SC2086
	MANPAGER=cat PAGER=cat MANWIDTH=80 timeout 60 "$SCHEDLINT" --no-pager $args < /dev/null \
		> "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ "$rc" = 0 ] && [ -s "$TMP/out" ]; then
		pass "schedlint $args: exit 0, output"
	else
		fail "schedlint $args: exit 0, output" "rc=$rc stderr: $(head -c 300 "$TMP/err")"
	fi
done
# dump --layout of a trace that is no trace.dat: it said "not a trace.dat
# file (bad magic)", as of a damaged one; a perf.data and a text have no
# such layout, and plain dump reads them
for t in "$TESTDATA/perf/pipe.data" "$TESTDATA/real/pipe.txt"; do
	"$SCHEDLINT" dump --layout "$t" > "$TMP/out" 2> "$TMP/err"
	expect_eq "dump --layout $(basename "$t"): exit 2, says it is no trace.dat" \
		"$?/$(wc -l < "$TMP/err")/$(grep -c "not a trace.dat: --layout shows a trace.dat's layout; schedlint dump without it reads" "$TMP/err")" "2/1/1"
done
# --markdown writes its usage errors as a Markdown table too, for the PR comment
"$SCHEDLINT" diff --markdown --color=always "$D" "$D" > "$TMP/out" 2> "$TMP/err"
expect_eq "diff --markdown --color=always: exit 2, the error says why" \
	"$?, $(head -n 1 "$TMP/err")" \
	"2, schedlint: diff: --color shapes the text table, not --markdown's"
"$SCHEDLINT" version > "$TMP/out" 2>&1
expect_eq "schedlint version prints the version alone" "$(grep -c '^schedlint [0-9]' "$TMP/out") $(wc -l < "$TMP/out")" "1 1"

echo "1..$_n"
