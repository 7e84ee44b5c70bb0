#!/bin/sh
# gate.sh - a CI gate that fails closed: every filter that matches nothing
# is exit 2 naming it (analyze, diff, explore).
. tests/lib.sh

REAL=$TESTDATA/real
PINNED=$REAL/pipe-pinned.dat
UNPINNED=$REAL/pipe.dat
HOGS=$REAL/hogs.dat

# run_rc OUT ERR ARGS...: run schedlint, echo its exit status
run_rc() {
	out=$1 err=$2; shift 2
	"$SCHEDLINT" "$@" > "$out" 2> "$err"
	echo $?
}

# closed NAME PATTERN ARGS...: exit 2, nothing on stdout, one line on stderr
# matching PATTERN (and for a usage error, the usage hint)
closed() {
	name=$1 pattern=$2; shift 2
	rc=$(run_rc "$TMP/out" "$TMP/err" "$@" < /dev/null)
	lines=$(grep -vc '^usage: schedlint' "$TMP/err")
	if [ "$rc" = 2 ] && [ ! -s "$TMP/out" ] && [ "$lines" = 1 ] && grep -q -- "$pattern" "$TMP/err"; then
		pass "$name: exit 2 ($(head -1 "$TMP/err"))"
	else
		fail "$name: exit 2, one line with '$pattern'" \
			"rc=$rc stdout=$(wc -c < "$TMP/out")B stderr($lines lines): $(head -c 300 "$TMP/err")"
	fi
}

"$SCHEDLINT" analyze --json "$PINNED" > "$TMP/pinned.json"
"$SCHEDLINT" analyze --json "$UNPINNED" > "$TMP/unpinned.json"
PIPE_PID=$(json "$TMP/unpinned.json" "[t['pid'] for t in d['tasks'] if t['comm'] == 'sched-pipe'][0]")

# --- 1. a filter that matches nothing: exit 2 naming it, in every command ---

# pipe.dat: 2 CPUs, 913.684978 .. 913.968510, sched-pipe tasks, no pid 99999
for cmd in analyze diff explore; do
	case $cmd in
	diff) runs="$UNPINNED $PINNED" ;;	# the base is read first: its error shows
	*) runs=$UNPINNED ;;
	esac
	# shellcheck disable=SC2086
	{
	closed "$cmd --pid of no task" "pipe.*dat: --pid 99999: no task with this pid in the trace" \
		$cmd --pid 99999 $runs
	closed "$cmd --pid, one of the list missing" "--pid 99999: no task" \
		$cmd --pid "$PIPE_PID,99999" $runs
	closed "$cmd --comm typo (the issue's sched_pipe)" \
		"--comm 'sched_pipe': no task of this name in the trace (did you mean 'sched-pipe'?)" \
		$cmd --comm sched_pipe $runs
	closed "$cmd --comm with no near miss" "--comm 'nosuchtask': no task of this name in the trace$" \
		$cmd --comm nosuchtask $runs
	closed "$cmd --cpus beyond the trace" "--cpus: CPU 7 is not in the trace (it has CPUs 0-1)" \
		$cmd --cpus 7 $runs
	closed "$cmd --cpus partly beyond" "--cpus: CPU 2 is not in the trace" \
		$cmd --cpus 1-3 $runs
	closed "$cmd --from after the end" "--from 914.000000: after the trace's last event (913.968510)" \
		$cmd --from 914 $runs
	closed "$cmd --from +1s (relative, after the end)" "--from 914.684978: after the trace's last event" \
		$cmd --from +1s $runs
	closed "$cmd --to before the start" "--to 900.000000: no event of the trace at or before it" \
		$cmd --to 900 $runs
	closed "$cmd --from after --to" "--from 913.900000 is after --to 913.800000" \
		$cmd --from 913.9 --to 913.8 $runs
	closed "$cmd relative --from after --to" "--from 913.686978 is after --to 913.685978" \
		$cmd --from +2ms --to +1ms $runs
	closed "$cmd a window between two events" "--from 913.685478 --to 913.685488: no event of the trace in this window" \
		$cmd --from +0.5ms --to +0.51ms $runs
	}
done
# filters that do match: no error (the trace's own comm, CPU, a window inside it)
rc=$(run_rc "$TMP/out" "$TMP/err" analyze --comm sched-pipe --cpus 1 --from +10ms --to +200ms "$UNPINNED")
expect_eq "matching filters: exit 0" "$rc" 0
# a diff's rule may name a comm only one side has: still exit 2 (as before)
rc=$(run_rc "$TMP/out" "$TMP/err" diff "$PINNED" "$HOGS" --fail-on 'comm.sched-pipe.p99>+10%')
expect_eq "a rule's comm missing in one run: exit 2" "$rc" 2

echo "1..$_n"
