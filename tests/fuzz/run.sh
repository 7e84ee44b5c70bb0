#!/bin/sh
# run.sh - run each fuzz harness for FUZZ_SECONDS seconds (make fuzz)
#
#   FUZZ_SECONDS=60 FUZZ_BUILD=build/fuzz sh tests/fuzz/run.sh NAME...
#
# NAME is a harness ($FUZZ_BUILD/fuzz_NAME).  Its seeds: the stored corpus
# tests/fuzz/corpus/KIND and every crash found before (tests/fuzz/regress/KIND),
# KIND being text, dat, model, perf, explore, seek, splice or kallsyms, plus
# traces schedgen generates now from
# testdata/scenarios (trace.dat v6 in both byte orders and long sizes, v7
# plain and zstd through trace-cmd convert, v7 zlib through tests/dat_v7.py
# with odd chunk sizes and as a chunk bomb, and their tracefs text) and
# testdata/bad/format-statement-expression.gen.  What the fuzzer learns
# goes to $FUZZ_BUILD/corpus/NAME and is kept, so a second run continues
# where the first stopped.  A crash, leak, timeout or
# sanitizer report stops that harness and is kept in
# $FUZZ_BUILD/artifacts/NAME/; the script then fails.  Add such an input
# to tests/fuzz/regress/KIND/ with the fix (make check replays it).
#
# FUZZ_JOBS=N runs N harnesses at a time (default 1); FUZZ_ARGS adds
# libFuzzer options.
cd "$(dirname "$0")/../.." || exit 2
: "${FUZZ_SECONDS:=60}" "${FUZZ_BUILD:=build/fuzz}" "${FUZZ_JOBS:=1}"
SCHEDGEN=${SCHEDGEN:-./schedgen}
# Fast unwinding everywhere: library leaks are matched by the frame that
# called malloc, or glibc's sscanf for libtracecmd's "%ms" (tests/lsan.supp);
# slow unwinding made the trace.dat harnesses 15x slower (1-4 runs/s).
asan_fast=detect_leaks=1:fast_unwind_on_malloc=1:allocator_may_return_null=0
asan_slow=$asan_fast
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

gen=$FUZZ_BUILD/seeds
rm -rf "$gen"
mkdir -p "$gen/dat" "$gen/text" "$gen/model" "$gen/perf" "$gen/seek"

# Generated seeds: small traces of every scenario, in every file shape.
for scn in testdata/scenarios/*.scn; do
	n=$(basename "$scn" .scn)
	"$SCHEDGEN" scenario "$scn" -o "$gen/dat/$n.dat" --text "$gen/text/$n.txt" >/dev/null 2>&1 ||
		echo "fuzz: schedgen failed on $scn (seeds missing)" >&2
done
"$SCHEDGEN" scenario testdata/scenarios/pingpong.scn --big-endian --long-size 4 \
	-o "$gen/dat/pingpong-be32.dat" >/dev/null 2>&1
"$SCHEDGEN" scale --cpus 4 --events 300 --seed 7 -o "$gen/dat/scale.dat" \
	--text "$gen/text/scale.txt" >/dev/null 2>&1
# print formats with GNU statement expressions, decoded event or not (dat.dict has their tokens)
SCHEDGEN=$SCHEDGEN TESTDATA=testdata sh testdata/bad/format-statement-expression.gen "$gen/dat" ||
	echo "fuzz: the statement-expression seeds failed" >&2
# v7 zlib with chunks that are not whole pages, and a chunk bomb (each
# CPU one chunk of 1024 pages, its first page then empty ones)
python3 tests/dat_v7.py "$gen/dat/pingpong.dat" "$gen/dat/pingpong-v7-zlib-odd.dat" \
	--chunk-bytes 3000 >/dev/null 2>&1
python3 tests/dat_v7.py "$gen/dat/pingpong.dat" "$gen/dat/pingpong-v7-zlib-bomb.dat" \
	--bomb 1024 >/dev/null 2>&1
if command -v trace-cmd >/dev/null; then
	for n in pingpong lost-events; do
		for c in none zstd; do
			trace-cmd convert --file-version 7 --compression $c -i "$gen/dat/$n.dat" \
				-o "$gen/dat/$n-v7-$c.dat" >/dev/null 2>&1
		done
	done
fi

# perf.data: the recordings of testdata/perf cut to their first samples
for f in testdata/perf/pipe-wakeup.data testdata/perf/messaging.data testdata/perf/pipemode.data; do
	python3 tests/perf_edit.py shrink "$f" "$gen/perf/$(basename "$f" .data)-40.data" 40 ||
		echo "fuzz: perf_edit.py failed on $f (seeds missing)" >&2
done

# seek: the generated trace.dat and text seeds behind 8 bytes of seek times
for f in "$gen"/dat/*.dat "$gen"/text/*.txt; do
	[ -f "$f" ] || continue
	{ printf '\000\100\000\200\000\300\377\377'; cat "$f"; } > "$gen/seek/${f##*/}"
done

failed=""
rm -f "$FUZZ_BUILD"/failed.*
run_one() {
	name=$1 extra=""
	case $name in
	dat*)	kind=dat max_len=65536 asan=$asan_slow ;;
	text)	kind=text max_len=16384 asan=$asan_fast ;;
	perf)	kind=perf max_len=262144 asan=$asan_fast ;;
	explore) kind=explore max_len=402 asan=$asan_fast ;;	# 400 keys: each one draws and may read the trace
	seek)	kind=seek max_len=131072 asan=$asan_slow ;;	# 8 bytes of seek times, then a trace
	splice)	kind=splice max_len=32768 asan=$asan_fast ;;	# a few pages of 4096 bytes
	kallsyms) kind=kallsyms max_len=16384 asan=$asan_fast ;;
	*)	kind=$name max_len=4100 asan=$asan_fast extra=-len_control=0 ;;
	esac
	bin=$FUZZ_BUILD/fuzz_$name
	work=$FUZZ_BUILD/corpus/$name
	art=$FUZZ_BUILD/artifacts/$name
	log=$FUZZ_BUILD/$name.log
	mkdir -p "$work" "$art" "tests/fuzz/corpus/$kind" "tests/fuzz/regress/$kind" "$gen/$kind"
	dict=""
	[ -f "tests/fuzz/$kind.dict" ] && dict="-dict=tests/fuzz/$kind.dict"
	# shellcheck disable=SC2086
	ASAN_OPTIONS=${ASAN_OPTIONS:-$asan} "$bin" -max_total_time="$FUZZ_SECONDS" -timeout=30 -rss_limit_mb=2560 \
		-max_len=$max_len -print_final_stats=1 -artifact_prefix="$art/" $dict $extra $FUZZ_ARGS \
		"$work" "tests/fuzz/corpus/$kind" "tests/fuzz/regress/$kind" "$gen/$kind" \
		> "$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
	if [ "$rc" = 0 ]; then
		echo "fuzz_$name: ok, ${execs:-?} runs in ${FUZZ_SECONDS}s, $cov, corpus $(ls "$work" | wc -l)"
	else
		echo "fuzz_$name: FAILED (status $rc), see $log; inputs in $art/:"
		grep -E 'ERROR|runtime error|invariant|SUMMARY' "$log" | head -5 | sed 's/^/    /'
		ls "$art" | sed 's/^/    /'
		return 1
	fi
}

running=0
for name in "$@"; do
	if [ "$FUZZ_JOBS" -gt 1 ]; then
		( run_one "$name" || touch "$FUZZ_BUILD/failed.$name" ) &
		running=$((running + 1))
		if [ "$running" -ge "$FUZZ_JOBS" ]; then
			wait
			running=0
		fi
	else
		run_one "$name" || failed="$failed $name"
	fi
done
wait
for f in "$FUZZ_BUILD"/failed.*; do
	[ -e "$f" ] || continue
	failed="$failed ${f##*/failed.}"
	rm -f "$f"
done
if [ -n "$failed" ]; then
	echo "fuzz: failed:$failed"
	exit 1
fi
echo "fuzz: every harness ran ${FUZZ_SECONDS}s clean"
