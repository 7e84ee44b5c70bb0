#!/bin/sh
# pipeline.sh - the pipelined analysis (a reader thread hands batches of
# events to the main thread, src/model/analysis.c) gives exactly what the
# single-threaded loop gives: the same report, text and JSON, the same
# messages and exit status, on every trace here (bad ones and the fuzzers'
# regression inputs included), with --from/--to (which stop the loop
# early), both trace.dat readers, diff, and batches of one event (every
# hand-over) or a few (info copies and cpumask words that overflow their
# batch).
#
# SCHEDLINT_THREADS=1 is the single-threaded loop, =2 the pipeline (also on
# a one-CPU machine); SCHEDLINT_BATCH_EVENTS makes its batches small.
. tests/lib.sh
export SCHEDLINT SCHEDGEN TESTDATA

# same LABEL ARGS...: schedlint ARGS in every mode of $MODES: identical
# stdout, stderr, status
MODES="1 2 2b1 2b5"
same() {
	label=$1; shift
	why=""
	for mode in $MODES; do
		case $mode in
		1)   SCHEDLINT_THREADS=1 "$SCHEDLINT" "$@" ;;
		2)   SCHEDLINT_THREADS=2 "$SCHEDLINT" "$@" ;;
		2b1) SCHEDLINT_THREADS=2 SCHEDLINT_BATCH_EVENTS=1 "$SCHEDLINT" "$@" ;;
		2b5) SCHEDLINT_THREADS=2 SCHEDLINT_BATCH_EVENTS=5 "$SCHEDLINT" "$@" ;;
		esac > "$TMP/out.$mode" 2> "$TMP/err.$mode"
		echo $? > "$TMP/rc.$mode"
	done
	for mode in $MODES; do
		for what in out err rc; do
			cmp -s "$TMP/$what.1" "$TMP/$what.$mode" || why="$why $what differs ($mode);"
		done
	done
	# a comparison of two empty outputs would prove nothing
	[ -s "$TMP/out.1" ] || [ -s "$TMP/err.1" ] || why="$why no output at all;"
	if [ -z "$why" ]; then
		pass "$label: identical (exit $(cat "$TMP/rc.1"), $(wc -c < "$TMP/out.1") bytes)"
	else
		fail "$label: identical in every mode" "$why $(head -c 200 "$TMP/err.2")"
	fi
}

# first_ns TRACE: its first timestamp, in ns
first_ns() { SCHEDLINT_THREADS=1 "$SCHEDLINT" dump --ns "$1" 2>/dev/null | awk 'NR == 1 { print $1; exit }'; }

# good TRACE: a trace that reads: several reports, whole and cut by --from/--to
good() {
	f=$1
	n=$(basename "$1")
	MODES="1 2 2b1 2b5"
	same "$n" analyze "$f"
	same "$n --json" analyze --json "$f"
	MODES="1 2 2b5"
	same "$n --from +2ms --to +40ms --json" analyze --json --from +2ms --to +40ms "$f"
	t0=$(first_ns "$f")
	if [ -n "$t0" ]; then
		MODES="1 2 2b1"
		same "$n --to (absolute, 25 ms in)" analyze --to "$((t0 + 25000000))ns" "$f"
		MODES="1 2"
		same "$n --to (before the first event) --json" analyze --json --to "$((t0 - 1))ns" "$f"
	else
		fail "$n: dump shows a first event"
	fi
	MODES="1 2"
	case $f in *.dat)
		same "$n --reader=libtracecmd --json" analyze --json --reader=libtracecmd "$f"
		same "$n --reader=libtracecmd --to +30ms" analyze --reader=libtracecmd --to +30ms "$f" ;;
	esac
	MODES="1 2 2b1 2b5"
}

for f in "$TESTDATA"/real/*.dat "$TESTDATA"/real/*.txt "$TESTDATA"/text/*.txt; do
	good "$f"
done

# lost events (an info copy per marker), from a scenario, both forms
"$SCHEDGEN" scenario "$TESTDATA/scenarios/lost-events.scn" -o "$TMP/lost.dat" --text "$TMP/lost.txt" >/dev/null
good "$TMP/lost.dat"
good "$TMP/lost.txt"

# cpumasks the reader owns (copied into the batch): hackbench's IPIs sent to
# a mask of 1024 CPUs (32 words), its own target among them
awk '/ ipi_send_cpu: cpu=[01] / {
	match($0, / ipi_send_cpu: cpu=[01] /)
	cpu = substr($0, RSTART + 19, 1)
	mask = ""
	for (g = 31; g >= 0; g--)
		mask = mask (g == 31 ? "80000000" : g == 0 ? sprintf("%08d", cpu + 1) : "00000000") (g ? "," : "")
	$0 = substr($0, 1, RSTART - 1) " ipi_send_cpumask: cpumask=" mask " " substr($0, RSTART + RLENGTH)
} { print }' "$TESTDATA/real/hackbench.txt" > "$TMP/ipimask.txt"
check "the cpumask trace has cpumask IPIs" grep -q "ipi_send_cpumask: cpumask=80000000," "$TMP/ipimask.txt"
good "$TMP/ipimask.txt"

# many batches: schedgen's load on 8 and 256 CPUs, trace.dat and text
# (batches of 2048 only: one-event batches of it would take long)
MODES="1 2"
for cpus in 8 256; do
	"$SCHEDGEN" scale --cpus $cpus --events 300000 --seed 3 -o "$TMP/s$cpus.dat" --text "$TMP/s$cpus.txt" >/dev/null
	for f in "$TMP/s$cpus.dat" "$TMP/s$cpus.txt"; do
		n="scale $cpus CPUs $(basename "$f")"
		same "$n" analyze "$f"
		same "$n --json" analyze --json "$f"
		same "$n --from +100ms --to +300ms --json" analyze --json --from +100ms --to +300ms "$f"
	done
done
same "scale 256 CPUs --reader=libtracecmd --json" analyze --json --reader=libtracecmd "$TMP/s256.dat"

MODES="1 2 2b1 2b5"

# diff runs two analyses
same "diff hackbench.dat pipe.dat" diff "$TESTDATA/real/hackbench.dat" "$TESTDATA/real/pipe.dat"

# every bad input (testdata/bad/README.md), with its .expect's arguments
for exp in "$TESTDATA"/bad/*.expect; do
	case=$(basename "$exp" .expect)
	args=$(sed -n 's/^args //p' "$exp")
	if [ -f "$TESTDATA/bad/$case.gen" ]; then
		mkdir -p "$TMP/bad/$case"
		sh "$TESTDATA/bad/$case.gen" "$TMP/bad/$case" > /dev/null 2>&1 || fail "$case: its recipe runs"
		files=$(ls "$TMP/bad/$case"/* 2>/dev/null)
	else
		files=$(ls "$TESTDATA/bad/$case".* | grep -v '\.expect$')
	fi
	for f in $files; do
		# (fewer modes: there are about a hundred of them)
		MODES="1 2 2b1"
		# shellcheck disable=SC2086
		same "bad $case: $(basename "$f") --json" analyze --json $args "$f"
		MODES="1 2"
		# shellcheck disable=SC2086
		same "bad $case: $(basename "$f") --to +1ms" analyze $args --to +1ms "$f"
	done
done
# the fuzzers' regression inputs (traces that once broke a reader or the model)
for f in tests/fuzz/regress/dat/* tests/fuzz/regress/text/*; do
	[ -f "$f" ] || continue
	MODES="1 2 2b1"
	same "fuzz regress $(basename "$f") --json" analyze --json "$f"
	MODES="1 2 2b5"
	same "fuzz regress $(basename "$f") --to +1ms" analyze --to +1ms "$f"
done
echo "1..$_n"
