#!/bin/sh
# picture.sh - the pictures of large LLCs under the findings (picture.h):
# taken with the census of idle and unknown CPUs, in O(pictured CPUs), they
# must equal the pass over the LLC they replace.  SCHEDLINT_VERIFY_PICTURES=1
# takes every picture both ways and aborts when they differ; here it runs
# on a 40-CPU scenario whose CPUs turn unknown in each of the model's ways
# (lost events, a switch-out missed, a reused pid), on a 64-CPU load with
# and without --llc domains, and on the real traces (lost events).
. tests/lib.sh

# verified NAME FILE [OPTIONS...]: analyze with the check on, text and --json
verified() {
	_name=$1 _file=$2; shift 2
	for _fmt in text json; do
		if [ $_fmt = json ]; then set -- --json "$@"; fi
		SCHEDLINT_VERIFY_PICTURES=1 "$SCHEDLINT" analyze "$@" "$_file" > "$TMP/out.$_fmt" 2> "$TMP/err"
		_rc=$?
		if [ $_rc -gt 1 ] || grep -q 'sl_picture_take_counted\|Sanitizer\|runtime error' "$TMP/err"; then
			fail "$_name ($_fmt): every picture equals the pass over the LLC" \
				"exit status $_rc: $(head -3 "$TMP/err")"
			return
		fi
	done
	pass "$_name: every picture equals the pass over the LLC"
}

scn=stacking-large-llc
if ! "$SCHEDGEN" scenario "$TESTDATA/scenarios/$scn.scn" -o "$TMP/$scn.dat" --text "$TMP/$scn.txt" 2> "$TMP/err"; then
	fail "$scn: schedgen" "$(cat "$TMP/err")"
else
	for fmt in dat txt; do
		verified "$scn.$fmt" "$TMP/$scn.$fmt"
		SCHEDLINT_VERIFY_PICTURES=1 "$SCHEDLINT" analyze "$TMP/$scn.$fmt" > "$TMP/out" 2>&1
		# the expectation is worked out in the scenario's comment
		expect_eq "$scn.$fmt: the placement's CPU is pictured beyond the first 16" \
			"$(grep -c 'cpu33 *runs h33:133; pending t:500\* *<- placed here' "$TMP/out")" 1
		expect_eq "$scn.$fmt: the rest of the LLC is counted busy, idle and unknown" \
			"$(grep 'more CPUs' "$TMP/out" | sed 's/^ *//')" \
			"... 31 more CPUs: 23 busy, 5 idle, 3 unknown"
	done
fi

if ! "$SCHEDGEN" scale --cpus 64 --events 200000 --seed 3 -o "$TMP/s64.dat" 2> "$TMP/err"; then
	fail "scale 64 cpus: schedgen" "$(cat "$TMP/err")"
else
	verified "scale 64 cpus, one LLC" "$TMP/s64.dat"
	verified "scale 64 cpus, --llc 4 x 16" "$TMP/s64.dat" --llc=0-15,16-31,32-47,48-63
	verified "scale 64 cpus, --llc uneven, CPUs of no domain" "$TMP/s64.dat" \
		--llc=0-7+32-39,8-29,40-63 --assume-migratable
fi

# the LLC layout learnt late: schedlint record's marker after 3000 events,
# written by the task that runs its CPU then (no switch is implied)
if ! "$SCHEDGEN" scale --cpus 64 --events 200000 --seed 3 --text "$TMP/s64.txt" 2> "$TMP/err"; then
	fail "scale 64 cpus text: schedgen" "$(cat "$TMP/err")"
else
	awk 'NR == 3003 { print "      sched-pipe-1089    [013] d..3.   100.001479: " \
			  "tracing_mark_write: schedlint: llc=0-15,16-31,32-47,48-63" } { print }' \
		"$TMP/s64.txt" > "$TMP/s64m.txt"
	verified "scale 64 cpus, the LLC marker after 3000 events" "$TMP/s64m.txt"
	expect_eq "the late LLC marker is read, and no switch is implied for it" \
		"$("$SCHEDLINT" analyze "$TMP/s64m.txt" | grep -c 'from trace marker\|missing from the trace')" 1
fi

# CPUs named one at a time, each new one busy with a wakee placed on it
# while CPU 0 idles: every placement looks at the LLC, which grows by one
awk 'BEGIN {
	print "# tracer: nop"
	print "          <idle>-0     [000] d..2. 100.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=swapper/0 next_pid=0 next_prio=120"
	for (c = 1; c < 3000; c++) {
		ts = sprintf("100.%06d", c)
		printf "          <idle>-0     [%03d] d..2. %s: sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=hog next_pid=%d next_prio=120\n", c, ts, c, 10000 + c
		printf "             hog-%d  [%03d] d..2. %s: sched_waking: comm=w pid=%d prio=120 target_cpu=%03d\n", 10000 + c, c, ts, 20000 + c, c
	}
}' > "$TMP/growing.txt"
verified "3000 CPUs named one at a time" "$TMP/growing.txt"

for f in "$TESTDATA"/real/*.dat; do
	verified "$(basename "$f")" "$f"
done
