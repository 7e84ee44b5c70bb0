#!/bin/sh
# latency_strip.sh - explore's strip of the latency over time, under tmux,
# on tests/latency_burst.sh's trace: 101 windows of 2 ms (see
# latency_over_time.sh), on an 80-column screen a strip of 56 columns
# (80 - 24), column c the worst p99 of windows c*101/56 .. (c+1)*101/56 - 1.
# Written down before the code ran: every window's p99 is 10 us (the
# bucket's 9.98 us) but windows 60 (300 us), 61 (500 us) and 62 (900 us);
# column 33 covers windows 59-60, column 34 windows 61-62.  On the log
# scale from 9.98 us to 900 us in nine steps (.:-=+*#%@), 300 us is step 6
# ('#'), 900 us the top ('@'): 33 dots, '#', '@', 21 dots.  The heading
# names the peak: window 62, p99 900 us, from 100.124000.
. tests/lib.sh
. tests/explore_lib.sh
. tests/latency_burst.sh

gen > "$TMP/burst.txt"
start 80 40 "" "$TMP/burst.txt"
see "opens" "Wakeup latency"
see "the heading names the peak window" "Latency over time, p99 per 2.00 ms: peak 900.0 us at 100.124000"
expect_eq "the strip: the burst at columns 34-35 of 56, on a log scale" \
	"$(grep -m 1 '^ |' "$TMP/screen")" \
	" |.................................#@.....................| 9.98 us..900.0 us"
tmx send-keys -t x q
ended "q" 0

# without samples: no strip
cat > "$TMP/none.txt" <<'TRACE'
          <idle>-0       [000] d..2.     1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=200 next_prio=120
          worker-200     [000] d..2.     1.000020: sched_switch: prev_comm=worker prev_pid=200 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
TRACE
start 80 40 "" "$TMP/none.txt"
see "no samples: opens" "no wakeup-latency samples"
settle
grep -q "Latency over time" "$TMP/screen" && fail "no samples: no strip" || pass "no samples: no strip"
tmx send-keys -t x q
ended "no samples: q" 0
echo "1..$_n"
