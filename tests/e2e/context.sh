#!/bin/sh
# context.sh - the scheduling context (issue 29): policies, groups and the
# kernel's settings as schedlint record writes them, and what analyze says
# without them.
#
# 1. A trace without context markers says so in the trace facts and the
#    JSON (classes from prio, groups unknown) and computes no shares:
#    never silently flat.
# 2. The shares scenario's markers are read: kernel settings with their
#    sources, the groups, every task's policy recorded.
# 3. A garbage context marker stops the analysis: exit 2, one line
#    naming the file and the marker, nothing on standard output.
. tests/lib.sh

"$SCHEDLINT" --no-pager analyze "$TESTDATA/real/pipe.dat" > "$TMP/pipe.txt" 2>&1
if grep -q '^  context  not recorded: class from the trace.s prio' "$TMP/pipe.txt"
then pass "pipe.dat (no markers): the trace facts say the context was not recorded"
else fail "pipe.dat (no markers): the trace facts say the context was not recorded" \
	"$(grep -A1 '^  context' "$TMP/pipe.txt")"; fi
"$SCHEDLINT" analyze --json "$TESTDATA/real/pipe.dat" > "$TMP/pipe.json" 2> "$TMP/err"
if out=$(python3 - "$TMP/pipe.json" 2>&1 <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))['context']
assert c['recorded'] is False and c['groups_source'] == 'unknown', c
assert c['hz'] == {'value': None, 'from': 'unknown'}, c
assert c['tasks_recorded'] == 0 and c['tasks_class_from_prio'] > 0, c
assert [g['kind'] for g in c['groups']] == ['root'], c
s = json.load(open(sys.argv[1]))['shares']
assert s['computed'] is False and s['tasks'] == [] and s['groups_source'] == 'unknown', s
PY
); then pass "pipe.dat (no markers): JSON context says unknown, no shares computed"
else fail "pipe.dat (no markers): JSON context says unknown" "$out"; fi

SCN=$TESTDATA/scenarios/shares-autogroups
if "$SCHEDGEN" scenario "$SCN.scn" --text "$TMP/sa.txt" 2> "$TMP/err"; then
	"$SCHEDLINT" analyze --json "$TMP/sa.txt" > "$TMP/sa.json" 2> "$TMP/err"
	if out=$(python3 - "$TMP/sa.json" 2>&1 <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))['context']
assert c['recorded'] is True and c['groups_source'] == 'recorded', c
assert c['hz'] == {'value': '250', 'from': 'config'}, c
assert c['hrtick'] == {'value': 'off', 'from': 'default'}, c
assert c['preempt'] == {'value': 'none', 'from': 'config'}, c
assert c['tasks_unknown'] == 0 and c['tasks_class_from_prio'] == 0, c
names = {g['id']: (g['kind'], g['name'], g['weight']) for g in c['groups']}
assert names == {0: ('root', '/', 1024), 1: ('autogroup', '/autogroup-1 nice 0', 1024),
                 2: ('autogroup', '/autogroup-2 nice 0', 1024)}, names
PY
	); then pass "shares-autogroups: the context markers are read"
	else fail "shares-autogroups: the context markers are read" "$out"; fi
	for bad in 'schedlint: group 9 7 1024 autogroup /x' 'schedlint: sched 301=other/0/0/12' \
		   'schedlint: kernel hz=many@config'; do
		sed "s|tracing_mark_write: schedlint: sched .*|tracing_mark_write: $bad|" \
			"$TMP/sa.txt" > "$TMP/bad.txt"
		"$SCHEDLINT" analyze "$TMP/bad.txt" > "$TMP/bad.out" 2> "$TMP/bad.err"
		rc=$?
		if [ $rc = 2 ] && [ ! -s "$TMP/bad.out" ] && [ "$(wc -l < "$TMP/bad.err")" = 1 ] &&
		   grep -q "bad.txt: the schedlint marker at 0.000000000 s is garbage" "$TMP/bad.err"
		then pass "garbage marker '$bad': exit 2, one line naming it"
		else fail "garbage marker '$bad': exit 2, one line naming it" \
			"rc $rc: $(cat "$TMP/bad.err")"; fi
	done
else
	fail "schedgen shares-autogroups.scn" "$(cat "$TMP/err")"
fi

echo "1..$_n"
