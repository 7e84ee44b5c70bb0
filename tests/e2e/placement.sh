#!/bin/sh
# placement.sh - wakee-stacking and idle-while-runnable on the real traces
# (issue 4, acceptance 9): no crash on any of them, the .dat and the .txt
# of a recording agree, the thresholds and --llc act as the definitions
# say, and two findings checked by hand against trace-cmd report.  The
# scenarios (testdata/scenarios/{stacking,placement,idle}-*) prove the
# definitions exactly; scenarios.sh runs them.
. tests/lib.sh

KINDS="wakee-stacking idle-while-runnable"

# analyze FILE OUT [OPTIONS...]
analyze() {
	file=$1 out=$2; shift 2
	"$SCHEDLINT" analyze --json --max-findings 100000 "$@" "$file" > "$out" 2> "$TMP/err"
}

# check_py DESCRIPTION SCRIPT ARGS...: passes when the python script exits 0
check_py() {
	desc=$1; shift
	if out=$(python3 - "$@" 2>&1); then pass "$desc${out:+ ($out)}"; else fail "$desc" "$out"; fi
}

# Every real trace: exit 0, every finding listed, fields consistent.
for f in "$TESTDATA"/real/*.dat "$TESTDATA"/real/*.txt; do
	base=$(basename "$f")
	if ! analyze "$f" "$TMP/$base.json"; then
		fail "$base: analyze" "$(head -3 "$TMP/err")"
		continue
	fi
	check_py "$base: placement findings listed whole and consistent" "$TMP/$base.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert not d['findings_truncated']
cpus = d['trace']['cpus']
out = []
for k in ('wakee-stacking', 'idle-while-runnable'):
    f = [x for x in d['findings'] if x['kind'] == k]
    s = d['summary'][k]
    assert s['count'] == len(f), (k, s, len(f))
    assert s['cost_ns'] == sum(x['cost_ns'] for x in f), (k, s)
    assert s['max_cost_ns'] == max([x['cost_ns'] for x in f] or [0]), (k, s)
    for x in f:
        assert x['idle_cpus'] and all(0 <= c < cpus for c in x['idle_cpus']), x
        assert x['cpu'] not in x['idle_cpus'] or k == 'idle-while-runnable', x
    out.append('%s %d' % (k, len(f)))
for x in d['findings']:
    if x['kind'] == 'wakee-stacking':
        assert x['cost_ns'] >= 50000 and x['reason'] in ('busy', 'pending', 'in-flight'), x
        assert x['run_ns'] - x['ts_ns'] == x['cost_ns'] and x['placed_ns'] >= x['ts_ns'], x
    elif x['kind'] == 'idle-while-runnable':
        assert x['cost_ns'] >= 1000000 and x['cpu'] in x['idle_cpus'], x
        assert x['cpu'] != x['busy_cpu'] and x['busy_cpu'] not in x['idle_cpus'], x
        assert x['start_ns'] <= x['ts_ns'], x
        assert x['ts_ns'] + x['cost_ns'] <= x['start_ns'] + x['wait_ns'], x
print(', '.join(out))
PY
done

# The .dat and the .txt of one ring buffer: the same findings, times
# within 1 us (the text has microseconds).
for dat in "$TESTDATA"/real/*.dat; do
	base=$(basename "$dat" .dat)
	[ -e "$TESTDATA/real/$base.txt" ] || continue
	check_py "$base: .dat and .txt give the same placement findings" \
		"$TMP/$base.dat.json" "$TMP/$base.txt.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
n = 0
for k in ('wakee-stacking', 'idle-while-runnable'):
    fa, fb = ([x for x in d['findings'] if x['kind'] == k] for d in (a, b))
    assert len(fa) == len(fb), (k, len(fa), len(fb))
    fa.sort(key=lambda x: (x['ts_ns'], x['pid']))
    fb.sort(key=lambda x: (x['ts_ns'], x['pid']))
    # the what-if's times add three rounded ones (the wait, the overlap,
    # the basis' median): within 3 us
    def same(x, y, tol=1000):
        for key in x:
            if key == 'message':
                continue
            if isinstance(x[key], dict):
                same(x[key], y[key], 3000)
            elif key.endswith('_ns'):
                assert abs(x[key] - y[key]) <= tol, (key, x, y)
            else:
                assert x[key] == y[key], (key, x, y)
    for x, y in zip(fa, fb):
        same(x, y)
    n += len(fa)
print('%d findings' % n)
PY
done

# The thresholds cut the same findings, nothing else: with --min-cost 1ms
# the stackings are those of 1 ms or more, with --idle-threshold 5ms the
# idle-while-runnable ones of 5 ms or more (a longest overlap of 5 ms lies
# in an idle period of 5 ms or more).  Two LLCs of one CPU each: none.
HB=$TESTDATA/real/hackbench.dat
analyze "$HB" "$TMP/hb-thr.json" --min-cost 1ms --idle-threshold 5ms
analyze "$HB" "$TMP/hb-llc.json" --llc 0,1
analyze "$HB" "$TMP/hb-assume.json" --assume-migratable
check_py "hackbench: --min-cost, --idle-threshold, --llc and --assume-migratable" \
	"$TMP/hackbench.dat.json" "$TMP/hb-thr.json" "$TMP/hb-llc.json" "$TMP/hb-assume.json" <<'PY'
import json, sys
base, thr, llc, assume = (json.load(open(p)) for p in sys.argv[1:])
def key(x):
    return (x['kind'], x['ts_ns'], x['pid'], x['cpu'], x['cost_ns'])
def of(d, k):
    return sorted(key(x) for x in d['findings'] if x['kind'] == k)
want = {'wakee-stacking': 1000000, 'idle-while-runnable': 5000000}
for k, t in want.items():
    cut = [x for x in of(base, k) if x[4] >= t]
    assert cut and len(cut) < len(of(base, k)), (k, len(cut))
    assert of(thr, k) == cut, (k, len(of(thr, k)), len(cut))
    assert llc['summary'][k]['count'] == 0, (k, llc['summary'][k])
    assert set(of(base, k)) <= set(of(assume, k)), k
assert thr['config']['min_cost_ns'] == 1000000 and thr['config']['idle_threshold_ns'] == 5000000
assert llc['config']['llc'] == [[0], [1]], llc['config']['llc']
print('%d and %d of %d and %d' % (len(of(thr, 'wakee-stacking')), len(of(thr, 'idle-while-runnable')),
                                  len(of(base, 'wakee-stacking')), len(of(base, 'idle-while-runnable'))))
PY

# Two findings checked by hand against trace-cmd report -t (ns timestamps).
check_py "pipe + hackbench: two findings as checked by hand in trace-cmd report" \
	"$TMP/pipe.dat.json" "$TMP/hackbench.dat.json" <<'PY'
import json, sys
pipe, hb = (json.load(open(p)) for p in sys.argv[1:])
# pipe.dat, wakee-stacking.  CPU 1: sched-pipe-8338 exits at 913.967038536
# (X ==> swapper/1) and logs nothing but idle-context interrupts until
# 913.968167575.  CPU 0: sched-pipe-8337 runs from 913.967083331; at
# 913.967145675 it wakes tail:8336 (target_cpu=001, its previous CPU),
# 913.967147299 sched_migrate_task 1 -> 0: placed on the busy CPU 0 while
# CPU 1 idles; sched_wakeup at .967153087; 8337 runs on (exit at
# .967447584) and switches X ==> tail:8336 at 913.968480469:
# 1334.794 us after the waking.
want = dict(kind='wakee-stacking', ts_ns=913967145675, cpu=0, pid=8336, cost_ns=1334794,
            reason='busy', waker_pid=8337, waker_cpu=0, prev_cpu=1, idle_cpus=[1],
            placed_ns=913967147299, run_ns=913968480469, busy_pid=8337, queued=0, pending=0)
got = [f for f in pipe['findings'] if all(f.get(k) == v for k, v in want.items())]
assert len(got) == 1, 'no finding %s' % want
# hackbench.dat, idle-while-runnable.  hackbench-8359 on CPU 1 wakes
# 8368 at 915.744882048 (target_cpu=000, no migration); sched_wakeup
# CPU:000 at 915.744883644: queued on CPU 0, which runs other hackbench
# tasks until 8367 switches S ==> 8368 at 915.762507474 (a 17623.830 us
# wait).  CPU 1: rcu_preempt W ==> swapper/1 at 915.753748421, then only
# idle-context local_timer_entry (.757690010, .761685847) until
# hackbench-8371 on CPU 0 wakes rcu_preempt for CPU 1 (waking
# .761693769, ipi_send_cpu ttwu_queue_wakelist at .761695792: pending
# there, no longer idle).  Longest overlap: 915.753748421 .. .761695792 =
# 7947.371 us (CPU 1's earlier idle period from .751043955 is shorter).
want = dict(kind='idle-while-runnable', ts_ns=915753748421, cpu=1, pid=8368, cost_ns=7947371,
            busy_cpu=0, start_ns=915744883644, wait_ns=17623830, idle_cpus=[1])
got = [f for f in hb['findings'] if all(f.get(k) == v for k, v in want.items())]
assert len(got) == 1, 'no finding %s' % want
assert hb['summary']['idle-while-runnable']['max_cost_ns'] == 7947371
PY

# The terminal report names them with the timestamps to open, as
# trace-cmd report prints them (rounded to the microsecond: the waking at
# 913.967145675 is 913.967146), and the commands that print that moment.
"$SCHEDLINT" analyze "$TESTDATA/real/pipe.dat" > "$TMP/pipe.txt" 2>&1
check "pipe: the text report points at the stacking (waking, placed, ran)" \
	grep -q "^     waking 913.967146, placed 913.967147, ran 913.968480$" "$TMP/pipe.txt"
check "pipe: the dump command of the stacking (waking to run, the destination CPU)" \
	grep -q "^     look at: schedlint dump --from 913.967146 --to 913.968480 --cpus 0 \\\\$" "$TMP/pipe.txt"
check "pipe: the text report points at the idle CPU" \
	grep -q "^     queued 913.967153, cpu1 idle 913.967153 .. 913.968440, wait over 913.968480$" "$TMP/pipe.txt"
check "pipe: the dump command of the wait (both CPUs)" \
	grep -q "^     look at: schedlint dump --from 913.967153 --to 913.968480 --cpus 0,1 \\\\$" "$TMP/pipe.txt"
# the hints are commands: run them (joined back as a shell would), and the
# trace-cmd pipeline shows the same events as schedlint dump
sed -n '/^  #1  913.967146/,/^     at /p' "$TMP/pipe.txt" | sed -n '/look at:/,/^     at /p' | \
	sed '$d' | sed 's/^ *look at: //; s/^ *//' | sed -e ':a' -e '/\\$/N; s/\\\n//; ta' > "$TMP/cmds"
expect_eq "pipe: the look-at hint holds two commands" "$(wc -l < "$TMP/cmds")" 2
(cd "$TMP" && ln -sf "$OLDPWD/testdata" testdata)
PATH="$(cd "$(dirname "$SCHEDLINT")" && pwd):$PATH"
if command -v trace-cmd >/dev/null 2>&1; then
	a=$(cd "$TMP" && sh -c "$(sed -n 1p "$TMP/cmds")" | wc -l)
	b=$(cd "$TMP" && sh -c "$(sed -n 2p "$TMP/cmds")" 2>/dev/null | wc -l)
	expect_eq "pipe: schedlint dump and trace-cmd report show the moment's 9 events" "$a $b" "9 9"
else
	fail "trace-cmd is installed (scripts/install-deps.sh)"
fi
# its awk keys on the CPU field, not on a field number: a comm with spaces
# (tmux's "tmux: client-23187") keeps its events (it had 1 of 3)
printf '%s\n' \
	'  tmux: client-23187 [000]   913.967200: sched_switch:        prev_comm=tmux: client' \
	'          <idle>-0     [000]   913.967300: sched_waking:         comm=tmux: client' \
	' a b c-12 [000]   913.968480: sched_wakeup:         comm=a b c' \
	'            bash-1     [000]   913.969000: sched_switch:        prev_comm=bash' > "$TMP/spaces"
awkcmd=$(sed -n 2p "$TMP/cmds" | sed 's/^.*| *//')
expect_eq "pipe: the trace-cmd hint's awk keeps events of comms with spaces (3 of 4 in the window)" \
	"$(sh -c "$awkcmd" < "$TMP/spaces" | wc -l)" 3

echo "1..$_n"
