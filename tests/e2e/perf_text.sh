#!/bin/sh
# perf_text.sh - perf script text and other texts without sched_wakeup or
# without a header (testdata/perf, see its README): each case is a defect
# that once gave a wrong number with exit 0.  Expected values come from the
# man page's definitions, worked out by hand on the few events of each file.
. tests/lib.sh

P=$TESTDATA/perf

# analyze FILE [OPTIONS...]: the JSON report in $TMP/out.json
analyze() {
	f=$1; shift
	if ! "$SCHEDLINT" analyze --json "$@" "$f" > "$TMP/out.json" 2> "$TMP/err"; then
		fail "$(basename "$f"): analyze" "$(cat "$TMP/err")"
		echo '{}' > "$TMP/out.json"
	fi
}
j() { json "$TMP/out.json" "$1" 2>/dev/null; }

# --- perf script -F pid,tid: "PID/-1" is an exited thread, not tid 1
analyze "$P/tid-minus1.F.txt"
expect_eq "tid-minus1.F: the tasks are the two the events name" \
	"$(j 'sorted(t["pid"] for t in d["tasks"])')" "[16660, 16681]"
expect_eq "tid-minus1.F: no switch is inferred" "$(j 'd["trace"]["implied_switches"]')" 0
analyze "$P/tid-minus1.txt"
expect_eq "tid-minus1: the same tasks without -F" \
	"$(j 'sorted(t["pid"] for t in d["tasks"])')" "[16660, 16681]"

# --- a stale sched_waking: A is woken at 1.000010 while it still runs
# (ttwu_runnable), sleeps at 1.000030, is woken at 1.000050 and runs at
# 1.000060: its latency is 10 us, not 50 us from the first waking.
for f in early-rewake early-rewake-wakeup; do
	analyze "$P/$f.perf.txt"
	expect_eq "$f: one latency sample" "$(j 'd["wakeup_latency"]["count"]')" 1
	expect_eq "$f: 10 us from the waking that woke it" \
		"$(j 'd["wakeup_latency"]["max_ns"]')" 10000
	expect_eq "$f: A was woken once" \
		"$(j '[t["wakeups"] for t in d["tasks"] if t["pid"] == 100][0]')" 1
	expect_eq "$f: A waited 10 us" \
		"$(j '[t["wait_ns"] for t in d["tasks"] if t["pid"] == 100][0]')" 10000
done

echo "1..$_n"
