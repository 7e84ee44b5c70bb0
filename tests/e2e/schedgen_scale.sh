#!/bin/sh
# schedgen_scale.sh - a large trace: 256 CPUs, 2 million events.  trace-cmd
# reads all of it, the text holds the same events, and (on its first half
# million, to keep the test short) it obeys the state model.
#
# schedgen writes exactly --events events; the load is cut there, so a
# wakeup may miss its second half at the very end, as in any real trace.
. tests/lib.sh

cpus=256 events=2000000
start=$(date +%s)
if ! "$SCHEDGEN" scale --cpus $cpus --events $events --seed 1 -o "$TMP/s.dat" --text "$TMP/s.txt" 2> "$TMP/err"; then
	fail "scale $cpus cpus, $events events: generates" "$(cat "$TMP/err")"
	exit 0
fi
pass "scale $cpus cpus, $events events: generated in $(($(date +%s) - start)) s"

trace-cmd report -N -l "$TMP/s.dat" > "$TMP/report" 2> "$TMP/report.err"
expect_eq "trace-cmd reads it without complaint" "$(head -3 "$TMP/report.err")" ""
expect_eq "trace-cmd reads every event" "$(grep -vc '^cpus=' "$TMP/report")" $events
expect_eq "the text has every event" "$(grep -vc '^#' "$TMP/s.txt")" $events
check "the text header counts them" \
	grep -qx "# entries-in-buffer/entries-written: $events/$events   #P:$cpus" "$TMP/s.txt"
if out=$(sh tests/schedgen_compare.sh "$TMP/s.txt" "$TMP/report"); then
	pass "trace-cmd shows the events of the .txt ($out)"
else
	fail "trace-cmd shows the events of the .txt" "$out"
fi
head -n 500012 "$TMP/s.txt" > "$TMP/head.txt"
if out=$(python3 tests/schedgen_model.py "$TMP/head.txt"); then
	pass "its first 500000 events obey the state model ($out)"
else
	fail "its first 500000 events obey the state model" "$(echo "$out" | head -4)"
fi
