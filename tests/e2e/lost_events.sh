#!/bin/sh
# lost_events.sh - a real recording whose ring buffer overran (16 KB per CPU,
# hackbench): schedlint reports the losses trace-cmd reports, per CPU from
# the trace.dat and in total from the tracefs text (its header says
# entries-in-buffer/entries-written, the difference being the overrun), and
# both inputs drop the same wakeups at the gaps instead of measuring across.
. tests/lib.sh

dat=$TESTDATA/real/lost.dat
txt=$TESTDATA/real/lost.txt

"$SCHEDLINT" analyze --json "$dat" > "$TMP/dat.json" 2> "$TMP/err" ||
	fail "lost.dat: analyze" "$(cat "$TMP/err")"
"$SCHEDLINT" analyze --json "$txt" > "$TMP/txt.json" 2> "$TMP/err" ||
	fail "lost.txt: analyze" "$(cat "$TMP/err")"

# trace-cmd report prints "CPU:N [COUNT EVENTS DROPPED]" where a CPU lost events
trace-cmd report "$dat" 2>/dev/null |
	sed -n 's/^ *CPU:\([0-9]*\) \[\([0-9]*\) EVENTS DROPPED\]/\1 \2/p' > "$TMP/dropped"
tc_total=$(awk '{ s += $2 } END { print s + 0 }' "$TMP/dropped")
check "trace-cmd report says events were dropped" test "$tc_total" -gt 0

expect_eq "lost.dat: total lost equals trace-cmd report's" \
	"$(json "$TMP/dat.json" 'd["trace"]["lost_events"]')" "$tc_total"
ours=$(json "$TMP/dat.json" '" ".join("%d %d" % (c["cpu"], c["lost_events"]) for c in d["cpus"] if c["lost_gaps"])')
theirs=$(sort -n "$TMP/dropped" | tr '\n' ' ' | sed 's/ $//')
expect_eq "lost.dat: lost per CPU equals trace-cmd report's" "$ours" "$theirs"

header=$(sed -n 's/^# entries-in-buffer\/entries-written: \([0-9]*\)\/\([0-9]*\).*/\1 \2/p' "$txt")
overrun=$(echo "$header" | awk '{ print $2 - $1 }')
expect_eq "tracefs header's overrun equals trace-cmd report's drops" "$overrun" "$tc_total"
expect_eq "lost.txt: total lost from the header" \
	"$(json "$TMP/txt.json" 'd["trace"]["lost_events"]')" "$tc_total"
expect_eq "lost.txt: a gap on every CPU (the text does not say which lost)" \
	"$(json "$TMP/txt.json" 'd["trace"]["lost_gaps"]')" \
	"$(json "$TMP/txt.json" 'd["trace"]["cpus"]')"

for k in samples_dropped_at_gaps events; do
	expect_eq "lost: $k equal from .dat and .txt" \
		"$(json "$TMP/dat.json" "d['trace']['$k']")" "$(json "$TMP/txt.json" "d['trace']['$k']")"
done
check "lost.dat: some wakeups are not measured across a gap" \
	test "$(json "$TMP/dat.json" 'd["trace"]["samples_dropped_at_gaps"]')" -gt 0
expect_eq "lost: latency samples equal from .dat and .txt" \
	"$(json "$TMP/dat.json" 'd["wakeup_latency"]["count"]')" \
	"$(json "$TMP/txt.json" 'd["wakeup_latency"]["count"]')"

"$SCHEDLINT" analyze "$txt" > "$TMP/txt.out" 2>&1
check "lost.txt: the report names the loss" grep -q "lost     $tc_total events in 2 gaps: cpu0 ? cpu1 ?" "$TMP/txt.out"
"$SCHEDLINT" analyze "$dat" > "$TMP/dat.out" 2>&1
check "lost.dat: the report says where" grep -q "lost     $tc_total events in 2 gaps: cpu0 [0-9]* cpu1 [0-9]*" "$TMP/dat.out"

# A gap whose marker does not say how many were lost ("CPU:0 [EVENTS
# DROPPED]" in trace-cmd report, a ring-buffer page flagged without its
# count, which the kernel stores only when the page has room): the total
# of the others is a floor.  It read "14366 events in 2 gaps: cpu0 ?
# cpu1 14366", and a CPU with counted and uncounted gaps "cpu1 9493"
# where its buffer had overrun 10843 times.
t=$TESTDATA/text/tracecmd-dropped.txt
# lost_line REPORT: the report's lost fact, its lines (wrapped at 80) joined
lost_line() {
	awk '/^  lost / { f = 1; printf "%s", $0; next }
	     f && /^           no latency/ { exit }
	     f && /^           [^ ]/ { sub(/^ +/, " "); printf "%s", $0; next }
	     f { exit }' "$1"
}
expect_eq "tracecmd-dropped.txt: one counted and one uncounted drop in trace-cmd's text" \
	"$(grep -c 'EVENTS DROPPED\]' "$t") $(grep -c '\[EVENTS DROPPED\]' "$t")" "2 1"
"$SCHEDLINT" analyze --system "$t" > "$TMP/drop.out" 2>&1
expect_eq "tracecmd-dropped.txt: at least the counted ones, the uncounted gap said" "$(lost_line "$TMP/drop.out")" \
	"  lost     at least 14366 events in 2 gaps (1 did not say how many): cpu0 ? cpu1 14366"
"$SCHEDLINT" analyze --system --json "$t" > "$TMP/drop.json"
expect_eq "tracecmd-dropped.txt: JSON lost_uncounted_gaps, in all and per CPU" \
	"$(json "$TMP/drop.json" 'd["trace"]["lost_uncounted_gaps"], [c["lost_uncounted_gaps"] for c in d["cpus"]]')" \
	"(1, [1, 0])"
# the header's total is exact: the tracefs text's gaps have no count, the total does
check "lost.txt: the total from its header stays exact (no 'at least')" \
	grep -q "^  lost     $tc_total events in 2 gaps: cpu0 ? cpu1 ?" "$TMP/txt.out"
if trace-cmd convert --file-version 6 -i "$TESTDATA/real/hackbench.dat" -o "$TMP/hb.v6.dat" >/dev/null 2>&1 &&
   python3 tests/dat_edit.py edit "$TMP/hb.v6.dat" "$TMP/mixed.dat" lost-mixed; then
	expect_eq "lost-mixed: trace-cmd report sees 1234 dropped and a drop without its count" \
		"$(trace-cmd report "$TMP/mixed.dat" 2>/dev/null | grep -o '\[[0-9]* *EVENTS DROPPED\]' | tr '\n' ' ')" \
		"[1234 EVENTS DROPPED] [EVENTS DROPPED] "
	"$SCHEDLINT" analyze --system "$TMP/mixed.dat" > "$TMP/mixed.out" 2>&1
	check "lost-mixed: at least 1234, and the CPU's count a floor (1234+?)" sh -c \
		"echo '$(lost_line "$TMP/mixed.out")' | grep -Eq '^  lost     at least 1234 events in 2 gaps \(1 did not say how many\): cpu[01] 1234\+\?$'"
else
	fail "lost-mixed: a v6 copy of hackbench.dat edited" "trace-cmd convert or dat_edit.py failed"
fi
# one gap is a gap, not "1 gaps"
"$SCHEDLINT" analyze --system "$TESTDATA/perf/lost-gap.perf.txt" > "$TMP/gap.out" 2>&1
expect_eq "lost-gap.perf.txt: 1 gap, not 1 gaps" "$(lost_line "$TMP/gap.out")" "  lost     7 events in 1 gap: cpu0 7"
check "lost-gap.perf.txt: 1 wakeup not measured, not 1 wakeups" \
	sh -c "tr -s ' \\n' '  ' < '$TMP/gap.out' | grep -q 'computed across a gap (1 wakeup not measured)'"

# one switch inferred is one switch (inferred.perf.txt infers one on cpu1)
"$SCHEDLINT" analyze --system "$TESTDATA/perf/inferred.perf.txt" > "$TMP/one.out" 2>&1
check "inferred.perf.txt: 1 context switch is missing, not 1 context switches are" \
	grep -q "^  note     1 context switch is missing from the trace (cpu1 1):$" "$TMP/one.out"

echo "1..$_n"
