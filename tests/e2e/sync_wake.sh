#!/bin/sh
# sync_wake.sh - synchronous wakeups and IPIs on the real pipe traces
# (issue 5, acceptance 4): perf bench sched pipe across two CPUs is
# nearly all sync-wake-remote; pinned to one CPU its synchronous wakeups
# stay local.  The references come from trace-cmd report of the same file,
# and two findings were checked by hand against it.  Then acceptance 5
# for the real traces (their .dat and .txt agree; scenarios.sh does it for
# the scenarios) and --sync-window on a scenario.
. tests/lib.sh

PIPE=$TESTDATA/real/pipe.dat
PINNED=$TESTDATA/real/pipe-pinned.dat

analyze() {
	"$SCHEDLINT" analyze --json --max-findings 100000 "$1" > "$2" 2> "$TMP/err" ||
		fail "analyze $1" "$(cat "$TMP/err")"
}

# check_py DESCRIPTION SCRIPT ARGS...: passes when the python script exits 0
check_py() {
	desc=$1; shift
	if out=$(python3 - "$@" 2>&1); then pass "$desc"; else fail "$desc" "$out"; fi
}

analyze "$PIPE" "$TMP/pipe.json"
trace-cmd report "$PIPE" 2>/dev/null > "$TMP/pipe.report"

check_py "pipe: nearly every sched-pipe wakeup is sync-wake-remote" "$TMP/pipe.json" "$TMP/pipe.report" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
# the reference: sched_waking events of a sched-pipe task logged by the other
wakings = sum(1 for l in open(sys.argv[2])
              if re.match(r'\s*sched-pipe-\d+\s.*sched_waking:\s+comm=sched-pipe ', l))
remote = [f for f in d['findings'] if f['kind'] == 'sync-wake-remote'
          and f['comm'] == 'sched-pipe' and f['waker_comm'] == 'sched-pipe']
local = d['summary']['sync-wake-local']['count']
assert wakings > 3500, 'trace-cmd report shows %d wakings' % wakings
assert len(remote) >= 0.95 * wakings, '%d of %d wakings' % (len(remote), wakings)
assert local <= 0.01 * wakings, '%d local' % local
listed = sum(1 for f in d['findings'] if f['kind'] == 'sync-wake-remote')
assert d['summary']['sync-wake-remote']['count'] == listed, 'list capped?'
# each remote one crossed CPUs, left the waker's CPU, mostly with an IPI
assert all(f['cpu'] != f['waker_cpu'] for f in remote)
assert all(0 <= f['sleep_after_ns'] <= 100500 for f in remote)
with_ipi = sum(f['ipi'] for f in remote)
assert with_ipi >= 0.9 * len(remote), '%d with an IPI' % with_ipi
PY

check_py "pipe: two findings as checked by hand in trace-cmd report" "$TMP/pipe.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
# 913.869680444 sched-pipe-8338 on CPU 1 wakes 8337 (ttwu_queue_wakelist IPI to
# CPU 0 at .869681134), sleeps at .869695167; kdamond.0 takes CPU 0 at
# .869745844, 8337 runs at .870618707: 938.263 us.
# 913.870629260 8337 on CPU 0 wakes 8338 (IPI at .870631838), sleeps at
# .870663710; sched_wakeup on CPU 1 at .870682782 and 8338's next event on
# CPU 1 (its switch-in is not traced there): 53.522 us.
want = [dict(ts_ns=913869680444, cpu=0, pid=8337, cost_ns=938263, waker_pid=8338,
             waker_cpu=1, sleep_after_ns=14723, ipi=True),
        dict(ts_ns=913870629260, cpu=1, pid=8338, cost_ns=53522, waker_pid=8337,
             waker_cpu=0, sleep_after_ns=34450, ipi=True)]
got = [f for f in d['findings'] if f['kind'] == 'sync-wake-remote']
for w in want:
    match = [f for f in got if all(f[k] == v for k, v in w.items())]
    assert len(match) == 1, 'no finding %s' % w
assert d['summary']['sync-wake-remote']['max_cost_ns'] == 938263
PY

check_py "pipe: the pipe pair ping-pongs, side by side with local" "$TMP/pipe.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d['sync_wake']
assert s['window_ns'] == 100000
n = d['summary']['sync-wake-remote']['count']
assert s['remote']['count'] == n and s['remote']['latency']['count'] == n
assert s['local']['count'] == d['summary']['sync-wake-local']['count']
assert abs(s['remote']['share'] + s['local']['share'] - 1) < 1e-9
p = s['pairs'][0]
assert [t['pid'] for t in p['tasks']] == [8337, 8338], p
assert p['remote'] >= n - 5, p
assert p['cost_ns'] <= d['summary']['sync-wake-remote']['cost_ns']
PY

check_py "pipe: IPI counts equal trace-cmd report's" "$TMP/pipe.json" "$TMP/pipe.report" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))['ipi']
rep = open(sys.argv[2]).read().splitlines()
sent = sum(1 for l in rep if ' ipi_send_cpu: ' in l or ' ipi_send_cpumask: ' in l)
wakelist = sum(1 for l in rep if 'callsite=ttwu_queue_wakelist' in l)
received = sum(1 for l in rep if re.search(r' (reschedule|call_function|call_function_single)_entry: ', l))
assert d['events_present'] is True
assert d['sent'] == sent, (d['sent'], sent)
assert d['sent_targets'] == sent
assert d['by_callsite']['ttwu_queue_wakelist'] == wakelist, (d['by_callsite'], wakelist)
assert d['received_total'] == received, (d['received_total'], received)
assert d['remote_wakeups'] == d['wakelist_wakeups'] + d['direct_remote_wakeups']
assert d['wakelist_wakeups'] >= 0.95 * wakelist
assert d['send_to_wakeup']['count'] <= d['wakelist_wakeups']
assert d['remote_wakeups_with_ipi'] >= d['send_to_wakeup']['count']
PY

# An independent list from trace-cmd report (tests/sync_wake_oracle.py, the
# SPEC's words without the analyzer's finer conditions): on pipe.dat the
# two name the very same wakeups, on the other real traces every finding is
# one of the report's patterns.
for base in pipe pipe-pinned hogs hackbench lost; do
	"$SCHEDLINT" analyze --json --max-findings 1000000 "$TESTDATA/real/$base.dat" \
		> "$TMP/$base.all.json" 2> "$TMP/err"
	trace-cmd report -N "$TESTDATA/real/$base.dat" 2>/dev/null |
		python3 tests/sync_wake_oracle.py --list > "$TMP/$base.oracle"
	mode=subset
	[ $base = pipe ] && mode=exact
	if out=$(python3 tests/sync_wake_match.py "$TMP/$base.all.json" "$TMP/$base.oracle" $mode); then
		pass "$base: sync-wake-remote findings match trace-cmd report ($mode): $out"
	else
		fail "$base: sync-wake-remote findings match trace-cmd report ($mode)" "$out"
	fi
done

analyze "$PINNED" "$TMP/pinned.json"
# The local handoffs, most of them by wakeup preemption (the wakee runs on
# the waker's CPU before the waker blocks): the oracle's superset, less the
# wakings of a waker that made more than the analyzer keeps.
trace-cmd report -N "$PINNED" 2>/dev/null | python3 tests/sync_wake_oracle.py --local > "$TMP/pinned.local"
check_py "pipe-pinned: the local handoffs are trace-cmd report's, wakeup preemptions included" \
	"$TMP/pinned.json" "$TMP/pinned.local" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
oracle = int(open(sys.argv[2]).read())
local = d['summary']['sync-wake-local']['count']
assert oracle > 2000, oracle
assert 0.99 * oracle <= local <= oracle, (local, oracle)
PY
check_py "pipe-pinned: no sync-wake-remote between the pipe tasks, local instead" "$TMP/pinned.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
pair = {t['pid'] for t in d['tasks'] if t['comm'] == 'sched-pipe' and t['switches'] > 1000}
assert len(pair) == 2, pair
remote = [f for f in d['findings'] if f['kind'] == 'sync-wake-remote']
between = [f for f in remote if {f['pid'], f['waker_pid']} == pair]
assert not between, between[:3]
assert d['summary']['sync-wake-local']['count'] >= 500, d['summary']['sync-wake-local']
# what else there is: a handful, none of them the benchmark's ping-pong
assert len(remote) <= 5, len(remote)
assert d['sync_wake']['local']['share'] > 0.95
PY

# Acceptance 5: the .dat and the .txt of each trace give the same
# synchronous-wakeup findings and IPI counts (text times are rounded to the
# microsecond: times compare within 1 us, everything else exactly).
for base in pipe pipe-pinned; do
	analyze "$TESTDATA/real/$base.dat" "$TMP/$base.dat.json"
	analyze "$TESTDATA/real/$base.txt" "$TMP/$base.txt.json"
	check_py "$base: .dat and .txt give the same sync wakeups and IPIs" \
		"$TMP/$base.dat.json" "$TMP/$base.txt.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for k in ('sync-wake-remote', 'sync-wake-local'):
    assert a['summary'][k]['count'] == b['summary'][k]['count'], (k, a['summary'][k], b['summary'][k])
def key(f):
    return (f['pid'], f['cpu'], f['waker_pid'], f['waker_cpu'], f['ipi'], (f['ts_ns'] + 500) // 1000)
fa = sorted((f for f in a['findings'] if f['kind'] == 'sync-wake-remote'), key=key)
fb = sorted((f for f in b['findings'] if f['kind'] == 'sync-wake-remote'), key=key)
assert [key(f) for f in fa] == [key(f) for f in fb], 'different findings'
for x, y in zip(fa, fb):
    for k in ('cost_ns', 'sleep_after_ns'):
        assert abs(x[k] - y[k]) <= 1000, (k, x, y)
for k in ('remote', 'local'):
    assert a['sync_wake'][k]['count'] == b['sync_wake'][k]['count'], k
pa = [(sorted(t['pid'] for t in p['tasks']), p['remote'], p['local']) for p in a['sync_wake']['pairs']]
pb = [(sorted(t['pid'] for t in p['tasks']), p['remote'], p['local']) for p in b['sync_wake']['pairs']]
assert sorted(pa) == sorted(pb), (pa, pb)
ia, ib = a['ipi'], b['ipi']
for k, v in ia.items():
    if k in ('send_to_wakeup',):
        assert v['count'] == ib[k]['count'], k
    else:
        assert v == ib[k], (k, v, ib[k])
PY
done

# --sync-window: in sync-wake-not.scn the waker of case B sleeps 150 us
# after its wakeup; with a 200 us window that one (and only it) counts.
if "$SCHEDGEN" scenario "$TESTDATA/scenarios/sync-wake-not.scn" -o "$TMP/not.dat" \
	--text "$TMP/not.txt" 2> "$TMP/err"; then
	for fmt in dat txt; do
		analyze "$TMP/not.$fmt" "$TMP/not.json"
		"$SCHEDLINT" analyze --json --sync-window 200us "$TMP/not.$fmt" > "$TMP/not200.json" 2> "$TMP/err"
		check_py "sync-wake-not.$fmt: the 150 us sleep counts with --sync-window 200us only" \
			"$TMP/not.json" "$TMP/not200.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a['summary']['sync-wake-remote']['count'] == 0, a['summary']
f = [f for f in b['findings'] if f['kind'] == 'sync-wake-remote']
assert len(f) == 1 and b['summary']['sync-wake-remote']['count'] == 1, f
f = f[0]
assert (f['pid'], f['waker_pid'], f['cpu'], f['waker_cpu']) == (202, 102, 5, 1), f
assert (f['ts_ns'], f['sleep_after_ns'], f['cost_ns'], f['ipi']) == (2100000, 150000, 8000, True), f
assert b['sync_wake']['window_ns'] == 200000 and b['config']['sync_window_ns'] == 200000
PY
	done
else
	fail "schedgen sync-wake-not.scn" "$(cat "$TMP/err")"
fi

echo "1..$_n"
