#!/bin/sh
# workload.sh - the report covers the workload the trace names (issue 20
# part 2): schedlint record writes "schedlint: workload pid=PID cmd=...",
# the workload is that task and every task forked from one of its tasks,
# and analyze, diff and explore report it only unless --system.
#
# 1. workload-noise.scn (expectations in testdata/scenarios, written first):
#    --system, --pid on top, the option errors, diff's note.
# 2. A real recording, testdata/real/pipe-noise.dat: perf bench sched pipe
#    under record while two shell loops ran beside it; the workload is
#    checked against the fork events trace-cmd report prints.
. tests/lib.sh

SCN=$TESTDATA/scenarios/workload-noise
if ! "$SCHEDGEN" scenario "$SCN.scn" -o "$TMP/wl.dat" --text "$TMP/wl.txt" 2> "$TMP/err"; then
	fail "schedgen workload-noise.scn" "$(cat "$TMP/err")"
	echo "1..$_n"
	exit 0
fi

for fmt in dat txt; do
	"$SCHEDLINT" analyze --json --system "$TMP/wl.$fmt" > "$TMP/sys.json" 2> "$TMP/err"
	if out=$(python3 tests/check_expect.py "$SCN.system.expect.json" "$TMP/sys.json" --format $fmt 2>&1)
	then pass "workload-noise.$fmt --system: every task's findings"
	else fail "workload-noise.$fmt --system: every task's findings" "$(echo "$out" | head -5)"; fi
done

# --pid on top: the workload's late-preemption is noise1's (pid 600) run;
# noise2's (601) had no workload task waiting: nothing by default.
count() {
	"$SCHEDLINT" analyze --json "$@" > "$TMP/c.json" 2> "$TMP/err" &&
		json "$TMP/c.json" 'd["summary"]["late-preemption"]["count"]'
}
expect_eq "--pid 600: the workload's finding" "$(count --pid 600 "$TMP/wl.dat")" 1
expect_eq "--pid 601: none of the workload's" "$(count --pid 601 "$TMP/wl.dat")" 0
expect_eq "--system --pid 601: noise2's own" "$(count --system --pid 601 "$TMP/wl.dat")" 1
expect_eq "--workload: as the default" "$(count --workload "$TMP/wl.dat")" 1

"$SCHEDLINT" analyze --workload --system "$TMP/wl.dat" > /dev/null 2> "$TMP/err"
rc=$?
if [ $rc = 2 ] && grep -q 'exclude each other' "$TMP/err"; then pass "--workload --system: a usage error"
else fail "--workload --system: a usage error" "exit $rc: $(cat "$TMP/err")"; fi

"$SCHEDLINT" analyze --workload "$TESTDATA/real/pipe.dat" > "$TMP/out" 2> "$TMP/err"
rc=$?
if [ $rc = 2 ] && [ ! -s "$TMP/out" ] && grep -q 'pipe.dat: --workload: the trace names no workload' "$TMP/err"
then pass "--workload on a trace without one: exit 2, one line naming the file"
else fail "--workload on a trace without one: exit 2, one line naming the file" "exit $rc: $(cat "$TMP/err")"; fi

"$SCHEDLINT" analyze "$TMP/wl.dat" > "$TMP/text" 2>&1
if grep -q '^  workload pid 500 (bench --run) and the task it started$' "$TMP/text" &&
	grep -q 'the report covers them only (--system: every task)' "$TMP/text"
then pass "the header says the report is the workload's"
else fail "the header says the report is the workload's" "$(head -8 "$TMP/text")"; fi
# a workload that started no task is one task: "it", not "them"
# (the same scenario, the marker naming noise2, which forks nothing)
sed 's/workload pid=500 cmd=bench --run/workload pid=601 cmd=noise/' "$SCN.scn" > "$TMP/alone.scn"
if "$SCHEDGEN" scenario "$TMP/alone.scn" -o "$TMP/alone.dat" > /dev/null 2>&1; then
	"$SCHEDLINT" analyze "$TMP/alone.dat" > "$TMP/alone.txt" 2>&1
	check "a workload that started no task: the report covers it only" sh -c \
		"grep -q '^  workload pid 601 (noise), which started no task$' '$TMP/alone.txt' &&
		 grep -q '^           the report covers it only (--system: every task)$' '$TMP/alone.txt'"
else
	fail "a workload that started no task: schedgen" "$(head -3 "$TMP/alone.scn")"
fi
# the workload's late preemption: its longest waiter is noise2 (6 ms, from
# 8 ms), the workload's is bench-worker (woken new at 10.001 ms, ran at 14)
check "the late preemption names the workload's waiter too" \
	grep -q "noise2:601 waited 6.00 ms, the workload's$" "$TMP/text"
check "... bench-worker:501, 4.00 ms" grep -q "^ *bench-worker:501 4.00 ms; " "$TMP/text"
# the late runner, noise1, is not the workload's: marked so (issue 29)
check "... and its late runner is marked outside the workload" \
	grep -q "ms; noise1:600 is outside the workload$" "$TMP/text"
"$SCHEDLINT" analyze --json "$TMP/wl.dat" > "$TMP/wl.json"
expect_eq "JSON: max_wait and max_workload_wait" \
	"$(json "$TMP/wl.json" '[(f["max_wait_pid"], f["max_wait_ns"], f["max_workload_wait_pid"], f["max_workload_wait_ns"]) for f in d["findings"]]')" \
	"[(601, 6000000, 501, 3999000)]"
"$SCHEDLINT" analyze --system "$TMP/wl.dat" > "$TMP/text" 2>&1
if grep -q -- '--system: the report covers every task' "$TMP/text"; then pass "--system: the header says so"
else fail "--system: the header says so" "$(head -8 "$TMP/text")"; fi
check "--system: the late preemption names its longest waiter only" \
	sh -c "grep -q 'noise2:601 waited 6.00 ms; noise1:600 is outside' '$TMP/text' && ! grep -q \"the workload's\" '$TMP/text'"

"$SCHEDLINT" diff "$TMP/wl.dat" "$TMP/wl.txt" > "$TMP/diff" 2>&1
if grep -q 'note: workload: .*pid 500 (bench --run).*--system for every task' "$TMP/diff"
then pass "diff: says its metrics are the workload's"
else fail "diff: says its metrics are the workload's" "$(tail -5 "$TMP/diff")"; fi

# --- 2. a real recording: testdata/real/pipe-noise.dat ---
# `schedlint record -- perf bench sched pipe -l 2000` while two shell loops
# (pids 15344 and 15345) spun beside it and the test suite ran: a loaded
# machine, recorded once (a live record here would depend on the machine).
PN=$TESTDATA/real/pipe-noise.dat
"$SCHEDLINT" analyze --json "$PN" > "$TMP/wl.json" 2> "$TMP/err" ||
	fail "analyze pipe-noise.dat" "$(cat "$TMP/err")"
"$SCHEDLINT" analyze --json --system "$PN" > "$TMP/all.json" 2> "$TMP/err" ||
	fail "analyze --system pipe-noise.dat" "$(cat "$TMP/err")"
trace-cmd report "$PN" 2>/dev/null > "$TMP/report"
if out=$(python3 - "$TMP/wl.json" "$TMP/all.json" "$TMP/report" 15344 15345 2>&1 <<'PY'
import json, re, sys
wl, al = (json.load(open(p)) for p in sys.argv[1:3])
noise = {int(p) for p in sys.argv[4:6]}
# the workload from the trace itself: the marker's pid and the fork events after it
root, members = None, set()
for line in open(sys.argv[3]):
    m = re.search(r'schedlint: workload pid=(\d+) cmd=(.*)$', line)
    if m and root is None:
        root = int(m.group(1))
        members.add(root)
        assert m.group(2).startswith('perf bench sched pipe'), line
        continue
    m = re.search(r'sched_process_fork: .*pid=(\d+) child_comm=.* child_pid=(\d+)', line)
    if m and root is not None and int(m.group(1)) in members:
        members.add(int(m.group(2)))
# perf (15347) and the benchmark's second process (15593)
assert root == 15347 and members == {15347, 15593}, (root, members)
w = wl['workload']
assert w and w['pid'] == root and w['filtered'] is True and w['tasks'] == 2, w
assert al['workload']['filtered'] is False, al['workload']
# default: only workload tasks, and every finding's victim is one of them
assert {t['pid'] for t in wl['tasks']} <= members, {t['pid'] for t in wl['tasks']} - members
def victim_in(f, who):
    if f['kind'].startswith('late-preemption'):
        return bool(set(f['waiting']) & who)
    return f['pid'] in who
assert wl['findings'] and all(victim_in(f, members) for f in wl['findings']), \
    [f for f in wl['findings'] if not victim_in(f, members)][:2]
# --system: the noise is there too, the workload's findings are among all,
# and the rest are other tasks' (late preemptions no benchmark task waited on)
assert noise <= {t['pid'] for t in al['tasks']}, 'the shell loops are not in --system'
key = lambda f: (f['kind'], f['ts_ns'], f['cpu'], f['pid'])
assert {key(f) for f in wl['findings']} <= {key(f) for f in al['findings']}
rest = [f for f in al['findings'] if not victim_in(f, members)]
assert len(rest) == len(al['findings']) - len(wl['findings']) and rest, len(rest)
# counts of this recording: 73 late preemptions a benchmark task waited
# through, 150 in all; nothing else.  HRTICK off (the tick pattern): most
# went to the first tick after their slice, late-preemption-at-tick
# (71 of the 73), late-preemption keeps 2 (144 and 6 of the 150)
assert {k: s['count'] for k, s in wl['summary'].items() if s['count']} == \
    {'late-preemption': 2, 'late-preemption-at-tick': 71}, wl['summary']
assert sum(s['count'] for k, s in al['summary'].items()) == 150, al['summary']
assert {k for k, s in al['summary'].items() if s['count']} == \
    {'late-preemption', 'late-preemption-at-tick'}, al['summary']
# the culprits outside the workload are marked so, and only they
for f in al['findings']:
    assert f['culprit_in_workload'] == (f['pid'] in members), f
print('%d workload tasks, %d findings by default, %d with --system' %
      (len(members), len(wl['findings']), len(al['findings'])))
PY
); then pass "pipe-noise.dat: default = the benchmark's findings only, --system all ($out)"
else fail "pipe-noise.dat: default = the benchmark's findings only, --system all" "$out"; fi
"$SCHEDLINT" analyze "$PN" > "$TMP/text" 2>&1
if grep -q '^  workload pid 15347 (perf bench sched pipe -l 2000) and the task it started$' "$TMP/text"
then pass "pipe-noise.dat: the header names the benchmark"
else fail "pipe-noise.dat: the header names the benchmark" "$(head -6 "$TMP/text")"; fi

echo "1..$_n"
