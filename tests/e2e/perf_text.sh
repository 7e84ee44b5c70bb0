#!/bin/sh
# perf_text.sh - perf script text and other texts without sched_wakeup or
# without a header (testdata/perf, see its README): each case is a defect
# that once gave a wrong number with exit 0.  Expected values come from the
# man page's definitions, worked out by hand on the few events of each file.
. tests/lib.sh

P=$TESTDATA/perf

# analyze FILE [OPTIONS...]: the JSON report in $TMP/out.json
analyze() {
	f=$1; shift
	if ! "$SCHEDLINT" analyze --json "$@" "$f" > "$TMP/out.json" 2> "$TMP/err"; then
		fail "$(basename "$f"): analyze" "$(cat "$TMP/err")"
		echo '{}' > "$TMP/out.json"
	fi
}
j() { json "$TMP/out.json" "$1" 2>/dev/null; }

# --- perf script -F pid,tid: "PID/-1" is an exited thread, not tid 1
analyze "$P/tid-minus1.F.txt"
expect_eq "tid-minus1.F: the tasks are the two the events name" \
	"$(j 'sorted(t["pid"] for t in d["tasks"])')" "[16660, 16681]"
expect_eq "tid-minus1.F: no switch is inferred" "$(j 'd["trace"]["implied_switches"]')" 0
analyze "$P/tid-minus1.txt"
expect_eq "tid-minus1: the same tasks without -F" \
	"$(j 'sorted(t["pid"] for t in d["tasks"])')" "[16660, 16681]"

# --- a stale sched_waking: A is woken at 1.000010 while it still runs
# (ttwu_runnable), sleeps at 1.000030, is woken at 1.000050 and runs at
# 1.000060: its latency is 10 us, not 50 us from the first waking.
for f in early-rewake early-rewake-wakeup; do
	analyze "$P/$f.perf.txt"
	expect_eq "$f: one latency sample" "$(j 'd["wakeup_latency"]["count"]')" 1
	expect_eq "$f: 10 us from the waking that woke it" \
		"$(j 'd["wakeup_latency"]["max_ns"]')" 10000
	expect_eq "$f: A was woken once" \
		"$(j '[t["wakeups"] for t in d["tasks"] if t["pid"] == 100][0]')" 1
	expect_eq "$f: A waited 10 us" \
		"$(j '[t["wait_ns"] for t in d["tasks"] if t["pid"] == 100][0]')" 10000
done

# --- a wakee switched in before its waker's next event is placed where it
# runs.  W (cpu1) wakes T at 1.000010 and sleeps at 1.000030 leaving cpu1
# idle; T runs on cpu0 at 1.000015 (early) or 1.000035 (late): a
# sync-wake-remote of 5 us or 25 us, with or without the IPI line.
for f in swr-early-run:5000 swr-early-run-ipi:5000 swr-late-run:25000; do
	name=${f%:*} cost=${f#*:}
	analyze "$P/$name.perf.txt"
	expect_eq "$name: one sync-wake-remote" \
		"$(j 'd["summary"]["sync-wake-remote"]["count"]')" 1
	expect_eq "$name: its cost is T's latency" \
		"$(j 'd["summary"]["sync-wake-remote"]["cost_ns"]')" "$cost"
done
# T woken at 1.000010 onto busy cpu0 while cpu2 is idle, runs at 1.000200:
# wakee-stacking of 190 us (T ran on one CPU only: --assume-migratable).
for name in ws-early-run ws-early-run-ipi; do
	analyze "$P/$name.perf.txt" --assume-migratable
	expect_eq "$name: one wakee-stacking" "$(j 'd["summary"]["wakee-stacking"]["count"]')" 1
	expect_eq "$name: its cost is T's latency" \
		"$(j 'd["summary"]["wakee-stacking"]["cost_ns"]')" 190000
done

# --- perf's lost events: "PERF_RECORD_LOST lost 7" on cpu0 at 1.000020,
# between A's waking (1.000010) and its switch-in (1.000500): a gap on
# cpu0, so that wakeup is not measured across it.  perf's warnings
# ("lost 1 chunks!") are no bad lines; the one chunk is placed.
analyze "$P/lost-gap.perf.txt"
expect_eq "lost-gap: the lost events" "$(j 'd["trace"]["lost_events"]')" 7
expect_eq "lost-gap: one gap" "$(j 'd["trace"]["lost_gaps"]')" 1
expect_eq "lost-gap: on cpu0" "$(j '[c["lost_events"] for c in d["cpus"]]')" "[7, 0]"
expect_eq "lost-gap: the wakeup across it is not measured" \
	"$(j 'd["trace"]["samples_dropped_at_gaps"]') $(j 'd["wakeup_latency"]["count"]')" "1 0"
expect_eq "lost-gap: perf's warnings are no bad lines" "$(j 'd["trace"]["bad_lines"]')" 0
expect_eq "lost-gap: the warned chunk is placed" "$(j 'd["trace"]["lost_unplaced"]')" 0
# the same without the PERF_RECORD_LOST line: measured, and the warning
# says a loss happened somewhere
grep -v PERF_RECORD_LOST "$P/lost-gap.perf.txt" > "$TMP/nolost.txt"
analyze "$TMP/nolost.txt"
expect_eq "lost-gap without the record: 490 us measured" \
	"$(j 'd["wakeup_latency"]["count"]') $(j 'd["wakeup_latency"]["max_ns"]')" "1 490000"
expect_eq "lost-gap without the record: one unplaced loss" "$(j 'd["trace"]["lost_unplaced"]')" 1
"$SCHEDLINT" analyze "$TMP/nolost.txt" > "$TMP/out.txt" 2>&1
check "lost-gap without the record: the report says perf lost events somewhere" \
	grep -q "perf lost events 1 times, the text does not say where" "$TMP/out.txt"

# a real perf script --show-lost-events excerpt (perf sched record -m 1 of
# perf bench sched messaging): totals and CPUs as its lines say
analyze "$P/perf-lost.txt"
sum=$(awk '/PERF_RECORD_LOST/ { s += $NF } END { print s }' "$P/perf-lost.txt")
n=$(grep -c PERF_RECORD_LOST "$P/perf-lost.txt")
cpu1=$(awk '/PERF_RECORD_LOST/ && $3 == "[001]" { s += $NF } END { print s }' "$P/perf-lost.txt")
expect_eq "perf-lost: lost events as the lines add up" "$(j 'd["trace"]["lost_events"]')" "$sum"
expect_eq "perf-lost: one gap per line" "$(j 'd["trace"]["lost_gaps"]')" "$n"
expect_eq "perf-lost: cpu1's" "$(j 'd["cpus"][1]["lost_events"]')" "$cpu1"
expect_eq "perf-lost: no bad line" "$(j 'd["trace"]["bad_lines"]')" 0

# --- late-preemption's slice from the whole CPU count.  hogs-cpu0first
# names only cpu0 until its second line: its runs are judged with the
# 2-CPU slice (1.5 ms) the report states, as --base-slice 1.5ms judges them.
analyze "$P/hogs-cpu0first.txt" --base-slice 1.5ms
forced=$(j 'd["summary"]["late-preemption"]["count"]')
analyze "$P/hogs-cpu0first.txt"
expect_eq "hogs-cpu0first: the slice of 2 CPUs" "$(j 'd["late_preemption"]["base_slice_ns"]')" 1500000
expect_eq "hogs-cpu0first: late as judged with that slice" \
	"$(j 'd["summary"]["late-preemption"]["count"]')" "$forced"
expect_eq "hogs-cpu0first: the CPU count's source" \
	"$(j 'd["late_preemption"]["ncpus_source"]')" "events"
check "hogs-cpu0first: some runs are late" test "$forced" -gt 0
late_all=$(j 'd["summary"]["late-preemption"]["count"]')
analyze "$P/hogs-noheader.txt"
expect_eq "hogs-noheader (cpu0first less its first line): the same late runs" \
	"$(j 'd["summary"]["late-preemption"]["count"]')" "$late_all"
"$SCHEDLINT" analyze "$P/hogs-cpu0first.txt" > "$TMP/out.txt" 2>&1
check "hogs-cpu0first: the report says where the CPU count came from" \
	grep -q "^           2 CPUs: from its events (the text has no header)" "$TMP/out.txt"
"$SCHEDLINT" analyze "$TESTDATA/real/hogs.dat" > "$TMP/out.txt" 2>&1
check "hogs.dat: its CPU count from the trace.dat header" \
	grep -q "^           2 CPUs: from the trace.dat header" "$TMP/out.txt"

# --- latencies that end at an inferred switch are lower bounds.  cpu1
# never logs B's switch-in: B's first event there (1.000050) shows it ran,
# so it is inferred at the earliest time it can have happened: its waking
# (1.000010), after cpu1's last event (1.000001), not its placement at A's
# switch-out (1.000020), which is only when the trace shows the placement
# done (without sched_wakeup its enqueue is not shown): B's latency 0 is
# the lower bound (it was 10 us: issue 32, 15); A's (waking 1.000050,
# traced switch-in 1.000070) is 20 us.
analyze "$P/inferred.perf.txt"
expect_eq "inferred: two samples, one a lower bound" \
	"$(j 'd["wakeup_latency"]["count"]') $(j 'd["wakeup_latency"]["inferred"]')" "2 1"
expect_eq "inferred: per task (A, B)" \
	"$(j '[(t["pid"], t["wakeup_latency"]["inferred"]) for t in sorted(d["tasks"], key=lambda t: t["pid"])]')" \
	"[(100, 0), (200, 1)]"
expect_eq "inferred: per CPU" "$(j '[c["wakeup_latency"]["inferred"] for c in d["cpus"]]')" "[0, 1]"
expect_eq "inferred: the lower bound is B's 0 us, A's 20 us" \
	"$(j 'd["wakeup_latency"]["min_ns"], d["wakeup_latency"]["max_ns"]')" "(0, 20000)"
# issue 32's case: T woken at 1.002 onto idle cpu0 (its last event 1.001),
# seen running at 1.0061; its waker W switches out at 1.006.  The trace
# allows a wait of 0 to 4.1 ms: "at least 4.00 ms" was reported.
printf '%s\n' \
 '               W   200 [001]     1.000000000:       sched:sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=W next_pid=200 next_prio=120' \
 '               T   100 [000]     1.001000000:       sched:sched_switch: prev_comm=T prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120' \
 '               W   200 [001]     1.002000000:       sched:sched_waking: comm=T pid=100 prio=120 target_cpu=000' \
 '               W   200 [001]     1.006000000:       sched:sched_switch: prev_comm=W prev_pid=200 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120' \
 '               T   100 [000]     1.006100000:       sched:sched_switch: prev_comm=T prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120' \
	> "$TMP/late-waker.txt"
analyze "$TMP/late-waker.txt"
expect_eq "inferred switch-in, the waker going on 4 ms later: a lower bound of 0" \
	"$(j 'd["wakeup_latency"]["count"], d["wakeup_latency"]["inferred"], d["wakeup_latency"]["max_ns"]')" "(1, 1, 0)"
expect_eq "inferred: not excluded by default" "$(j 'd["config"]["exclude_inferred"]')" False
analyze "$P/inferred.perf.txt" --exclude-inferred
expect_eq "--exclude-inferred: A's sample only, the other counted" \
	"$(j 'd["wakeup_latency"]["count"]') $(j 'd["wakeup_latency"]["inferred"]') $(j 'd["wakeup_latency"]["max_ns"]')" \
	"1 1 20000"
expect_eq "--exclude-inferred: B has no sample, one inferred" \
	"$(j '[(t["wakeup_latency"]["count"], t["wakeup_latency"]["inferred"]) for t in d["tasks"] if t["pid"] == 200]')" \
	"[(0, 1)]"
expect_eq "--exclude-inferred: B's wakeup is in no finding either" \
	"$(j 'd["summary"]["sync-wake-remote"]["count"]')" 1
expect_eq "--exclude-inferred: in the config" "$(j 'd["config"]["exclude_inferred"]')" True
"$SCHEDLINT" analyze "$P/inferred.perf.txt" > "$TMP/out.txt" 2>&1
check "inferred: the latency table's row" grep -q "^   inferred  *1 " "$TMP/out.txt"
check "inferred: the table says what they are" \
	grep -q "^  1 of 2 samples end at a switch the trace does not show: lower" "$TMP/out.txt"
check "inferred: the tasks that have some" grep -q "^  of which lower bounds: B:200 1$" "$TMP/out.txt"
check "inferred: cpu1's line is marked" grep -q "^    1 .*  2\* " "$TMP/out.txt"
check "inferred: cpu0's is not" sh -c "grep -q '^    0 ' '$TMP/out.txt' && ! grep -q '^    0 .*[0-9]\* ' '$TMP/out.txt'"
grep -e "samples end at" -e "(--exclude-inferred" -e "switch-ins are inferred" \
	-e "latencies that end there" -e "lower bounds:" "$TMP/out.txt" > "$TMP/ours.txt"
expect_eq "inferred: the 5 lines about them fit 80 columns" \
	"$(awk 'length <= 80' "$TMP/ours.txt" | wc -l)" 5
# diff's metric: the lower bounds counted on each side, so that a gate can
# tell a recorder that dropped switches from a scheduler that changed
"$SCHEDLINT" analyze --json "$P/inferred.perf.txt" > "$TMP/inf.json"
"$SCHEDLINT" analyze --json "$P/swr-late-run.perf.txt" > "$TMP/noinf.json"
expect_eq "diff: wakeup.inferred, 0 then 1" "$("$SCHEDLINT" diff --json "$TMP/noinf.json" "$TMP/inf.json" |
	python3 -c 'import json, sys; print([(m["base"]["median"], m["new"]["median"]) for m in json.load(sys.stdin)["metrics"] if m["name"] == "wakeup.inferred"])')" \
	"[(0, 1)]"
"$SCHEDLINT" diff --fail-on='wakeup.inferred>0' "$TMP/noinf.json" "$TMP/inf.json" > /dev/null 2>&1
expect_eq "diff --fail-on='wakeup.inferred>0': fails with one" $? 1
"$SCHEDLINT" diff --fail-on='wakeup.inferred>0' "$TMP/inf.json" "$TMP/noinf.json" > /dev/null 2>&1
expect_eq "diff --fail-on='wakeup.inferred>0': passes with none" $? 0
"$SCHEDLINT" analyze --exclude-inferred "$P/inferred.perf.txt" > "$TMP/out.txt" 2>&1
check "--exclude-inferred: the table says what was left out" \
	grep -q "^  1 samples end at a switch the trace does not show: left out" "$TMP/out.txt"

# --- the tick from preemption times, without timer events.  hogs: four
# dd on CPU 0 preempted at every 4 ms tick (HZ=250, as the
# local_timer_entry lines of hogs-noheader.txt say); swr: 1.2 ms of a pipe
# ping-pong, 24 preemptions at no particular phase.
analyze "$P/hogs-notimer.txt"
expect_eq "hogs-notimer: HZ from preemption times" \
	"$(j 'd["late_preemption"]["hz"]') $(j 'd["late_preemption"]["hz_source"]')" "250 preemption times"
analyze "$P/hogs-noheader.txt"
expect_eq "hogs-noheader: the same HZ from its timer events" \
	"$(j 'd["late_preemption"]["hz"]') $(j 'd["late_preemption"]["hz_source"]')" "250 local_timer_entry"
analyze "$P/swr.notimer.txt"
expect_eq "swr.notimer: no HZ" "$(j 'd["late_preemption"]["hz"]')" None

# --- perf script --show-task-events: perf's records are not events (issue 32, 20) ---
xz -dc "$P/pipe-wakeup.task-events.txt.xz" > "$TMP/task-events.txt"
"$SCHEDLINT" analyze --json "$TMP/task-events.txt" 2> "$TMP/err" | grep -v '"path":' > "$TMP/a.json"
"$SCHEDLINT" analyze --json "$P/pipe-wakeup.txt" | grep -v '"path":' > "$TMP/b.json"
check "--show-task-events: the analysis of the same text without them" cmp "$TMP/a.json" "$TMP/b.json"
check "--show-task-events: no note on stderr" test ! -s "$TMP/err"
"$SCHEDLINT" analyze "$TMP/task-events.txt" > "$TMP/out" 2>&1
check "--show-task-events: no 'lines were not events' note" sh -c "! grep -q 'not events' '$TMP/out'"

echo "1..$_n"
