#!/bin/sh
# explore_views.sh - explore's search, filter, markers A/B, legend, queued
# tasks, comms as they were, worst wakeups, histogram samples, n/N messages
# and zoom, in tmux (issue 23).  The expected values are written down from
# the trace below and the definitions (schedlint-explore(1)) before the run.
. tests/lib.sh
. tests/explore_lib.sh

# A hand-made trace, 2 CPUs:
#   worker (200) runs on cpu 0 from 1.000000, sleeps at 1.000020 (app runs);
#   app (100) wakes worker at 1.000100 (sched_waking), enqueued on cpu 0 at
#   1.000110: worker waits queued behind app until app sleeps at 1.000500:
#   a wakeup latency of 400 us (1.000100 -> 1.000500), the 200us..500us row
#   of the histogram, worker's worst (and only) wakeup.
#   pid 300 runs on cpu 1 as "oldname" from 1.000000 to 1.002000, is woken
#   as "newname" (it exec'd) at 1.002500 and runs at 1.002520 (20 us).
# Between 1.000100 and 1.000500 (markers A and B): 3 events, one
# sched_waking, one sched_wakeup, one sched_switch; B-A is 400.0 us.
cat > "$TMP/exec.txt" <<'EOF'
# tracer: nop
#
# entries-in-buffer/entries-written: 12/12   #P:2
#
          <idle>-0       [000] d..2.     1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=200 next_prio=120
          <idle>-0       [001] d..2.     1.000000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=oldname next_pid=300 next_prio=120
          worker-200     [000] d..2.     1.000020: sched_switch: prev_comm=worker prev_pid=200 prev_prio=120 prev_state=S ==> next_comm=app next_pid=100 next_prio=120
             app-100     [000] d..2.     1.000100: sched_waking: comm=worker pid=200 prio=120 target_cpu=000
             app-100     [000] d..2.     1.000110: sched_wakeup: comm=worker pid=200 prio=120 target_cpu=000
             app-100     [000] d..2.     1.000500: sched_switch: prev_comm=app prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=worker next_pid=200 next_prio=120
         oldname-300     [001] d..2.     1.002000: sched_switch: prev_comm=oldname prev_pid=300 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
          worker-200     [000] d..2.     1.002500: sched_waking: comm=newname pid=300 prio=120 target_cpu=001
          <idle>-0       [001] d..2.     1.002510: sched_wakeup: comm=newname pid=300 prio=120 target_cpu=001
          <idle>-0       [001] d..2.     1.002520: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=newname next_pid=300 next_prio=120
          worker-200     [000] d..2.     1.004000: sched_switch: prev_comm=worker prev_pid=200 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
         newname-300     [001] d..2.     1.005000: sched_switch: prev_comm=newname prev_pid=300 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
EOF
T="$TMP/exec.txt"

# open_hist_row REGEX: in the overview, select the first histogram row
# matching REGEX and press Enter (its samples); false when there is none.
# The overview starts on the second screen row; j moves the selection a line.
open_hist_row() {
	screen > "$TMP/screen"
	row=$(grep -n -- "$1" "$TMP/screen" | head -1 | cut -d: -f1)
	[ -n "$row" ] || return 1
	k=2
	while [ "$k" -lt "$row" ]; do tmx send-keys -t x j; k=$((k + 1)); done
	tmx send-keys -t x Enter
}

# goto TIME: the timeline's cursor there
goto() {
	tmx send-keys -t x g
	wait_for "go to time" 10
	tmx send-keys -t x "$1" Enter
}

# --- search (/, n, N) in the timeline: the runs of the tasks named, with their comm then ---
start 120 40 "" "$T"
see "opens" "Wakeup latency"
tmx send-keys -t x 3
see "the timeline at the trace's start" "cursor 1.000000 "
tmx send-keys -t x / work Enter
see "/work: worker's next run after the cursor" "'work': worker:200 runs on cpu 0 from 1.000500"
see "  ... the cursor there" "cursor 1.000500 "
tmx send-keys -t x n
see "n: no later run of a task matching 'work'" "no later run of a task matching 'work'"
tmx send-keys -t x N
see "N: the previous one" "'work': worker:200 runs on cpu 0 from 1.000000"
tmx send-keys -t x / 300 Enter
see "/300 (a pid): its next run, under the name it had then" "'300': newname:300 runs on cpu 1 from 1.002520"
tmx send-keys -t x N
see "N: its earlier run, under its name then" "'300': oldname:300 runs on cpu 1 from 1.000000"
tmx send-keys -t x / BSpace BSpace BSpace Enter
see "/ and nothing: n/N go to findings again" "no search: n / N go to the next / previous finding"
# g and a word: the example is of this trace's times (it was pipe.dat's, 913.684978)
goto abc
see "g abc: not a time, the trace's own start as the example" "not a time: 'abc' (1.000000, 1000000000ns or +1.5ms)"

# --- the comm at each moment: the lanes' cell and legend name the task as it was ---
goto 1.001000
tmx send-keys -t x j
see "pid 300 at 1.001 runs as oldname (the cell under the cursor)" "oldname:300 ran"
see "  ... the legend: the name it had, then the one it exec'd" "B oldname>newname:300"
goto 1.004000
see "pid 300 at 1.004 runs as newname" "newname:300 ran"

# --- markers A and B: the time between, the events between ---
goto 1.000100
tmx send-keys -t x a
see "a: marker A at the cursor" "marker A at 1.000100"
goto 1.000500
tmx send-keys -t x b
see "b: marker B, and B-A said" "marker B at 1.000500: B-A 400.0 us"
see "the markers' row: A, B and the time between" "A 1.000100  B 1.000500  B-A 400.0 us"
# the cursor (^ on the axis) is drawn over B: three columns left, A and B show
tmx send-keys -t x h h h
if wait_all "^ +[0-9.]*[-─ 0-9a-z/.]*A[-─]*\^[-─]*B"; then
	pass "A and B on the time axis, A before B"
else
	fail "A and B on the time axis, A before B" "$(cat "$TMP/screen")"
fi
tmx send-keys -t x l l l
see "  ... the cursor back on B" "cursor 1.000500 "
tmx send-keys -t x v
see "v: the events between A and B, counted" "A 1.000100 to B 1.000500: 400.0 us, 3 events"
see "  ... by type" "1 sched_switch, 1 sched_waking, 1 sched_wakeup"
see "  ... listed" "1.000110 [000]"
tmx send-keys -t x Escape
see "Esc: back to the timeline" "cursor 1.000500 "
tmx send-keys -t x x
see "x clears the markers" "markers A and B cleared"

# --- a filter by task (backslash): only its runs get letters, the others are '-' ---
tmx send-keys -t x '\' oldname Enter
see "backslash oldname: said so" "only tasks matching 'oldname'"
goto 1.000300
tmx send-keys -t x k
see "cpu 0 ran app and worker only: hidden by the filter" "tasks the filter hides"
tmx send-keys -t x '\' BSpace BSpace BSpace BSpace BSpace BSpace BSpace Enter
see "an empty filter: every task again" "every task shown"

# --- a waiting task is drawn under its CPU's lane: worker queued on cpu 0 ---
goto 1.000300
see "at 1.000300 worker waits on cpu 0 behind app" "app:100 ran"
see "  ... the cell says who waited" "worker:200 waited"
see "  ... the legend explains the letters under a lane" "letter under a lane: it waits there"
tmx send-keys -t x q
ended "timeline: q" 0

# --- Tasks: search, and Enter goes to the task's worst wakeup with A and B on it ---
start 120 40 "" "$T"
see "tasks: opens" "Wakeup latency"
tmx send-keys -t x 4
see "tasks" "tasks, sorted by"
tmx send-keys -t x / worker Enter
see "/worker selects it" "task 1 of 1 matching 'worker'"
tmx send-keys -t x Enter
see "Enter: its worst wakeup" "the worst wakeup of worker:200: woken at A, switched in on cpu 0 at B, 400.0 us later"
see "  ... with the markers on it" "A 1.000100  B 1.000500  B-A 400.0 us"
see "  ... following it" "follow worker:200"
# the list names a task by its last comm, and so does its filter
tmx send-keys -t x 4 '\' new Enter
see "backslash new: only the tasks matching" "1 task matching 'new'"

# --- a histogram row lists its samples ---
tmx send-keys -t x 1 Home
see "the overview's histogram" "Latency histogram"
if open_hist_row "200us \.\."; then
	see "Enter on the 200us row: its samples" "wakeup latency 200.0 us .. 500.0 us: 1 samples"
	see "  ... worker's 400 us wakeup" "400.0 us 1.000100"
	# its waking (1.000100), switch-in (1.000500), CPU 0, worker, woken by app on cpu 0
	if wait_all "400\.0 us 1\.000100 +1\.000500 +0 +worker:200 +app:100 on cpu 0 *$"; then
		pass "  ... its whole line: times, CPU, task, its waker and where"
	else
		fail "  ... its whole line: times, CPU, task, its waker and where" "$(cat "$TMP/screen")"
	fi
	tmx send-keys -t x Enter
	see "Enter on the sample: the timeline with A and B on it" "A 1.000100  B 1.000500  B-A 400.0 us"
else
	fail "the histogram has a 200us row" "$(cat "$TMP/screen")"
fi
tmx send-keys -t x q
ended "tasks and samples: q" 0

# --- a sample that ends at an inferred switch is marked as a lower bound ---
# testdata/perf/inferred.perf.txt: cpu1 does not log B's switch-in; B's
# 0 us (1.000010 -> 1.000010: its waking, the earliest it can have run,
# as schedlint-analyze(1) says since b4409c8; it was 10 us, to A's
# switch-out at 1.000020) is a lower bound; A's 20 us is measured.  The
# histogram's rows go by the bucket's lowest value: B's is the first row
# (1ns), A's the 10us row, 12 rows below.
start 120 40 "" "$TESTDATA/perf/inferred.perf.txt"
see "inferred: opens" "Latency histogram"
if open_hist_row " 1ns \.\."; then
	see "inferred: B's row says what * means" "0.00 us .. 0.00 us: 1 samples; * a lower bound (switch-in not in the trace)"
	if wait_all "0\.00 us\* 1\.000010 +1\.000010 +1 +B:200 "; then
		pass "  ... B's 0 us is starred"
	else
		fail "  ... B's 0 us is starred" "$(cat "$TMP/screen")"
	fi
	tmx send-keys -t x Escape
	for k in 1 2 3 4 5 6 7 8 9 10 11 12; do tmx send-keys -t x j; done
	tmx send-keys -t x Enter
	see "  ... A's 20 us on the 10us row is not" "20.0 us 1.000050 "
	check "  ... nor does its title mention lower bounds" sh -c "! grep -q 'lower bound' '$TMP/screen'"
else
	fail "inferred: the histogram has a 1ns row" "$(cat "$TMP/screen")"
fi
tmx send-keys -t x q
ended "inferred: q" 0

# --- on a real trace: n/N say which finding, zoom keeps the finding, the legend ---
trace=$TESTDATA/real/hogs.dat
"$SCHEDLINT" analyze --json "$trace" > "$TMP/hogs.json" 2>/dev/null
nr=$(json "$TMP/hogs.json" "len(d['findings'])")
# the earliest finding by time (ties: the more costly, first in the list)
first=$(json "$TMP/hogs.json" "min(range(len(d['findings'])), key=lambda i: (d['findings'][i]['ts_ns'], i))")
kind=$(json "$TMP/hogs.json" "d['findings'][$first]['kind']")
cpu=$(json "$TMP/hogs.json" "d['findings'][$first]['cpu']")
start 120 40 "" "$trace"
see "hogs: opens" "Wakeup latency"
tmx send-keys -t x 3 Home n
see "n: which finding it reached" "finding 1 of $nr by time (#$((first + 1)) by cost): $kind cpu $cpu "
tmx send-keys -t x N
see "N before the first: said so" "no earlier finding: this is the first of $nr"
tmx send-keys -t x 2 Enter n
see "a finding's n: where the next one is in the list" "next finding: 2 of $nr in the list's order (by cost)"
tmx send-keys -t x p p
see "p at the first: said so" "no previous finding: this one is 1 of $nr"
# zoom keeps the finding (| on the axis) in view, even moved off the middle:
# each key waits for the axis to change (the move or zoom done, not only sent)
moved=0
for key in l + + + + +; do
	moves "$key" && moved=$((moved + 1))
done
expect_eq "l and + five times: each one moved or zoomed the window" "$moved" 6
settle
if grep -E "^ {8}[-─0-9. |F^a-z/]*\|" "$TMP/screen" >/dev/null; then
	pass "moved right and zoomed in 5 times: the finding is still on the axis"
else
	fail "moved right and zoomed in 5 times: the finding is still on the axis" "$(cat "$TMP/screen")"
fi
tmx send-keys -t x q
ended "hogs: q" 0

# the legend explains every letter in the lanes, paged with e at 80x24
start 80 24 "" "$trace"
see "80x24: opens" "Wakeup latency"
tmx send-keys -t x 3
see "80x24: the timeline" "cursor "
# zoomed out once (more tasks, more letters): wait for the axis to change,
# then for explore to have drawn the whole screen
if moves -; then pass "80x24: - zooms out"; else fail "80x24: - zooms out" "$(cat "$TMP/screen")"; fi
settle
# every letter drawn from the first lane to the axis (lanes, and tasks waiting under them)
letters() {
	awk '/^[ *]cpu +[0-9]+ / && !/^ cpu [0-9]+ at [0-9.]+ \(/ {on=1} /\/col/ {on=0} on' "$TMP/screen" |
		cut -c9- | grep -o '[A-Za-z0-9+]' | sort -u | tr -d '\n'
}
# the glyphs a legend page explains: its items are "G text", two blanks apart
legend_glyphs() {
	sed -n '/\/col/,/^ cpu [0-9]* at /p' "$TMP/screen" | sed '1d;$d' |
		python3 -c 'import sys,re; print("".join(i[0] for l in sys.stdin for i in re.split("  +", l.rstrip("\n")) if len(i) > 1 and i[1] == " " and not i.startswith("e: more")))'
}
screen > "$TMP/screen"
lanes=$(letters)
pages=$(grep -o "e: more [0-9]*/[0-9]*" "$TMP/screen" | head -1 | sed 's|.*/||')
[ -n "$pages" ] || pages=1
legend=$(legend_glyphs)
p=1
while [ "$p" -lt "$pages" ]; do
	p=$((p + 1))
	tmx send-keys -t x e
	wait_for "e: more $p/$pages" 10
	settle
	legend="$legend$(legend_glyphs)"
done
missing=""
for c in $(echo "$lanes" | fold -w1); do
	echo "$legend" | grep -qF -- "$c" || missing="$missing $c"
done
if [ -n "$lanes" ] && [ -z "$missing" ]; then
	pass "80x24: the legend's $pages page(s) explain every letter in the lanes ($lanes)"
else
	fail "80x24: the legend's $pages page(s) explain every letter in the lanes" \
		"lanes: '$lanes' legend: '$legend' missing:$missing"
fi
tmx send-keys -t x q
ended "80x24: q" 0

# --- the help fits 80 columns, every line of it ---
# a terminal tall enough for the whole help: no paging, its last line on
# the screen says it is all there
start 200 250 "" "$T"
see "help: opens" "Wakeup latency"
wide=""
for v in 1 2 3 4; do
	tmx send-keys -t x "$v" '?'
	if wait_all "Keys everywhere" "Arrows and vi keys"; then
		pass "help from view $v: all of it on the screen"
	else
		fail "help from view $v: all of it on the screen" "$(cat "$TMP/screen")"
	fi
	over=$(sed 's/ *$//' "$TMP/screen" | awk 'length($0) > 80' | grep -v "^ explore " | head -3)
	[ -n "$over" ] && wide="$wide$over;"
	tmx send-keys -t x Escape
	wait_gone "Keys everywhere" || fail "help from view $v: Esc closes it" "$(cat "$TMP/screen")"
done
expect_eq "every help line fits 80 columns" "$wide" ""
tmx send-keys -t x q
ended "help: q" 0

echo "1..$_n"
