#!/bin/sh
# tests/gate/run.sh - the README's CI recipe, run as written, proves the gate:
#
#   A/A: $AA comparisons (default 10) of the unchanged machine, each side
#        the recipe's runs of the workload: every one must pass (0 false alarms);
#   A/B: $AB comparisons (default 10) where the new side runs with a
#        regression injected, a real-time task with a duty cycle on every
#        CPU (tests/gate/rt_duty.py, $RT_BUSY_MS of every $RT_PERIOD_MS): at
#        least 9 in 10 must fail;
#   A/B busy: $BUSY comparisons (default 10) where the new side runs beside
#        a plain busy loop pinned to each CPU (nice 0, SCHED_OTHER): at
#        least 9 in 10 must fail;
#   A/A across (replay only): 18 more A/A comparisons made of recorded
#        runs: the base runs of A/B busy comparison i against those of
#        comparison i+1 (9), and the same of the A/B series (9).  They
#        were not recorded alternately but a minute apart, so the drift of
#        the machine falls between the sides: not the recipe, a measure of
#        what its alternation cancels.  Counted and printed, no bar.
#
# The recipe is not copied here: it is the sh block between the markers
# <!-- ci-recipe --> and <!-- /ci-recipe --> of README.md, extracted at every
# run, so the README and this proof cannot drift apart.  The recipe calls
# two steps the user writes, use_base and use_new (what differs between the
# sides); this script defines them: nothing for A/A, starting and stopping
# the injected task for A/B.
#
# Two modes:
#
#   tests/gate/run.sh            (make gate-check) replays the recordings
#       committed in testdata/gate/runs.tar.gz (A/A, A/B) and
#       testdata/gate/busy.tar.gz (A/B busy): the recipe's
#       "schedlint record -o F" gives the saved report of that run (the
#       same metrics as its trace), everything else in the recipe runs as
#       written.  No root, seconds, the same answer on an idle or a loaded
#       machine.  tests/e2e/gate_recipe.sh runs it in make check.
#   tests/gate/run.sh --record [--save FILE]
#       records afresh on this machine (needs root, tracefs, perf, chrt,
#       taskset; minutes); --save writes the runs' reports as a new
#       runs.tar.gz (each trace analyzed with the options of the recipe's
#       diff line, then deleted).  SERIES="aa ab busy" (the default)
#       names the series to run: SERIES=busy --record --save
#       testdata/gate/busy.tar.gz records the busy series alone.
#
# Every JUnit file is checked against tests/junit.xsd and every Markdown
# comment with tests/md_check.py.  Prints one line per comparison and a
# summary; exit 0 when both series meet their bar, 1 when one does not, 2
# when the setup or a run is broken.
#
#   AA=10 AB=10 BUSY=10 SERIES="aa ab busy" RT_BUSY_MS=0.1 RT_PERIOD_MS=0.3 KEEP=dir SCHEDLINT=path sh tests/gate/run.sh

cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD
# recording holds the lock of the recording tests (tests/lib.sh): a record
# removes the instances of records that no longer run, which a test may
# have left on purpose
case " $* " in
*" --record "*)
	if [ -z "$SL_RECORD_LOCK_HELD" ]; then
		SL_RECORD_LOCK_HELD=1 exec flock -o -w 3600 -E 75 /tmp/schedlint-record-tests.lock sh "$ROOT/tests/gate/run.sh" "$@"
	fi ;;
esac
MODE=replay
SAVE=
while [ $# -gt 0 ]; do
	case $1 in
	--record) MODE=record ;;
	--save) SAVE=$2; shift ;;
	*) echo "usage: tests/gate/run.sh [--record [--save FILE]]" >&2; exit 2 ;;
	esac
	shift
done
[ -z "$SAVE" ] || [ "$MODE" = record ] || { echo "gate-check: --save needs --record" >&2; exit 2; }
case $SAVE in ''|/*) ;; *) SAVE=$ROOT/$SAVE ;; esac
AA=${AA:-10}
AB=${AB:-10}
BUSY=${BUSY:-10}
SERIES=${SERIES:-aa ab busy aax}
RT_BUSY_MS=${RT_BUSY_MS:-0.1}
RT_PERIOD_MS=${RT_PERIOD_MS:-0.3}
RUNS_TGZ=$ROOT/testdata/gate/runs.tar.gz
BUSY_TGZ=$ROOT/testdata/gate/busy.tar.gz

die() { echo "gate-check: $*" >&2; exit 2; }

SCHEDLINT=${SCHEDLINT:-$ROOT/schedlint}
case $SCHEDLINT in /*) ;; *) SCHEDLINT=$ROOT/$SCHEDLINT ;; esac
[ -x "$SCHEDLINT" ] || die "build first: make"
tools="python3 xmllint"
if [ "$MODE" = record ]; then
	case " $SERIES " in *" aax "*) SERIES=$(echo " $SERIES " | sed 's/ aax / /; s/^ //; s/ $//') ;; esac
	[ "$(id -u)" = 0 ] || die "--record needs root (schedlint record writes to tracefs)"
	tools="$tools perf chrt taskset"
fi
for tool in $tools; do
	command -v "$tool" > /dev/null || die "$tool is missing (scripts/install-deps.sh installs it)"
done

# --- the injected regression: an RT task with a duty cycle on every CPU ---

start_rt() {
	[ -n "$RT_PIDS" ] && return
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		chrt -f 10 taskset -c "$cpu" python3 "$ROOT/tests/gate/rt_duty.py" \
			"$RT_BUSY_MS" "$RT_PERIOD_MS" &
		RT_PIDS="$RT_PIDS $!"
	done
	sleep 0.3	# python is up and spinning before the run starts
}
stop_rt() {
	[ -z "$RT_PIDS" ] && return
	# shellcheck disable=SC2086
	kill $RT_PIDS 2> /dev/null
	# shellcheck disable=SC2086
	wait $RT_PIDS 2> /dev/null
	RT_PIDS=""
}

# --- the other regression: a busy loop on every CPU, nice 0 ---

start_busy() {
	[ -n "$BUSY_PIDS" ] && return
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		taskset -c "$cpu" sh -c 'while :; do :; done' &
		BUSY_PIDS="$BUSY_PIDS $!"
	done
}
stop_busy() {
	[ -z "$BUSY_PIDS" ] && return
	# shellcheck disable=SC2086
	kill $BUSY_PIDS 2> /dev/null
	# shellcheck disable=SC2086
	wait $BUSY_PIDS 2> /dev/null
	BUSY_PIDS=""
}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/schedlint-gate.XXXXXX")
RT_PIDS=""
BUSY_PIDS=""
cleanup() {
	stop_rt
	stop_busy
	if [ -n "$KEEP" ]; then
		mkdir -p "$KEEP" && cp -r "$WORK"/. "$KEEP"/ && echo "kept in $KEEP"
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 2' INT TERM HUP

# --- the recipe, from the README ---

awk '/^<!-- ci-recipe -->$/ { on = 1; next }
     /^<!-- \/ci-recipe -->$/ { on = 0 }
     on && !/^```/' README.md > "$WORK/recipe.sh"
[ -s "$WORK/recipe.sh" ] || die "README.md has no <!-- ci-recipe --> ... <!-- /ci-recipe --> block"
grep -q 'use_base' "$WORK/recipe.sh" && grep -q 'use_new' "$WORK/recipe.sh" &&
	grep -q 'schedlint diff' "$WORK/recipe.sh" || die "the README's recipe lost use_base, use_new or its schedlint diff"
# the analysis options of the diff line (before --base): what a saved report keeps
REPORT_OPTS=$(sed -n 's/^schedlint diff \(.*\) --base .*/\1/p' "$WORK/recipe.sh")

# the recipe's "schedlint" is the one just built, or in replay a wrapper
# whose "record -o F" copies the committed report of run F
mkdir -p "$WORK/bin"
if [ "$MODE" = record ]; then
	ln -s "$SCHEDLINT" "$WORK/bin/schedlint"
else
	[ -f "$RUNS_TGZ" ] || die "$RUNS_TGZ is missing (tests/gate/run.sh --record --save makes it)"
	mkdir -p "$WORK/runs" && tar -xzf "$RUNS_TGZ" -C "$WORK/runs" || die "$RUNS_TGZ: cannot unpack"
	case " $SERIES " in
	*" busy "*)
		[ -f "$BUSY_TGZ" ] || die "$BUSY_TGZ is missing (SERIES=busy tests/gate/run.sh --record --save makes it)"
		mkdir -p "$WORK/busy" && tar -xzf "$BUSY_TGZ" -C "$WORK/busy" || die "$BUSY_TGZ: cannot unpack"
		mv "$WORK/busy/RECORDED" "$WORK/runs/RECORDED.busy" && mv "$WORK/busy"/busy-* "$WORK/runs/" ||
			die "$BUSY_TGZ: not the runs of the busy series" ;;
	esac
	# A/A across: base runs of one comparison against those of the next
	case " $SERIES " in
	*" aax "*)
		for k in $(seq 1 18); do
			if [ "$k" -le 9 ]; then from=busy-$k to=busy-$((k + 1))
			else from=ab-$((k - 9)) to=ab-$((k - 8)); fi
			mkdir -p "$WORK/runs/aax-$k"
			for b in "$WORK/runs/$from"/base-*.json; do
				cp "$b" "$WORK/runs/aax-$k/" && cp "$WORK/runs/$to/${b##*/}" \
					"$WORK/runs/aax-$k/new-${b##*/base-}" || die "A/A across $k: no runs $from, $to"
			done
		done ;;
	esac
	cat > "$WORK/bin/schedlint" <<EOF
#!/bin/sh
if [ "\$1" = record ]; then
	out= prev=
	for a; do [ "\$prev" = -o ] && out=\$a; prev=\$a; done
	src=\$GATE_RUN_DIR/\${out%.dat}.json
	[ -n "\$out" ] && [ -f "\$src" ] || { echo "replay: no recorded run for 'schedlint \$*'" >&2; exit 2; }
	exec cp "\$src" "\$out"
fi
exec "$SCHEDLINT" "\$@"
EOF
	chmod +x "$WORK/bin/schedlint"
fi
PATH=$WORK/bin:$PATH
export PATH

# compare KIND N: run the recipe in its own directory; echo its exit status
compare() {
	dir=$WORK/$1-$2
	mkdir -p "$dir"
	(
		cd "$dir" || exit 2
		GATE_RUN_DIR=$WORK/runs/$1-$2
		export GATE_RUN_DIR
		case $MODE-$1 in
		record-ab) use_base() { stop_rt; }; use_new() { start_rt; } ;;
		record-busy) use_base() { stop_busy; }; use_new() { start_busy; } ;;
		*) use_base() { :; }; use_new() { :; } ;;
		esac
		# shellcheck disable=SC1091
		. "$WORK/recipe.sh" > recipe.log 2>&1
		rc=$?
		stop_rt
		stop_busy
		exit $rc
	)
	echo $?
}

# check_outputs DIR: the JUnit file against the schema, the Markdown checked
check_outputs() {
	xmllint --noout --schema "$ROOT/tests/junit.xsd" "$1/schedlint.xml" > "$1/xsd.log" 2>&1 &&
		python3 "$ROOT/tests/md_check.py" "$1/schedlint.md" > "$1/md.log" 2>&1
}

# keep_reports DIR: each trace of the comparison becomes its saved report
keep_reports() {
	mkdir -p "$WORK/save/${1##*/}"
	for t in "$1"/*.dat; do
		# shellcheck disable=SC2086
		"$SCHEDLINT" analyze $REPORT_OPTS --json "$t" > "$WORK/save/${1##*/}/$(basename "$t" .dat).json" ||
			die "$t: cannot analyze it for --save"
		rm -f "$t"
	done
}

start=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
aa_fail=0 ab_fail=0 busy_fail=0 aax_fail=0 broken=0
for kind in $SERIES; do
	case $kind in
	aa) n=$AA label=A/A ;;
	ab) n=$AB label=A/B ;;
	busy) n=$BUSY label="A/B busy" ;;
	aax) n=18 label="A/A across" ;;
	*) die "SERIES: '$kind' is none of aa ab busy aax" ;;
	esac
	i=1
	while [ "$i" -le "$n" ]; do
		t0=$(date +%s)
		rc=$(compare "$kind" "$i")
		dir=$WORK/$kind-$i
		verdict=$(tail -n 1 "$dir/recipe.log" 2> /dev/null)
		if [ -f "$dir/schedlint.md" ]; then
			verdict=$(head -n 1 "$dir/schedlint.md" | sed 's/^### schedlint diff: //')
		fi
		case $rc in
		0) ;;
		1) eval "${kind}_fail=\$((${kind}_fail + 1))" ;;
		*) broken=$((broken + 1)) ;;
		esac
		if [ "$rc" -le 1 ] && ! check_outputs "$dir"; then
			broken=$((broken + 1))
			verdict="$verdict; BAD OUTPUT: $(cat "$dir/xsd.log" "$dir/md.log" | head -c 300)"
		fi
		# the rules that failed, for the log
		failed=$(grep -o '^| `[^`]*` | ❌[^|]*' "$dir/schedlint.md" 2> /dev/null | sed 's/^| `//; s/` | ❌ / (/; s/ *$/)/' | tr '\n' ' ')
		printf '%s %2d: exit %s, %3ds  %s %s\n' "$label" "$i" "$rc" $(($(date +%s) - t0)) "$verdict" "$failed"
		[ -z "$SAVE" ] || [ "$rc" -gt 1 ] || keep_reports "$dir"
		i=$((i + 1))
	done
done
secs=$(($(date +%s) - start))

has() { case " $SERIES " in *" $1 "*) return 0 ;; esac; return 1; }
runs=$(grep -m1 '^RUNS=' "$WORK/recipe.sh" | cut -d= -f2 | sed 's/ *#.*//')
rt="RT task ${RT_BUSY_MS} ms every ${RT_PERIOD_MS} ms on every CPU"
busy="a busy loop on every CPU, nice 0"
if [ "$MODE" = record ]; then
	where="recorded now: $(uname -r), $(nproc) CPUs, load average $LOAD_START at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
else
	where="replayed from testdata/gate/runs.tar.gz ($(head -n 1 "$WORK/runs/RECORDED" 2> /dev/null))"
	has busy && where="$where and busy.tar.gz ($(head -n 1 "$WORK/runs/RECORDED.busy" 2> /dev/null))"
	rt=$(sed -n 2p "$WORK/runs/RECORDED" 2> /dev/null)
fi
! has aa || echo "A/A: $aa_fail false alarms in $AA comparisons (each ${runs:-?} runs per side)"
! has ab || echo "A/B: $ab_fail of $AB comparisons detected the injected regression ($rt)"
! has busy || echo "A/B busy: $busy_fail of $BUSY comparisons detected the regression ($busy)"
! has aax || echo "A/A across: $aax_fail false alarms in 18 comparisons (base runs of one recorded comparison against the next's, not alternated)"
echo "run time: $((secs / 60)) min $((secs % 60)) s; $where"
[ "$broken" = 0 ] || { echo "gate-check: $broken comparisons could not run or wrote bad output (KEEP=dir keeps them)"; exit 2; }
if [ -n "$SAVE" ]; then
	{
		echo "$(date -u +%Y-%m-%d), $(uname -r), $(nproc) CPUs, load average $LOAD_START at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
		if [ "$SERIES" = busy ]; then echo "$busy"; else echo "$rt"; fi
	} > "$WORK/save/RECORDED"
	(cd "$WORK/save" && tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -czf "$SAVE" RECORDED ./*-*) ||
		die "cannot write $SAVE"
	echo "saved the reports of the comparisons in $SAVE ($(wc -c < "$SAVE") bytes)"
fi
{ ! has aa || [ "$aa_fail" = 0 ]; } &&
	{ ! has ab || [ $((ab_fail * 10)) -ge $((AB * 9)) ]; } &&
	{ ! has busy || [ $((busy_fail * 10)) -ge $((BUSY * 9)) ]; } || exit 1
echo "gate-check: passed"
