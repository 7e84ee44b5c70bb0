#!/bin/sh
# gate.sh - a CI gate that fails closed: every filter that matches nothing
# is exit 2 naming it (analyze, diff, explore), every rule that cannot be
# evaluated fails unless --allow-unmeasured; a diff that cannot run still
# writes a JUnit <error> (never on a usage error, never over an input); hand-edited baselines with impossible numbers are
# refused; --variant columns; and every JUnit file validated against
# tests/junit.xsd (the format GitLab and Jenkins read), every Markdown
# comment checked by tests/md_check.py.
. tests/lib.sh

REAL=$TESTDATA/real
PINNED=$REAL/pipe-pinned.dat
UNPINNED=$REAL/pipe.dat
HOGS=$REAL/hogs.dat

# closed NAME PATTERN ARGS...: exit 2, nothing on stdout, one line on stderr
# matching PATTERN (and for a usage error, the usage hint)
closed() {
	name=$1 pattern=$2; shift 2
	rc=$(run_rc "$TMP/out" "$TMP/err" "$@" < /dev/null)
	lines=$(grep -vc '^usage: schedlint' "$TMP/err")
	if [ "$rc" = 2 ] && [ ! -s "$TMP/out" ] && [ "$lines" = 1 ] && grep -q -- "$pattern" "$TMP/err"; then
		pass "$name: exit 2 ($(head -1 "$TMP/err"))"
	else
		fail "$name: exit 2, one line with '$pattern'" \
			"rc=$rc stdout=$(wc -c < "$TMP/out")B stderr($lines lines): $(head -c 300 "$TMP/err")"
	fi
}

"$SCHEDLINT" analyze --json "$PINNED" > "$TMP/pinned.json"
"$SCHEDLINT" analyze --json "$UNPINNED" > "$TMP/unpinned.json"
PIPE_PID=$(json "$TMP/unpinned.json" "[t['pid'] for t in d['tasks'] if t['comm'] == 'sched-pipe'][0]")

# --- 1. a filter that matches nothing: exit 2 naming it, in every command ---

# pipe.dat: 2 CPUs, 913.684978 .. 913.968510, sched-pipe tasks, no pid 99999
for cmd in analyze diff explore; do
	case $cmd in
	diff) runs="$UNPINNED $PINNED" ;;	# the base is read first: its error shows
	*) runs=$UNPINNED ;;
	esac
	# shellcheck disable=SC2086
	{
	closed "$cmd --pid of no task" "pipe.*dat: --pid 99999: no task with this pid in the trace" \
		$cmd --pid 99999 $runs
	closed "$cmd --pid, one of the list missing" "--pid 99999: no task" \
		$cmd --pid "$PIPE_PID,99999" $runs
	closed "$cmd --comm typo (the issue's sched_pipe)" \
		"--comm 'sched_pipe': no task of this name in the trace (did you mean 'sched-pipe'?)" \
		$cmd --comm sched_pipe $runs
	closed "$cmd --comm with no near miss" "--comm 'nosuchtask': no task of this name in the trace$" \
		$cmd --comm nosuchtask $runs
	# an empty value (a shell variable left unset): refused, not read as no filter
	closed "$cmd --pid= (empty)" "--pid: '' is not a list of pids" $cmd --pid= $runs
	closed "$cmd --comm= (empty)" "--comm: an empty name" $cmd --comm= $runs
	closed "$cmd --cpus beyond the trace" "--cpus: CPU 7 is not in the trace (it has CPUs 0-1)" \
		$cmd --cpus 7 $runs
	closed "$cmd --cpus partly beyond" "--cpus: CPU 2 is not in the trace" \
		$cmd --cpus 1-3 $runs
	closed "$cmd --from after the end" "--from 914.000000: after the trace's last event (913.968510)" \
		$cmd --from 914 $runs
	closed "$cmd --from +1s (relative, after the end)" "--from 914.684978: after the trace's last event" \
		$cmd --from +1s $runs
	closed "$cmd --to before the start" "--to 900.000000: no event of the trace at or before it" \
		$cmd --to 900 $runs
	closed "$cmd --from after --to" "--from 913.900000 is after --to 913.800000" \
		$cmd --from 913.9 --to 913.8 $runs
	closed "$cmd relative --from after --to" "--from 913.686978 is after --to 913.685978" \
		$cmd --from +2ms --to +1ms $runs
	closed "$cmd a window between two events" "--from 913.685478 --to 913.685488: no event of the trace in this window" \
		$cmd --from +0.5ms --to +0.51ms $runs
	}
done
# dump and timehist: the same; dump printed nothing, exit 0 (timehist
# builds the model and says what analyze says; dump reads events only,
# and names the filters that let none through)
closed "timehist --pid of no task" "pipe.dat: --pid 99999: no task with this pid in the trace" \
	timehist --pid 99999 "$UNPINNED"
closed "dump --pid of no task" "pipe.dat: no event of the trace passes --pid" dump --pid 99999 "$UNPINNED"
closed "dump --comm typo" "pipe.dat: no event of the trace passes --comm" dump --comm sched_pipe "$UNPINNED"
closed "dump --cpus beyond the trace" "pipe.dat: no event of the trace passes --cpus" dump --cpus 7 "$UNPINNED"
closed "dump --from after the end" "pipe.dat: no event of the trace passes --from" dump --from 914 "$UNPINNED"
closed "dump --cpus and a window with nothing in both" \
	"pipe.dat: no event of the trace passes --cpus, --from/--to" \
	dump --cpus 1 --from +0.5ms --to +0.51ms "$UNPINNED"
rc=$(run_rc "$TMP/out" "$TMP/err" dump --comm sched-pipe --cpus 1 --from +80ms --to +90ms "$UNPINNED")
expect_eq "dump, matching filters: exit 0, events printed" "$rc $(test -s "$TMP/out" && echo printed)" "0 printed"
# filters that do match: no error (the trace's own comm, CPU, a window inside it)
rc=$(run_rc "$TMP/out" "$TMP/err" analyze --comm sched-pipe --cpus 1 --from +10ms --to +200ms "$UNPINNED")
expect_eq "matching filters: exit 0" "$rc" 0
# a diff's rule may name a comm only one side has: still exit 2 (as before)
rc=$(run_rc "$TMP/out" "$TMP/err" diff "$PINNED" "$HOGS" --fail-on 'comm.sched-pipe.p99>+10%')
expect_eq "a rule's comm missing in one run: exit 2" "$rc" 2

# --- 2. a rule that cannot be evaluated fails, unless --allow-unmeasured ---

# edit SRC DST PYTHON: a saved report changed by a python statement on d
edit() {
	python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
$3
json.dump(d, open(sys.argv[2], 'w'))" "$1" "$2"
}
edit "$TMP/unpinned.json" "$TMP/nolat.json" "d['wakeup_latency']['count'] = 0"
edit "$TMP/unpinned.json" "$TMP/nosync.json" \
	"d['summary']['sync-wake-local']['count'] = d['summary']['sync-wake-remote']['count'] = 0"
edit "$TMP/unpinned.json" "$TMP/notime.json" "d['trace']['duration_ns'] = 0"

# unmeasured NAME RULE BASE NEW WHY: exit 1 saying why; --allow-unmeasured: exit 0, skip
unmeasured() {
	name=$1 rule=$2 base=$3 new=$4 why=$5
	rc=$(run_rc "$TMP/out" "$TMP/err" diff "$base" "$new" --fail-on "$rule" --junit "$TMP/u.xml")
	if [ "$rc" = 1 ] && grep -q "FAIL *$rule *not measured in $why; a rule that cannot be evaluated fails (--allow-unmeasured lets it pass)" "$TMP/out" &&
	   grep -q '<failure type="unmeasured"' "$TMP/u.xml"; then
		pass "diff $name: exit 1, the rule fails as unmeasured and says why"
	else
		fail "diff $name: exit 1 as unmeasured" "rc=$rc $(grep -i 'measured' "$TMP/out" | head -2)"
	fi
	rc=$(run_rc "$TMP/out" "$TMP/err" diff "$base" "$new" --fail-on "$rule" --allow-unmeasured)
	if [ "$rc" = 0 ] && grep -q "skip *$rule *not measured in $why; skipped (--allow-unmeasured)" "$TMP/out" &&
	   grep -q 'some not measured, allowed' "$TMP/out"; then
		pass "diff $name --allow-unmeasured: exit 0, skip"
	else
		fail "diff $name --allow-unmeasured: exit 0, skip" "rc=$rc $(grep -i 'measured' "$TMP/out" | head -2)"
	fi
}
unmeasured "a percentile of no samples (new)" 'wakeup.p99>+10%' "$TMP/unpinned.json" "$TMP/nolat.json" \
	"new: no wakeup-latency samples"
unmeasured "a percentile of no samples (base)" 'wakeup.p99>+10%' "$TMP/nolat.json" "$TMP/unpinned.json" \
	"base: no wakeup-latency samples"
unmeasured "the remote share of no samples" 'wakeup.remote_share>+5' "$TMP/unpinned.json" "$TMP/nolat.json" \
	"new: no wakeup-latency samples"
unmeasured "a share of no synchronous wakeups" 'sync-wake.remote_share>+10' "$TMP/unpinned.json" "$TMP/nosync.json" \
	"new: no synchronous wakeups"
unmeasured "a rate over no time" 'switches.per_s<-10%' "$TMP/unpinned.json" "$TMP/notime.json" \
	"new: no analyzed time (an empty window)"
unmeasured "a cost per second over no time" 'wakee-stacking.cost_per_s>+20%' "$TMP/notime.json" "$TMP/unpinned.json" \
	"base: no analyzed time (an empty window)"
unmeasured "an absolute rule on an unmeasured new side" 'wakeup.p99>1ms' "$TMP/unpinned.json" "$TMP/nolat.json" \
	"new: no wakeup-latency samples"
# analyze --fail-on: the same
rc=$(run_rc "$TMP/out" "$TMP/err" analyze --comm kworker/1:1H --fail-on 'sync-wake.remote_share>50%' "$UNPINNED")
if [ "$rc" = 1 ] && grep -q 'FAIL *sync-wake.remote_share>50% *not measured in the trace: no synchronous wakeups' "$TMP/out"; then
	pass "analyze --fail-on on an unmeasured share: exit 1, says why"
else
	fail "analyze --fail-on on an unmeasured share: exit 1" "rc=$rc $(grep -i measured "$TMP/out")"
fi
rc=$(run_rc "$TMP/out" "$TMP/err" analyze --comm kworker/1:1H --fail-on 'sync-wake.remote_share>50%' \
	--allow-unmeasured "$UNPINNED")
expect_eq "analyze --allow-unmeasured: exit 0" "$rc" 0
rc=$(run_rc "$TMP/out" "$TMP/err" analyze --json --comm kworker/1:1H --fail-on 'sync-wake.remote_share>50%' "$UNPINNED")
expect_eq "analyze --json: the rule's verdict is unmeasured, failed" \
	"$rc $(json "$TMP/out" "(d['rules'][0]['verdict'], d['rules'][0]['failed'])")" "1 ('unmeasured', True)"

# --- 3. exit 2 with --junit: the file says why, and is valid JUnit ---

xsd_ok() { xmllint --noout --schema tests/junit.xsd "$1" > "$TMP/xsd" 2>&1; }
junit_error() {
	name=$1 pattern=$2; shift 2
	rm -f "$TMP/e.xml"
	if [ -n "$JUNIT_LAST" ]; then
		rc=$(run_rc "$TMP/out" "$TMP/err" diff "$@" --junit "$TMP/e.xml")
	else
		rc=$(run_rc "$TMP/out" "$TMP/err" diff --junit "$TMP/e.xml" "$@")
	fi
	msg=$(sed 's/^schedlint: //' "$TMP/err" | head -1)
	if [ "$rc" = 2 ] && xsd_ok "$TMP/e.xml" && python3 - "$TMP/e.xml" "$msg" "$pattern" <<'PY'
import re, sys
import xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
s = r.find("testsuite")
cases = s.findall("testcase")
e = cases[0].find("error") if len(cases) == 1 else None
ok = (r.get("errors") == "1" and s.get("errors") == "1" and s.get("tests") == "1"
      and e is not None and e.get("message") == sys.argv[2] and re.search(sys.argv[3], e.text))
sys.exit(0 if ok else 1)
PY
	then
		pass "$name: exit 2 and a JUnit <error> with the message ($msg)"
	else
		fail "$name: exit 2 and a JUnit <error>" "rc=$rc err=$(head -c 200 "$TMP/err") xsd=$(head -c 300 "$TMP/xsd")"
	fi
}
junit_error "a missing run" "nope.dat" "$PINNED" "$TMP/nope.dat"
junit_error "a filter that matches nothing" "--comm 'sched_pipe'" --comm sched_pipe "$PINNED" "$UNPINNED"
junit_error "a rule's comm in no run" "no task named 'nosuch'" --fail-on 'comm.nosuch.p99>+1%' "$PINNED" "$UNPINNED"
printf '{"schema": "cyclonedx/1.4"}\n' > "$TMP/other.json"
junit_error "a saved report of another schema" "not a schedlint report" "$PINNED" "$TMP/other.json"
# A usage error writes no JUnit file: which argument is the file may be
# what went wrong (issue 32, 05: "--junit base.dat new.dat" wrote the
# JUnit error over base.dat, a 1.2 MB trace).  An earlier file stays.
junit_untouched() {
	name=$1 pattern=$2; shift 2
	printf '<?xml version="1.0"?><!-- earlier -->\n' > "$TMP/e.xml"
	cp "$TMP/e.xml" "$TMP/e.before"
	if [ -n "$JUNIT_LAST" ]; then
		rc=$(run_rc "$TMP/out" "$TMP/err" diff "$@" --junit "$TMP/e.xml")
	else
		rc=$(run_rc "$TMP/out" "$TMP/err" diff --junit "$TMP/e.xml" "$@")
	fi
	if [ "$rc" = 2 ] && cmp -s "$TMP/e.xml" "$TMP/e.before" && grep -q -- "$pattern" "$TMP/err"; then
		pass "$name: exit 2, the JUnit file untouched ($(head -1 "$TMP/err"))"
	else
		fail "$name: exit 2, the JUnit file untouched" "rc=$rc err=$(head -c 200 "$TMP/err") file=$(head -c 200 "$TMP/e.xml")"
	fi
}
junit_untouched "an unknown metric" "unknown metric" --fail-on 'wakeup.p98>+1%' "$PINNED" "$UNPINNED"
junit_untouched "an unknown option" "unrecognized option '--bogus'" --bogus "$PINNED" "$UNPINNED"
junit_untouched "an option without its argument" "option '--confidence' requires an argument" "$PINNED" "$UNPINNED" --confidence
JUNIT_LAST=1
junit_untouched "an unknown option before --junit" "unrecognized option '--bogus'" --bogus "$PINNED" "$UNPINNED"
junit_untouched "a bad rule before --junit" "--fail-on 'bad'" --fail-on bad "$PINNED" "$UNPINNED"
JUNIT_LAST=

# --junit=FILE taken for a flag, or naming an input: nothing is written
# over (issue 32, 05)
inputs() {
	cp "$UNPINNED" "$TMP/base.dat"
	cp "$TMP/pinned.json" "$TMP/base.json"
	cp "$TMP/unpinned.json" "$TMP/new.json"
	ln -f "$TMP/base.json" "$TMP/alias.xml"
}
junit_input() {
	name=$1 pattern=$2; shift 2
	inputs
	rc=$(cd "$TMP" && "$SCHEDLINT" "$@" > out 2> err < base.json; echo $?)
	lines=$(grep -vc '^usage: schedlint' "$TMP/err")
	if [ "$rc" = 2 ] && [ "$lines" = 1 ] && grep -q -- "$pattern" "$TMP/err" &&
	   cmp -s "$TMP/base.dat" "$UNPINNED" && cmp -s "$TMP/base.json" "$TMP/pinned.json" &&
	   cmp -s "$TMP/new.json" "$TMP/unpinned.json"; then
		pass "$name: exit 2, every input intact ($(head -1 "$TMP/err"))"
	else
		fail "$name: exit 2, every input intact" "rc=$rc err=$(head -c 300 "$TMP/err")"
	fi
}
junit_input "diff --junit base.dat new.dat (the trace taken for the file)" \
	"--junit=base.dat: base.dat is a trace, not a JUnit file" diff --junit base.dat new.json
junit_input "diff --junit base.json new.json (a report taken for the file)" \
	"--junit=base.json: base.json is a saved report, not a JUnit file" diff --junit base.json new.json
junit_input "diff --junit=base.json base.json new.json" \
	"base.json is a saved report" diff --junit=base.json base.json new.json
junit_input "--junit through a hard link to a run" \
	"--junit=alias.xml is the run base.json of this diff" diff --junit=alias.xml base.json new.json
junit_input "--junit naming the report on standard input" \
	"--junit=alias.xml is the run on standard input" diff --junit=alias.xml - new.json
# an earlier JUnit file of that name is written over, as every CI run does
inputs
printf '<?xml version="1.0"?>\n<testsuites/>\n' > "$TMP/old.json"
rc=$(run_rc "$TMP/out" "$TMP/err" diff --fail-on none --junit "$TMP/old.json" "$TMP/base.json" "$TMP/new.json")
expect_eq "--junit over an earlier JUnit file named .json: written" \
	"$rc $(grep -c '<testsuite ' "$TMP/old.json")" "0 1"

# a JUnit file that cannot be written: said once (issue 32, 06)
rc=$(run_rc "$TMP/out" "$TMP/err" diff --fail-on 'wakeup.p99>+10%' --junit=/nonexistent/x.xml \
	"$TMP/base.json" "$TMP/base.json")
expect_eq "an unwritable --junit file: exit 2, one error line" \
	"$rc $(wc -l < "$TMP/err") $(grep -c 'nonexistent/x.xml: No such file or directory' "$TMP/err")" "2 1 1"

# --- 4. hand-edited baselines: numbers no trace gives are refused (B29) ---

edit "$TMP/pinned.json" "$TMP/neg.json" "d['summary']['late-preemption']['count'] = -3"
closed "a negative count in a baseline" \
	"neg.json: a schedlint.report/1 with summary.late-preemption.count = -3: counts and times are never negative" \
	diff "$TMP/neg.json" "$UNPINNED"
edit "$TMP/pinned.json" "$TMP/huge.json" "d['wakeup_latency']['p99_ns'] = 1e308"
closed "1e308 in a baseline" "huge.json: a schedlint.report/1 with wakeup_latency.p99_ns = 1e+308: beyond what any trace gives" \
	diff "$TMP/huge.json" "$UNPINNED"
edit "$TMP/pinned.json" "$TMP/negrun.json" "d['cpus'][0]['switches'] = -1"
closed "a negative per-CPU count" "cpus\[\].switches = -1" diff "$PINNED" "$TMP/negrun.json"
# the largest number a trace can give prints short, not as 20 digits of noise
edit "$TMP/pinned.json" "$TMP/big.json" "d['summary']['late-preemption']['count'] = 18446744073709551615"
rc=$(run_rc "$TMP/out" "$TMP/err" diff "$TMP/pinned.json" "$TMP/big.json")
if [ "$rc" = 0 ] && grep -q '^late-preemption.count  *0  *1.84e+19  *+1.84e+19  *+inf$' "$TMP/out" &&
   [ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$TMP/out")" -lt 400 ]; then
	pass "2^64 - 1 findings print as 1.84e+19"
else
	fail "2^64 - 1 findings print as 1.84e+19" "rc=$rc $(grep '^late-preemption.count ' "$TMP/out")"
fi

# --- 5. variants: metric rows by variant columns, % against the first ---

rc=$(run_rc "$TMP/v.txt" "$TMP/err" diff --variant pinned "$PINNED" --variant free "$UNPINNED" \
	--variant hogs "$HOGS" --fail-on 'wakeup.p99>+10%' --metric 'wakeup.*' --metric '*.cost_per_s')
expect_eq "three variants, wakeup.p99 up in two: exit 1" "$rc" 1
check "the header names the variants, the first is the reference" \
	grep -q '^metric  *pinned  *free  *hogs$' "$TMP/v.txt"
p_pin=$(json "$TMP/pinned.json" "d['wakeup_latency']['p99_ns']")
p_free=$(json "$TMP/unpinned.json" "d['wakeup_latency']['p99_ns']")
pct=$(python3 -c "import sys; a, b = map(float, sys.argv[1:]); print('%+.1f%%' % ((b - a) / a * 100))" "$p_pin" "$p_free")
check "a cell is the median and its change against the first ($pct)" \
	grep -q "^wakeup.p99  .*  94.5 us ($pct)  .*<< FAIL" "$TMP/v.txt"
check "only the rows asked for (--metric)" sh -c "! grep -q '^switches.per_s' '$TMP/v.txt' && grep -q '^late-preemption.cost_per_s' '$TMP/v.txt'"
check "a rule is checked on every variant" sh -c "grep -q 'FAIL *wakeup.p99>+10% \[free\]' '$TMP/v.txt' && grep -q 'FAIL *wakeup.p99>+10% \[hogs\]' '$TMP/v.txt' && grep -q '^2 of 2 checks failed' '$TMP/v.txt'"
"$SCHEDLINT" diff --json --variant pinned "$PINNED" --variant free "$UNPINNED" --variant hogs "$HOGS" \
	--fail-on 'wakeup.p99>+10%' > "$TMP/v.json"
expect_eq "JSON: variants, per-metric variant cells, a rule per variant, no base/new" \
	"$(json "$TMP/v.json" "([v['name'] for v in d['variants']], [(v['name'], v['value']['median'], round(v.get('pct', 0), 1)) for m in d['metrics'] if m['name'] == 'wakeup.p99' for v in m['variants']][:2], [(r['variant'], r['verdict']) for r in d['rules']], 'base' in d)")" \
	"(['pinned', 'free', 'hogs'], [('pinned', $p_pin, 0), ('free', $p_free, $(echo "$pct" | tr -d '%+'))], [('free', 'fail'), ('hogs', 'fail')], False)"
closed "--variant given twice" "--variant a given twice" diff --variant a "$PINNED" --variant a "$UNPINNED"
closed "one variant" "two variants at least" diff --variant a "$PINNED"
closed "--variant with --base" "--variant or --base/--new, not both" diff --variant a "$PINNED" --base "$PINNED" --new "$UNPINNED"
closed "--variant without runs" "--variant b has no runs" diff --variant a "$PINNED" --variant b --variant c "$UNPINNED"
closed "--metric naming nothing" "--metric 'wakeup.p98': no metric of this name" diff --metric wakeup.p98 "$PINNED" "$UNPINNED"

# --- 6. the outputs a CI server reads: JUnit against the schema, Markdown checked ---

# the schema can fail: a <testsuites skipped=...> (what diff wrote before) is not JUnit 10
printf '<?xml version="1.0"?>\n<testsuites tests="1" skipped="1"><testsuite name="x" tests="1"/></testsuites>\n' > "$TMP/bad.xml"
if ! xsd_ok "$TMP/bad.xml" && xsd_ok "$TMP/u.xml"; then
	pass "tests/junit.xsd rejects <testsuites skipped=>, accepts diff's file"
else
	fail "tests/junit.xsd rejects a bad file and accepts a good one" "$(cat "$TMP/xsd")"
fi
for r in 1 2 3 4 5; do
	edit "$TMP/unpinned.json" "$TMP/b$r.json" "d['wakeup_latency']['p99_ns'] = $r * 1000 + 90000"
	edit "$TMP/unpinned.json" "$TMP/n$r.json" "d['wakeup_latency']['p99_ns'] = $r * 1000 + 120000"
done
edit "$TMP/unpinned.json" "$TMP/odd.json" \
	"d['comms'].append({'comm': 'a<b>&\"c|d\\'*_[x]', 'tasks': 1, 'wakeup_latency': dict(d['wakeup_latency'])})"
cp "$TMP/odd.json" "$TMP/odd_base.json"
# case ARGS... -- RULES...: exit 0 or 1, a JUnit file valid against the
# schema and a well-formed Markdown comment with the expected header
case_n=0
case_check() {
	case_n=$((case_n + 1))
	header=$1; shift
	"$SCHEDLINT" diff "$@" --junit "$TMP/j$case_n.xml" --markdown > "$TMP/m$case_n.md" 2> "$TMP/err"
	rc=$?
	# shellcheck disable=SC2086
	if [ "$rc" -le 1 ] && xsd_ok "$TMP/j$case_n.xml" &&
	   python3 tests/md_check.py "$TMP/m$case_n.md" --tables 2 --header $header > "$TMP/md" 2>&1; then
		pass "case $case_n (exit $rc): JUnit valid against tests/junit.xsd, Markdown well-formed ($(cat "$TMP/md"))"
	else
		fail "case $case_n: JUnit valid, Markdown well-formed" \
			"rc=$rc $(head -c 300 "$TMP/xsd") $(head -c 300 "$TMP/md") $(head -c 200 "$TMP/err")"
	fi
}
RULES="--fail-on wakeup.p99>+10% --fail-on sync-wake.remote_share>+5 --fail-on wakee-stacking.cost_per_s>+20%"
# shellcheck disable=SC2086
{
case_check "metric base new delta %" "$PINNED" "$UNPINNED" $RULES --fail-on 'comm.sched-pipe.p99>+10%'
case_check "metric base_median_(min–max) new_median_(min–max) delta % p" \
	--base "$TMP"/b?.json --new "$TMP"/n?.json $RULES
case_check "metric pinned free hogs" --variant pinned "$PINNED" --variant free "$UNPINNED" \
	--variant hogs "$HOGS" $RULES
case_check "metric base new delta %" "$TMP/odd_base.json" "$TMP/odd.json" \
	--fail-on "comm.a<b>&\"c|d'*_[x].p99>+10%"
case_check "metric base new delta %" "$TMP/unpinned.json" "$TMP/nolat.json" $RULES
}
check "the multi-run Markdown has the p column and the test's legend" \
	sh -c "grep -q '^| metric | base median (min–max) | new median (min–max) | delta | % | p | |' '$TMP/m2.md' && grep -q '^p: two-sided Mann-Whitney U test' '$TMP/m2.md'"
check "the JUnit counts agree with the verdicts (multi-run: 3 rules, p99 failed)" \
	python3 -c "
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot().find('testsuite')
cases = s.findall('testcase')
fails = [c.get('name') for c in cases if c.find('failure') is not None]
sys.exit(0 if s.get('tests') == '3' and s.get('failures') == '1' and fails == ['wakeup.p99>+10%'] else 1)" "$TMP/j2.xml"
# md_check can fail: a pipe or a star that would break the table or open emphasis
printf '### x\n\n| a | b |\n|:---|---:|\n| 1 | 2 | 3 |\n| *x | y |\n' > "$TMP/bad.md"
if ! python3 tests/md_check.py "$TMP/bad.md" > "$TMP/md" 2>&1 && grep -q '3 cells, the header has 2' "$TMP/md" &&
   grep -q "unescaped '\*'" "$TMP/md"; then
	pass "md_check.py flags a row with a cell too many and an unescaped star"
else
	fail "md_check.py flags a broken table" "$(cat "$TMP/md")"
fi

echo "1..$_n"
