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
# and any load, not a timing.  The release build (build/rel), one thread
# (the reader thread's hand-over buffers would add to the peak by timing).
. tests/lib.sh

BUDGETS=bench/README.md
REL=${DHAT_BUILD:-build/rel}	# another build: DHAT_BUILD=DIR
SL=$REL/schedlint

if ! command -v valgrind >/dev/null 2>&1; then
	fail "valgrind is installed (scripts/install-deps.sh)"; exit 0
fi
if [ ! -x "$SL" ] || grep -q __asan_init "$SL" 2>/dev/null; then
	fail "the release build $SL exists (make check builds it)"; exit 0
fi

budget() { awk -v n="$1" '$1 == "budget" && $2 == n { print $3; exit }' "$BUDGETS"; }

# gmax N: the heap's peak in bytes, analyzing N forks (text report)
gmax() {
	python3 tests/forkchurn.py "$1" > "$TMP/fc.txt"
	SCHEDLINT_THREADS=1 valgrind --tool=dhat --dhat-out-file=/dev/null \
		--log-file="$TMP/dhat.log" "$SL" analyze --no-pager "$TMP/fc.txt" \
		> "$TMP/out$1" 2>/dev/null || { echo x; return; }
	awk '/At t-gmax:/ { gsub(",", "", $4); print $4 }' "$TMP/dhat.log"
	rm -f "$TMP/fc.txt"
}

small=$(gmax 12000)
large=$(gmax 30000)
case "$small$large" in
*x*|'') fail "both analyses ran under dhat (12000: '$small', 30000: '$large')"; exit 0 ;;
esac
expect_eq "every dead task kept and counted (30000 + 1 tasks, none folded)" \
	"$(grep -c '^  context .*(30001 tasks, 0 unknown)' "$TMP/out30000")/$(grep -c 'folded' "$TMP/out30000")" "1/0"

per=$(( (large - small) / 18000 ))
b=$(budget dead_task_bytes)
if [ -z "$b" ]; then fail "$BUDGETS has a budget for dead_task_bytes"; exit 0; fi
lim=$(( b + b / 10 ))
msg="dead_task_bytes: $per (heap peak $small -> $large bytes, 12000 -> 30000 forks; budget $b, fails above $lim)"
echo "# $msg"
if [ "$per" -le "$lim" ]; then pass "$msg"
else fail "$msg" "$(( (100 * per + b / 2) / b - 100 ))% over its budget: a change that needs it raises the budget in bench/README.md and says why in its commit"; fi
