#!/bin/sh
# latency_over_time.sh - analyze's wakeup latency over time (JSON
# latency_over_time, the text report's "peak" line; series.h), held
# against facts written down before the code ran:
#   - a made-up trace (tracefs text, one CPU): a task woken every 1 ms for
#     200 ms, switched in 10 us later, except five wakeups at 121-125 ms
#     that wait 300, 400, 500, 900 and 600 us.  Its span (100.000000 to
#     100.200060) needs 201 windows of 1 ms, so the windows are 2 ms (the
#     largest of 1, 2, 5 leaving 100 windows): 101 of them, two wakeups
#     each but the first (one) and the last (one); the worst is window 62
#     (100.124-100.126: the 900 us one), p99 900 us, max 900 us exact.
#     With --window 10ms: 21 windows, 9, 10 x 19 and 1 wakeups; the peak
#     is window 12 (120-130 ms, ten wakeups, p99 and max 900 us).
#   - every real trace: the windows' counts sum to the report's wakeup
#     count, their largest max is the report's max, 100 to 250 windows of
#     a 1-2-5 width, one after the other from start_ns.
. tests/lib.sh

. tests/latency_burst.sh	# gen: the made-up trace

gen > "$TMP/burst.txt"
"$SCHEDLINT" analyze --json "$TMP/burst.txt" > "$TMP/burst.json" 2> "$TMP/err"
expect_eq "made-up burst: analyzed" "$?" 0
expect_eq "made-up burst: 200 wakeup samples" "$(jq .wakeup_latency.count "$TMP/burst.json")" 200
expect_eq "made-up burst: 2 ms windows, 101 of them, from the first event" \
	"$(jq -c '.latency_over_time | [.window_ns, (.windows | length), .start_ns, .window_requested_ns]' "$TMP/burst.json")" \
	"[2000000,101,100000000000,null]"
expect_eq "made-up burst: one wakeup in the first and last window, two in each other" \
	"$(jq -c '[.latency_over_time.windows[].count] | [.[0], .[100], (.[1:100] | unique)]' "$TMP/burst.json")" \
	"[1,1,[2]]"
expect_eq "made-up burst: the peak is window 62, p99 and max 900 us" \
	"$(jq -c '.latency_over_time | [.peak, .windows[.peak].start_ns, .windows[.peak].p99_ns, .windows[.peak].max_ns, .windows[.peak].count]' "$TMP/burst.json")" \
	"[62,100124000000,900000,900000,2]"
expect_eq "made-up burst: a quiet window's p50 is 10 us (within 3%), its max exact" \
	"$(jq -c '.latency_over_time.windows[10] | [(.p50_ns - 10000 | fabs) <= 300, .max_ns]' "$TMP/burst.json")" \
	"[true,10000]"

"$SCHEDLINT" --no-pager analyze "$TMP/burst.txt" > "$TMP/burst.out" 2>&1
check "made-up burst: the text report names the peak window" \
	grep -q "^  peak     p99 900.0 us in 100.124000-100.126000 (2.00 ms window, 2 wakeups)" "$TMP/burst.out"

"$SCHEDLINT" analyze --json --window 10ms "$TMP/burst.txt" > "$TMP/w10.json" 2> "$TMP/err"
expect_eq "--window 10ms: 21 windows of 10 ms, 9, 10 x 19, 1 wakeups" \
	"$(jq -c '.latency_over_time | [.window_ns, .window_requested_ns, (.windows | length), .windows[0].count, ([.windows[1:20][].count] | unique), .windows[20].count]' "$TMP/w10.json")" \
	"[10000000,10000000,21,9,[10],1]"
expect_eq "--window 10ms: the peak is window 12 (ten wakeups, 900 us)" \
	"$(jq -c '.latency_over_time | [.peak, .windows[.peak].count, .windows[.peak].max_ns]' "$TMP/w10.json")" \
	"[12,10,900000]"
"$SCHEDLINT" analyze --json --window 1ns "$TMP/burst.txt" > "$TMP/w1.json" 2> "$TMP/err"
expect_eq "--window 1ns: grown tenfold until at most 10000 windows span the trace" \
	"$(jq -c '.latency_over_time | [.window_ns, .window_requested_ns, (.windows | length), ([.windows[].count] | add)]' "$TMP/w1.json")" \
	"[100000,1,2001,200]"
"$SCHEDLINT" analyze --json --window 0 "$TMP/burst.txt" > /dev/null 2> "$TMP/err"
expect_eq "--window 0: a usage error" "$?" 2
"$SCHEDLINT" analyze --json --from +100ms "$TMP/burst.txt" > "$TMP/from.json" 2> "$TMP/err"
expect_eq "--from +100ms: the windows start there and hold the samples in the filter" \
	"$(jq -c '[.latency_over_time.start_ns, ([.latency_over_time.windows[].count] | add) == .wakeup_latency.count]' "$TMP/from.json")" \
	"[100100000000,true]"

for f in "$TESTDATA"/real/*.dat "$TESTDATA"/real/*.txt; do
	[ -f "$f" ] || continue
	n=$(basename "$f")
	"$SCHEDLINT" analyze --json "$f" > "$TMP/r.json" 2> "$TMP/err" || { fail "$n: analyzed" "$(cat "$TMP/err")"; continue; }
	expect_eq "$n: the windows' counts sum to the wakeup count, their max is the max" \
		"$(jq -c '[([.latency_over_time.windows[].count] | add), ([.latency_over_time.windows[].max_ns] | max)]' "$TMP/r.json")" \
		"$(jq -c '[.wakeup_latency.count, .wakeup_latency.max_ns]' "$TMP/r.json")"
	expect_eq "$n: 100-250 windows of a 1-2-5 width, one after the other" \
		"$(jq -c '.latency_over_time as $s | [($s.windows | length) as $n | $n >= 100 and $n <= 250,
			($s.window_ns | tostring | test("^[125]0*$")),
			([range(0; $s.windows | length) as $i | $s.windows[$i].start_ns == $s.start_ns + $i * $s.window_ns] | all)]' "$TMP/r.json")" \
		"[true,true,true]"
done
echo "1..$_n"
