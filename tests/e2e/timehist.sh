#!/bin/sh
# timehist.sh - schedlint timehist, line by line against perf sched timehist
# of the same perf.data (committed: testdata/perf/X.timehist), checked by
# tests/timehist_check.py (see there for what perf shows otherwise and why);
# the counts it prints are pinned as they were the first time (a change is
# a change of the model or of the check, to be explained).  Then the
# filters, and bad input.
. tests/lib.sh
D=$TESTDATA/perf

# check_vs_perf NAME LINES STILL_RUNNING EARLY
check_vs_perf() {
	"$SCHEDLINT" timehist "$D/$1.data" > "$TMP/ours" 2> "$TMP/err"
	rc=$?
	python3 tests/timehist_check.py "$TMP/ours" "$D/$1.timehist" > "$TMP/check" 2>&1
	crc=$?
	got="$rc/$crc/$(sed -n 's/^\([0-9]*\) lines of ours: [0-9]* matched to perf.s (\([0-9]*\) woken while still running.*, \([0-9]*\) still running at the end.*/\1 \3 \2/p' "$TMP/check")"
	if [ "$got" = "0/0/$2 $3 $4" ]; then
		pass "$1: $(cat "$TMP/check")"
	else
		fail "$1: timehist equals perf sched timehist" "got $got, want 0/0/$2 $3 $4: $(head -3 "$TMP/check" | tr '\n' ' ') $(head -1 "$TMP/err")"
	fi
}
check_vs_perf pipe-wakeup 338 1 0
check_vs_perf pipe 336 1 0
check_vs_perf messaging-wakeup 462 5 1

# the header, then one line per wakeup: time [cpu] task[pid] woken slept wait ran
"$SCHEDLINT" timehist "$D/pipe-wakeup.data" > "$TMP/all"
expect_eq "timehist: two header lines, then 338 lines" \
	"$(sed -n '1p' "$TMP/all" | awk '{ print $1, $2, $3 }')/$(wc -l < "$TMP/all")" "time cpu task[pid]/340"
# the filters select as analyze's: its latency sample count is the line count
"$SCHEDLINT" analyze --json --comm=sched-pipe "$D/pipe-wakeup.data" > "$TMP/a.json"
"$SCHEDLINT" timehist --comm=sched-pipe "$D/pipe-wakeup.data" > "$TMP/c"
expect_eq "timehist --comm: the lines of that comm only, as many as analyze's samples" \
	"$(tail -n +3 "$TMP/c" | grep -vc 'sched-pipe\[')/$(tail -n +3 "$TMP/c" | wc -l)" \
	"0/$(json "$TMP/a.json" 'd["wakeup_latency"]["count"]')"
"$SCHEDLINT" timehist --cpus=1 "$D/pipe-wakeup.data" > "$TMP/c"
expect_eq "timehist --cpus=1: only lines of CPU 1" \
	"$(tail -n +3 "$TMP/c" | grep -vc ' \[001\] ')" "0"
# a filter that matches nothing fails closed, as in analyze (exit 2, one line)
"$SCHEDLINT" timehist --pid=999999 "$D/pipe-wakeup.data" > "$TMP/c" 2> "$TMP/err"
expect_eq "timehist --pid of no task: exit 2 naming the filter, nothing on stdout" \
	"$?/$(wc -c < "$TMP/c")/$(grep -c -- '--pid 999999: no task with this pid in the trace' "$TMP/err")" "2/0/1"

# bad input: one line, exit 2, nothing on stdout (no partial listing)
python3 tests/perf_edit.py edit "$D/pipe-wakeup.data" "$TMP/bad.data" sample-size-short
"$SCHEDLINT" timehist "$TMP/bad.data" > "$TMP/out" 2> "$TMP/err"
expect_eq "timehist of a corrupt perf.data: exit 2, one line, no output" \
	"$?/$(wc -l < "$TMP/err")/$(wc -c < "$TMP/out")" "2/1/0"
"$SCHEDLINT" timehist --bogus "$D/pipe-wakeup.data" > "$TMP/out" 2> "$TMP/err"
expect_eq "timehist --bogus: exit 2" "$?" "2"
echo "1..$_n"
