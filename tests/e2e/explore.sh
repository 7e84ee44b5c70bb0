#!/bin/sh
# explore.sh - schedlint explore driven through tmux: what the screen shows,
# the keys, sizes, resizing, many CPUs, colours, and that every way out
# (q, SIGINT, SIGTERM) ends the process and gives the terminal back.
#
# Each run has its own tmux server (-S socket) and waits for the text it
# expects with a timeout instead of fixed sleeps: the machine may be slow.
. tests/lib.sh

. tests/explore_lib.sh

# --- the man page and --help: every option of one is in the other ---
man_opts=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' man/schedlint-explore.1 | grep -o -- '--[a-z][a-z-]*' | sort -u)
help_opts=$("$SCHEDLINT" explore --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
missing=""
for o in $help_opts; do
	echo "$man_opts" | grep -qx -- "$o" || missing="$missing $o"
done
expect_eq "every option of explore --help is in schedlint-explore(1)" "$missing" ""
missing=""
for o in $(sed -n '/^\.SH OPTIONS/,/^\.SH /p' man/schedlint-explore.1 | sed 's/\\-/-/g; s/\\f[BIRP]//g' | grep -o -- '--[a-z][a-z-]*' | grep -vx -- --help | sort -u); do
	echo "$help_opts" | grep -qx -- "$o" || missing="$missing $o"
done
expect_eq "every option of schedlint-explore(1) is in explore --help" "$missing" ""

KINDS="wakee-stacking sync-wake-remote sync-wake-local late-preemption idle-while-runnable"

# --- bad input: exit 2 before the screen is touched ---
printf 'hello world\nthis is not a trace\n' > "$TMP/garbage.txt"
head -c 300000 "$TESTDATA/real/hogs.dat" > "$TMP/truncated.dat"
for bad in "$TMP/garbage.txt" "$TMP/truncated.dat" "$TMP/missing.dat"; do
	"$SCHEDLINT" explore "$bad" > "$TMP/out" 2> "$TMP/err" < /dev/null
	rc=$?
	if [ "$rc" = 2 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l < "$TMP/err")" = 1 ] &&
	   grep -qF "$bad" "$TMP/err" && ! grep -q "$(printf '\033')" "$TMP/err"; then
		pass "bad input $(basename "$bad"): exit 2, one line, nothing on stdout ($(cat "$TMP/err"))"
	else
		fail "bad input $(basename "$bad"): exit 2, one line, nothing on stdout" \
			"rc=$rc stdout=$(wc -c < "$TMP/out")B stderr: $(head -c 300 "$TMP/err")"
	fi
done
# ...and in a terminal: the message, and the screen untouched (tmux does not
# keep a dead pane's last lines: stderr goes to a file)
start 200 24 "" "$TMP/garbage.txt" "2>$TMP/err"
if wait_dead 30; then
	expect_eq "bad input in a terminal: exit status 2" "$DEAD_STATUS" 2
	screen > "$TMP/screen"
	if grep -qF "garbage.txt: not a recognized trace" "$TMP/err" && [ "$(wc -l < "$TMP/err")" = 1 ] &&
	   ! grep -q "Overview" "$TMP/screen"; then
		pass "bad input in a terminal: one error line, no screen"
	else
		fail "bad input in a terminal: one error line, no screen" "$(cat "$TMP/err" "$TMP/screen")"
	fi
else
	fail "bad input in a terminal: explore ends"
fi
# ...and every byte written to the terminal: under script(1) (a pty that
# records what explore writes) bad input gets the error line and nothing
# else, no escape sequence (curses would switch to the alternate screen and
# set the terminal up first), and the tty's modes as they were.
# The control: a good trace under the same pty does switch to curses mode.
ESC=$(printf '\033')
under_pty() {	# OUT CMD...: run CMD in a pty, its output in OUT, tty modes around it
	out=$1; shift
	rm -f "$TMP/pty.rc" "$TMP/pty.pid"
	TERM=xterm script -qfec "stty -g > $TMP/stty.before; sh -c 'echo \$\$ > $TMP/pty.pid; exec $*'; echo \$? > $TMP/pty.rc; stty -g > $TMP/stty.after" /dev/null < /dev/null > "$out" 2>&1
}
for bad in "$TMP/garbage.txt" "$TMP/truncated.dat"; do
	under_pty "$TMP/pty.out" "$SCHEDLINT" explore "$bad"
	if [ "$(cat "$TMP/pty.rc" 2>/dev/null)" = 2 ] && ! grep -q "$ESC" "$TMP/pty.out" &&
	   [ "$(tr -d '\r' < "$TMP/pty.out" | grep -c .)" = 1 ] && grep -qF "$bad" "$TMP/pty.out" &&
	   cmp -s "$TMP/stty.before" "$TMP/stty.after"; then
		pass "bad input $(basename "$bad") on a pty: exit 2, one line, no escape sequence, tty modes unchanged"
	else
		fail "bad input $(basename "$bad") on a pty: exit 2, one line, no escape sequence, tty modes unchanged" \
			"rc=$(cat "$TMP/pty.rc" 2>/dev/null) stty: $(cat "$TMP/stty.before" "$TMP/stty.after" 2>/dev/null | tr '\n' ' ') output: $(od -c "$TMP/pty.out" | head -20)"
	fi
done
"$SCHEDGEN" scenario "$TESTDATA/scenarios/basic-wakeups.scn" -o "$TMP/small.dat" >/dev/null 2>&1
under_pty "$TMP/pty.good" "$SCHEDLINT" explore "$TMP/small.dat" &
pty_job=$!
i=0
while [ "$i" -lt $((300 * SLOW)) ] && ! grep -qF "$ESC[?1049h" "$TMP/pty.good" 2>/dev/null; do
	sleep 0.2
	i=$((i + 1))
done
if grep -qF "$ESC[?1049h" "$TMP/pty.good"; then
	pass "control: a good trace on the same pty switches to the alternate screen"
else
	fail "control: a good trace on the same pty switches to the alternate screen" "$(od -c "$TMP/pty.good" | head -20)"
fi
[ -s "$TMP/pty.pid" ] && kill -TERM "$(cat "$TMP/pty.pid")" 2>/dev/null
wait "$pty_job"
expect_eq "control: SIGTERM ends it (status 143)" "$(cat "$TMP/pty.rc" 2>/dev/null)" 143
grep -qF "$ESC[?1049l" "$TMP/pty.good" && cmp -s "$TMP/stty.before" "$TMP/stty.after" &&
	pass "control: the alternate screen left and the tty modes restored" ||
	fail "control: the alternate screen left and the tty modes restored" "$(cat "$TMP/stty.before" "$TMP/stty.after" 2>/dev/null)"
"$SCHEDLINT" explore "$TESTDATA/real/hogs.dat" > "$TMP/out" 2> "$TMP/err" < /dev/null
rc=$?
if [ "$rc" = 2 ] && [ ! -s "$TMP/out" ] && grep -q "not a terminal" "$TMP/err"; then
	pass "stdout not a terminal: exit 2, nothing written to it"
else
	fail "stdout not a terminal: exit 2, nothing written to it" "rc=$rc $(head -c 300 "$TMP/err")"
fi

# --- a real trace with findings, at two sizes ---
trace=""
for t in hogs pipe; do
	"$SCHEDLINT" analyze --json "$TESTDATA/real/$t.dat" > "$TMP/$t.json" 2>/dev/null
	n=$(json "$TMP/$t.json" "len(d['findings'])" 2>/dev/null)
	if [ -n "$n" ] && [ "$n" -gt 0 ]; then
		trace="$TESTDATA/real/$t.dat" json_file="$TMP/$t.json"
		break
	fi
done
if [ -z "$trace" ]; then
	fail "a real trace with findings (hogs.dat or pipe.dat)" "no analyzer reported any finding"
	exit 0
fi
first_kind=$(json "$json_file" "d['findings'][0]['kind']")
first_comm=$(json "$json_file" "d['findings'][0]['comm']")

for size in 120x40 80x24; do
	w=${size%x*} h=${size#*x}
	start "$w" "$h" "" "$trace"
	wait_for "wakee-stacking" 90
	missing=""
	for k in $KINDS; do
		grep -qF "$k" "$TMP/screen" || missing="$missing $k"
	done
	if [ -z "$missing" ]; then
		pass "$size: the first screen names every finding kind"
	else
		fail "$size: the first screen names every finding kind" "missing:$missing"
		sed 's/^/#   /' "$TMP/screen"
	fi
	expect_eq "$size: nothing drawn past the right edge" "$(wider_than "$w")" 0

	tmx send-keys -t x '?'
	see "$size: ? shows the keys" "Keys everywhere"
	# the overlay is drawn line by line: on a loaded machine its first line
	# can show before the rest, so wait for each
	for k in "quit" "overview, findings, timeline, tasks" "sort by cost, time, kind"; do
		wait_for "$k" 10 && pass "$size: help lists '$k'" ||
			fail "$size: help lists '$k'" "$(cat "$TMP/screen")"
	done
	tmx send-keys -t x Escape
	see "$size: Esc closes the help" "Wakeup latency"
	tmx send-keys -t x 2
	see "$size: 2 shows the findings list" "findings, sorted by cost"
	tmx send-keys -t x Enter
	see "$size: Enter opens the most costly finding" "#1 of"
	grep -qF "$first_kind" "$TMP/screen" && grep -qF "$first_comm" "$TMP/screen" &&
		pass "$size: the detail names its kind and task ($first_kind, $first_comm)" ||
		fail "$size: the detail names its kind and task ($first_kind, $first_comm)" "$(cat "$TMP/screen")"
	# its what-if (every finding of these traces has one: see the JSON's whatif)
	grep -qE "^ if [a-z ]+.*: ~[0-9.]+ [mun]?s instead of " "$TMP/screen" &&
		pass "$size: the detail says what the other decision would have given" ||
		fail "$size: the detail says what the other decision would have given" "$(cat "$TMP/screen")"
	# the timeline: a lane per CPU (those the finding names marked *), the axis, the events at the finding
	if wait_all "^\*cpu +[0-9]+ " "^[* ]cpu +0 " "^[* ]cpu +1 " "/col" "^>[0-9]+\.[0-9]+ \[[0-9]+\]"; then
		pass "$size: the detail shows a timeline of every CPU and the events at the finding"
	else
		fail "$size: the detail shows a timeline of every CPU and the events at the finding"
		sed 's/^/#   /' "$TMP/screen"
	fi
	tmx send-keys -t x t
	see "$size: t opens the timeline at the finding" "cursor "
	tmx send-keys -t x 4
	see "$size: 4 shows the tasks" "tasks, sorted by"
	tmx send-keys -t x q
	ended "$size: q" 0
done

# --- resizing: the screen is drawn again at the new size ---
start 120 40 "" "$trace"
see "resize: starts at 120x40" "Wakeup latency"
tmx send-keys -t x 3
see "resize: timeline" "cursor "
# follow a task: what is typed replaces the proposed pid (the task under the cursor)
first_pid=$(json "$json_file" "d['findings'][0]['pid']")
tmx send-keys -t x f
see "f asks for the task to follow" "follow pid"
tmx send-keys -t x "$first_pid" Enter
see "f $first_pid follows $first_comm:$first_pid" "follow $first_comm:$first_pid"
tmx send-keys -t x f
see "f asks again" "follow pid"
tmx send-keys -t x 999999 Enter
see "f 999999: no such task, said so" "no task 999999 in the trace"
grep -qF "follow $first_comm:$first_pid" "$TMP/screen" &&
	pass "f 999999: the followed task kept" || fail "f 999999: the followed task kept" "$(cat "$TMP/screen")"
tmx send-keys -t x C-l
see "a key clears the message: the footer is back" "h/l cursor"
tmx resize-window -t x -x 80 -y 24
# (tmux cuts the old screen to the new size at once: wait for explore's
# own footer on the new last line, not for text left over from before)
i=0
while [ $i -lt $((300 * SLOW)) ]; do
	screen > "$TMP/screen"
	[ "$(wider_than 80)" = 0 ] && [ "$(wc -l < "$TMP/screen")" = 24 ] &&
		tail -n 1 "$TMP/screen" | grep -qF "h/l cursor" && break
	sleep 0.2
	i=$((i + 1))
done
if [ $i -lt $((300 * SLOW)) ]; then
	pass "resize: redrawn for 80x24 (footer on the last line)"
else
	fail "resize: redrawn for 80x24" "$(cat "$TMP/screen")"
fi
tmx send-keys -t x C-c
ended "SIGINT (Ctrl-C)" 130

# --- keys at the ends of time (issue 25: 26, 27): bounded, clamped, killable ---
# the expected window over the whole trace, from the definitions: from its
# first event to just after its last, the span in fmt_duration's words
first_ns=$(json "$json_file" "d['trace']['first_ns']")
last_ns=$(json "$json_file" "d['trace']['last_ns']")
# (times rounded to the microsecond, as trace-cmd report prints them)
first_s=$(python3 -c "u=($first_ns + 500) // 1000; print('%d.%06d' % (u // 10**6, u % 10**6))")
last_s=$(python3 -c "u=($last_ns + 500) // 1000; print('%d.%06d' % (u // 10**6, u % 10**6))")
whole=$(python3 -c "n=$last_ns-$first_ns+1; print('%.2f s' % (n/1e9) if n >= 10**9 else '%.2f ms' % (n/1e6))")
# send_n N KEY: KEY N times, as a held key repeats it
send_n() {
	k=0
	while [ "$k" -lt "$1" ]; do tmx send-keys -t x "$2"; k=$((k + 1)); done
}
start 100 30 "" "$trace"
see "26: opens" "Wakeup latency"
tmx send-keys -t x 3
see "26: timeline" "cursor "
send_n 60 -
see "26: 60 zoom-outs stop at the whole trace" "the whole trace is in the window"
if wait_all "window $whole " "$first_s" "$(echo "$last_s" | sed 's/\./\\./')"; then
	pass "26: the window is the trace's span ($whole, $first_s to $last_s)"
else
	fail "26: the window is the trace's span ($whole, $first_s to $last_s)"
	sed 's/^/#   /' "$TMP/screen"
fi
send_n 12 +
send_n 60 -
see "26: zoomed in and out again: the same window" "window $whole "
tmx send-keys -t x 2 Enter
see "26: a finding" "#1 of"
send_n 60 -
see "26: 60 zoom-outs of the finding's window stop at the trace" "the whole trace is in the window"
tmx send-keys -t x q
ended "26: q after 120 zoom-outs" 0

# 27: a time the prompt accepts but the trace does not have, then a move
goto_far() {
	tmx send-keys -t x 3
	see "27 ($1): timeline" "cursor "
	tmx send-keys -t x g
	see "27 ($1): g asks for a time" "go to time"
	tmx send-keys -t x 18446744073.709551615 Enter
	see "27 ($1): a time past the trace: said so, the cursor at its end" "the cursor is at its end"
	wait_for "cursor $last_s " 10 && pass "27 ($1): the cursor on the trace's last event ($last_s)" ||
		fail "27 ($1): the cursor on the trace's last event ($last_s)" "$(cat "$TMP/screen")"
	tmx send-keys -t x h
}
start 100 30 "" "$trace"
wait_for "Wakeup latency" 60
goto_far q
tmx send-keys -t x l l c l H L
see "27 (q): the keys still answer" "cursor "
tmx send-keys -t x q
ended "27: q after g 18446744073.709551615 and h" 0
start 100 30 "" "$trace"
wait_for "Wakeup latency" 60
goto_far TERM
kill -TERM "$PID" 2>/dev/null
ended "27: SIGTERM after g 18446744073.709551615 and h" 143
start 100 30 "" "$trace"
wait_for "Wakeup latency" 60
goto_far HUP
kill -HUP "$PID" 2>/dev/null
ended "27: SIGHUP after g 18446744073.709551615 and h" 129
# the terminal goes away (tmux killed): explore must not outlive it
start 100 30 "" "$trace"
wait_for "Wakeup latency" 60
goto_far "terminal closed"
tmx kill-server 2>/dev/null
i=0
while [ "$i" -lt $((150 * SLOW)) ] && kill -0 "$PID" 2>/dev/null; do
	sleep 0.2
	i=$((i + 1))
done
if [ -n "$PID" ] && ! kill -0 "$PID" 2>/dev/null; then
	pass "27: explore ends with its terminal"
else
	fail "27: explore ends with its terminal" "pid $PID still runs: $(ps -o stat,time,args -p "$PID" | tail -1)"
	kill -KILL "$PID" 2>/dev/null
fi

# --- colours: with them, and none with NO_COLOR ---
start 80 24 "" "$trace"
wait_for "Wakeup latency" 60
tmx capture-pane -e -p -t x > "$TMP/color"
grep -q "$(printf '\033')\[[0-9;]*3[0-7]m\|$(printf '\033')\[[0-9;]*4[0-7]m" "$TMP/color" &&
	pass "colours by default" || fail "colours by default" "no colour sequence in the screen"
kill -TERM "$PID"
ended "SIGTERM" 143
start 80 24 "NO_COLOR=1" "$trace"
wait_for "Wakeup latency" 60
tmx capture-pane -e -p -t x > "$TMP/color"
if grep -q "$(printf '\033')\[[0-9;]*[34][0-7]m" "$TMP/color"; then
	fail "NO_COLOR: no colours" "$(grep -c "$(printf '\033')" "$TMP/color") escape lines"
else
	pass "NO_COLOR: no colours"
fi
tmx send-keys -t x q
ended "NO_COLOR: q" 0

# --- 256 CPUs: opens, and the lanes scroll vertically ---
"$SCHEDGEN" scale --cpus 256 --events 200000 --seed 1 -o "$TMP/c256.dat" >/dev/null 2>&1
start 120 40 "" "$TMP/c256.dat"
see "256 CPUs: opens" "CPU utilization, one digit per CPU" 120
tmx send-keys -t x 3
see "256 CPUs: the timeline's first lanes" "cpu  0 "
tmx send-keys -t x NPage NPage NPage NPage NPage NPage NPage NPage NPage NPage
see "256 CPUs: Page Down scrolls the lanes to the last CPU" "cpu255 "
grep -q "cpu  0 " "$TMP/screen" && fail "256 CPUs: the first lanes scrolled out" ||
	pass "256 CPUs: the first lanes scrolled out"
tmx send-keys -t x k k k
see "256 CPUs: k selects the CPU above" "cpu 252 at"
tmx send-keys -t x q
ended "256 CPUs: q" 0

# --- B22: what comes on stdin is looked at before it is kept, and bounded ---
# feed KIND MIB: KIND bytes (zero: NULs, lines: "y" lines) on stdout, up to
# MIB MiB; how many the reader took (written before the pipe closed) in $TMP/fed
cat > "$TMP/feed.py" <<'PY'
import os, sys, signal
signal.signal(signal.SIGPIPE, signal.SIG_IGN)
kind, total = sys.argv[1], int(sys.argv[2]) << 20
block = (b"\0" if kind == "zero" else b"y\n") * 32768
fed = 0
try:
    while fed < total:
        fed += os.write(1, block)
except OSError:
    pass
open(sys.argv[3], "w").write("%d\n" % fed)
PY
mkdir -p "$TMP/spool"
# stdout not a terminal: refused before stdin is read (nothing taken but what fits the pipe)
python3 "$TMP/feed.py" lines 64 "$TMP/fed" | TMPDIR="$TMP/spool" "$SCHEDLINT" explore - > "$TMP/out" 2> "$TMP/err"
rc=$?
fed=$(cat "$TMP/fed")
if [ "$rc" = 2 ] && grep -q "not a terminal" "$TMP/err" && [ "$fed" -le $((1 << 20)) ]; then
	pass "B22: explore - with stdout not a terminal: exit 2 before reading stdin ($fed bytes taken)"
else
	fail "B22: explore - with stdout not a terminal: exit 2 before reading stdin" "rc=$rc fed=$fed $(cat "$TMP/err")"
fi
# on a terminal (a pty): NULs are refused after the first block; lines that
# are not a trace after the reader's 1000 unrecognized lines, not at the end
for kind in zero lines; do
	printf 'python3 %s %s 64 %s | TMPDIR=%s %s explore -\n' "$TMP/feed.py" $kind "$TMP/fed" "$TMP/spool" "$SCHEDLINT" > "$TMP/feed.sh"
	under_pty "$TMP/pty.out" sh "$TMP/feed.sh"
	rc=$(cat "$TMP/pty.rc" 2>/dev/null) fed=$(cat "$TMP/fed")
	case $kind in
	zero)	want="-: binary data (a NUL byte at offset 0), not a text trace" ;;
	lines)	want='-: not a recognized trace (line 1: "y")' ;;
	esac
	if [ "$rc" = 2 ] && grep -qF -- "$want" "$TMP/pty.out" && [ "$(tr -d '\r' < "$TMP/pty.out" | grep -c .)" = 1 ] &&
	   [ "$fed" -le $((8 << 20)) ] && [ -z "$(ls "$TMP/spool")" ]; then
		pass "B22: explore - < 64 MiB of $kind: exit 2, '$want', $fed bytes taken (<= 8 MiB)"
	else
		fail "B22: explore - < 64 MiB of $kind: exit 2, '$want', at most 8 MiB taken" \
			"rc=$rc fed=$fed spool: $(ls "$TMP/spool") out: $(head -c 300 "$TMP/pty.out")"
	fi
done

# --- a trace on stdin (kept in a temporary file to be read again) ---
start 80 24 "" "- < $TESTDATA/real/hogs.txt"
see "stdin: opens" "explore stdin"
tmx send-keys -t x 3
see "stdin: the timeline reads it again" "cursor "
tmx send-keys -t x q
ended "stdin: q" 0

# --- a trace through a FIFO (or <(...)): kept as stdin is (issue 32, 24) ---
# explore read the FIFO, then opened it again to read its windows: the
# writer gone, open() blocked for ever, the screen blank, q ignored.
mkfifo "$TMP/ff"
( cat "$TESTDATA/real/hogs.txt" > "$TMP/ff" & )
start 80 24 "" "$TMP/ff"
see "FIFO: opens" "explore ff"
tmx send-keys -t x 3
see "FIFO: the timeline reads it again" "cursor "
tmx send-keys -t x q
ended "FIFO: q" 0

# --- a test stopped half-way leaves no tmux server behind ---
# A test run killed by a timeout or ^C (SIGTERM, SIGINT) ran no EXIT trap
# (sh runs it on exit, not on a signal's death): its tmux server and the
# explore in it lived on, and the next run met them.  A test of this lib
# started, then SIGTERMed: its server (found by its own socket) is gone,
# and so is its scratch directory.  Again with its socket gone first
# (the server then ended by its pid).
cat > "$TMP/half.sh" <<'EOS'
. tests/lib.sh
. tests/explore_lib.sh
start 80 24 "" "$TESTDATA/real/hogs.dat"
wait_for "Overview" 60
server=$(tmx display-message -p '#{pid}')
[ "$2" = nosock ] && rm -f "$SOCK"
sleep 600 &
echo "$server $! $TMP $SOCK" > "$1.tmp" && mv "$1.tmp" "$1"
wait
EOS
for how in sock nosock; do
	[ $how = nosock ] && label=", its socket gone" || label=""
	rm -f "$TMP/half.info"
	sh "$TMP/half.sh" "$TMP/half.info" $how > "$TMP/half.out" 2>&1 &
	half=$!
	i=0
	while [ ! -s "$TMP/half.info" ] && [ "$i" -lt $((600 * SLOW)) ] && kill -0 "$half" 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	read -r half_server half_sleep half_tmp half_sock < "$TMP/half.info" 2>/dev/null
	kill -TERM "$half" 2>/dev/null
	wait "$half" 2>/dev/null
	[ -n "$half_sleep" ] && kill "$half_sleep" 2>/dev/null
	i=0
	while [ -n "$half_server" ] && kill -0 "$half_server" 2>/dev/null && [ "$i" -lt $((50 * SLOW)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if [ -z "$half_server" ]; then
		fail "SIGTERM half-way$label: its tmux server is gone" "the test did not start ($(head -c 300 "$TMP/half.out"))"
	elif kill -0 "$half_server" 2>/dev/null; then
		fail "SIGTERM half-way$label: its tmux server is gone" "pid $half_server still runs"
		tmux -S "$half_sock" kill-server 2>/dev/null || kill -KILL "$half_server"
	else
		pass "SIGTERM half-way$label: its tmux server is gone"
	fi
	if [ -n "$half_tmp" ] && [ -e "$half_tmp" ]; then
		fail "SIGTERM half-way$label: its scratch directory is gone" "$half_tmp is there"
		rm -rf "$half_tmp"
	else
		pass "SIGTERM half-way$label: its scratch directory is gone"
	fi
done
