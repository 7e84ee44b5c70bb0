#!/bin/sh
# timehist.sh - schedlint timehist, row by row against perf sched timehist
# of the same perf.data: perf 6.1's output is committed
# (testdata/perf/X.timehist.xz: -w -M --state; X.timehist-s: -s;
# X.timehist-s-state: -s --state), so no perf is needed here.  The check
# is tests/timehist_check.py (see there for what is matched and what
# differs by design); the counts it prints are pinned as they were the
# first time (a change is a change of the command or of the check, to be
# explained).  Then a trace worked out by hand, the filters, bad input.
. tests/lib.sh
D=$TESTDATA/perf

# rows NAME RC 'SWITCH WAKEUP MIGRATE LOST' (each: ours = perf = matched) 'DIFFER'
rows() {
	"$SCHEDLINT" timehist --no-pager -w -M --state "$D/$1.data" > "$TMP/ours" 2> "$TMP/err"
	rc=$?
	python3 tests/timehist_check.py rows "$TMP/ours" "$D/$1.timehist.xz" > "$TMP/check" 2>&1
	crc=$?
	got="$rc/$crc/$(sed -n 's/^[a-z]*: ours \([0-9]*\), perf \([0-9]*\), matched \([0-9]*\)$/\1=\2=\3/p' "$TMP/check" | tr '\n' ' ')"
	differ=$(sed -n 's/^matched switch rows that differ: //p' "$TMP/check")
	if [ "$got" = "0/$2/$3 " ] && [ "$differ" = "$4" ]; then
		pass "$1: rows as perf's: $(head -4 "$TMP/check" | tr '\n' ' ')differ: $differ"
	else
		fail "$1: timehist -w -M --state row by row against perf's" \
			"got $got [$differ], want 0/$2/$3 [$4]: $(cat "$TMP/check" "$TMP/err" | head -12 | tr '\n' ' ')"
	fi
}
# within 1% everywhere; lost.data: perf measures runs across its lost
# events, schedlint does not (2.5% of the rows)
rows pipe 0 '672=672=672 343=343=343 7=7=7 0=0=0' 'wait 0, delay 0, run 0, state 0, comm 8'
rows pipe-wakeup 0 '663=663=663 351=351=351 4=4=4 0=0=0' 'wait 0, delay 0, run 0, state 0, comm 9'
rows messaging 0 '421=421=421 256=256=256 26=26=26 0=0=0' 'wait 0, delay 1, run 0, state 0, comm 11'
rows messaging-wakeup 0 '764=764=764 568=568=568 47=47=47 0=0=0' 'wait 2, delay 2, run 0, state 0, comm 133'
rows hackbench 0 '272=272=272 212=212=212 8=8=8 0=0=0' 'wait 0, delay 0, run 0, state 0, comm 16'
rows hackbench-wakeup 0 '145=145=145 104=104=104 3=3=3 0=0=0' 'wait 0, delay 0, run 0, state 0, comm 3'
rows lost 1 '1163=1163=1163 660=660=660 38=38=38 34=34=34' 'wait 23, delay 1, run 29, state 0, comm 1581'

# summary NAME RC 'TASKS LINE' [--state]
summary() {
	name=$1 want_rc=$2 want=$3
	shift 3
	"$SCHEDLINT" timehist --no-pager -s "$@" "$D/$name.data" > "$TMP/ours" 2> "$TMP/err"
	rc=$?
	exp=$D/$name.timehist-s
	[ $# -gt 0 ] && exp=$exp-state
	python3 tests/timehist_check.py summary "$TMP/ours" "$exp" > "$TMP/check" 2>&1
	crc=$?
	got="$rc/$crc/$(sed -n 's/^tasks: //p' "$TMP/check")"
	if [ "$got" = "0/$want_rc/$want" ]; then
		pass "$name: -s $* per task as perf's: $(head -1 "$TMP/check")"
	else
		fail "$name: timehist -s $* against perf's" "got $got, want 0/$want_rc/$want: $(cat "$TMP/check" "$TMP/err" | head -8 | tr '\n' ' ')"
	fi
}
for st in "" --state; do
	summary pipe 0 'ours 23, perf 23, matched 23, differ (count or run time by more than 1%) 0' $st
	summary hackbench 0 'ours 62, perf 62, matched 62, differ (count or run time by more than 1%) 0' $st
	# perf lists the last run of schedlint[24377] (it had exited) under a thread of tid -1
	summary messaging 0 'ours 79, perf 78, matched 78, differ (count or run time by more than 1%) 0' $st
	# the same for two threads of memfd:sealed-91: perf counts one run each, we two
	summary messaging-wakeup 1 'ours 124, perf 124, matched 124, differ (count or run time by more than 1%) 2' $st
	# runs across lost events
	summary lost 1 'ours 119, perf 118, matched 118, differ (count or run time by more than 1%) 7' $st
done

# a waker no sched_switch named yet has the name perf gives it, from the
# perf.data's PERF_RECORD_COMM (perf's first row: perf[12827], not :12827)
# (its time aside: perf truncates)
expect_eq "timehist -w: a waker not seen in a switch yet named from PERF_RECORD_COMM, as perf's" \
	"$("$SCHEDLINT" timehist --no-pager -w "$D/pipe.data" | sed -n 4p | awk '{ $1 = ""; print }')" \
	"$(xz -dc "$D/pipe.timehist.xz" | sed -n 4p | awk '{ $1 = ""; print }')"

# times rounded to the microsecond, as analyze and dump print them: each
# switch row's time is a sched_switch of perf script's text (ns) rounded
"$SCHEDLINT" timehist --no-pager "$D/pipe.data" | awk 'NR > 3 { print $1 }' > "$TMP/ours"
awk '/sched:sched_switch:/ { t = $4; sub(":", "", t); split(t, p, ".");
	us = p[1] * 1000000 + int(substr(p[2], 1, 6)) + (substr(p[2], 7, 3) >= 500);
	printf "%d.%06d\n", us / 1000000, us % 1000000 }' "$D/pipe.txt" > "$TMP/want"
expect_eq "timehist: each row's time is its sched_switch rounded to the us (672 rows)" \
	"$(cmp -s "$TMP/ours" "$TMP/want" && echo same)/$(wc -l < "$TMP/ours")" "same/672"

# A trace worked out by hand from perf's definitions (the man page's):
# cpu0 idle -> A (1.000000), cpu1 idle -> B (1.000001); B wakes A at
# 1.000010 while A still runs: A's row at its switch-out (1.000030) has
# no sch delay (its wakeup came before its switch-in, perf's "time
# travel"); B wakes A again at 1.000050, cpu0's idle task hands over at
# 1.000060 (its run 30 us, its wait since its switch-out at 1.000000 30
# us); B sleeps at 1.000070 after 69 us.  A's run from 1.000060 has not
# ended: no row.
"$SCHEDLINT" timehist --no-pager -w --state -S "$D/early-rewake.perf.txt" > "$TMP/hand"
cat > "$TMP/want" <<'EOF'
1.000000 [0000] <idle> 0.000 0.000 0.000 I
1.000001 [0001] <idle> 0.000 0.000 0.000 I
1.000010 [0001] B[200] awakened: A[100]
1.000030 [0000] A[100] 0.000 0.000 0.030 S
1.000050 [0001] B[200] awakened: A[100]
1.000060 [0000] <idle> 0.030 0.000 0.030 I
1.000070 [0001] B[200] 0.000 0.000 0.069 S
EOF
expect_eq "timehist by hand: the rows perf's definitions give" \
	"$(sed -n '4,10p' "$TMP/hand" | awk '{ $1 = $1; print }')" "$(cat "$TMP/want")"
expect_eq "timehist by hand: the summary (A 1 run of 30 us, B 69 us; cpu0 idle 30 us of 70)" \
	"$(grep -E '^ *A\[100\]|^ *B\[200\]|CPU  0|switches|Total run|scheduling' "$TMP/hand" | awk '{ $1 = $1; print }')" \
	"A[100] 1 0.030 0.000 0.000 0.000 0.000
B[200] 1 0.069 0.000 0.000 0.000 0.000
CPU 0 idle for 0.030 msec ( 42.86%)
Total number of context switches: 5
Total run time (msec): 0.099
Total scheduling time (msec): 0.070 (x 2)"

# --to, as perf: the run in progress at --to on each CPU ends at it (a row
# at --to: cpu0's idle task from A's switch-out at 1.000030, 20 us; B from
# 1.000001, 49 us), a CPU's first switch (no switch-in shown, perhaps not
# in the window) has no row; the wakeup at 1.000050 is in the window;
# -s: the scheduling time from the first switch to --to (50 us), cpu0 idle
# 20 us of it (--to to the nanosecond: one to the microsecond stands for
# the whole microsecond it prints)
"$SCHEDLINT" timehist --no-pager -w --to=1.000050001 "$D/early-rewake.perf.txt" > "$TMP/to"
expect_eq "timehist --to by hand: the runs in progress at --to end at it, as perf's" \
	"$(sed 1,3d "$TMP/to" | awk '{ $1 = $1; print }')" \
	"1.000010 [0001] B[200] awakened: A[100]
1.000030 [0000] A[100] 0.000 0.000 0.030
1.000050 [0001] B[200] awakened: A[100]
1.000050 [0000] <idle> 0.030 0.000 0.020
1.000050 [0001] B[200] 0.000 0.000 0.049"
expect_eq "timehist -s --to by hand: idle 20 us of the 50 from the first switch to --to" \
	"$("$SCHEDLINT" timehist --no-pager -s --to=1.000050001 "$D/early-rewake.perf.txt" |
		grep -E 'CPU  0|switches|Total run|scheduling' | awk '{ $1 = $1; print }')" \
	"CPU 0 idle for 0.020 msec ( 40.00%)
Total number of context switches: 3
Total run time (msec): 0.079
Total scheduling time (msec): 0.050 (x 2)"

# a name over 63 bytes (a text trace's: a kernel's comm has 15) is cut
# with its [pid] kept, in a row, a wakeup and -n alike; -n names the idle
# task as the sched_switch does (swapper/0[0]), as perf
long=$(printf '%070d' 0 | tr 0 x)
sed "s/comm=A /comm=$long /g" "$D/early-rewake.perf.txt" > "$TMP/long.txt"
"$SCHEDLINT" timehist --no-pager -w -n "$TMP/long.txt" > "$TMP/long"
cut58=$(printf '%058d' 0 | tr 0 x)
expect_eq "timehist: a long name cut to 63 bytes with its [pid], as a row, a wakeup and -n's" \
	"$(grep -c " $cut58\[100\] " "$TMP/long")/$(grep -c "awakened: $cut58\[100\]\$" "$TMP/long")/$(grep -c "next: $cut58\[100\]\$" "$TMP/long")/$(grep -c 'next: swapper/0\[0\]$' "$TMP/long")" \
	"1/2/2/1"

# -I: the switches into and out of idle (as many as dump shows); with -s,
# each task's idle time after it: by hand, A left cpu0 idle at 1.000030
# for 30 us (B's idle at 1.000070 is not over when the trace ends)
"$SCHEDLINT" dump "$TESTDATA/real/pipe.dat" | grep ' switch ' | grep -c 'prev=0:\| next=0:' > "$TMP/n"
expect_eq "timehist -I: the switches from or to idle, as many as dump shows ($(cat "$TMP/n"))" \
	"$("$SCHEDLINT" timehist --no-pager -I "$TESTDATA/real/pipe.dat" | sed 1,3d | grep -vc ' lost ')" "$(cat "$TMP/n")"
"$SCHEDLINT" timehist --no-pager -I -s "$D/early-rewake.perf.txt" > "$TMP/idle"
expect_eq "timehist -I -s by hand: A's idle time after it (1 of 30 us), cpu0 idle 30 us" \
	"$(grep -E '^Idle-time summary|^ *A\[100\]|^ *B\[200\]|CPU  0' "$TMP/idle" | awk '{ $1 = $1; print }')" \
	"Idle-time summary
A[100] 1 0.030 0.030 0.030 0.030 0.00 0
CPU 0 idle for 0.030 msec ( 42.86%)"

# plain: the switch rows of -w -M --state, without the state
"$SCHEDLINT" timehist --no-pager "$D/messaging.data" > "$TMP/plain"
"$SCHEDLINT" timehist --no-pager -w -M --state "$D/messaging.data" |
	grep -v 'awakened: \|migrated: ' | sed '1,3d; s/ *[A-Z+]*$//' > "$TMP/full"
expect_eq "timehist: plain rows = the switch rows of -w -M --state (421)" \
	"$(sed '1,3d' "$TMP/plain" | cmp -s - "$TMP/full" && echo same)/$(sed '1,3d' "$TMP/plain" | wc -l)" "same/421"
# -S = the rows, then -s
"$SCHEDLINT" timehist --no-pager -s "$D/messaging.data" > "$TMP/s"
"$SCHEDLINT" timehist --no-pager -S "$D/messaging.data" > "$TMP/S"
expect_eq "timehist -S: the rows, then the summary of -s" \
	"$(head -n $(wc -l < "$TMP/plain") "$TMP/S" | cmp -s - "$TMP/plain" && echo rows)/$(tail -n +$(($(wc -l < "$TMP/plain") + 1)) "$TMP/S" | cmp -s - "$TMP/s" && echo summary)" "rows/summary"
# -V: a column per CPU, s at the row's CPU
"$SCHEDLINT" timehist --no-pager -V "$D/pipe.data" > "$TMP/v"
expect_eq "timehist -V: a column per CPU (2), s under the row's" \
	"$(sed -n '1p' "$TMP/v" | awk '{ print $3 }')/$(awk 'NR > 3 && ($2 == "[0000]" && $3 != "s" || $2 == "[0001]" && substr($0, 25, 2) != " s")' "$TMP/v" | wc -l)" "01/0"
# -n: the task switched in
expect_eq "timehist -n: each row names the next task" \
	"$("$SCHEDLINT" timehist --no-pager -n "$D/pipe.data" | sed 1,3d | grep -vc ' next: ')" "0"

# the filters: --cpus (-C), --pid (-p, -t), --comm, --from/--to (--time)
"$SCHEDLINT" timehist --no-pager --cpus=1 "$D/pipe.data" | sed 1,3d > "$TMP/c1"
"$SCHEDLINT" timehist --no-pager -C 1 "$D/pipe.data" | sed 1,3d > "$TMP/c2"
expect_eq "timehist --cpus=1 (-C 1): the rows of CPU 1 only, as many as sched_switch on cpu 1" \
	"$(grep -vc ' \[0001\] ' "$TMP/c1")/$(cmp -s "$TMP/c1" "$TMP/c2" && echo same)/$(wc -l < "$TMP/c1")" \
	"0/same/$(grep -c '\[001\] .*sched:sched_switch:' "$D/pipe.txt")"
"$SCHEDLINT" timehist --no-pager --pid=12974 -w "$D/pipe.data" | sed 1,3d > "$TMP/p1"
"$SCHEDLINT" timehist --no-pager -p 12974 -w "$D/pipe.data" | sed 1,3d > "$TMP/p2"
expect_eq "timehist --pid (-p): its switch-outs, the wakeups it did or got" \
	"$(grep -vc 'sched-pipe\[12974\]' "$TMP/p1")/$(cmp -s "$TMP/p1" "$TMP/p2" && echo same)/$(grep -vc awakened "$TMP/p1")" \
	"0/same/$(grep -c 'prev_pid=12974 ' "$D/pipe.txt")"
"$SCHEDLINT" timehist --no-pager --comm=sched-pipe "$D/pipe.data" | sed 1,3d > "$TMP/c"
expect_eq "timehist --comm=sched-pipe: only its rows, one per switch-out" \
	"$(grep -vc ' sched-pipe\[' "$TMP/c")/$(wc -l < "$TMP/c")" \
	"0/$(grep -c 'prev_comm=sched-pipe ' "$D/pipe.txt")"
"$SCHEDLINT" timehist --no-pager --from=2587.29 --to=2587.30 "$D/pipe.data" | sed 1,3d > "$TMP/t1"
"$SCHEDLINT" timehist --no-pager --time=2587.29,2587.30 "$D/pipe.data" | sed 1,3d > "$TMP/t2"
expect_eq "timehist --from/--to (--time): the switches in the window; its first run clipped to it" \
	"$(awk '$1 < 2587.29 || $1 > 2587.30' "$TMP/t1" | wc -l)/$(cmp -s "$TMP/t1" "$TMP/t2" && echo same)/$(awk '{ if ($NF > 1000 * ($1 - 2587.29) + 0.001) bad++ } END { print bad + 0 }' "$TMP/t1")" \
	"0/same/0"
# the model reads every event whatever the filters: a row in the window has
# the wait time and sch delay it has without --from (they end at its
# switch-in, also before --from: perf moves that to --from); only a CPU's
# first run in the window, begun before it, is clipped to it
"$SCHEDLINT" timehist --no-pager "$D/pipe.data" | sed 1,3d > "$TMP/all"
from=$(awk 'NR == 40 { print $1 }' "$TMP/all")
"$SCHEDLINT" timehist --no-pager --from=$from "$D/pipe.data" | sed 1,3d > "$TMP/win"
expect_eq "timehist --from: the rows after it, as without it (none lacking or added), the same wait and delay, the first run of each CPU clipped" \
	"$(awk -v from=$from 'NR == FNR { k = $1 " " $2 " " $3; w[k] = $4 " " $5; r[k] = $6; if ($1 > from) after[k] = 1; next }
		{ k = $1 " " $2 " " $3; delete after[k]; if (!(k in w)) added++; else if (w[k] != $4 " " $5) bad++
		  else if (r[k] != $6) { clipped[$2]++; if ($6 + 0 > 1000 * ($1 - from) + 0.001) badrun++ } }
		END { print length(after), added + 0, bad + 0, clipped["[0000]"] + 0, clipped["[0001]"] + 0, badrun + 0 }' \
		"$TMP/all" "$TMP/win")" "0 0 0 1 1 0"
# "+DURATION" counts from the first event, not from a lost-events marker:
# lost.data's PERF_RECORD_LOST records come 0.59 s before its first
# sample (perf script --ns: 5775.079558618), and --to=+10ms was "no event
# of the trace in them".  Now the same as --to at that sample + 10 ms, in
# timehist, analyze and dump; the lost lines before it are before its end
# (perf's listing shows them); with --from=+0 they are before the window.
L=$D/lost.data
for cmd in "timehist --no-pager -w" "analyze --no-pager" dump; do
	# shellcheck disable=SC2086
	"$SCHEDLINT" $cmd --to=+10ms "$L" > "$TMP/rel" 2> "$TMP/err"
	rc=$?
	# shellcheck disable=SC2086
	"$SCHEDLINT" $cmd --to=5775.089558618 "$L" > "$TMP/abs"
	expect_eq "$cmd --to=+10ms of a perf.data that begins with lost events: from its first sample" \
		"$rc/$(cmp -s "$TMP/rel" "$TMP/abs" && echo same)/$(wc -c < "$TMP/err")" "0/same/0"
done
expect_eq "timehist --to=+10ms of lost.data: its rows, the 3 lost lines up to its first sample among them" \
	"$("$SCHEDLINT" timehist --no-pager --to=+10ms "$L" | sed 1,3d | awk '/ lost / { if ($1 <= 5775.079559) l++; next } { r++ } END { print l + 0, (r > 10) }')" "3 1"
expect_eq "timehist --from=+0 of lost.data: no lost line up to its first sample" \
	"$("$SCHEDLINT" timehist --no-pager --from=+0 "$L" | sed 1,3d | awk '$1 <= 5775.079559 { n++ } END { print n + 0 }')" "0"
# a filter that matches nothing fails closed, as in analyze (exit 2, one line)
"$SCHEDLINT" timehist --pid=999999 "$D/pipe-wakeup.data" > "$TMP/c" 2> "$TMP/err"
expect_eq "timehist --pid of no task: exit 2 naming the filter, nothing on stdout" \
	"$?/$(wc -c < "$TMP/c")/$(grep -c -- '--pid 999999: no task with this pid in the trace' "$TMP/err")" "2/0/1"

# A trace.dat's waker no event named yet (pipe-pinned.dat: cc1, 26592,
# wakes on CPU 1 before it is ever switched in or out) is named from the
# file's saved cmdlines, as trace-cmd report and the tracefs text of the
# same recording (pipe-pinned.txt) name it: cc1[26592], not :26592; by both
# readers.  Every row of a waker 26592 is one of the txt's sched_waking,
# sched_wakeup_new or sched_migrate_task events of cc1-26592 (17), and no
# row of a testdata/real trace.dat names a waker ":pid" (there were 1 to
# 12 before: groups, hogs-pinned, lost 1, pipe-noise 2, pipe-pinned 12).
txt=$TESTDATA/real/pipe-pinned.txt
grep -E -- ' cc1-26592 .*(sched_waking|sched_wakeup_new|sched_migrate_task):' "$txt" |
	awk '{ sub(":", "", $4); print $4 }' > "$TMP/want"
for r in flyrecord libtracecmd; do
	"$SCHEDLINT" timehist --no-pager --reader=$r -w -M "$TESTDATA/real/pipe-pinned.dat" |
		awk '($4 == "awakened:" || $4 == "migrated:") && $3 ~ /^(.*\[)?:?26592\]?$/ { print $3 > "'"$TMP/names"'"; print $1 }' > "$TMP/got"
	unnamed=0
	for f in "$TESTDATA"/real/*.dat; do
		n=$("$SCHEDLINT" timehist --no-pager --reader=$r -w -M "$f" | sed 1,3d | awk '$3 ~ /^:[0-9]+$/' | wc -l)
		unnamed=$((unnamed + n))
	done
	expect_eq "timehist -w -M of a trace.dat ($r): a waker no event named, by the saved cmdlines" \
		"$(sort -u "$TMP/names" | tr '\n' ' ')/$(cmp -s "$TMP/got" "$TMP/want" && wc -l < "$TMP/got")/$unnamed" \
		"cc1[26592] /17/0"
done

# A listing larger than the spool's buffer (1 MiB; this one 2.9 MB) goes
# through the temporary file and from there to stdout: the same bytes to a
# file, a pipe and a file opened to append (which sendfile() refuses: read
# back and written); a row per sched_switch, sched_waking or
# sched_wakeup_new and sched_migrate_task that trace-cmd report shows of
# the same trace; a write error or a closed pipe as for a small listing
BIG=$TESTDATA/real/hackbench.dat
"$SCHEDLINT" timehist --no-pager -w -M --state -n "$BIG" > "$TMP/big.file"
"$SCHEDLINT" timehist --no-pager -w -M --state -n "$BIG" | cat > "$TMP/big.pipe"
echo "a line before" > "$TMP/big.append"
"$SCHEDLINT" timehist --no-pager -w -M --state -n "$BIG" >> "$TMP/big.append"
txt=$TESTDATA/real/hackbench.txt
expect_eq "timehist of a listing over 1 MiB: the same to a file, a pipe, a file appended to; its rows the trace's events" \
	"$(cmp -s "$TMP/big.file" "$TMP/big.pipe" && echo pipe)/$(tail -n +2 "$TMP/big.append" | cmp -s - "$TMP/big.file" && echo append)/$(sed 1,3d "$TMP/big.file" | awk '/ awakened: / { w++; next } / migrated: / { m++; next } { s++ } END { print s, w, m }')/$(($(wc -c < "$TMP/big.file") > 1048576))" \
	"pipe/append/$(grep -c 'sched_switch:' "$txt") $(grep -c 'sched_waking:\|sched_wakeup_new:' "$txt") $(grep -c 'sched_migrate_task:' "$txt")/1"
"$SCHEDLINT" timehist --no-pager -w -M "$BIG" > /dev/full 2> "$TMP/err"
expect_eq "timehist of a listing over 1 MiB > /dev/full: exit 2, one message" \
	"$?/$(wc -l < "$TMP/err")/$(grep -c 'write error on output: No space left on device' "$TMP/err")" "2/1/1"
( { "$SCHEDLINT" timehist --no-pager -w -M "$BIG" 2>/dev/null; echo $? > "$TMP/rc"; } | head -1 >/dev/null )
expect_eq "timehist of a listing over 1 MiB | head -1: ended by SIGPIPE" "$(cat "$TMP/rc")" 141

# --help: timehist's options, not analyze's finding thresholds
"$SCHEDLINT" timehist --help > "$TMP/help"
expect_eq "timehist --help: its options, no finding thresholds" \
	"$(grep -c -- '--min-cost\|--tolerance\|--slice-model\|--max-findings' "$TMP/help")/$(grep -c -- '--wakeups\|--migrations\|--idle-hist\|--summary\|--with-summary\|--state\|--no-pager' "$TMP/help")" "0/7"

# bad input: one line, exit 2, nothing on stdout (no partial listing)
python3 tests/perf_edit.py edit "$D/pipe-wakeup.data" "$TMP/bad.data" sample-size-short
"$SCHEDLINT" timehist "$TMP/bad.data" > "$TMP/out" 2> "$TMP/err"
expect_eq "timehist of a corrupt perf.data: exit 2, one line, no output" \
	"$?/$(wc -l < "$TMP/err")/$(wc -c < "$TMP/out")" "2/1/0"
"$SCHEDLINT" timehist --bogus "$D/pipe-wakeup.data" > "$TMP/out" 2> "$TMP/err"
expect_eq "timehist --bogus: exit 2" "$?" "2"
"$SCHEDLINT" timehist --time=abc "$D/pipe-wakeup.data" > "$TMP/out" 2> "$TMP/err"
expect_eq "timehist --time=abc: exit 2, one line naming it" "$?/$(grep -c -- '--from' "$TMP/err")" "2/1"
echo "1..$_n"
