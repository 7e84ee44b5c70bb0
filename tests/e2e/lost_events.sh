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

echo "1..$_n"
