#!/bin/sh
# terminal.sh - the terminal report as a kernel developer meets it: one
# screen first (at 80x24 under tmux, through the default pager), no line
# wider than the terminal, the pager and colors on a terminal (a pty) and
# off, git-style help, did-you-mean, -i, and the worst wakeups' moments
# checked by hand against trace-cmd report.
. tests/lib.sh

for tool in tmux script less man; do
	if ! command -v $tool >/dev/null 2>&1; then
		fail "$tool is installed (scripts/install-deps.sh installs it)"
		exit 0
	fi
done
# the environment of whoever runs the tests must not change the report
unset COLUMNS PAGER SCHEDLINT_PAGER NO_COLOR MANPAGER
export LANG=C.UTF-8

SLOW=1
[ "$SANITIZE" = 1 ] && SLOW=4

# widest FILE: the widest line in display columns (escape codes count none)
widest() {
	python3 - "$1" <<'PY'
import re, sys
w = 0
for line in open(sys.argv[1], encoding='utf-8'):
    w = max(w, len(re.sub(r'\x1b\[[0-9;]*m', '', line.rstrip('\n'))))
print(w)
PY
}

# --- every line fits 80 and 120 columns, in every section ---
for f in "$TESTDATA"/real/*.dat "$TESTDATA"/real/*.txt; do
	name=$(basename "$f")
	for cols in 80 120; do
		COLUMNS=$cols "$SCHEDLINT" analyze --full --color=always "$f" > "$TMP/r" 2> "$TMP/err"
		w=$(widest "$TMP/r")
		if [ "$w" -le "$cols" ] && [ "$(wc -l < "$TMP/r")" -gt 40 ] &&
		   ! grep -q "$(printf '\037')" "$TMP/r"; then
			pass "$name at $cols columns: every line fits (widest $w)"
		else
			fail "$name at $cols columns: every line fits" "widest $w, $(wc -l < "$TMP/r") lines"
		fi
	done
done
# not a terminal, no COLUMNS: 80
"$SCHEDLINT" analyze "$TESTDATA/real/hackbench.dat" > "$TMP/r"
check "not a terminal: 80 columns" test "$(widest "$TMP/r")" -le 80
# at 120 the latency table has all its columns, at 80 count/p50/p99/max stay
COLUMNS=120 "$SCHEDLINT" analyze "$TESTDATA/real/pipe.dat" > "$TMP/r120"
check "120 columns: the latency table has p75, p95, p99.5 and mean" \
	grep -q '^  *count  *min  *p50  *p75  *p90  *p95  *p99  *p99.5  *p99.9  *max  *mean$' "$TMP/r120"
check "80 columns: the latency table keeps count, p50, p99, max" \
	grep -q '^  *count  *min  *p50  *p90  *p99  *p99.9  *max$' "$TMP/r"
# a narrow terminal still gets every line within its width
COLUMNS=60 "$SCHEDLINT" analyze "$TESTDATA/real/hogs.dat" > "$TMP/r60"
check "60 columns: every line fits" test "$(widest "$TMP/r60")" -le 60

# the events line wraps between pairs: a count never leaves its name
# (hackbench.dat at 80 columns broke "fork" from its 81; 10 event types)
for cols in 80 60; do
	COLUMNS=$cols "$SCHEDLINT" analyze --brief "$TESTDATA/real/hackbench.dat" |
		awk '/^  events / { on = 1 } on && /^  [a-z]/ && !/^  events / { on = 0 } on' > "$TMP/ev"
	expect_eq "$cols columns: the events line, name and count together on each of its lines" \
		"$(grep -cvE '^(  events  | {10})( [a-z_]+ [0-9]+)+$' "$TMP/ev"):$(wc -l < "$TMP/ev" | tr -d ' '):$(tr -d '\n' < "$TMP/ev" | grep -oE ' [a-z_]+ [0-9]+' | wc -l | tr -d ' ')" \
		"0:$([ $cols = 80 ] && echo 2 || echo 3):10"
done

# the lost line too: 20 CPUs that lost events (10000 + cpu each), 16 named
python3 - "$TMP/lost20.txt" <<'PY'
import sys
l = []
for c in range(20):
    l.append("          a-%d  [%03d] d..2.   10.%06d: sched_switch: prev_comm=a prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=swapper/%d next_pid=0 next_prio=120" % (100 + c, c, 10 + c, 100 + c, c))
l += ["CPU:%d [LOST %d EVENTS]" % (c, 10000 + c) for c in range(20)]
for c in range(20):
    l.append("          b-%d  [%03d] d..2.   10.%06d: sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=b next_pid=%d next_prio=120" % (200 + c, c, 100 + c, c, 200 + c))
open(sys.argv[1], "w").write("\n".join(l) + "\n")
PY
"$SCHEDLINT" analyze --brief "$TMP/lost20.txt" |
	awk '/^  lost / { on = 1 } on && /no latency or finding/ { on = 0 } on' > "$TMP/lost"
expect_eq "the lost line: each CPU with its count on one line, 16 named, then how many more" \
	"$(grep -cvE '^(  lost     200190 events in 20 gaps:| {10})( cpu[0-9]+ 100[0-9][0-9]| and 4 more CPUs)+$' "$TMP/lost"):$(grep -oE 'cpu[0-9]+ 100[0-9][0-9]' "$TMP/lost" | wc -l | tr -d ' '):$(grep -c 'and 4 more CPUs$' "$TMP/lost")" \
	"0:16:1"

# a value never leaves its name or unit: pipe-noise.dat's worst wakeup
# (trace-cmd report: sched-pipe-15593 [001] 12276.868147: sched_waking:
# pid=15347; rcu_preempt-15 [001] 12276.920055: sched_switch: ... ==>
# sched-pipe:15347) is one word too long for 80 columns
"$SCHEDLINT" analyze --brief "$TESTDATA/real/pipe-noise.dat" > "$TMP/noise"
expect_eq "80 columns: the worst wakeup breaks before 'ran', its time and CPU together" \
	"$(sed -n '/^  worst /{N;p}' "$TMP/noise")" \
	"  worst    51.91 ms: sched-pipe:15347 woken 12276.868147,
           ran 12276.920055 on cpu1"
COLUMNS=60 "$SCHEDLINT" analyze --brief "$TESTDATA/real/pipe.dat" > "$TMP/r60"
expect_eq "60 columns: the latency line breaks between values" \
	"$(sed -n '/^Wakeup latency /{N;N;N;p}' "$TMP/r60")" \
	"Wakeup latency  4075 wakeups: p50 37.0 us, p99 94.5 us,
  max 1.33 ms
  worst    1.33 ms: tail:8336 woken 913.967146,
           ran 913.968480 on cpu0"

# --- the summary screen ---
"$SCHEDLINT" analyze --brief "$TESTDATA/real/pipe.dat" > "$TMP/brief"
"$SCHEDLINT" analyze "$TESTDATA/real/pipe.dat" > "$TMP/full"
check "--brief: the summary only (no detail section)" \
	sh -c "! grep -q '^Latency histogram' '$TMP/brief' && ! grep -q '^CPUs' '$TMP/brief'"
expect_eq "--brief: the start of the default report" \
	"$(head -n "$(($(wc -l < "$TMP/brief") - 2))" "$TMP/brief")" \
	"$(head -n "$(($(wc -l < "$TMP/brief") - 2))" "$TMP/full")"
# the summary's numbers, from the definitions (pipe.dat: JSON summary and
# trace-cmd report: 4 stackings costing 1.51 ms, worst 1.33 ms at
# 913.967146 on cpu0; 3952 sync-wake-remote; 1 idle-while-runnable)
check "summary: wakee-stacking count, cost, worst and where" \
	grep -q '^  wakee-stacking  *4  *1\.51 ms  *1\.33 ms  *913\.967146 cpu0' "$TMP/brief"
check "summary: sync-wake-remote" grep -q '^  sync-wake-remote  *3952  *160\.39 ms' "$TMP/brief"
check "summary: late-preemption 0" grep -q '^  late-preemption  *0$' "$TMP/brief"
check "summary: idle-while-runnable" grep -q '^  idle-while-runnable  *1  *1\.29 ms  *1\.29 ms  *913\.967153 cpu1' "$TMP/brief"
check "summary: the latency line" \
	grep -q '^Wakeup latency  4075 wakeups: p50 37.0 us, p99 94.5 us, max 1.33 ms$' "$TMP/brief"
check "summary: the trace facts" grep -q '^  span     913.684978 .. 913.968510 (283.53 ms), 21903 events$' "$TMP/brief"
check "--full lists every task (13 with wakeups)" \
	test "$("$SCHEDLINT" analyze --full "$TESTDATA/real/pipe.dat" | sed -n '/^Tasks by/,/^$/p' | grep -c '^  [^ ]*:[0-9]*  *[0-9]')" = 13
check "--brief and --full exclude each other" \
	sh -c "! '$SCHEDLINT' analyze --brief --full '$TESTDATA/real/pipe.dat' 2>/dev/null"

# --- the worst wakeups' moments, checked by hand against trace-cmd report ---
# pipe.dat: tail-8336's only delayed wakeup, the trace's worst:
#   sched-pipe-8337 [000] 913.967146: sched_waking: comm=tail pid=8336
#   sched-pipe-8337 [000] 913.968480: sched_switch: sched-pipe:8337 X ==> tail:8336
# sched-pipe-8337's worst:
#   sched-pipe-8338 [001] 913.869680: sched_waking: comm=sched-pipe pid=8337
#   kdamond.0-77    [000] 913.870619: sched_switch: kdamond.0:77 W ==> sched-pipe:8337
# hackbench.dat, the trace's worst (66.72 ms):
#   hackbench-8409 [001] 915.804794: sched_waking: comm=hackbench pid=8430
#   hackbench-8407 [001] 915.871515: sched_switch: hackbench:8407 S ==> hackbench:8430
check "pipe: the worst wakeup in the summary" \
	grep -q '^  worst    1.33 ms: tail:8336 woken 913.967146, ran 913.968480 on cpu0$' "$TMP/brief"
check "pipe: the worst wakeup under the latency table" \
	sh -c "sed -n '/^Wakeup latency (/,/^\$/p' '$TMP/full' | grep -q 'worst    1.33 ms: tail:8336 woken 913.967146, ran 913.968480 on cpu0'"
check "pipe: sched-pipe:8337's worst in the tasks table" \
	grep -q '^  sched-pipe:8337  *2031  .* 938us 913\.869680 913\.870619' "$TMP/full"
"$SCHEDLINT" analyze "$TESTDATA/real/hackbench.dat" > "$TMP/hb"
check "hackbench: the worst wakeup" \
	grep -q '^  worst    66.72 ms: hackbench:8430 woken 915.804794, ran 915.871515 on cpu1$' "$TMP/hb"
"$SCHEDLINT" analyze --json "$TESTDATA/real/pipe.dat" > "$TMP/pipe.json"
"$SCHEDLINT" analyze --json "$TESTDATA/real/hackbench.dat" > "$TMP/hb.json"
expect_eq "pipe JSON: wakeup_latency.worst" \
	"$(json "$TMP/pipe.json" "sorted(d['wakeup_latency']['worst'].items())")" \
	"[('comm', 'tail'), ('cpu', 0), ('inferred', False), ('latency_ns', 1334794), ('pid', 8336), ('run_ns', 913968480469), ('waker_cpu', 0), ('waking_ns', 913967145675)]"
expect_eq "pipe JSON: sched-pipe:8337's worst_wakeup (913.869680 -> 913.870619)" \
	"$(json "$TMP/pipe.json" "[(t['worst_wakeup']['waking_ns'], t['worst_wakeup']['run_ns'], t['worst_wakeup']['cpu']) for t in d['tasks'] if t['pid'] == 8337]")" \
	"[(913869680444, 913870618707, 0)]"
expect_eq "hackbench JSON: wakeup_latency.worst (915.804794 -> 915.871515)" \
	"$(json "$TMP/hb.json" "[d['wakeup_latency']['worst'][k] for k in ('pid', 'waking_ns', 'run_ns', 'cpu', 'latency_ns')]")" \
	"[8430, 915804794374, 915871515381, 1, 66721007]"
expect_eq "every task's worst wakeup is its max, inside the trace" \
	"$(json "$TMP/hb.json" "all(t['worst_wakeup']['latency_ns'] == t['wakeup_latency']['max_ns'] and t['worst_wakeup']['run_ns'] - t['worst_wakeup']['waking_ns'] == t['worst_wakeup']['latency_ns'] and d['trace']['first_ns'] <= t['worst_wakeup']['waking_ns'] for t in d['tasks'] if t['wakeup_latency']['count'])")" True
expect_eq "a task without samples: worst_wakeup null" \
	"$(json "$TMP/hb.json" "all(t['worst_wakeup'] is None for t in d['tasks'] if not t['wakeup_latency']['count'])")" True
# two of them against trace-cmd report -t (nanoseconds) itself: the waking
# line at waking_ns, the switch to the task at run_ns on cpu, none between
# tc_worst DAT JSON: the JSON's overall worst, checked in trace-cmd's listing
tc_worst() {
	trace-cmd report -t "$1" 2>/dev/null > "$TMP/tc" || { echo "trace-cmd report failed"; return; }
	python3 - "$TMP/tc" "$2" <<'PY'
import json, re, sys
w = json.load(open(sys.argv[2]))['wakeup_latency']['worst']
pid, comm = w['pid'], w['comm']
line = re.compile(r'^\s*.*?-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\w+):\s+(.*)$')
waking, switch, between = [], [], []
for l in open(sys.argv[1], errors='replace'):
    m = line.match(l)
    if not m:
        continue
    t = int(m.group(3)) * 10**9 + int(m.group(4))
    ev, rest = m.group(5), m.group(6)
    if ev == 'sched_waking' and re.search(r'\bpid=%d\b' % pid, rest):
        waking.append(t)
    if ev == 'sched_switch' and rest.rstrip().split('==> ')[-1].startswith('%s:%d ' % (comm, pid)):
        if t == w['run_ns']:
            switch.append(int(m.group(2)))
        elif w['waking_ns'] < t < w['run_ns']:
            between.append(t)
print(w['waking_ns'] in waking, switch == [w['cpu']], between == [],
      w['run_ns'] - w['waking_ns'] == w['latency_ns'])
PY
}
expect_eq "pipe: the worst wakeup is in trace-cmd report -t (913.967145675 -> 913.968480469)" \
	"$(tc_worst "$TESTDATA/real/pipe.dat" "$TMP/pipe.json")" "True True True True"
expect_eq "hackbench: the worst wakeup is in trace-cmd report -t (915.804794374 -> 915.871515381)" \
	"$(tc_worst "$TESTDATA/real/hackbench.dat" "$TMP/hb.json")" "True True True True"

# --- what to do next, in each kind's section when the trace has that kind ---
"$SCHEDLINT" analyze "$TESTDATA/real/hogs.dat" > "$TMP/hogs"
sed -n '/^Late preemption/,/^Idle while runnable\|^Findings, /p' "$TMP/hogs" > "$TMP/lp"
check "late-preemption: the kernel path" grep -q '^  kernel   only the tick preempted it: sched_tick() -> task_tick_fair() ->$' "$TMP/lp"
check "late-preemption: the knobs and how to read them" \
	sh -c "grep -q '^  knobs    HRTICK: grep HRTICK /sys/kernel/debug/sched/features$' '$TMP/lp' &&
	       grep -q '^           CONFIG_HZ: grep CONFIG_HZ= /boot/config-\$(uname -r)$' '$TMP/lp' &&
	       grep -q '^           base slice: cat /sys/kernel/debug/sched/base_slice_ns$' '$TMP/lp'"
check "late-preemption: the patch the man page cites, and where" \
	sh -c "grep -q '^  patch    \"sched: Fix SCHED_HRTICK bug leading to late preemption of tasks\"$' '$TMP/lp' &&
	       grep -q '^    https://lore.kernel.org/r/20160919181747.l2sy56teyiqnmgmt@codeaurora.org$' '$TMP/lp'"
check "the patches are the man page's" \
	sh -c "grep -q 'sched: Fix SCHED_HRTICK bug leading to late preemption of tasks' man/schedlint-analyze.1 &&
	       grep -q 'sched: consider WF_SYNC to find idle siblings' man/schedlint-analyze.1 &&
	       grep -q 'sched: Clear ttwu_pending after' man/schedlint-analyze.1"
sed -n '/^Wakee stacking/,/^Synchronous/p' "$TMP/full" > "$TMP/ws"
check "wakee-stacking: what to do next" \
	sh -c "grep -q '^  kernel   select_task_rq_fair() chose the CPU: wake_affine(), then$' '$TMP/ws' &&
	       grep -q '^  knobs    WA_IDLE, WA_WEIGHT, SIS_UTIL: cat /sys/kernel/debug/sched/features$' '$TMP/ws'"
expect_eq "pipe: what to do next for its three kinds with findings" "$(grep -c '^  what to do next' "$TMP/full")" 3
"$SCHEDLINT" analyze "$TESTDATA/real/pipe-pinned.dat" > "$TMP/pinned"
expect_eq "pipe-pinned (no wakee-stacking, no late-preemption): only its two kinds' next steps" \
	"$(grep -c 'what to do next' "$TMP/pinned"):$(grep -c '^  kernel   only the tick\|^  kernel   select_task_rq_fair() chose' "$TMP/pinned")" "2:0"

# --- the findings lists are capped per kind ---
"$SCHEDLINT" analyze --json --max-findings=3 "$TESTDATA/real/pipe.dat" > "$TMP/cap.json"
expect_eq "--max-findings=3: each kind keeps its own 3 (3952 sync-wake-remote crowd no one out)" \
	"$(json "$TMP/cap.json" "sorted((k, sum(1 for f in d['findings'] if f['kind'] == k)) for k in set(f['kind'] for f in d['findings']))")" \
	"[('idle-while-runnable', 1), ('sync-wake-remote', 3), ('wakee-stacking', 3)]"
expect_eq "--max-findings=3: the summaries still count all" \
	"$(json "$TMP/cap.json" "[d['summary'][k]['count'] for k in ('wakee-stacking', 'sync-wake-remote')]")" "[4, 3952]"
sed -n "/^Findings, each kind's most costly/,\$p" "$TMP/full" > "$TMP/lists"
check "the text lists each kind's most costly: wakee-stacking" grep -q '^  wakee-stacking  4 found$' "$TMP/lists"
check "the text lists each kind's most costly: idle-while-runnable" grep -q '^  idle-while-runnable  1 found$' "$TMP/lists"
check "the text lists each kind's most costly: sync-wake-remote, capped" \
	grep -q '^  sync-wake-remote  3952 found, 1000 kept, 10 shown (--max-findings, --top)$' "$TMP/lists"
expect_eq "each listed finding with its look-at command (4 + 10 + 1)" \
	"$(grep -c '^        look at: schedlint dump --from ' "$TMP/lists")" 15

# --- the header: the window analyzed and the filters ---
"$SCHEDLINT" analyze --brief --from 913.75 --to +200ms --cpus 0 --comm sched-pipe --pid 8337,8338 \
	"$TESTDATA/real/pipe.dat" > "$TMP/win"
check "--from/--to: the window analyzed (--to +200ms from the first event, 913.684978)" \
	grep -q '^  window   913.750000 .. 913.884978 (134.98 ms) analyzed (--from/--to)$' "$TMP/win"
check "the filters" grep -q '^  filters  --cpus 0 --pid 8337,8338 --comm sched-pipe$' "$TMP/win"
"$SCHEDLINT" analyze --brief --from 913.9 "$TESTDATA/real/pipe.dat" > "$TMP/win"
check "--from alone: to the last event" grep -q '^  window   913.900000 .. 913.968510 (68.51 ms)' "$TMP/win"
"$SCHEDLINT" analyze --brief --to 920 "$TESTDATA/real/pipe.dat" > "$TMP/win"
check "--to past the end: to the last event" grep -q '^  window   913.684978 .. 913.968510 (283.53 ms)' "$TMP/win"
check "no filter: no window or filters line" sh -c "! grep -q '^  window\|^  filters' '$TMP/brief'"

# --- 80x24 under tmux, the default pager: the first screen is the summary ---
# each run its own tmux server, ended with the test however it ends
. tests/tmux_lib.sh
for f in "$TESTDATA"/real/*.dat "$TESTDATA"/real/*.txt; do
	name=$(basename "$f")
	new_server
	tmx new-session -d -s t -x 80 -y 24 \
		"env -u COLUMNS -u PAGER -u SCHEDLINT_PAGER LANG=C.UTF-8 $SCHEDLINT analyze $f; sleep 600"
	server_started
	# until less shows its prompt (the report is longer than a screen)
	i=0
	while [ "$i" -lt $((300 * SLOW)) ]; do
		tmx capture-pane -p -t t > "$TMP/screen" 2>/dev/null
		[ "$(sed -n 24p "$TMP/screen")" = : ] && break
		sleep 0.2
		i=$((i + 1))
	done
	"$SCHEDLINT" analyze --color=never "$f" | head -n 23 | sed 's/ *$//' > "$TMP/want"
	head -n 23 "$TMP/screen" | sed 's/ *$//' > "$TMP/got"
	if cmp -s "$TMP/want" "$TMP/got" && grep -q '^Findings ' "$TMP/got" &&
	   grep -q '^  idle-while-runnable ' "$TMP/got" && grep -q '^Wakeup latency ' "$TMP/got" &&
	   grep -q '^  trace ' "$TMP/got"; then
		pass "$name at 80x24 through less: the first screen holds the whole summary, unwrapped"
	else
		fail "$name at 80x24 through less: the first screen holds the whole summary, unwrapped" \
			"$(diff "$TMP/want" "$TMP/got" | head -10)"
	fi
	tmx send-keys -t t q
done
end_server

# --- a pty: the pager, colors ---
# inpty ENV... -- ARGS: schedlint ARGS on a terminal (script), its output with \r removed
inpty() {
	envs=""
	while [ "$1" != -- ]; do envs="$envs $1"; shift; done
	shift
	script -qec "env -u PAGER -u SCHEDLINT_PAGER -u NO_COLOR $envs $SCHEDLINT $*" /dev/null < /dev/null | tr -d '\r'
}
P="$TESTDATA/real/pipe.dat"
inpty "PAGER='sed s/^/PAGED:/'" -- analyze --brief "$P" > "$TMP/o"
check "a terminal: through \$PAGER" grep -q '^PAGED:.*schedlint 0.1.0' "$TMP/o"
inpty "PAGER='sed s/^/PAGED:/'" "SCHEDLINT_PAGER='sed s/^/MINE:/'" -- analyze --brief "$P" > "$TMP/o"
check "SCHEDLINT_PAGER before PAGER" grep -q '^MINE:.*schedlint 0.1.0' "$TMP/o"
inpty "PAGER='sed s/^/PAGED:/'" -- analyze --no-pager --brief "$P" > "$TMP/o"
check "--no-pager" sh -c "grep -q 'schedlint 0.1.0' '$TMP/o' && ! grep -q PAGED '$TMP/o'"
inpty "PAGER='sed s/^/PAGED:/'" -- --no-pager analyze --brief "$P" > "$TMP/o"
check "schedlint --no-pager analyze" sh -c "grep -q 'schedlint 0.1.0' '$TMP/o' && ! grep -q PAGED '$TMP/o'"
# timehist pages as analyze does; every command takes --no-pager among its own options
inpty "PAGER='sed s/^/PAGED:/'" -- timehist "$P" > "$TMP/o"
check "timehist on a terminal: through \$PAGER" grep -q '^PAGED: *time  *cpu  task name' "$TMP/o"
inpty "PAGER='sed s/^/PAGED:/'" -- timehist --no-pager "$P" > "$TMP/o"
check "timehist --no-pager" sh -c "grep -q 'task name' '$TMP/o' && ! grep -q PAGED '$TMP/o'"
bad=""
for c in analyze diff dump explore record timehist; do
	"$SCHEDLINT" $c --no-pager --help > "$TMP/h" 2> "$TMP/err" && grep -q -- '--no-pager' "$TMP/h" || bad="$bad $c"
done
expect_eq "every command takes --no-pager and its --help says so" "$bad" ""
inpty "PAGER='sed s/^/PAGED:/'" "SCHEDLINT_PAGER=" -- analyze --brief "$P" > "$TMP/o"
check "SCHEDLINT_PAGER empty: no pager" sh -c "grep -q 'schedlint 0.1.0' '$TMP/o' && ! grep -q PAGED '$TMP/o'"
inpty "PAGER=cat" -- analyze --brief "$P" > "$TMP/o"
check "PAGER=cat: no pager" grep -q '^.*schedlint 0.1.0' "$TMP/o"
# a pager that cannot be run: the report on the terminal, and a word why
# (issue 32, 08: only the shell's "not found", the report lost, exit 0)
inpty "PAGER=/nonexistent/pager" -- analyze --brief "$P" > "$TMP/o"
check "PAGER not found: the report reaches the terminal" grep -q 'schedlint 0.1.0' "$TMP/o"
check "PAGER not found: says so" grep -q "cannot run the pager '/nonexistent/pager'" "$TMP/o"
inpty "PAGER='nonexistent-pager -R'" -- analyze --brief "$P" > "$TMP/o"
check "PAGER not on PATH: the report reaches the terminal" grep -q 'schedlint 0.1.0' "$TMP/o"
PAGER='sed s/^/PAGED:/' "$SCHEDLINT" analyze --brief "$P" > "$TMP/o"
check "not a terminal: no pager" sh -c "! grep -q PAGED '$TMP/o'"
# quitting the pager before the end (a pager that reads nothing): no error, status 0
script -qec "env SCHEDLINT_PAGER=true $SCHEDLINT analyze --full $TESTDATA/real/hackbench.dat; echo status=\$?" \
	/dev/null < /dev/null | tr -d '\r' > "$TMP/o"
expect_eq "the pager quit early: status 0, no message" "$(cat "$TMP/o")" "status=0"
inpty "PAGER='sed s/^/PAGED:/'" -- analyze --json "$P" > "$TMP/o"
check "--json is never paged" sh -c "! grep -q PAGED '$TMP/o' && grep -q schedlint.report/1 '$TMP/o'"
# the default pager is less -FRX: a summary shorter than the screen is printed and less quits
inpty "LINES=100" -- analyze --brief "$P" > "$TMP/o"
check "default pager (less -FRX) ends by itself on a short report" grep -q 'schedlint 0.1.0' "$TMP/o"

ESC=$(printf '\033')
has_esc() { grep -q "$ESC\[" "$1"; }
inpty "TERM=xterm" -- analyze --no-pager --brief "$P" > "$TMP/o"
check "a terminal: colors" has_esc "$TMP/o"
inpty "TERM=xterm" "NO_COLOR=" -- analyze --no-pager --brief "$P" > "$TMP/o"
check "NO_COLOR empty: colors still (no-color.org)" has_esc "$TMP/o"
inpty "TERM=xterm" "NO_COLOR=1" -- analyze --no-pager --brief "$P" > "$TMP/o"
check "NO_COLOR=1: no escape codes" sh -c "! grep -q '$ESC' '$TMP/o' && grep -q 'schedlint 0.1.0' '$TMP/o'"
inpty "TERM=dumb" -- analyze --brief "$P" > "$TMP/o"
check "TERM=dumb: no escape codes, no pager" sh -c "! grep -q '$ESC' '$TMP/o' && grep -q 'schedlint 0.1.0' '$TMP/o'"
"$SCHEDLINT" analyze --color --brief "$P" > "$TMP/o"
check "a bare --color means always" has_esc "$TMP/o"
"$SCHEDLINT" analyze --brief --color "$P" > "$TMP/o" 2>&1
check "--color before the trace is not its argument" has_esc "$TMP/o"
NO_COLOR=1 "$SCHEDLINT" analyze --color=always --brief "$P" > "$TMP/o"
check "--color=always beats NO_COLOR" has_esc "$TMP/o"
"$SCHEDLINT" analyze --color=sometimes "$P" > "$TMP/o" 2> "$TMP/err"
expect_eq "--color=sometimes: exit 2" "$?" 2

# --- a compressed text says so ---
gzip -c "$TESTDATA/real/pipe.txt" > "$TMP/pipe.txt.gz"
"$SCHEDLINT" analyze "$TMP/pipe.txt.gz" > "$TMP/o" 2> "$TMP/err"
expect_eq "gzip'd text: exit 2, nothing on stdout" "$?:$(wc -c < "$TMP/o")" "2:0"
check "gzip'd text: says so and how to read it" \
	grep -q "^schedlint: $TMP/pipe.txt.gz: gzip-compressed: decompress it first (gunzip -k $TMP/pipe.txt.gz; a text trace can also be piped: zcat $TMP/pipe.txt.gz | schedlint analyze -)$" "$TMP/err"
"$SCHEDLINT" analyze - < "$TMP/pipe.txt.gz" > "$TMP/o" 2> "$TMP/err"
check "gzip'd text on stdin: says so" grep -q "^schedlint: -: gzip-compressed input: decompress it on the way (zcat FILE | schedlint analyze -)$" "$TMP/err"
zcat "$TMP/pipe.txt.gz" | "$SCHEDLINT" analyze --json - > "$TMP/o"
check "the hint works: zcat | analyze -" grep -q '"schema":."schedlint.report/1"' "$TMP/o"
printf '\050\265\057\375\044\000\001\000' > "$TMP/t.zst"
"$SCHEDLINT" dump "$TMP/t.zst" > "$TMP/o" 2> "$TMP/err"
check "zstd: says so (dump too)" grep -q "t.zst: zstd-compressed: decompress it first (unzstd " "$TMP/err"
printf '\375\067\172\130\132\000\000' > "$TMP/t.xz"
"$SCHEDLINT" analyze "$TMP/t.xz" > "$TMP/o" 2> "$TMP/err"
check "xz: says so" grep -q "t.xz: xz-compressed" "$TMP/err"
printf 'BZh91AY&SY' > "$TMP/t.bz2"
"$SCHEDLINT" analyze "$TMP/t.bz2" > "$TMP/o" 2> "$TMP/err"
check "bzip2: says so" grep -q "t.bz2: bzip2-compressed" "$TMP/err"
printf 'BZhello world\n' > "$TMP/t.txt"
"$SCHEDLINT" analyze "$TMP/t.txt" > "$TMP/o" 2> "$TMP/err"
check "text that starts with BZh is not bzip2" sh -c "! grep -q compressed '$TMP/err'"

# --- help and conventions ---
MANPAGER=cat MANWIDTH=80 "$SCHEDLINT" help analyze > "$TMP/o" 2>&1
check "schedlint help analyze opens the man page" grep -q '^SCHEDLINT-ANALYZE(1)' "$TMP/o"
MANPAGER=cat MANWIDTH=80 "$SCHEDLINT" help diff > "$TMP/o" 2>&1
check "schedlint help diff opens its man page" grep -q '^SCHEDLINT-DIFF(1)' "$TMP/o"
"$SCHEDLINT" help > "$TMP/o"
check "schedlint help alone: the commands" grep -q '^  analyze ' "$TMP/o"
# (issue 32, 19: "unknown command 'help'; did you mean 'help'?", exit 2)
MANPAGER=cat MANWIDTH=80 "$SCHEDLINT" help help > "$TMP/o" 2> "$TMP/err"
expect_eq "schedlint help help: schedlint(1), exit 0, nothing on stderr" \
	"$?, $(grep -c '^SCHEDLINT(1)' "$TMP/o"), $(wc -c < "$TMP/err")" "0, 1, 0"
"$SCHEDLINT" help anlyze > "$TMP/o" 2> "$TMP/err"
expect_eq "help of an unknown command: exit 2" "$?" 2
check "help of a misspelt command: did you mean" grep -q "did you mean 'analyze'" "$TMP/err"
PATH=/nonexistent "$SCHEDLINT" help analyze > "$TMP/o" 2> "$TMP/err"
check "no man on the machine: the command's --help instead" \
	sh -c "grep -q 'cannot run man' '$TMP/err' && grep -q '^usage: schedlint analyze' '$TMP/o'"
# a binary staged away from the source tree, its pages not installed: its
# --help; staged under a prefix with share/man/man1: that page (man -l)
mkdir -p "$TMP/stage/bin" "$TMP/prefix/bin" "$TMP/prefix/share/man/man1" "$TMP/noman"
cp "$(readlink -f "$SCHEDLINT")" "$TMP/stage/bin/schedlint"
cp "$(readlink -f "$SCHEDLINT")" "$TMP/prefix/bin/schedlint"
cp man/schedlint-timehist.1 "$TMP/prefix/share/man/man1/"
MANPATH="$TMP/noman" "$TMP/stage/bin/schedlint" help timehist > "$TMP/o" 2> "$TMP/err"
expect_eq "help CMD, no page installed nor next to the binary: exit 0, its --help, one line why" \
	"$?/$(grep -c '^usage: schedlint timehist' "$TMP/o")/$(grep -c 'no manual page schedlint-timehist' "$TMP/err")" "0/1/1"
MANPAGER=cat MANWIDTH=80 MANPATH="$TMP/noman" "$TMP/prefix/bin/schedlint" help timehist > "$TMP/o" 2> "$TMP/err"
expect_eq "help CMD of a binary staged under a prefix: its share/man page" \
	"$?/$(grep -c '^SCHEDLINT-TIMEHIST(1)' "$TMP/o")/$(wc -c < "$TMP/err")" "0/1/0"
rm -rf "$TMP/stage" "$TMP/prefix"

"$SCHEDLINT" analze "$P" > "$TMP/o" 2> "$TMP/err"
expect_eq "a misspelt command: exit 2" "$?" 2
check "a misspelt command: did you mean 'analyze'" \
	grep -q "^schedlint: unknown command 'analze'; did you mean 'analyze'?" "$TMP/err"
expect_eq "a misspelt command: that one line, nothing on stdout" \
	"$(wc -l < "$TMP/err"):$(wc -c < "$TMP/o")" "1:0"
"$SCHEDLINT" dif a b > "$TMP/o" 2> "$TMP/err"
check "a short one: did you mean 'diff'" grep -q "did you mean 'diff'" "$TMP/err"
"$SCHEDLINT" frobnicate > "$TMP/o" 2> "$TMP/err"
check "nothing like a command: no suggestion" sh -c "! grep -q 'did you mean' '$TMP/err'"
check "nothing like a command: the commands" grep -q '^  analyze ' "$TMP/err"
"$SCHEDLINT" analyze --jsn "$P" > "$TMP/o" 2> "$TMP/err"
expect_eq "a misspelt option: exit 2, nothing on stdout" "$?:$(wc -c < "$TMP/o")" "2:0"
check "getopt's error names the command" grep -q "^schedlint analyze: unrecognized option '--jsn'" "$TMP/err"
check "a misspelt option: did you mean '--json'" grep -q "^schedlint analyze: did you mean '--json'?" "$TMP/err"
"$SCHEDLINT" analyze --form=913.8 "$P" > "$TMP/o" 2> "$TMP/err"
check "--form: did you mean '--from'" grep -q "did you mean '--from'" "$TMP/err"
"$SCHEDLINT" dump --cpsu=0 "$P" > "$TMP/o" 2> "$TMP/err"
check "dump --cpsu: did you mean '--cpus'" grep -q "^schedlint dump: did you mean '--cpus'" "$TMP/err"
"$SCHEDLINT" analyze --top "$P" > "$TMP/o" 2> "$TMP/err"
"$SCHEDLINT" analyze --top > "$TMP/o" 2> "$TMP/err"
check "a missing argument: getopt's message with the command" \
	grep -q "^schedlint analyze: option '--top' requires an argument" "$TMP/err"
check "a missing argument: no suggestion" sh -c "! grep -q 'did you mean' '$TMP/err'"

"$SCHEDLINT" analyse --json "$P" > "$TMP/o1"
"$SCHEDLINT" analyze --json -i "$P" > "$TMP/o2"
check "schedlint analyse and analyze -i FILE give the report of FILE" \
	sh -c "cmp -s '$TMP/o1' '$TMP/o2' && cmp -s '$TMP/o1' '$TMP/pipe.json'"
"$SCHEDLINT" analyze -i "$P" "$P" > "$TMP/o" 2> "$TMP/err"
expect_eq "-i and a trace too: exit 2" "$?" 2
"$SCHEDLINT" timehist -i "$P" > "$TMP/o1" 2>&1
"$SCHEDLINT" timehist "$P" > "$TMP/o2" 2>&1
check "timehist -i FILE" sh -c "cmp -s '$TMP/o1' '$TMP/o2' && [ \$(wc -l < '$TMP/o1') -gt 100 ]"
"$SCHEDLINT" dump -i "$P" --cpus 0 --from 913.967146 --to 913.967153 > "$TMP/o1"
expect_eq "dump -i FILE" "$(wc -l < "$TMP/o1")" 3
# dump: trace-cmd report's seconds, the window, the CPUs, the tasks.  On
# cpu0 from tail:8336's waking to its switch-in, trace-cmd report lists 9
# of the events dump reads, all logged by sched-pipe:8337: tail's waking,
# migrate, wakeup, 8337's exit, an IPI, record.sh:8335's waking and
# migrate, an IPI, the switch 8337 ==> 8336
W="--cpus 0 --from 913.967146 --to 913.968480"
"$SCHEDLINT" dump $W "$P" > "$TMP/o"
expect_eq "dump: the window on cpu0, 9 events" "$(wc -l < "$TMP/o")" 9
expect_eq "dump: trace-cmd's seconds, rounded to the microsecond" \
	"$(awk '{ print $1 }' "$TMP/o" | tr '\n' ' ')" \
	"913.967146 913.967147 913.967153 913.967448 913.968086 913.968437 913.968440 913.968441 913.968480 "
expect_eq "dump --ns: the exact times (first, last)" \
	"$("$SCHEDLINT" dump --ns $W "$P" | awk 'NR == 1 || NR == 9 { print $1 }' | tr '\n' ' ')" \
	"913967145675 913968480469 "
expect_eq "dump --pid=8336: its waking, migrate, wakeup and the switch to it" \
	"$("$SCHEDLINT" dump --pid=8336 $W "$P" | awk '{ print $6 }' | tr '\n' ' ')" \
	"waking migrate wakeup switch "
expect_eq "dump --comm=tail: the same" \
	"$("$SCHEDLINT" dump --comm=tail $W "$P" | awk '{ print $6 }' | tr '\n' ' ')" \
	"waking migrate wakeup switch "
expect_eq "dump --comm=record.sh: its waking and migrate" \
	"$("$SCHEDLINT" dump --comm=record.sh $W "$P" | awk '{ print $2, $6 }' | tr '\n' ' ')" \
	"0 waking 0 migrate "
expect_eq "dump --pid=8335,8336: both" "$("$SCHEDLINT" dump --pid=8335,8336 $W "$P" | wc -l)" 6
expect_eq "dump --pid=8337: every event it logged" "$("$SCHEDLINT" dump --pid=8337 $W "$P" | wc -l)" 9
expect_eq "dump --cpus 1 in the window: cpu1's events only" \
	"$("$SCHEDLINT" dump --cpus 1 --from 913.967146 --to 913.968480 "$P" | awk '{ print $2 }' | sort -u)" 1
"$SCHEDLINT" explore -i "$TMP/no-such.dat" > "$TMP/o" 2> "$TMP/err"
check "explore -i FILE reads FILE" grep -q "no-such.dat: cannot open" "$TMP/err"
# every command's --help, and the metric list, fit 80 columns
for c in analyze diff dump explore record timehist; do
	"$SCHEDLINT" $c --help > "$TMP/h" 2>&1
	w=$(widest "$TMP/h")
	if [ "$w" -le 80 ] && [ "$(wc -l < "$TMP/h")" -gt 10 ]; then
		pass "$c --help fits 80 columns (widest $w)"
	else
		fail "$c --help fits 80 columns" "widest $w"
	fi
done
"$SCHEDLINT" --help > "$TMP/h" 2>&1
check "schedlint --help fits 80 columns" test "$(widest "$TMP/h")" -le 80
"$SCHEDLINT" diff --list-metrics > "$TMP/h"
check "diff --list-metrics fits 80 columns" test "$(widest "$TMP/h")" -le 80
expect_eq "diff --list-metrics: one name per metric line, the wrapped text indented" \
	"$(awk '/^  [a-z]/ { n++ } /^   / { c++ } END { print (n >= 30), (c > 0) }' "$TMP/h")" "1 1"
for v in -v -V --version version; do
	expect_eq "schedlint $v" "$("$SCHEDLINT" $v)" "schedlint 0.1.0"
done

# no heading over nothing: IPI entries traced, no sends, none in the window
grep -v ipi_send "$TESTDATA/real/hogs.txt" > "$TMP/nosend.txt"
"$SCHEDLINT" --no-pager analyze "$TMP/nosend.txt" > "$TMP/o" 2>&1
"$SCHEDLINT" --no-pager analyze --from=+100ms --to=+101ms "$TMP/nosend.txt" > "$TMP/w" 2>&1
expect_eq "IPIs and remote wakeups: listed when it has lines, no empty heading in a window without" \
	"$(grep -A1 '^IPIs and remote wakeups' "$TMP/o" | sed -n 2p | awk '{ print $1 }')/$(grep -c '^IPIs and remote wakeups' "$TMP/w")" "received/0"
echo "1..$_n"
