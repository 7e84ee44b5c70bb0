#!/bin/sh
# explore_layout.sh - explore at 80 and 120 columns (issue 34): the title
# fits (the trace's name cut, never the workload's pid), the timeline
# opens where the workload starts, the findings' message gets the width
# there is, and zoomed out the lanes show each CPU's busy share.  The
# expected values are written down from the traces and
# schedlint-explore(1) before the run.
. tests/lib.sh
. tests/explore_lib.sh

# A workload trace with a long name and a 5-digit pid: workload-noise.scn
# (see there) with the workload's pids 31475/31476 and its marker at 6 ms,
# after the noise's first events (record's setup, in a recording).
name="a-rather-long-recording-name-of-the-workload-run.dat"
sed 's/\b500\b/31475/g; s/\b501\b/31476/g; /^@0  *mark /d' \
	"$TESTDATA/scenarios/workload-noise.scn" |
	sed 's/^@4ms     preempt cpu 0$/&\n@6ms     mark cpu 1 schedlint: workload pid=31475 cmd=bench --run/' \
	> "$TMP/w.scn"
"$SCHEDGEN" scenario "$TMP/w.scn" -o "$TMP/$name" > /dev/null 2>&1 ||
	fail "schedgen: the workload trace" "$(cat "$TMP/w.scn" | head -3)"
expect_eq "the workload trace names pid 31475 and starts before its marker" \
	"$("$SCHEDLINT" dump "$TMP/$name" | awk '$5 == "print" { print $1, $8, $9 }' | head -1)/$("$SCHEDLINT" dump "$TMP/$name" | head -1 | awk '{ print ($1 < 0.006) }')" \
	"0.006000 workload pid=31475/1"

for w in 80 120; do
	start "$w" 24 "" "$TMP/$name"
	see "$w columns: opens" "1 Overview"
	settle
	title=$(head -1 "$TMP/screen")
	# the pid whole, the tabs after it, the name cut in its middle (..)
	expect_eq "$w columns: the title keeps the workload's pid, the tabs, fits the line" \
		"$(echo "$title" | grep -c '(workload pid 31475)  1 Overview  2 Findings 1  3 Timeline  4 Tasks')/$(echo "$title" | grep -c '\.\.')/$(wider_than "$w")" "1/1/0"
	case $w in
	120)	expect_eq "120 columns: 'explore', the name's start and end, the keys" \
			"$(echo "$title" | grep -c '^ explore a-rather-.*\.\..*run\.dat (workload pid 31475) .*?:help q:quit')" 1 ;;
	80)	expect_eq "80 columns: the name's start and end around .." \
			"$(echo "$title" | grep -c '^ a-.*\.\..*dat (workload pid 31475)  1 Overview')" 1 ;;
	esac
	# the timeline opens where record started the workload (6 ms), not at
	# the trace's first event
	tmx send-keys -t x 3
	see "$w columns: the timeline opens at the workload's start" " cursor 0.006000 "
	tmx send-keys -t x q
	ended "$w columns: q" 0
done

# a short name that fits once " explore " has gone is shown whole: it
# read "hb12..dat" for hb12.dat at 80 columns, one column wider than the name
cp "$TMP/$name" "$TMP/hb12.dat"
start 80 24 "" "$TMP/hb12.dat"
see "80 columns, a short name: opens" "1 Overview"
settle
expect_eq "80 columns, a short name: whole, not cut around .." \
	"$(head -1 "$TMP/screen" | grep -c '^ hb12\.dat (workload pid 31475)  1 Overview')" 1
tmx send-keys -t x q
ended "80 columns, a short name: q" 0

# less room than the name's ends need (a finding's page at 80 columns: 4
# columns for it): its start and "..", never a shorter name that reads as
# whole ("new-1.dat" read "new")
cp "$TMP/$name" "$TMP/new-1.dat"
start 80 24 "" "$TMP/new-1.dat"
see "80 columns, a finding's page: opens" "1 Overview"
tmx send-keys -t x 2
see "80 columns, a finding's page: the findings" "late-preemption"
tmx send-keys -t x Enter
see "80 columns, a finding's page: opened" "#1 of"
settle
title=$(head -1 "$TMP/screen")
expect_eq "80 columns, a finding's page: the name cut with .., not shortened silently" \
	"$(echo "$title" | grep -c '^ [^ ]*\.\. (workload pid 31475)  1 Overview')/$(echo "$title" | grep -c '^ new-1\.dat ')" "1/0"
tmx send-keys -t x q
ended "80 columns, a finding's page: q" 0

# without a workload the timeline opens at the trace's first event
first=$("$SCHEDLINT" dump "$TESTDATA/real/hogs.dat" | head -1 | awk '{ print $1 }')
start 120 30 "" "$TESTDATA/real/hogs.dat"
see "hogs: opens" "1 Overview"
tmx send-keys -t x 3
see "no workload: the timeline opens at the trace's first event ($first)" " cursor $first "
tmx send-keys -t x q
ended "hogs: q" 0

# --- the findings list: the message has the width there is ---
# hogs.dat's most costly finding's message, as analyze --json gives it
"$SCHEDLINT" analyze --json "$TESTDATA/real/hogs.dat" > "$TMP/hogs.json"
msg=$(json "$TMP/hogs.json" "d['findings'][0]['message']")
for w in 80 120; do
	start "$w" 24 "" "$TESTDATA/real/hogs.dat"
	see "$w columns: opens hogs" "1 Overview"
	tmx send-keys -t x 2
	see "$w columns: the findings list" "findings, sorted by cost"
	settle
	row=$(grep -m 1 '^ *1 ' "$TMP/screen")
	# from the message's column to the edge: at least 25 columns of it (it had 8 at 80)
	shown=$(python3 -c 'import sys; row, msg = sys.argv[1], sys.argv[2]
i = row.find(msg[:12]); print(len(row.rstrip()) - i if i >= 0 else 0)' "$row" "$msg")
	if [ "$shown" -ge 25 ] && [ "$(wider_than "$w")" = 0 ]; then
		pass "$w columns: the first finding's message has $shown columns"
	else
		fail "$w columns: the first finding's message has at least 25 columns" "$shown: $row"
	fi
	# the whole message under the list, after its time and CPU
	expect_eq "$w columns: under the list, the selected finding's time, CPU and message" \
		"$(grep -c "^ $(json "$TMP/hogs.json" "'%d.%06d' % divmod((d['findings'][0]['ts_ns'] + 500) // 1000, 1000000)") cpu $(json "$TMP/hogs.json" "d['findings'][0]['cpu']"): $(echo "$msg" | cut -c1-20)" "$TMP/screen")" 1
	tmx send-keys -t x q
	ended "$w columns: q" 0
done

# --- zoomed out: each cell the CPU's busy share (: = * #) ---
# hackbench.dat (253 ms) zoomed out to the whole trace at 120 columns: 2.26
# ms a column, past the 2 ms from which the lanes show the busy share.  The
# The overview's wakeup-latency table fits the width as analyze's does:
# the columns analyze drops first go first (p99.5, p75, p95), max stays.
# At 80 columns it was cut at the screen's edge: "... p99     p" and
# "127.2" without its unit, the max out of sight (pipe.dat: p50 37.0 us,
# p99 94.5 us, max 1.33 ms, as the README's report of it says).
for w in 80 120; do
	start "$w" 24 "" "$TESTDATA/real/pipe.dat"
	see "$w columns, pipe: the overview" "Wakeup latency"
	settle
	head=$(grep -m 1 '^ Wakeup latency ' "$TMP/screen" | tr -s ' ')
	all=$(grep -m 1 '^ all  ' "$TMP/screen" | tr -s ' ')
	case $w in
	80)	expect_eq "80 columns: the latency heading drops p75, p95, p99.5, keeps max" \
			"$head" " Wakeup latency count p50 p90 p99 p99.9 max"
		expect_eq "80 columns: the all row ends with its max" \
			"$(echo "$all" | awk '{ print $(NF - 1), $NF }')" "1.33 ms" ;;
	120)	expect_eq "120 columns: every latency column" \
			"$head" " Wakeup latency count p50 p75 p90 p95 p99 p99.5 p99.9 max" ;;
	esac
	expect_eq "$w columns, pipe: the all row: p50 37.0 us, p99 94.5 us, max 1.33 ms" \
		"$(echo "$all" | grep -c ' 37\.0 us .* 94\.5 us .* 1\.33 ms$')" 1
	expect_eq "$w columns, pipe: no line wider than the screen" "$(wider_than "$w")" 0
	tmx send-keys -t x q
	ended "$w columns, pipe: q" 0
done

# The overview's trace lines wrap at 80 columns under their values, as
# analyze's do: pipe.dat's note of its 2061 inferred switches (81
# columns) ended "inferred from the events" at the screen's edge.
start 80 24 "" "$TESTDATA/real/pipe.dat"
see "pipe, 80 columns, the note: opens" "1 Overview"
settle
expect_eq "80 columns: the note of the missing switches wraps, its end on the next line" \
	"$(grep -A1 '^ note     2061 context switches missing from the trace' "$TMP/screen" | tail -1 | sed 's/ *$//')/$(wider_than 80)" \
	"          events' tasks/0"
tmx send-keys -t x q
ended "pipe, 80 columns, the note: q" 0

# The findings list's task column (at most 18 columns) cuts a long name's
# comm and keeps its pid whole, as analyze's tables do: pipe-noise.dat's
# finding #7 is test_trace_wind:15522's, which read "test_trace_wind:15"
# (pid 15, another task).
start 80 24 "" "$TESTDATA/real/pipe-noise.dat"
see "pipe-noise: opens" "1 Overview"
tmx send-keys -t x 2
see "pipe-noise: the findings" "late-preemption"
settle
expect_eq "findings list: finding #7's task cut in its comm, its pid whole" \
	"$(grep -c '^  7 late-preemption-at-tick 2\.53 ms test_trace_w:15522 ' "$TMP/screen")/$(grep -c 'test_trace_wind:15 ' "$TMP/screen")" "1/0"
tmx send-keys -t x q
ended "pipe-noise: q" 0

# The Tasks view fits its columns to the width as the overview does: at 80
# columns wakeups, latency p99 and max, run and wait time (its 105 columns
# were cut at the edge: "run      w", a wait time of "1.3"); the column
# the list is sorted by stays (s five times: by migrations).
start 80 24 "" "$TESTDATA/real/pipe.dat"
see "pipe, 80 columns: opens" "1 Overview"
tmx send-keys -t x 4
see "pipe, 80 columns: the tasks" "sorted by latency p99"
settle
expect_eq "tasks at 80 columns: the columns that fit" \
	"$(grep -m 1 '^ task ' "$TMP/screen" | tr -s ' ')/$(wider_than 80)" \
	" task wakeups lat p99 lat max run wait/0"
tmx send-keys -t x s s s s s
see "pipe, 80 columns: sorted by migrations" "sorted by migrations"
settle
expect_eq "tasks at 80 columns, sorted by migrations: its column stays" \
	"$(grep -m 1 '^ task ' "$TMP/screen" | tr -s ' ')" " task wakeups lat p99 lat max run migr"
tmx send-keys -t x q
ended "pipe, 80 columns, tasks: q" 0
start 120 24 "" "$TESTDATA/real/pipe.dat"
see "pipe, 120 columns: opens" "1 Overview"
tmx send-keys -t x 4
see "pipe, 120 columns: the tasks" "sorted by latency p99"
settle
expect_eq "tasks at 120 columns: every column" "$(grep -m 1 '^ task ' "$TMP/screen" | tr -s ' ')" \
	" task wakeups lat p50 lat p99 lat max run wait switch preem migr"
tmx send-keys -t x q
ended "pipe, 120 columns, tasks: q" 0

# cursor's cell (the first) is described under the legend ("busy N%"): its
# glyph is that share's (: up to 25%, = up to 50%, * up to 75%, # more).
start 120 30 "" "$TESTDATA/real/hackbench.dat"
see "hackbench: opens" "1 Overview"
tmx send-keys -t x 3
see "hackbench: the timeline" " cursor "
for i in 1 2 3 4 5 6 7; do
	tmx send-keys -t x -- -
	sleep 0.2
done
see "zoomed out to the whole trace: the density legend" "# busy 75% or more"
settle
lane=$(grep -m 1 '^ cpu  0 ' "$TMP/screen")
pct=$(grep -m 1 '^ cpu 0 at ' "$TMP/screen" | sed -n 's/.*busy \([0-9]*\)%.*/\1/p')
glyph=$(echo "$lane" | cut -c9)
want=$(awk -v p="${pct:-0}" 'BEGIN { print p == 0 ? "." : p <= 25 ? ":" : p <= 50 ? "=" : p <= 75 ? "*" : "#" }')
expect_eq "density: the cursor's cell is its busy share's glyph (busy $pct%)" "$glyph" "$want"
expect_eq "density: the lanes hold only density glyphs" \
	"$(echo "$lane" | cut -c9- | tr -d ':=*#.? ' | wc -c)" 1
tmx send-keys -t x d
see "d: the busy share always" "lanes: busy share"
tmx send-keys -t x d
see "d again: the tasks' letters" "lanes: tasks"
settle
expect_eq "d: letters again in the lanes, no density legend" \
	"$(grep -m 1 '^ cpu  0 ' "$TMP/screen" | cut -c9- | tr -d ':=*#.? ' | wc -c | awk '{ print ($1 > 10) }')/$(grep -c 'busy 75% or more' "$TMP/screen")" "1/0"
tmx send-keys -t x q
ended "hackbench: q" 0

echo "1..$_n"
