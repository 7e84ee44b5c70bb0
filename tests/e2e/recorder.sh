#!/bin/sh
# recorder.sh - schedlint record does not disturb what it records, and
# its report names it (issue 36).
#
# 1. recorder-culprit.scn (expectations written in the .scn and its
#    .expect.json first): the text report names the recorder's task as
#    "(schedlint record itself)" where it ran late and where it waited,
#    and gives its runs in the trace facts.
# 2. A real recording of perf bench sched pipe (root): from the trace,
#    read by trace-cmd report and bench/record_cost.py, never by
#    schedlint, the recorder's bursts while the workload ran - its CPU
#    time from a wakeup to its next sleep, runs cut by preemptions added
#    up.  A loaded machine preempts anything, and a preempted run is as
#    long as the scheduler makes it: what the recorder controls is how
#    much it works before it sleeps (150 us at a time, 40-50 bursts in
#    a recording).  The recorder before issue 36 worked 3-15 ms at a
#    stretch in every recording: 4-8 of its 5-9 runs over 500 us, most of
#    its CPU time past 500 us into a burst.  But the trace's clock runs
#    on while interrupts or the hypervisor (steal) take the vCPU away, so
#    on a loaded VM a burst of 150 us can show as 865 us: no single burst
#    may decide.  The test: the bursts' time past 500 us, summed, is at
#    most 20% of the recorder's time in bursts while the workload ran
#    (bench/record_cost.py over_long_pct), in one of up to three
#    recordings.  Measured: this recorder 0% (one recording of 17 had a
#    burst stretched to 2.6 ms: 22%; the 865 us seen at load 8-17 is 5%),
#    the recorder before issue 36 (5fcbb90, 14-16 ms bursts) 96-97%, a
#    build slowed on purpose to work 2 ms every 8th run 44-47%.  Then
#    analyze must name the task that wrote the workload marker as the
#    recorder.
# 3. --live states its own cost, apart from the recording's.
. tests/lib.sh

can_record=
if [ "$(id -u)" = 0 ] && command -v perf > /dev/null && command -v trace-cmd > /dev/null; then
	can_record=1
	recording_test_alone	# (tests/lib.sh): the rest runs holding the lock
fi

SCN=$TESTDATA/scenarios/recorder-culprit
if "$SCHEDGEN" scenario "$SCN.scn" -o "$TMP/rc.dat" 2> "$TMP/err"; then
	"$SCHEDLINT" analyze --color=never "$TMP/rc.dat" > "$TMP/rc.txt" 2>&1
	check "scenario: the trace facts name the recorder and its share of a CPU" grep -q \
		'^  recorder schedlint record itself, pid 400: 44.4% of a CPU (8.00 ms)$' "$TMP/rc.txt"
	check "scenario: ... its runs and the longest" grep -q \
		'2 runs, the longest 7.00 ms at 0.001000$' "$TMP/rc.txt"
	# the finding's line, wrapped or not
	check "scenario: the late-preemption culprit is named as the recorder" sh -c \
		"tr -s ' \n' ' ' < '$TMP/rc.txt' | grep -q 'schedlint:400 (schedlint record itself) ran 7.00 ms'"
	COLUMNS=200 "$SCHEDLINT" analyze --color=never --system "$TMP/rc.dat" > "$TMP/sys.txt" 2>&1
	check "scenario --system: the recorder as the victim, named" grep -q \
		'schedlint:400 (schedlint record itself) waited 8.00 ms' "$TMP/sys.txt"
	check "scenario --system: named in the table of who waited" sh -c \
		"grep -A1 '^  schedlint:400  *1  *6.50 ms\$' '$TMP/sys.txt' | grep -q '^    (schedlint record itself)\$'"
	# a finding says whether its task is the recorder: true or false, as
	# the trace names one (null only in a trace that names none)
	"$SCHEDLINT" analyze --json --system "$TMP/rc.dat" > "$TMP/sys.json" 2>&1
	expect_eq "scenario --system --json: findings[].recorder true for pid 400, false for 501" \
		"$(json "$TMP/sys.json" 'sorted((f["pid"], f["recorder"]) for f in d["findings"])')" \
		"[(400, True), (501, False)]"
else
	fail "schedgen recorder-culprit.scn" "$(cat "$TMP/err")"
fi

if [ -z "$can_record" ]; then
	_n=$((_n + 1))
	echo "ok $_n - schedlint record's own cost # SKIP needs root, perf and trace-cmd"
	echo "1..$_n"
	exit 0
fi

for attempt in 1 2 3; do
	"$SCHEDLINT" record -o "$TMP/pipe.dat" -- perf bench sched pipe -l 50000 \
		> /dev/null 2> "$TMP/err"
	rc=$?
	[ $rc = 0 ] || break
	trace-cmd report -N "$TMP/pipe.dat" 2>/dev/null |
		python3 bench/record_cost.py --marker --workload-marker > "$TMP/cost.json"
	ok=$(json "$TMP/cost.json" 'd["while_workload"]["over_long_pct"] <= 20')
	[ "$ok" = True ] && break
done
expect_eq "record: exit status" "$rc" 0
if [ "$ok" = True ]; then
	pass "record: its bursts while the workload ran past 500 us for at most 20% of their time ($(json "$TMP/cost.json" \
'"%d events, recorder %.1f ms in %d runs, longest burst %d us, %.1f%% past 500 us" % (d["events"],
 d["while_workload"]["run_ms"], d["while_workload"]["runs"], d["while_workload"]["longest_burst_us"],
 d["while_workload"]["over_long_pct"])'), attempt $attempt)"
else
	fail "record: its bursts while the workload ran past 500 us for at most 20% of their time" \
		"3 recordings; the last: $(cat "$TMP/cost.json") (load $(cut -d' ' -f1-3 /proc/loadavg))"
fi

# the recorder as analyze names it: the task that wrote the workload marker
writer=$(trace-cmd report -N "$TMP/pipe.dat" 2>/dev/null |
	sed -n 's/^ *.*-\([0-9][0-9]*\) *\[[0-9]*\].* print: .*schedlint: workload pid=.*/\1/p' | head -1)
"$SCHEDLINT" analyze --json "$TMP/pipe.dat" > "$TMP/a.json" 2> "$TMP/err"
expect_eq "analyze --json: trace.recorder is the task that wrote the marker" \
	"$(json "$TMP/a.json" 'd["trace"]["recorder"]["pid"]')" "$writer"
check "analyze --json: the recorder ran, and its runs are counted" test \
	"$(json "$TMP/a.json" 'int(d["trace"]["recorder"]["runs"] > 0 and d["trace"]["recorder"]["run_ns"] > 0)')" = 1
"$SCHEDLINT" analyze --color=never "$TMP/pipe.dat" > "$TMP/a.txt" 2>&1
check "analyze: the trace facts say what the recorder cost" grep -q \
	"^  recorder schedlint record itself, pid $writer: [0-9.]*% of a CPU" "$TMP/a.txt"
rm -f "$TMP/pipe.dat"

# --live states its own cost apart: in each summary, and at the end
"$SCHEDLINT" record --live --interval 200ms --duration 1 -o "$TMP/live.dat" \
	> "$TMP/live.out" 2> "$TMP/live.err"
expect_eq "--live: exit status" "$?" 0
check "--live: each summary says what recording and analysis cost" grep -q \
	'^  own cost  recording [0-9.]*% of a CPU, live analysis [0-9.]*%$' "$TMP/live.out"
check "--live: the totals at the end, the analysis apart" grep -q \
	'^schedlint record: its own CPU while recording: [0-9.]* s reading and writing ([0-9.]*% of a CPU), [0-9.]* s live analysis ([0-9.]*%)$' \
	"$TMP/live.err"
rm -f "$TMP/live.dat"
echo "1..$_n"
