#!/bin/sh
# text_vs_dat.sh - the text of a recording analyzes like its trace.dat:
# for every testdata/real/X.txt (the tracefs trace file of X.dat's ring
# buffer) and for trace-cmd report -N of X.dat read from stdin, the event
# counts, the number of wakeup-latency samples and the per-task counters
# are equal, and the latencies differ by at most 1 us (text has us) or the
# histogram's 1%.  The default trace-cmd report (sched plugin) prints 'R'
# for a preempted task, so for it only the counts are compared.
. tests/lib.sh

# same_analysis NAME DAT_JSON TEXT_JSON STRICT
same_analysis() {
	python3 - "$2" "$3" "$4" > "$TMP/diff" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
strict = sys.argv[3] == "strict"
bad = []
def counts(d):
    c = {k: v for k, v in d["events"].items() if k != "other" and v}
    c.update(d.get("other_events", {}))
    return c
if counts(a) != counts(b):
    bad.append(f"event counts {counts(a)} vs {counts(b)}")
if a["trace"]["events"] != b["trace"]["events"]:
    bad.append(f"events {a['trace']['events']} vs {b['trace']['events']}")
if b["trace"].get("bad_lines", 0):
    bad.append(f"{b['trace']['bad_lines']} bad lines")
wa, wb = a["wakeup_latency"], b["wakeup_latency"]
if wa["count"] != wb["count"]:
    bad.append(f"latency samples {wa['count']} vs {wb['count']}")
if strict:
    for k, v in wa.items():
        if k.endswith("_ns") and isinstance(v, int) and abs(v - wb[k]) > max(1000, v // 100):
            bad.append(f"wakeup_latency.{k} {v} vs {wb[k]}")
    ta = {t["pid"]: t for t in a["tasks"]}
    tb = {t["pid"]: t for t in b["tasks"]}
    if set(ta) != set(tb):
        bad.append(f"tasks {sorted(set(ta) ^ set(tb))[:5]} in one only")
    for pid in set(ta) & set(tb):
        for k in ("wakeups", "switches", "preemptions", "migrations"):
            if ta[pid][k] != tb[pid][k]:
                bad.append(f"pid {pid} {k} {ta[pid][k]} vs {tb[pid][k]}")
print("; ".join(bad[:6]))
sys.exit(1 if bad else 0)
PY
	if [ $? = 0 ]; then pass "$1"; else fail "$1" "$(cat "$TMP/diff")"; fi
}

for txt in "$TESTDATA"/real/*.txt; do
	base=$(basename "$txt" .txt)
	dat="$TESTDATA/real/$base.dat"
	[ -e "$dat" ] || continue
	if ! "$SCHEDLINT" analyze --json "$dat" > "$TMP/dat.json" 2> "$TMP/err"; then
		fail "$base.dat: analyze" "$(cat "$TMP/err")"
		continue
	fi
	expect_eq "$base.dat: trace.header_cpus null (no text header), trace.compression named" \
		"$(json "$TMP/dat.json" 'd["trace"]["header_cpus"], d["trace"]["compression"] in ("zstd", "zlib", "none")')" "(None, True)"
	if "$SCHEDLINT" analyze --json "$txt" > "$TMP/txt.json" 2> "$TMP/err"; then
		same_analysis "$base: tracefs text = trace.dat" "$TMP/dat.json" "$TMP/txt.json" strict
		format=$(json "$TMP/txt.json" 'd["trace"]["format"]')
		expect_eq "$base.txt: format" "$format" "ftrace-text"
		# a field that does not apply is null: a text trace has no
		# compression, its header_cpus is the header's #P:
		P=$(sed -n 's/.*#P:\([0-9][0-9]*\).*/\1/p' "$txt" | head -n 1)
		expect_eq "$base.txt: trace.header_cpus (#P:$P), trace.compression null" \
			"$(json "$TMP/txt.json" 'd["trace"]["header_cpus"], d["trace"]["compression"]')" "($P, None)"
	else
		fail "$base.txt: analyze" "$(cat "$TMP/err")"
	fi
	trace-cmd report -N "$dat" 2>/dev/null |
		"$SCHEDLINT" analyze --json - > "$TMP/n.json" 2> "$TMP/err" &&
		same_analysis "$base: trace-cmd report -N on stdin = trace.dat" \
			"$TMP/dat.json" "$TMP/n.json" strict ||
		fail "$base: trace-cmd report -N on stdin" "$(cat "$TMP/err")"
	trace-cmd report "$dat" 2>/dev/null > "$TMP/report.txt"
	if "$SCHEDLINT" analyze --json "$TMP/report.txt" > "$TMP/r.json" 2> "$TMP/err"; then
		same_analysis "$base: trace-cmd report (plugin) counts = trace.dat" \
			"$TMP/dat.json" "$TMP/r.json" counts
		format=$(json "$TMP/r.json" 'd["trace"]["format"]')
		expect_eq "$base report: format" "$format" "trace-cmd-report"
	else
		fail "$base: trace-cmd report" "$(cat "$TMP/err")"
	fi
done

# perf script text of a perf sched record trace (no sched_wakeup)
if "$SCHEDLINT" analyze --json "$TESTDATA/real/perf-sched.txt" > "$TMP/perf.json" 2> "$TMP/err"; then
	expect_eq "perf-sched.txt: format" "$(json "$TMP/perf.json" 'd["trace"]["format"]')" "perf-script"
	samples=$(json "$TMP/perf.json" 'd["wakeup_latency"]["count"]')
	check "perf-sched.txt: wakeup latency samples without sched_wakeup ($samples)" test "$samples" -gt 0
else
	fail "perf-sched.txt: analyze" "$(cat "$TMP/err")"
fi
echo "1..$_n"
