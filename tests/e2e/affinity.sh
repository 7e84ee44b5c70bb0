#!/bin/sh
# affinity.sh - where tasks may run (issue 20 part 1): recorded by
# schedlint record, else inferred from where they ran after their last
# migration/N stopper move; the report says which.
#
# 1. affinity-recorded.scn without its markers: the pinned task's wait is
#    a finding again (the scenario's expectations, with them, say none):
#    the recorded affinity is what decided.
# 2. testdata/real/hogs.dat (no markers): the four dd, moved by the stopper
#    when taskset bound them to CPU 0, are judged from after the move:
#    pinned, no finding; the report says the affinity was inferred.
# 3. testdata/real/hogs-pinned.dat (recorded): two hogs pinned to CPU 0,
#    no finding for them, decided by the recorded affinity.
# 4. Markers that are not ours, or broken, change nothing else.
. tests/lib.sh

SCN=$TESTDATA/scenarios/affinity-recorded
if "$SCHEDGEN" scenario "$SCN.scn" --text "$TMP/ar.txt" 2> "$TMP/err"; then
	grep -v 'tracing_mark_write: schedlint: affinity' "$TMP/ar.txt" > "$TMP/none.txt"
	"$SCHEDLINT" analyze --json "$TMP/none.txt" > "$TMP/none.json" 2> "$TMP/err"
	if out=$(python3 - "$TMP/none.json" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = [x for x in d['findings'] if x['kind'] == 'idle-while-runnable']
# pinme (200) waited 1.203 .. 5.200 ms next to the idle cpu 1: 3997 us
pin = [x for x in f if x['pid'] == 200]
assert len(pin) == 1 and pin[0]['cost_ns'] == 3997000 and pin[0]['affinity'] == 'inferred', f
assert d['idle_while_runnable']['affinity']['recorded'] == 0, d['idle_while_runnable']
PY
	); then pass "affinity-recorded without its markers: the pinned task's wait is a finding"
	else fail "affinity-recorded without its markers: the pinned task's wait is a finding" "$out"; fi
else
	fail "schedgen affinity-recorded.scn" "$(cat "$TMP/err")"
fi

for f in hogs.dat hogs.txt; do
	"$SCHEDLINT" analyze --json "$TESTDATA/real/$f" > "$TMP/h.json" 2> "$TMP/err"
	if out=$(python3 - "$TMP/h.json" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
iwr = d['idle_while_runnable']['affinity']
assert d['summary']['idle-while-runnable']['count'] == 0, d['summary']
# the 252 waits of the dd next to the idle CPU 1 (the count before) are left out,
# every one judged from where its dd ran after the stopper moved it
assert iwr['left_out_not_migratable'] == 252 and iwr['left_out_after_stopper'] == 252, iwr
dd = [t for t in d['tasks'] if t['comm'] == 'dd']
assert len(dd) == 4 and all(t['stopper_moves'] == 1 and t['cpus_allowed'] is None for t in dd), dd
PY
	); then pass "$f: the dd are judged pinned after their stopper move (252 waits left out)"
	else fail "$f: the dd are judged pinned after their stopper move" "$out"; fi
done
"$SCHEDLINT" analyze "$TESTDATA/real/hogs.dat" > "$TMP/h.txt" 2>&1
if grep -q 'affinity 0 recorded by schedlint record, 0 inferred' "$TMP/h.txt" &&
	grep -q 'left out 252 waits of tasks not seen on two CPUs (252 judged' "$TMP/h.txt" &&
	grep -q 'from where they ran after their last migration/N move' "$TMP/h.txt"
then pass "hogs.dat: the report says the affinity was inferred, and how"
else fail "hogs.dat: the report says the affinity was inferred, and how" \
	"$(sed -n '/Idle while runnable/,/^$/p' "$TMP/h.txt" | head -8)"; fi

# testdata/real/hogs-pinned.dat: `schedlint record -- taskset -c 0 sh -c
# '<hog> & <hog> & wait'` on a busy machine; the hogs (8669, 8670) ran on
# CPU 0 only and waited there while CPU 1 idled.  Their affinity comes from
# the trace's markers: no finding for them, even with --assume-migratable;
# without the markers, --assume-migratable makes them findings (what the
# markers decide).
HP=$TESTDATA/real/hogs-pinned.dat
trace-cmd report "$HP" 2>/dev/null > "$TMP/hp.txt"
grep -v 'tracing_mark_write: schedlint: affinity' "$TMP/hp.txt" > "$TMP/hp-none.txt"
for run in "dat:" "dat:--system" "dat:--assume-migratable" "txt:--system --assume-migratable" \
	"none:--assume-migratable"; do
	src=${run%%:*} opts=${run#*:}
	case $src in dat) in=$HP ;; txt) in=$TMP/hp.txt ;; none) in=$TMP/hp-none.txt ;; esac
	# shellcheck disable=SC2086
	"$SCHEDLINT" analyze --json $opts "$in" > "$TMP/hp.json" 2> "$TMP/err"
	if out=$(python3 - "$TMP/hp.json" "$src" 2>&1 <<'PY'
import json, sys
d, src = json.load(open(sys.argv[1])), sys.argv[2]
hogs = {8669, 8670}
mine = [f for f in d['findings'] if f['kind'] == 'idle-while-runnable' and f['pid'] in hogs]
aff = d['idle_while_runnable']['affinity']
if src == 'none':
    # no recorded affinity: assumed migratable, their waits next to idle CPU 1
    assert len(mine) == 8 and sum(f['cost_ns'] for f in mine) == 30873000, mine
    assert all(f['affinity'] == 'assumed' for f in mine), mine
else:
    assert not mine, mine
    assert aff['left_out_not_allowed'] >= 10, aff   # the hogs' 10 waits
    t = {x['pid']: x for x in d['tasks']}
    assert all(t[p]['cpus_allowed'] == '0' for p in hogs if p in t), [t.get(p) for p in hogs]
    if d['workload']['filtered']:
        assert d['summary']['idle-while-runnable']['count'] == 0, d['summary']
        assert aff['left_out_not_allowed'] == 10 and hogs <= set(t), aff
        # idle time next to a waiting workload task: none on cpu 1 for the
        # hogs (their masks out of date until the re-reads after their exec
        # or fork: 37.6 ms before), 453 us on cpu 0 while taskset waited on
        # cpu 1 before its stopper move
        it = d['idle_time']
        assert it['total_ns'] == 453414 and it['cpus'] == [{'cpu': 0, 'idle_ns': 453414, 'gaps': 1}], it
PY
	); then pass "hogs-pinned.$src${opts:+ $opts}: $( [ $src = none ] && echo 'no markers: 8 findings' || echo 'recorded affinity: no finding for the hogs')"
	else fail "hogs-pinned.$src${opts:+ $opts}" "$out"; fi
done
"$SCHEDLINT" analyze "$HP" > "$TMP/hp.out" 2>&1
if grep -q 'left out 10 waits whose recorded affinity excluded the idle CPUs' "$TMP/hp.out"
then pass "hogs-pinned.dat: the report says the recorded affinity left their waits out"
else fail "hogs-pinned.dat: the report says the recorded affinity left their waits out" \
	"$(sed -n '/Idle while runnable/,/^$/p' "$TMP/hp.out" | head -8)"; fi

# not ours, or broken: counted, nothing else changes
sed 's/tracing_mark_write: schedlint: affinity .*/tracing_mark_write: schedlint: affinity 1-2147483647=0 x=1 =2/' \
	"$TMP/ar.txt" > "$TMP/bad.txt" 2>/dev/null
if "$SCHEDLINT" analyze --json "$TMP/bad.txt" > "$TMP/bad.json" 2> "$TMP/err"; then
	pass "broken affinity markers: analyzed (exit 0)"
else
	fail "broken affinity markers: analyzed (exit 0)" "$(cat "$TMP/err")"
fi

# one idle-time gap is "1 gap" (pipe-pinned.dat has one, 26.4 us on cpu1)
"$SCHEDLINT" analyze --system "$TESTDATA/real/pipe-pinned.dat" > "$TMP/pinned.txt" 2>&1
check "pipe-pinned.dat: idle time 'in 1 gap', not '1 gaps'" sh -c \
	"grep -q 'same LLC, in 1 gap (idle' '$TMP/pinned.txt' && grep -Eq '^ +cpu1 +26.4 us in +1 gap$' '$TMP/pinned.txt'"

echo "1..$_n"
