#!/bin/sh
# schedgen.sh - the scenario generator writes trace.dat files that
# trace-cmd reads, holding the same events as the text it writes beside
# them, and traces that obey the state model; its formats are the real
# kernels'; bad scenarios are refused with the line that is wrong.
. tests/lib.sh

# report DAT OUT: trace-cmd's reading, in the form schedgen_compare.sh takes;
# fails when trace-cmd fails or complains
report() {
	trace-cmd report -N -l "$1" > "$2" 2> "$2.err" && [ ! -s "$2.err" ]
}

# same_events NAME DAT TXT: one TAP line
same_events() {
	if ! report "$2" "$TMP/report"; then
		fail "$1: trace-cmd reads the .dat" "$(head -3 "$TMP/report.err")"
	elif out=$(sh tests/schedgen_compare.sh "$3" "$TMP/report"); then
		pass "$1: trace-cmd shows the events of the .txt ($out)"
	else
		fail "$1: trace-cmd shows the events of the .txt" "$(echo "$out" | head -4)"
	fi
}

# consistent NAME TXT: the trace obeys the state model
consistent() {
	if out=$(python3 tests/schedgen_model.py "$2"); then
		pass "$1: obeys the state model ($out)"
	else
		fail "$1: obeys the state model" "$(echo "$out" | head -4)"
	fi
}

# --- every scenario --------------------------------------------------------
for scn in "$TESTDATA"/scenarios/*.scn; do
	name=$(basename "$scn" .scn)
	dat="$TMP/$name.dat" txt="$TMP/$name.txt"
	if ! "$SCHEDGEN" scenario "$scn" -o "$dat" --text "$txt" 2> "$TMP/err"; then
		fail "$name: generates" "$(cat "$TMP/err")"
		continue
	fi
	same_events "$name" "$dat" "$txt"
	if grep -q '^#! model-check: off' "$scn"; then
		pass "$name: model check skipped (the scenario says so)"
	else
		consistent "$name" "$txt"
	fi
done

# --- the formats are the real kernels' -----------------------------------
for dir in "$TESTDATA"/formats/*/; do
	kernel=$(basename "$dir")
	bad=
	for f in "$dir"*; do
		"$SCHEDGEN" formats --kernel "$kernel" "$(basename "$f")" | cmp -s - "$f" || bad="$bad $(basename "$f")"
	done
	expect_eq "kernel $kernel: formats byte for byte as tracefs shows them" "$bad" ""
done

# --- byte orders, long sizes, old kernels ---------------------------------
# (basic-wakeups has a kworker in state I, which 4.x kernels do not have)
for variant in "basic-wakeups --big-endian" "basic-wakeups --long-size 4" \
	       "basic-wakeups --big-endian --long-size 4" "pingpong --kernel 4.9" \
	       "fork-exit --kernel 4.9" "fork-exit --kernel 4.13 --long-size 4" \
	       "pingpong --kernel 4.9 --big-endian"; do
	set -- $variant
	scn="$TESTDATA/scenarios/$1.scn"
	shift
	if "$SCHEDGEN" scenario "$scn" -o "$TMP/v.dat" --text "$TMP/v.txt" "$@" 2> "$TMP/err"; then
		same_events "$variant" "$TMP/v.dat" "$TMP/v.txt"
	else
		fail "$variant: generates" "$(cat "$TMP/err")"
	fi
done
scn="$TESTDATA/scenarios/basic-wakeups.scn"
"$SCHEDGEN" scenario "$scn" -o "$TMP/v.dat" --big-endian --long-size 4
summary=$(trace-cmd dump --summary "$TMP/v.dat" 2>&1)
check "--big-endian --long-size 4: the file says big endian, 4-byte longs" \
	sh -c 'echo "$1" | grep -q "1	\[Big endian\]" && echo "$1" | grep -q "4	\[Bytes in a long\]"' _ "$summary"
check "the uname option names the kernel" \
	sh -c "trace-cmd report --uname '$TMP/v.dat' | grep -q '^Linux schedgen 6.18.0-schedgen ppc$'"

"$SCHEDGEN" scenario "$TESTDATA/scenarios/old-kernel.scn" -o "$TMP/o.dat" --text "$TMP/o.txt"
check "4.9: a preempted task's raw prev_state is TASK_STATE_MAX (2048)" \
	sh -c "trace-cmd report -R '$TMP/o.dat' | grep -q 'prev_pid=302 prev_prio=120 prev_state=2048 '"
expect_eq "4.9: no sched_waking, no ipi_send_cpu" \
	"$(grep -c 'sched_waking\|ipi_send_cpu' "$TMP/o.txt")" 0
check "4.9: the text has the 4.x header and 4-char irq info" \
	grep -q '^#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION$' "$TMP/o.txt"
"$SCHEDGEN" scenario "$TESTDATA/scenarios/old-kernel.scn" --kernel 4.13 -o "$TMP/o.dat"
check "4.13: TASK_STATE_MAX is 4096" \
	sh -c "trace-cmd report -R '$TMP/o.dat' | grep -q 'prev_state=4096 '"

# --- trace markers -------------------------------------------------------------
# (a record over 112 bytes keeps its length in the event's array[0])
long=$(printf '%0150d' 0)
printf '%s\n' "cpus 8" "task 1 schedlint running" "@0 mark schedlint: llc=0-3,4-7" \
	"@1ms mark cpu 5 hello" "@2ms mark cpu 5 $long" > "$TMP/mark.scn"
"$SCHEDGEN" scenario "$TMP/mark.scn" -o "$TMP/m.dat" --text "$TMP/m.txt" --big-endian --long-size 4
same_events "mark" "$TMP/m.dat" "$TMP/m.txt"
check "mark: trace-cmd shows the trace_marker write" \
	sh -c "trace-cmd report '$TMP/m.dat' | grep -q 'print: *tracing_mark_write: schedlint: llc=0-3,4-7$'"

# --- lost events -------------------------------------------------------------
"$SCHEDGEN" scenario "$TESTDATA/scenarios/lost-events.scn" -o "$TMP/l.dat" --text "$TMP/l.txt"
check "lost events: trace-cmd prints the dropped-events line" \
	sh -c "trace-cmd report '$TMP/l.dat' | grep -qx 'CPU:1 \[100 EVENTS DROPPED\]'"
check "lost events: the text prints its LOST line" grep -qx 'CPU:1 \[LOST 100 EVENTS\]' "$TMP/l.txt"
# the header's written - in-buffer is the overrun before the oldest event,
# which the LOST line does not belong to
check "lost events: entries-in-buffer/entries-written leave them to the LOST line" \
	grep -q '^# entries-in-buffer/entries-written: 9/9   #P:2$' "$TMP/l.txt"

# --- the scale load, small: deterministic, any ABI ---------------------------
"$SCHEDGEN" scale --cpus 16 --events 30000 --seed 7 -o "$TMP/s1.dat" --text "$TMP/s1.txt"
"$SCHEDGEN" scale --cpus 16 --events 30000 --seed 7 -o "$TMP/s2.dat" --text "$TMP/s2.txt"
"$SCHEDGEN" scale --cpus 16 --events 30000 --seed 8 -o "$TMP/s3.dat"
check "scale: the same seed gives the same trace.dat" cmp -s "$TMP/s1.dat" "$TMP/s2.dat"
check "scale: the same seed gives the same text" cmp -s "$TMP/s1.txt" "$TMP/s2.txt"
check "scale: another seed gives another trace" sh -c "! cmp -s '$TMP/s1.dat' '$TMP/s3.dat'"
same_events "scale 16 cpus" "$TMP/s1.dat" "$TMP/s1.txt"
consistent "scale 16 cpus" "$TMP/s1.txt"
"$SCHEDGEN" scale --cpus 5 --events 20000 --seed 3 --kernel 4.9 --big-endian --long-size 4 \
	-o "$TMP/s4.dat" --text "$TMP/s4.txt"
same_events "scale 4.9 big-endian 32-bit" "$TMP/s4.dat" "$TMP/s4.txt"
consistent "scale 4.9 big-endian 32-bit" "$TMP/s4.txt"

# --- bad scenarios ---------------------------------------------------------------
# refused NAME WANT SCENARIO...: exit 1, a message naming the file and line
refused() {
	name=$1 want=$2
	shift 2
	printf '%s\n' "$@" > "$TMP/bad.scn"
	rm -f "$TMP/bad.dat"
	"$SCHEDGEN" scenario "$TMP/bad.scn" -o "$TMP/bad.dat" 2> "$TMP/err"
	rc=$?
	if [ "$rc" = 1 ] && grep -q "bad.scn:$want" "$TMP/err" && [ ! -e "$TMP/bad.dat" ]; then
		pass "refused: $name"
	else
		fail "refused: $name" "status $rc, no file: $([ -e "$TMP/bad.dat" ] && echo no || echo yes), $(cat "$TMP/err")"
	fi
}
refused "time going back" "4: this step" "cpus 1" "task 1 a running" "@2ms sleep a" "@1ms wake a on cpu 0"
refused "an event before one already on that CPU" "5: cpu 0" "cpus 2" "task 1 a running" \
	"task 2 b cpu 1" "@1ms wake b from a to cpu 0" "@1ms tick cpu 0"
refused "a waker that does not run" "3: the waker" "cpus 2" "task 1 a" "wake a from a"
refused "an unknown step" "2: unknown step" "cpus 2" "dance"
refused "a CPU that does not exist" "3: cpu" "cpus 2" "task 1 a running" "run a on cpu 2"
refused "a state the kernel lacks" "4: 'I' is not" "kernel 4.9" "cpus 1" "task 1 a running" "sleep a I"
refused "a setting after the first step" "4: 'cpus'" "cpus 1" "task 1 a running" "sleep a" "cpus 2"
"$SCHEDGEN" scenario "$TMP/does-not-exist.scn" 2> /dev/null
expect_eq "a missing scenario file: exit status 2" "$?" 2
"$SCHEDGEN" scale --cpus 0 --events 10 2> /dev/null
expect_eq "scale without CPUs: exit status 2" "$?" 2
