#!/bin/sh
# dead_task_memory.sh - the heap a kept dead task costs, counted exactly
# (valgrind's dhat: the bytes live at the heap's peak, t-gmax), held
# against the budget in bench/README.md ("Memory per kept dead task"): a
# change that costs more than the budget + 10% fails here and prints its
# figures (issue 31: 65536 kept dead tasks, the default, in 20 MiB).
# Measured as growth: tests/forkchurn.py with 12000 and 30000 forks (a
# task each, every one dead and kept: below --keep-tasks' 65536), the
# difference of the peaks over the 18000 tasks added.  (The model packs
# dead tasks once more than 1024 are kept, model.c: below some 10000 the
# peak is the 1024 full ones, not the end.)  dhat counts the
# bytes asked of malloc, not the allocator's own: the same on any machine
# and any load, not a timing.  The release build (build/rel), one thread.
# Then what the default second thread adds (the reader thread's ring of
# batches, src/model/analysis.c, allocated whole before the first event,
# so the same bytes on any load; valgrind runs the threads one at a
# time): the 30000 forks' peak with SCHEDLINT_THREADS=2 against one
# thread, held against reader_thread_bytes (issue 31: the default two
# threads must keep 65536 dead tasks in 20 MiB too).
. tests/lib.sh

REL=${DHAT_BUILD:-build/rel}	# another build: DHAT_BUILD=DIR
SL=$REL/schedlint

if ! command -v valgrind >/dev/null 2>&1; then
	fail "valgrind is installed (scripts/install-deps.sh)"; exit 0
fi
if [ ! -x "$SL" ] || grep -q __asan_init "$SL" 2>/dev/null; then
	fail "the release build $SL exists (make check builds it)"; exit 0
fi


# gmax N [THREADS]: the heap's peak in bytes, analyzing N forks (text
# report) with SCHEDLINT_THREADS=THREADS (1 unless given)
gmax() {
	[ -f "$TMP/fc$1.txt" ] || python3 tests/forkchurn.py "$1" > "$TMP/fc$1.txt"
	SCHEDLINT_THREADS=${2:-1} valgrind --tool=dhat --dhat-out-file=/dev/null \
		--log-file="$TMP/dhat.log" "$SL" analyze --no-pager "$TMP/fc$1.txt" \
		> "$TMP/out$1.${2:-1}" 2>/dev/null || { echo x; return; }
	awk '/At t-gmax:/ { gsub(",", "", $4); print $4 }' "$TMP/dhat.log"
}

small=$(gmax 12000)
rm -f "$TMP/fc12000.txt"
large=$(gmax 30000)
two=$(gmax 30000 2)
rm -f "$TMP/fc30000.txt"
case "$small$large$two" in
*x*|'') fail "the analyses ran under dhat (12000: '$small', 30000: '$large', two threads: '$two')"; exit 0 ;;
esac
expect_eq "every dead task kept and counted (30000 + 1 tasks, none folded)" \
	"$(grep -c '^  context .*(30001 tasks, 0 unknown)' "$TMP/out30000.1")/$(grep -c 'folded' "$TMP/out30000.1")" "1/0"
if cmp -s "$TMP/out30000.1" "$TMP/out30000.2"; then
	pass "the two threads' report is the one thread's"
else
	fail "the two threads' report is the one thread's" "$(diff "$TMP/out30000.1" "$TMP/out30000.2" | head -5)"
fi

within_budget dead_task_bytes $(( (large - small) / 18000 )) \
	"heap peak $small -> $large bytes, 12000 -> 30000 forks"
within_budget reader_thread_bytes $(( two - large )) \
	"heap peak of 30000 forks $large bytes with one thread, $two with two"
