#!/bin/sh
# foreign_formats.sh - event formats of other kernels: a trace is never
# refused over the format of an event schedlint does not decode (at most a
# note), and a print format libtraceevent parses in full passes our checks
# or is refused with their one-line error, never a crash.  The statement
# expressions kernels print are in testdata/bad/format-statement-expression.
. tests/lib.sh

# an undecoded event whose print fmt has a string followed by '.', which
# crashed libtraceevent in sched_switch (format-print-string-then-dot)
cat > "$TMP/odd.format" <<'FMT'
name: odd_event
ID: 1802
format:
	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
	field:int common_pid;	offset:4;	size:4;	signed:1;

	field:int a;	offset:8;	size:4;	signed:1;

print fmt: "%s %d", REC->a ? "+" : "". REC->a, REC->a
FMT
"$SCHEDGEN" scenario "$TESTDATA/scenarios/pingpong.scn" --event-format "oddsys:$TMP/odd.format" \
	-o "$TMP/odd.dat" >/dev/null

"$SCHEDLINT" analyze --json --reader=flyrecord "$TMP/odd.dat" > "$TMP/out.json" 2> "$TMP/err"
expect_eq "undecoded odd format: analyzed (flyrecord)" "$?" 0
expect_eq "undecoded odd format: no message" "$(cat "$TMP/err")" ""
expect_eq "undecoded odd format: counted as ignored" \
	"$(json "$TMP/out.json" 'd["trace"]["formats_ignored"]')" 1
expect_eq "undecoded odd format: the rest analyzed" \
	"$(json "$TMP/out.json" 'd["wakeup_latency"]["count"]')" 10
# one line however long: the report fits COLUMNS
COLUMNS=400 "$SCHEDLINT" analyze --reader=flyrecord "$TMP/odd.dat" > "$TMP/out.txt" 2>&1
check "undecoded odd format: the report notes it" \
	grep -q "^  note     1 event format of events not decoded looks malformed (oddsys:odd_event)" \
	"$TMP/out.txt"

# libtracecmd parses every format in full: our check refuses it, in one line
"$SCHEDLINT" analyze --reader=libtracecmd "$TMP/odd.dat" > "$TMP/out.txt" 2> "$TMP/err"
expect_eq "undecoded odd format: refused by the libtracecmd reader" "$?" 2
expect_eq "undecoded odd format: one line" "$(wc -l < "$TMP/err")" 1
check "undecoded odd format: the existing message" grep -q \
	"corrupt event format odd_event: its print fmt has a string followed by something else" \
	"$TMP/err"
expect_eq "undecoded odd format: nothing on stdout" "$(wc -c < "$TMP/out.txt")" 0

echo "1..$_n"
