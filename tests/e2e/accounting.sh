#!/bin/sh
# accounting.sh - runs, sleeps, idle periods and CPU moves (analyzers/
# accounting.c) on a scenario whose every value is written down below
# from the definitions in schedlint-analyze(1) "RUNS, SLEEPS AND IDLE",
# with schedgen's event spacing (gap 1us: a timer wakeup logs waking at
# T, [migrate,] wakeup and the switch-in one gap apart each):
#
#   a: sleeps S at 0 on cpu 0; woken at 1ms, runs 1.002-1.202ms on cpu 0;
#      woken at 2ms onto cpu 1 (a move), runs 2.003-2.303ms; sleeps to
#      the end (3.102ms).  Runs 200us, 300us; slept S 1 + 0.798 + 0.799ms.
#   b: sleeps D at 0 on cpu 1, woken at 3ms, runs 3.002-3.102ms, sleeps
#      S at the end of the trace (0 ns).  Slept D 3ms, one run of 100us.
#   cpu 0 idles 0-1.002ms (one period; the one from 1.202ms never ends);
#   cpu 1 idles 0-2.003ms and 2.303-3.002ms.
. tests/lib.sh
cat > "$TMP/acc.scn" <<'SCN'
cpus 2
task 101 a cpu 0 running
task 102 b cpu 1 running
@0      sleep a
@0      sleep b D
@1ms    run a on cpu 0 for 200us then sleep
@2ms    run a on cpu 1 for 300us then sleep
@3ms    run b on cpu 1 for 100us then sleep
SCN
"$SCHEDGEN" scenario "$TMP/acc.scn" -o "$TMP/acc.dat" --text "$TMP/acc.txt" > /dev/null
for input in acc.dat acc.txt; do
	"$SCHEDLINT" analyze --json "$TMP/$input" > "$TMP/a.json"
	got=$(json "$TMP/a.json" '[(t["comm"], t["run_length"]["count"], t["run_length"]["max_ns"], abs(t["run_length"]["p50_ns"] - (200000 if t["comm"] == "a" else 100000)) <= 800, t["slept_ns"], t["cpu_moves"], t["cpus"]) for t in d["accounting"]["tasks"]]')
	expect_eq "$input: runs, sleeps and moves per task" "$got" \
		"[('a', 2, 300000, True, {'S': 2597000, 'D': 0, 'other': 0}, 1, [0, 1]), ('b', 1, 100000, True, {'S': 0, 'D': 3000000, 'other': 0}, 0, [1])]"
	got=$(json "$TMP/a.json" '[(c["cpu"], c["idle_period"]["count"], c["idle_period"]["min_ns"], c["idle_period"]["max_ns"]) for c in d["accounting"]["cpus"]]')
	expect_eq "$input: idle periods per CPU" "$got" "[(0, 1, 1002000, 1002000), (1, 2, 699000, 2003000)]"
	got=$(json "$TMP/a.json" 'd["accounting"]["run_length"]["count"], d["accounting"]["idle_period"]["count"], d["accounting"]["cpu_moves"]')
	expect_eq "$input: totals" "$got" "(3, 3, 1)"
done

# filters: --pid lists that task only.  --to=+2.5ms: the analysis reads
# up to there, so the trace ends at its last event before (a's switch-out
# at 2.303ms): a's last sleep is 0, b's D sleep 2.303ms, cpu 1's second
# idle period and b's run are left out
"$SCHEDLINT" analyze --json --pid=102 "$TMP/acc.dat" > "$TMP/a.json"
expect_eq "--pid=102: only b" "$(json "$TMP/a.json" '[t["pid"] for t in d["accounting"]["tasks"]], d["accounting"]["run_length"]["count"]')" "([102], 1)"
"$SCHEDLINT" analyze --json --to=+2.5ms "$TMP/acc.dat" > "$TMP/a.json"
expect_eq "--to=+2.5ms: sleeps clipped, runs and idle periods that end after it left out" \
	"$(json "$TMP/a.json" '[(t["comm"], t["run_length"]["count"], t["slept_ns"]["S"], t["slept_ns"]["D"]) for t in d["accounting"]["tasks"]], [c["idle_period"]["count"] for c in d["accounting"]["cpus"]]')" \
	"([('a', 2, 1798000, 0), ('b', 0, 0, 2303000)], [1, 1])"

# the terminal report: its three tables, every line within 80 columns
"$SCHEDLINT" analyze "$TMP/acc.dat" > "$TMP/report"
expect_eq "report: the tables and a's line" \
	"$(grep -c '^Runs and sleeps\|^Idle periods\|^CPU moves' "$TMP/report")/$(sed -n '/^Runs and sleeps/,/^$/p' "$TMP/report" | grep -E '^  a:101 +2 ' | awk '{ print $5, $6, $7 }')" \
	"3/300us 2.60ms 0ns"
"$SCHEDLINT" analyze testdata/real/hackbench.dat > "$TMP/report"
expect_eq "report of a real trace: the new sections' lines fit 80 columns" \
	"$(sed -n '/^Runs and sleeps/,/^Findings/p' "$TMP/report" | awk 'length > 80' | wc -l)" "0"

# diff: the metrics, and a saved report without accounting (older) is no error
"$SCHEDLINT" analyze --json "$TMP/acc.dat" > "$TMP/new.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("accounting"); json.dump(d, open(sys.argv[2], "w"))' "$TMP/new.json" "$TMP/old.json"
"$SCHEDLINT" diff --json "$TMP/old.json" "$TMP/new.json" > "$TMP/diff.json" 2> "$TMP/err"
rc=$?
expect_eq "diff of an older report: exit 0, run.max measured on the new side only" \
	"$rc/$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print([m for m in d["metrics"] if m["name"] == "run.max"][0]["new"]["median"])' "$TMP/diff.json" 2>&1)" \
	"0/300000"

# A task that dies asleep, its pid reused by a fork (no exit seen): its
# sleep ends at that fork, or at its waking before it (tests/pidreuse.py:
# 1500 children of pid 2000, each sleeping 1 us twice between its 3 runs).
# S: the last sleep 1 us to the next fork (3 us in all; the last child,
# alive, sleeps to the end of the trace: 2 us).  W: woken 1 us after its
# last switch-out, the next fork 5 us later (3 us; the last child too).
# Before, the dead children slept to the end of the trace (28 us of a
# 3-child trace) and, kept as asleep, were never folded: 20001 tasks
# listed with --keep-tasks=100.
python3 tests/pidreuse.py 1500 3 S > "$TMP/prS.txt"
python3 tests/pidreuse.py 1500 3 W > "$TMP/prW.txt"
for l in S W; do
	"$SCHEDLINT" analyze --json "$TMP/pr$l.txt" > "$TMP/a.json"
	expect_eq "pid reused, the child before asleep ($l): its sleep ends at that fork, or its waking" \
		"$(json "$TMP/a.json" 'sorted(__import__("collections").Counter(t["slept_ns"]["S"] for t in d["accounting"]["tasks"] if t["comm"] == "child").items())[:4]' 2>&1)" \
		"$( [ $l = S ] && echo '[(2000, 1), (3000, 1499)]' || echo '[(3000, 1500)]')"
done
python3 tests/pidreuse.py 20000 3 S > "$TMP/prS.txt"
"$SCHEDLINT" analyze --json --keep-tasks=100 "$TMP/prS.txt" > "$TMP/a.json"
expect_eq "pid reused 20000 times, each child asleep: folded past --keep-tasks=100 (at most 100 + 2 listed)" \
	"$(json "$TMP/a.json" 'len(d["tasks"]) <= 102, len(d["tasks"]) + d["tasks_folded"]["count"]')" "(True, 20001)"
rm -f "$TMP/prS.txt" "$TMP/prW.txt"
echo "1..$_n"
