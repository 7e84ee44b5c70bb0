#!/bin/sh
# timehist_perf.sh - schedlint timehist's whole output, option by option,
# line by line against perf sched timehist's of the same perf.data (perf
# 6.1's output committed: testdata/perf/timehist/, its cases file lists
# each invocation, make-perf.sh made them).  tests/timehist_check.py lines
# takes out of perf's lines only the differences by design the man page
# gives (COMPARED WITH PERF SCHED TIMEHIST), counts each kind, and counts
# every other line that differs: that count is pinned here per case (0
# but where the man page says why: runs across lost events).
. tests/lib.sh
D=$TESTDATA/perf/timehist

# cases whose lines differ by design beyond what the check takes out:
# lost.data's runs across lost events (perf measures them, we do not)
want_differ() {
	case "$1|$2" in
	'lost|-V -n') echo 482 ;;
	'lost|-w -M --cpu=0') echo 366 ;;
	*) echo 0 ;;
	esac
}

# trace.dat input: one run recorded by schedlint record and perf sched
# record at once (pair.dat, pair.timehist.xz: perf's -w -M --state of the
# perf.data), its clock perf's + 24.310 ms: every row of perf's within
# the trace.dat's span (10 ms in from either end) is one of ours at the
# same time (2 us), CPU and task.  But: 17 rows whose task's switch-out
# before is before the trace.dat starts (no wait time: "before"), and one
# switch the two recorders timed 75 us apart (a stall between the two
# probes of the tracepoint): it, and the wait or run of the 2 rows after.
"$SCHEDLINT" timehist --no-pager --system -w -M --state "$D/pair.dat" > "$TMP/pair" 2> "$TMP/err"
python3 tests/timehist_check.py rows "$TMP/pair" "$D/pair.timehist.xz" --offset-us=24310 > "$TMP/check" 2>&1
expect_eq "pair.dat (a trace.dat) against perf's rows of the perf.data recorded beside it" \
	"$(sed -n 's/^\([a-z]*\): ours \([0-9]*\), perf \([0-9]*\), matched \([0-9]*\)$/\1 \2=\3=\4/p; s/^matched switch rows that differ: //p' "$TMP/check" | tr '\n' '/')" \
	"switch 572=572=571/wakeup 333=333=333/migrate 6=6=6/lost 0=0=0/wait 2, delay 0, run 1, state 0, comm 18, before 17/"

grep -v '^#' "$D/cases" | while IFS='	' read -r name opts; do
	data=$TMP/$name.data
	if [ ! -e "$data" ]; then
		if [ -e "$D/$name.data.xz" ]; then
			xz -dc "$D/$name.data.xz" > "$data"
		else
			cp "$TESTDATA/perf/$name.data" "$data"
		fi
	fi
	slug=$(printf '%s' "$opts" | tr -c 'A-Za-z0-9=,.' '_' | sed 's/_\+/_/g; s/^_//; s/_$//')
	# shellcheck disable=SC2086
	"$SCHEDLINT" timehist --no-pager $opts "$data" > "$TMP/ours" 2> "$TMP/err"
	rc=$?
	# shellcheck disable=SC2086
	python3 tests/timehist_check.py lines "$TMP/ours" "$D/$name.${slug:-plain}.xz" $opts > "$TMP/check" 2>&1
	differ=$(sed -n 's/^lines: .*, differ \([0-9]*\)$/\1/p' "$TMP/check")
	want=$(want_differ "$name" "$opts")
	if [ "$rc" = 0 ] && [ "$differ" = "$want" ]; then
		pass "$name timehist $opts: perf's lines: $(head -2 "$TMP/check" | tr '\n' ' ')"
	else
		fail "$name timehist $opts against perf's" \
			"rc $rc, lines that differ ${differ:-?} (want $want): $(cat "$TMP/check" "$TMP/err" | head -16 | tr '\n' ' ')"
	fi
done > "$TMP/tap"
cat "$TMP/tap"
_n=$((_n + $(grep -c '^\(not \)\?ok ' "$TMP/tap")))
echo "1..$_n"
grep -q '^not ok ' "$TMP/tap" && exit 1
exit 0
