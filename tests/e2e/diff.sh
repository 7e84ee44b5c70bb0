#!/bin/sh
# diff.sh - schedlint diff as a CI gate: the pinned vs unpinned pipe
# benchmark, saved reports against traces, bad input, the multi-run noise
# rule, and the JUnit / Markdown / JSON outputs; analyze --fail-on.
. tests/lib.sh

REAL=$TESTDATA/real
PINNED=$REAL/pipe-pinned.dat
UNPINNED=$REAL/pipe.dat

"$SCHEDLINT" analyze --json "$PINNED" > "$TMP/pinned.json"
"$SCHEDLINT" analyze --json "$UNPINNED" > "$TMP/unpinned.json"

# --- 1. the pinned pipe run is the base, the unpinned one regresses ---

rc=$(run_rc "$TMP/out" "$TMP/err" diff "$PINNED" "$UNPINNED" --fail-on 'wakeup.p99>+10%')
expect_eq "pinned -> unpinned, wakeup.p99>+10%: exit 1" "$rc" 1
check "the table marks wakeup.p99 as failed" grep -q '^wakeup\.p99 .*<< FAIL' "$TMP/out"
check "the rule is listed as FAIL with its numbers" \
	grep -q 'FAIL *wakeup\.p99>+10% *+1[0-9][0-9]\.[0-9]% > +10% (3[0-9]\.[0-9] us -> 9[0-9]\.[0-9] us)' "$TMP/out"
rc=$(run_rc "$TMP/out" "$TMP/err" diff "$UNPINNED" "$PINNED" --fail-on 'wakeup.p99>+10%')
expect_eq "unpinned -> pinned, the same rule: exit 0" "$rc" 0

# ... and for the right reason: the pipe tasks' own wakeups went remote
"$SCHEDLINT" diff --json "$PINNED" "$UNPINNED" --fail-on 'wakeup.p99>+10%' > "$TMP/d.json"
python3 - "$TMP/d.json" "$TMP/pinned.json" "$TMP/unpinned.json" > "$TMP/why" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a, b = (json.load(open(p)) for p in sys.argv[2:])
m = {x["name"]: x for x in d["metrics"]}
bad = []
def need(cond, what):
    if not cond:
        bad.append(what)
p99 = m["wakeup.p99"]
# the p99 analyze reports for each recording: about 36 us pinned, 94 us unpinned
pa, pb = a["wakeup_latency"]["p99_ns"], b["wakeup_latency"]["p99_ns"]
need(p99["base"]["median"] == pa and p99["new"]["median"] == pb,
     f"p99 {p99['base']['median']} -> {p99['new']['median']}, analyze says {pa} -> {pb}")
need(30000 < pa < 40000 and 90000 < pb < 100000, f"analyze's p99 {pa} -> {pb}")
need(abs(p99["pct"] - (pb - pa) / pa * 100) < 1e-6, f"pct {p99['pct']}")
pipe = m["comm.sched-pipe.p99"]
need(pipe["base"]["median"] < 10000 < 50000 < pipe["new"]["median"],
     f"sched-pipe p99 {pipe['base']['median']} -> {pipe['new']['median']}: "
     "expected a few us pinned (local wakeups), tens of us unpinned")
share = m["wakeup.remote_share"]
need(share["base"]["median"] < 5 and share["new"]["median"] > 90,
     f"remote share {share['base']['median']}% -> {share['new']['median']}%")
sync = m["sync-wake.remote_share"]
need(sync["base"]["median"] < 5 and sync["new"]["median"] > 95,
     f"synchronous wakeups placed remotely {sync['base']['median']}% -> {sync['new']['median']}%")
ipis = m["ipis.per_s"]
need(ipis["new"]["median"] > 10 * ipis["base"]["median"], "IPIs per second did not rise tenfold")
need(d["failed"] == 1 and d["rules"][0]["verdict"] == "fail", "the rule did not fail")
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
if [ $? = 0 ]; then
	pass "the regression is the pipe tasks' wakeups going remote with an IPI"
else
	fail "the regression is the pipe tasks' wakeups going remote with an IPI" "$(cat "$TMP/why")"
fi

# the saved reports give the same metrics (checked below) and cost no analysis
P_JSON=$TMP/pinned.json U_JSON=$TMP/unpinned.json

# throughput-like metrics fail downwards: the unpinned run switches less per second
rc=$(run_rc "$TMP/out" "$TMP/err" diff "$P_JSON" "$U_JSON" --fail-on 'switches.per_s<-10%')
expect_eq "switches.per_s<-10%: exit 1 (48k/s -> 29k/s)" "$rc" 1
rc=$(run_rc "$TMP/out" "$TMP/err" diff "$U_JSON" "$P_JSON" --fail-on 'switches.per_s<-10%')
expect_eq "switches.per_s<-10% reversed: exit 0" "$rc" 0
# absolute and delta forms
rc=$(run_rc "$TMP/out" "$TMP/err" diff "$P_JSON" "$U_JSON" --fail-on 'wakeup.p99_ns>500000' \
	--fail-on 'late-preemption.count>+0' --fail-on 'late-preemption.cost_ns>+20%')
expect_eq "limits not crossed: exit 0" "$rc" 0
# unpinned, the pipe's wakees are stacked on busy CPUs (4 of them, 1.51 ms); pinned, they cannot be
rc=$(run_rc "$TMP/out" "$TMP/err" diff "$P_JSON" "$U_JSON" --fail-on 'wakee-stacking.cost_ns>+20%')
expect_eq "wakee-stacking.cost_ns>+20% (0 -> 1.51 ms): exit 1" "$rc" 1
rc=$(run_rc "$TMP/out" "$TMP/err" diff "$P_JSON" "$U_JSON" --fail-on 'wakeup.p99>90us')
expect_eq "wakeup.p99>90us on the new run: exit 1" "$rc" 1
rc=$(run_rc "$TMP/out" "$TMP/err" diff "$P_JSON" "$U_JSON" --fail-on 'wakeup.count>+1000')
expect_eq "wakeup.count>+1000 (2378 -> 4073): exit 1" "$rc" 1

# findings that appear: from a base of 0 any increase is +inf%
python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
d['summary']['late-preemption'] = {'count': 2, 'cost_ns': 5000000, 'max_cost_ns': 3000000}
json.dump(d, open(sys.argv[2], 'w'))" "$TMP/unpinned.json" "$TMP/late.json"
rc=$(run_rc "$TMP/out" "$TMP/err" diff "$TMP/unpinned.json" "$TMP/late.json" \
	--fail-on 'late-preemption.count>+20%' --fail-on 'late-preemption.count>+0' \
	--fail-on 'late-preemption.max_cost>+2ms')
expect_eq "late preemption appears (0 -> 2): exit 1" "$rc" 1
check "... +inf% crosses +20%" grep -q 'FAIL *late-preemption.count>+20% *+inf% (from 0) > +20%' "$TMP/out"
check "... and the delta +2 crosses +0" grep -q 'FAIL *late-preemption.count>+0 *+2 > +0' "$TMP/out"
check "... the max cost rose 3 ms: +3.00 ms > +2.00 ms" grep -q 'FAIL *late-preemption.max_cost>+2ms *+3.00 ms > +2.00 ms' "$TMP/out"
check "... the table shows +inf" grep -q '^late-preemption.count *0 *2 *+2 *+inf *<< FAIL' "$TMP/out"
"$SCHEDLINT" diff --json "$TMP/unpinned.json" "$TMP/late.json" > "$TMP/late-diff.json"
expect_eq "... JSON: pct null, from_zero true" \
	"$(json "$TMP/late-diff.json" "[(m['pct'], m['from_zero'], m['delta']) for m in d['metrics'] if m['name'] == 'late-preemption.count'][0]")" \
	"(None, True, 2)"

# --- 2. a saved report as the baseline ---

rc=$(run_rc "$TMP/out" "$TMP/err" diff "$TMP/pinned.json" "$UNPINNED" --fail-on 'wakeup.p99>+10%')
expect_eq "saved pinned report -> unpinned trace: exit 1" "$rc" 1
check "the saved side is marked as a report" grep -q 'pinned.json (report)' "$TMP/out"
rc=$(run_rc "$TMP/out" "$TMP/err" diff "$UNPINNED" "$TMP/pinned.json" --fail-on 'wakeup.p99>+10%')
expect_eq "unpinned trace -> saved pinned report: exit 0" "$rc" 0
rc=$(run_rc "$TMP/out" "$TMP/err" diff - "$UNPINNED" --fail-on 'wakeup.p99>+10%' < "$TMP/pinned.json")
expect_eq "the saved report on stdin ('-'): exit 1" "$rc" 1
# a trace and its saved report give the same metrics, every one of them
for t in "$PINNED" "$UNPINNED"; do
	"$SCHEDLINT" analyze --json "$t" > "$TMP/saved.json"
	"$SCHEDLINT" diff --json "$t" "$TMP/saved.json" > "$TMP/same.json"
	nonzero=$(json "$TMP/same.json" \
		"[m['name'] for m in d['metrics'] if m['base'] != None and (m['base']['median'] != m['new']['median'])] or len(d['metrics'])")
	case $nonzero in
	[0-9]*) pass "$(basename "$t"): trace and saved report agree on all $nonzero metrics" ;;
	*) fail "$(basename "$t"): trace and saved report agree" "differ: $nonzero" ;;
	esac
done
# the .txt of a recording (the same ring buffer) against the saved report of its .dat
if "$SCHEDLINT" analyze --json "$REAL/pipe.txt" > /dev/null 2>&1; then
	rc=$(run_rc "$TMP/out" "$TMP/err" diff "$TMP/pinned.json" "$REAL/pipe.txt" --fail-on 'wakeup.p99>+10%')
	expect_eq "saved pinned report -> unpinned .txt trace: exit 1" "$rc" 1
	rc=$(run_rc "$TMP/out" "$TMP/err" diff "$REAL/pipe.txt" "$TMP/pinned.json" --fail-on 'wakeup.p99>+10%')
	expect_eq "unpinned .txt trace -> saved pinned report: exit 0" "$rc" 0
else
	fail "the text reader reads pipe.txt (the .txt diff case needs it)"
fi
# analysis options reach both sides, and a saved report says they cannot reach it
rc=$(run_rc "$TMP/out" "$TMP/err" diff --json --fail-on none --comm=sched-pipe "$PINNED" "$UNPINNED")
expect_eq "diff --comm=sched-pipe: exit 0 without rules (--fail-on none)" "$rc" 0
"$SCHEDLINT" analyze --json --comm=sched-pipe "$PINNED" > "$TMP/pinned-comm.json"
"$SCHEDLINT" analyze --json --comm=sched-pipe "$UNPINNED" > "$TMP/unpinned-comm.json"
expect_eq "--comm reaches both traces (wakeup.count and p99 = analyze --comm's)" \
	"$(json "$TMP/out" "[(m['base']['median'], m['new']['median']) for m in d['metrics'] if m['name'] in ('wakeup.count', 'wakeup.p99')]")" \
	"$(python3 -c "
import json, sys
a, b = (json.load(open(p))['wakeup_latency'] for p in sys.argv[1:])
print([(a['count'], b['count']), (a['p99_ns'], b['p99_ns'])])" "$TMP/pinned-comm.json" "$TMP/unpinned-comm.json")"
expect_eq "... and only sched-pipe is left" \
	"$(json "$TMP/out" "[m['name'] for m in d['metrics'] if m['name'].startswith('comm.')]")" \
	"['comm.sched-pipe.p99']"
rc=$(run_rc "$TMP/out" "$TMP/err" diff --tolerance=2ms "$TMP/pinned.json" "$UNPINNED")
check "options with a saved report: a note says they apply to traces only" \
	grep -q 'pinned.json is a saved report: the analysis options apply to traces only' "$TMP/out"
check "and that the settings differ (tolerance_ns)" \
	grep -q 'analyzed with other settings .*tolerance_ns=2000000 (not 1000000)' "$TMP/out"
# a report records its filters; a diff of a filtered and an unfiltered one says so, both ways
"$SCHEDLINT" analyze --json --cpus=1 --comm=sched-pipe "$PINNED" > "$TMP/pinned-filtered.json"
expect_eq "analyze --json records --cpus/--pid/--comm in config.filters (null when not given)" \
	"$(json "$TMP/pinned-filtered.json" "d['config']['filters']"), $(json "$TMP/pinned.json" "d['config']['filters']")" \
	"{'cpus': [1], 'pids': None, 'comms': ['sched-pipe'], 'workload': None}, {'cpus': None, 'pids': None, 'comms': None, 'workload': None}"
# a comm with a space (no trace here has one: the saved report is edited)
python3 -c "
import json, sys
d = json.load(open(sys.argv[1])); d['config']['filters']['comms'] = ['sched pipe']
json.dump(d, open(sys.argv[1], 'w'))" "$TMP/pinned-filtered.json"
run_rc "$TMP/out" "$TMP/err" diff "$TMP/pinned.json" "$TMP/pinned-filtered.json" > /dev/null
check "diff: the new side's filters are named as other settings" \
	grep -q 'pinned-filtered.json was analyzed with other settings .*(filter_cpus=\[1\] (not -), filter_comms=\["sched\\u0020pipe"\] (not -))' "$TMP/out"
run_rc "$TMP/out" "$TMP/err" diff "$TMP/pinned-filtered.json" "$TMP/pinned.json" > /dev/null
check "diff: and the base side's filters, when the new side has none" \
	grep -q 'pinned.json was analyzed with other settings .*(filter_cpus=- (not \[1\]), filter_comms=- (not \["sched\\u0020pipe"\]))' "$TMP/out"

# --- 3. errors: exit 2, one clear message, nothing on stdout ---

# expect_usage NAME PATTERN ARGS...: exit 2, stdout empty, stderr matches PATTERN
expect_usage() {
	name=$1 pattern=$2; shift 2
	rc=$(run_rc "$TMP/out" "$TMP/err" "$@")
	if [ "$rc" = 2 ] && [ ! -s "$TMP/out" ] && grep -q -- "$pattern" "$TMP/err"; then
		pass "$name: exit 2 ($(head -1 "$TMP/err"))"
	else
		fail "$name: exit 2 with '$pattern'" "rc=$rc stdout=$(wc -c < "$TMP/out")B stderr: $(head -c 300 "$TMP/err")"
	fi
}

expect_usage "unknown metric" "unknown metric 'wakeup.p98'" \
	diff "$PINNED" "$UNPINNED" --fail-on 'wakeup.p98>+10%'
expect_usage "unknown finding kind" "unknown metric 'late-preempt.count'" \
	diff "$PINNED" "$UNPINNED" --fail-on 'late-preempt.count>+0'
expect_usage "a comm in neither run" "no task named 'nosuch'" \
	diff "$P_JSON" "$U_JSON" --fail-on 'comm.nosuch.p99>+10%'
expect_usage "a rule without an operator" "no '>' or '<'" \
	diff "$PINNED" "$UNPINNED" --fail-on 'wakeup.p99'
expect_usage "a relative threshold without a sign" "takes a sign" \
	diff "$PINNED" "$UNPINNED" --fail-on 'wakeup.p99>10%'
head -c 65536 /dev/urandom > "$TMP/random.bin"
expect_usage "a garbage base" "$TMP/random.bin" diff "$TMP/random.bin" "$UNPINNED"
printf 'hello world\nthis is not a trace\n' > "$TMP/garbage.txt"
expect_usage "a garbage new side" "$TMP/garbage.txt" diff "$PINNED" "$TMP/garbage.txt"
expect_usage "a missing file" "$TMP/nope.dat" diff "$PINNED" "$TMP/nope.dat"
printf '{"schema": "cyclonedx/1.4", "components": []}\n' > "$TMP/other.json"
expect_usage "a JSON of another schema" "schema 'cyclonedx/1.4', not a schedlint report" \
	diff "$TMP/other.json" "$UNPINNED"
printf '{"name": "package.json", "version": "1.0"}\n' > "$TMP/noschema.json"
expect_usage "a JSON without a schema" "without a \"schema\", not a schedlint report" \
	diff "$PINNED" "$TMP/noschema.json"
printf '{"schema": "schedlint.report/1", "trace": {\n' > "$TMP/cut.json"
expect_usage "a truncated report" "cut.json: not valid JSON (line" diff "$TMP/cut.json" "$UNPINNED"
python3 -c "
import json, sys
d = json.load(open(sys.argv[1])); del d['summary']['late-preemption']
json.dump(d, open(sys.argv[2], 'w'))" "$TMP/pinned.json" "$TMP/partial.json"
expect_usage "a report without a field the metrics need" "without the object summary.late-preemption" \
	diff "$TMP/partial.json" "$UNPINNED"
expect_usage "one run only" "two runs are needed" diff "$PINNED"
expect_usage "--base without --new" "runs for both sides" diff --base "$PINNED" "$UNPINNED"
expect_usage "--json and --markdown" "not both" diff --json --markdown "$PINNED" "$UNPINNED"
expect_usage "a bad analysis option" "min-cost" diff --min-cost=banana "$PINNED" "$UNPINNED"

# --- 4. several runs per side: the noise test ---

# runs NAME P99_US...: saved reports of the unpinned run with wakeup.p99 set
runs() {
	name=$1; shift
	i=0
	for v in "$@"; do
		python3 -c "
import json, sys
d = json.load(open(sys.argv[1])); d['wakeup_latency']['p99_ns'] = int(sys.argv[2]) * 1000
json.dump(d, open(sys.argv[3], 'w'))" "$TMP/unpinned.json" "$v" "$TMP/$name$i.json"
		i=$((i + 1))
	done
}
# expected values from the definition (two-sided Mann-Whitney U, 5 vs 5 runs):
runs base 100 110 105 102 108
runs close 104 112 107 109 115	# median +3.8%; U = 6 of 25: p = 56/252 = 0.222
runs apart 130 140 135 132 138	# median +28.6%; every run above: p = 2/252 = 0.008
rc=$(run_rc "$TMP/out" "$TMP/err" diff --base "$TMP"/base?.json --new "$TMP"/close?.json \
	--fail-on 'wakeup.p99>+3%')
expect_eq "threshold crossed, not significant (p 0.222): exit 0" "$rc" 0
check "... reported as noise, with p" grep -q 'noise *wakeup.p99>+3% .*not significant: p = 0.222 >= 0.05 (Mann-Whitney U, 5 vs 5 runs)' "$TMP/out"
check "the table shows median, min-max and p" \
	grep -q '^wakeup\.p99 *105\.0 us (100\.0–110\.0 us) *109\.0 us (104\.0–115\.0 us) .* 0\.222  noise' "$TMP/out"
check "the table says which test and at what confidence" \
	grep -q '^p: two-sided Mann-Whitney U test of the per-run values (5 vs 5 runs); a change is significant at 95% confidence when p < 0.05' "$TMP/out"
rc=$(run_rc "$TMP/out" "$TMP/err" diff --base "$TMP"/base?.json --new "$TMP"/apart?.json \
	--fail-on 'wakeup.p99>+5%')
expect_eq "threshold crossed and significant (p 0.008): exit 1" "$rc" 1
check "... saying so" grep -q 'FAIL *wakeup.p99>+5% .*significant: p = 0.008 < 0.05' "$TMP/out"
# the confidence: base ranks 1 2 3 4 7 of 10, U = 2: p = 2 * 4/252 = 0.032
runs lo 100 101 102 103 110
runs mid 104 105 111 112 113
rc=$(run_rc "$TMP/out" "$TMP/err" diff --base "$TMP"/lo?.json --new "$TMP"/mid?.json \
	--fail-on 'wakeup.p99>+5%')
expect_eq "p 0.032 at 95%: significant, exit 1" "$rc" 1
rc=$(run_rc "$TMP/out" "$TMP/err" diff --base "$TMP"/lo?.json --new "$TMP"/mid?.json \
	--fail-on 'wakeup.p99>+5%' --confidence 99)
expect_eq "p 0.032 at 99%: noise, exit 0" "$rc" 0
check "... the message states the confidence's alpha" grep -q 'noise .*p = 0.032 >= 0.01' "$TMP/out"
rc=$(run_rc "$TMP/out" "$TMP/err" diff --base "$TMP"/lo?.json --new "$TMP"/mid?.json \
	--fail-on 'wakeup.p99>+5%' --confidence 99.5)
expect_eq "at 99.5%, 5 vs 5 runs cannot be significant (0.008 at best): the threshold decides, exit 1" "$rc" 1
check "... and the note asks for 6 runs, the least (2/924 = 0.002 < 0.005)" grep -q 'note: 5 runs on a side: too few, no change can be significant at 99.5% confidence.*record at least 6 runs per side (6 against 6 give 0.002)' "$TMP/out"
rc=$(run_rc "$TMP/out" "$TMP/err" diff --base "$TMP"/base?.json --new "$TMP"/apart?.json \
	--fail-on 'wakeup.p99>+50%')
expect_eq "significant, threshold not crossed: exit 0" "$rc" 0
rc=$(run_rc "$TMP/out" "$TMP/err" diff --base "$TMP"/apart?.json --new "$TMP"/base?.json \
	--fail-on 'wakeup.p99>+5%')
expect_eq "significant improvement: exit 0" "$rc" 0
# too few runs for any significance: the threshold alone decides (fail closed), said so
rc=$(run_rc "$TMP/out" "$TMP/err" diff --base "$TMP"/base[012].json --new "$TMP"/close[012].json \
	--fail-on 'wakeup.p99>+1%')
expect_eq "3 vs 3 runs, threshold crossed: exit 1 (no test can be significant)" "$rc" 1
check "... the note says why and how many runs to record" \
	grep -q 'note: 3 runs on a side: too few, no change can be significant at 95% confidence .*the least 3 against 3 runs give is 0.100.*record at least 4 runs per side (4 against 4 give 0.029)' "$TMP/out"
rc=$(run_rc "$TMP/out" "$TMP/err" diff --base "$TMP"/base?.json --new "$TMP/apart0.json" \
	--fail-on 'wakeup.p99>+5%')
expect_eq "five runs against one, crossed: exit 1" "$rc" 1
rc=$(run_rc "$TMP/out" "$TMP/err" diff "$P_JSON" "$U_JSON")
check "one run per side: a note says the noise cannot be judged, and suggests 4 runs, the least" \
	grep -q 'note: one run per side: the run-to-run noise cannot be judged.*record at least 4 runs per side' "$TMP/out"
rc=$(run_rc "$TMP/out" "$TMP/err" diff --base "$PINNED" "$TMP/pinned.json" --new "$UNPINNED" \
	"$TMP/unpinned.json" --fail-on 'wakeup.p99>+10%')
expect_eq "two traces-or-reports per side: exit 1" "$rc" 1
"$SCHEDLINT" diff --json --base "$TMP"/base?.json --new "$TMP"/close?.json --fail-on 'wakeup.p99>+3%' > "$TMP/multi.json"
expect_eq "JSON: each side's runs, median, min, max, p, verdict" \
	"$(json "$TMP/multi.json" "[(m['base']['runs'], m['base']['median'], m['new']['min'], m['new']['max'], round(m['p'], 4), m['verdict']) for m in d['metrics'] if m['name'] == 'wakeup.p99'][0]")" \
	"([100000, 110000, 105000, 102000, 108000], 105000, 104000, 115000, 0.2222, 'noise')"
expect_eq "JSON: the test and its confidence" "$(json "$TMP/multi.json" "d['test']")" \
	"{'name': 'mann-whitney-u', 'sided': 'two', 'confidence': 0.95, 'tested': True}"
expect_usage "a confidence out of range" "--confidence '40'" \
	diff --confidence 40 "$P_JSON" "$U_JSON"

# --- 5. JUnit and Markdown ---

# a comm whose name XML and Markdown must escape
python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
d['comms'].append({'comm': 'a<b>&\"c|d\\'', 'tasks': 1, 'wakeup_latency': dict(d['wakeup_latency'])})
# no synchronous wakeups: their shares are not measured
d['summary']['sync-wake-local']['count'] = d['summary']['sync-wake-remote']['count'] = 0
json.dump(d, open(sys.argv[2], 'w'))" "$TMP/unpinned.json" "$TMP/odd.json"
rc=$(run_rc "$TMP/out" "$TMP/err" diff "$TMP/odd.json" "$TMP/odd.json" --junit "$TMP/junit.xml" \
	--fail-on 'wakeup.p99>+10%' --fail-on 'late-preemption.count>+0' \
	--fail-on "comm.a<b>&\"c|d'.p99>+10%" --fail-on 'sync-wake.remote_share>+10%' \
	--allow-unmeasured)
expect_eq "four rules on the same run, one unmeasured and allowed: exit 0" "$rc" 0
"$SCHEDLINT" diff "$P_JSON" "$U_JSON" --junit "$TMP/junit2.xml" \
	--fail-on 'wakeup.p99>+10%' --fail-on 'late-preemption.count>+0' > /dev/null
python3 - "$TMP/junit.xml" "$TMP/junit2.xml" > "$TMP/why" <<'PY'
import re, sys
import xml.etree.ElementTree as ET
bad = []
r = ET.parse(sys.argv[1]).getroot()
cases = r.findall("./testsuite/testcase")
names = [c.get("name") for c in cases]
if names != ["wakeup.p99>+10%", "late-preemption.count>+0", "comm.a<b>&\"c|d'.p99>+10%",
             "sync-wake.remote_share>+10%"]:
    bad.append(f"testcases {names}")
s = r.find("testsuite")
if r.get("tests") != "4" or r.get("failures") != "0" or s.get("skipped") != "1":
    bad.append(f"counts {r.attrib} {s.attrib}")
if cases[3].find("skipped") is None:
    bad.append("the unmeasured share is not <skipped>")
r = ET.parse(sys.argv[2]).getroot()
cases = r.findall("./testsuite/testcase")
if len(cases) != 2 or r.get("failures") != "1":
    bad.append(f"second file: {len(cases)} cases, {r.get('failures')} failures")
elif cases[0].find("failure") is None or not re.match(r"\+1\d\d\.\d% > \+10%", cases[0].find("failure").get("message")):
    bad.append("wakeup.p99 has no failure with the change")
elif cases[1].find("failure") is not None:
    bad.append("late-preemption.count failed")
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
if [ $? = 0 ]; then pass "JUnit: valid XML, one testcase per rule, names escaped, failures and skips"
else fail "JUnit: valid XML, one testcase per rule" "$(cat "$TMP/why")"; fi

python3 -c "
import json, sys
d = json.load(open(sys.argv[1])); o = json.load(open(sys.argv[2]))
d['comms'].append(o['comms'][-1])
json.dump(d, open(sys.argv[3], 'w'))" "$TMP/pinned.json" "$TMP/odd.json" "$TMP/odd-pinned.json"
"$SCHEDLINT" diff --markdown "$TMP/odd-pinned.json" "$TMP/odd.json" --fail-on 'wakeup.p99>+10%' \
	--fail-on "comm.a<b>&\"c|d'.p99>+10%" > "$TMP/md" 2> "$TMP/err"
python3 - "$TMP/md" > "$TMP/why" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
bad = []
def cells(line):
    # split on pipes that are not escaped; a row starts and ends with one
    parts = re.split(r"(?<!\\)\|", line)
    return [p.strip() for p in parts[1:-1]]
tables, cur = [], []
for line in lines + [""]:
    if line.startswith("|"):
        cur.append(line)
    elif cur:
        tables.append(cur)
        cur = []
if len(tables) != 2:
    bad.append(f"{len(tables)} tables, expected rules and metrics")
for t in tables:
    head, sep = cells(t[0]), cells(t[1])
    if not all(re.fullmatch(r":?-{3,}:?", c) for c in sep) or len(sep) != len(head):
        bad.append(f"bad separator row {t[1]!r}")
    for row in t[2:]:
        if len(cells(row)) != len(head):
            bad.append(f"row with {len(cells(row))} cells, header {len(head)}: {row!r}")
if not bad:
    rules, metrics = tables
    if cells(metrics[0])[:5] != ["metric", "base", "new", "delta", "%"]:
        bad.append(f"metrics header {cells(metrics[0])}")
    names = [cells(r)[0] for r in metrics[2:]]
    if "`wakeup.p99`" not in names or not any(n.startswith("`comm.a<b>&\"c\\|d'") for n in names):
        bad.append(f"metric names {names[:3]}... lack wakeup.p99 or the odd comm")
    if len(rules) != 4 or "fail" not in rules[2]:
        bad.append("the rules table does not show wakeup.p99 failing")
if not lines[0].startswith("### schedlint diff: ❌ 1 of 2 rules failed"):
    bad.append(f"heading {lines[0]!r}")
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
if [ $? = 0 ]; then pass "Markdown: a heading and two well-formed tables (rules, metrics), pipes escaped"
else fail "Markdown: well-formed tables" "$(cat "$TMP/why")"; fi

# colors only on request or a terminal
"$SCHEDLINT" diff "$P_JSON" "$U_JSON" --fail-on 'wakeup.p99>+10%' > "$TMP/plain"
"$SCHEDLINT" diff --color=always "$P_JSON" "$U_JSON" --fail-on 'wakeup.p99>+10%' > "$TMP/color"
if ! grep -q "$(printf '\033')" "$TMP/plain" && grep -q "$(printf '\033\\[31m')" "$TMP/color"; then
	pass "no escape codes into a pipe; red with --color=always"
else
	fail "no escape codes into a pipe; red with --color=always"
fi

# --- the metric list: documented, and every listed name is a valid rule ---

"$SCHEDLINT" diff --list-metrics > "$TMP/metrics"
n=0 bad=""
for m in $(awk '/^  [a-z]/ {print $1}' "$TMP/metrics" | grep -v COMM); do
	n=$((n + 1))
	"$SCHEDLINT" diff "$TMP/pinned.json" "$TMP/pinned.json" --fail-on "$m>+0" > /dev/null 2>&1 || bad="$bad $m"
	grep -q "^\\\\fB$m\\\\fR" man/schedlint-diff.1 || bad="$bad $m(man)"
done
if [ "$n" -ge 30 ] && [ -z "$bad" ]; then
	pass "--list-metrics: $n metrics, each accepted by --fail-on and in schedlint-diff(1)"
else
	fail "--list-metrics: each metric accepted and documented" "n=$n, bad:$bad"
fi

# --- analyze --fail-on: absolute rules on one trace ---

rc=$(run_rc "$TMP/out" "$TMP/err" analyze "$UNPINNED" --fail-on 'wakeup.p99>50us')
expect_eq "analyze --fail-on 'wakeup.p99>50us' (p99 94.5 us): exit 1" "$rc" 1
check "... with a Rules section" grep -q 'FAIL *wakeup.p99>50us *94.5 us > 50.0 us' "$TMP/out"
rc=$(run_rc "$TMP/out" "$TMP/err" analyze "$PINNED" --fail-on 'wakeup.p99>50us')
expect_eq "analyze --fail-on 'wakeup.p99>50us' (p99 36.0 us): exit 0" "$rc" 0
rc=$(run_rc "$TMP/out" "$TMP/err" analyze --json "$UNPINNED" --fail-on 'wakeup.p99>50us')
expect_eq "analyze --json --fail-on: exit 1" "$rc" 1
expect_eq "... the verdicts in the JSON" "$(json "$TMP/out" "d['rules'][0]['verdict']")" "fail"
check "... and the failure on stderr" grep -q "failed: 94.5 us > 50.0 us" "$TMP/err"
expect_usage "analyze with a relative rule" "needs two runs: use schedlint diff" \
	analyze "$UNPINNED" --fail-on 'wakeup.p99>+10%'
expect_usage "analyze with an unknown metric" "unknown metric" \
	analyze "$UNPINNED" --fail-on 'wakeup.p42>1ms'

echo "1..$_n"
