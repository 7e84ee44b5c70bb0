#!/bin/sh
# printed_times.sh - a time copied from a report selects the events printed
# with it.  Reports print trace times rounded to the microsecond (as
# trace-cmd report does); --from/--to given to the microsecond stand for
# every time that prints so (half a microsecond either side), in every
# command.  A user who copied the report's first time into --to was told
# "no event of the trace at or before it"; the last time into --from,
# "after the trace's last event (the same time)".
. tests/lib.sh

REAL=$TESTDATA/real
# pipe.dat: first event 913.684978207 (printed 913.684978, rounded down),
# the next 913.685013; hackbench.dat: first 915.734474595 (printed
# 915.734475, rounded up), last 915.987213990 (printed 915.987214).
# (the exact times: analyze --json's trace.first_ns/last_ns, checked below)
PIPE=$REAL/pipe.dat
HB=$REAL/hackbench.dat

"$SCHEDLINT" analyze --json "$PIPE" > "$TMP/pipe.json"
"$SCHEDLINT" analyze --json "$HB" > "$TMP/hb.json"
expect_eq "the traces' first and last times, as this test assumes them" \
	"$(json "$TMP/pipe.json" "d['trace']['first_ns']") $(json "$TMP/hb.json" "d['trace']['first_ns'], d['trace']['last_ns']")" \
	"913684978207 (915734474595, 915987213990)"

# events JSON: the events the analysis counted in its window (by kind;
# trace.events counts those read, before --from too)
events() { json "$1" "sum(d['events'].values())"; }

# analyze: the printed first time as --to is the first event alone
rc=$(run_rc "$TMP/a.json" "$TMP/err" analyze --json --to=913.684978 "$PIPE")
expect_eq "analyze --to=<the printed first time>: exit 0, the first event alone" \
	"$rc $(events "$TMP/a.json" 2>/dev/null) $(cat "$TMP/err")" "0 1 "
# the microsecond before it is before the trace (half a microsecond short)
rc=$(run_rc "$TMP/out" "$TMP/err" analyze --to=913.684977 "$PIPE")
expect_eq "analyze --to=<a microsecond earlier>: still refused" \
	"$rc $(grep -c 'before the trace.s first event\|no event of the trace at or before it' "$TMP/err")" "2 1"
# nanoseconds written: exact
rc=$(run_rc "$TMP/out" "$TMP/err" analyze --to=913.684978206 "$PIPE")
expect_eq "analyze --to=<1 ns before the first event, in ns>: refused" "$rc" 2
rc=$(run_rc "$TMP/a.json" "$TMP/err" analyze --json --to=913.684978207 "$PIPE")
expect_eq "analyze --to=<the first event, in ns>: exit 0, one event" \
	"$rc $(events "$TMP/a.json" 2>/dev/null)" "0 1"

# the printed last time as --from is the last event alone (it printed
# "--from 915.987214: after the trace's last event (915.987214)")
rc=$(run_rc "$TMP/a.json" "$TMP/err" analyze --json --from=915.987214 "$HB")
expect_eq "analyze --from=<the printed last time>: exit 0, the last event alone" \
	"$rc $(events "$TMP/a.json" 2>/dev/null) $(cat "$TMP/err")" "0 1 "
# the printed first time as --from leaves out nothing (it left out the
# first event: 915.734474595 < 915.734475)
ALL=$(events "$TMP/hb.json")
rc=$(run_rc "$TMP/a.json" "$TMP/err" analyze --json --from=915.734475 --to=915.987214 "$HB")
expect_eq "analyze --from/--to=<the printed span>: every event" \
	"$rc $(events "$TMP/a.json" 2>/dev/null)" "0 $ALL"
# the text report's window line prints the times given
"$SCHEDLINT" analyze --brief --from=915.734475 --to=915.987214 "$HB" > "$TMP/a.txt"
expect_eq "the window line prints the times as given" \
	"$(grep -o 'window .*analyzed' "$TMP/a.txt")" "window   915.734475 .. 915.987214 (252.74 ms) analyzed"

# every command that takes --from/--to
# (one event: no wakeup latency, the rules on it fail as unmeasured, exit 1)
rc=$(run_rc "$TMP/out" "$TMP/err" diff --from=915.987214 "$HB" "$HB")
expect_eq "diff --from=<the printed last time>: the diff runs (exit 1: unmeasured rules)" \
	"$rc $(cat "$TMP/err")" "1 "
rc=$(run_rc "$TMP/out" "$TMP/err" export -o "$TMP/x.ndjson" --to=913.684978 "$PIPE")
expect_eq "export --to=<the printed first time>: exit 0" "$rc $(cat "$TMP/err")" "0 "
rc=$(run_rc "$TMP/out" "$TMP/err" dump --from=915.987214 "$HB")
expect_eq "dump --from=<the printed last time>: the last event" \
	"$rc $(wc -l < "$TMP/out") $(cut -d' ' -f1 "$TMP/out")" "0 1 915.987214"
rc=$(run_rc "$TMP/out" "$TMP/err" dump --to=913.684977 "$PIPE")
expect_eq "dump --to=<a microsecond before the first>: no event, exit 2" "$rc" 2
# timehist: a window of the first run's switch-in alone (the printed time
# of the trace's first switch, both ends)
SW=$("$SCHEDLINT" dump "$HB" | awk '$5 == "sched_switch" { print $1; exit }')
rc=$(run_rc "$TMP/out" "$TMP/err" timehist --from="$SW" --to="$SW" "$HB")
expect_eq "timehist --from/--to=<a printed switch time>: that switch's line" \
	"$rc $(sed 1,3d "$TMP/out" | awk '{ print $1 }' | sort -u)" "0 $SW"
rc=$(run_rc "$TMP/out" "$TMP/err" timehist --time="$SW,$SW" "$HB")
expect_eq "timehist --time=<the same>: the same" \
	"$rc $(sed 1,3d "$TMP/out" | awk '{ print $1 }' | sort -u)" "0 $SW"

# explore: g (go to time) with the printed first time: the first event,
# not "outside the trace" (913.684978000 is 207 ns before it)
. tests/explore_lib.sh
start 100 30 "" "$PIPE"
wait_for "Wakeup latency" 60
tmx send-keys -t x 3
wait_for "cursor " 20
tmx send-keys -t x g
wait_for "go to time" 20
tmx send-keys -t x 913.684978 Enter
if wait_for "cursor 913.684978 " 20 && ! grep -q "outside the trace" "$TMP/screen"; then
	pass "explore g 913.684978: the cursor on the first event, nothing said"
else
	fail "explore g 913.684978: the cursor on the first event, nothing said" "$(cat "$TMP/screen")"
fi
tmx send-keys -t x q
ended "explore: q" 0

echo "1..$_n"
