#!/bin/sh
# instr_budget.sh - the instructions analyze spends per event, counted
# exactly (valgrind's cachegrind, Ir), held against the budgets written in
# bench/README.md ("Instruction budgets"): a change that costs more than a
# budget + 10% fails here and prints its figures (issue 31).  Timings are
# never asserted; an instruction count does not depend on the load.
#
# The trace: testdata/bench/hackbench-g4.dat (hackbench -g 4 -l 1000, 179,308
# events, v7 zstd).  Its start-up (the kallsyms and formats, about 320 M
# instructions with the child that checks the formats: a third of the
# whole) is taken out by counting a prefix of
# the same file too (its first 2000 events, trace-cmd split): per event =
# (full - prefix) / (events full - events prefix).  Three budgets:
#   read_per_event     schedlint's reader alone (bench/read_only.c)
#   analyze_per_event  schedlint analyze, every analyzer, the text report
#   startup            schedlint analyze of the 2000-event prefix, whole
# one for recorded groups, on the same trace as a text (see below):
#   grouped_per_event  what schedlint record's group markers add per event
# and one for perf.data, the same way: testdata/perf/hackbench-max.data
# (perf sched record -- hackbench -g 2 -l 60, 10,398 samples) against its
# first 500 samples (tests/perf_edit.py shrink: the same header, event
# formats and kallsyms):
#   read_perf_per_event  schedlint's perf.data reader alone, per sample
# and one for schedlint record --live's reader (src/read/read_live.c), on
# the same trace.dat's pages replayed by bench/live_replay.c, counted by
# callgrind in replay() alone (--toggle-collect): loading the file, its
# formats and the copies of its pages stays out, which a prefix could not
# take out (the loading grows with the pages):
#   live_per_event     record --live's page queueing, checks, merge, walk
#                      and decoding, per event
# analyze runs with SCHEDLINT_THREADS=1: one thread counts the same on
# every run (the reader thread's hand-over would add waits).  The counts
# are of the release build (build/rel, which make check builds in every
# mode): under SANITIZE=1 ./schedlint is the instrumented one, whose
# counts say nothing about the product.
. tests/lib.sh

TRACE=$TESTDATA/bench/hackbench-g4.dat
REL=${INSTR_BUILD:-build/rel}	# another build: INSTR_BUILD=DIR
SL=$REL/schedlint
READ=$REL/bench/read_only
LIVE=$REL/bench/live_replay

if ! command -v valgrind >/dev/null 2>&1; then
	fail "valgrind is installed (scripts/install-deps.sh)"; exit 0
fi
for b in "$SL" "$READ" "$LIVE"; do
	if [ ! -x "$b" ]; then
		fail "the release build $b exists (make check builds it)"; exit 0
	fi
	if grep -q __asan_init "$b" 2>/dev/null; then
		fail "$b is a release build, not a sanitized one"; exit 0
	fi
done
cmp -s "$SCHEDLINT" "$SL" || echo "# counting $SL (the release build), not $SCHEDLINT"
# a plain make rebuilds schedlint but not read_only or live_replay: an
# object they link (src/ and analyzers/ but main.o; not schedgen's, which
# make builds after them when asked for all later) newer than one means
# its figures would be an older build's
for b in "$READ" "$LIVE"; do
	if [ -n "$(find "$REL/src" "$REL/analyzers" -name '*.o' ! -name main.o -newer "$b" \
		2>/dev/null | head -1)" ]; then
		fail "$b is older than its objects: make $b first"; exit 0
	fi
done


# ir NAME CMD...: run CMD under cachegrind; prints the instructions of
# every process it was (analyze forks a child that checks the formats:
# its work is part of the cost), stdout of CMD to $TMP/NAME.out
ir() {
	_name=$1; shift
	rm -f "$TMP/$_name".vg.*
	SCHEDLINT_THREADS=1 valgrind --tool=cachegrind --cache-sim=no \
		--cachegrind-out-file=/dev/null --log-file="$TMP/$_name.vg.%p" \
		"$@" > "$TMP/$_name.out" 2>/dev/null
	_rc=$?
	if [ $_rc != 0 ]; then echo "x"; return; fi
	cat "$TMP/$_name".vg.* | awk '/I +refs:/ { gsub(",", "", $NF); s += $NF } END { print s + 0 }'
}

trace-cmd split -i "$TRACE" -o "$TMP/head.dat" -e 2000 >/dev/null 2>&1
HEAD=$TMP/head.dat.1
if [ ! -s "$HEAD" ]; then
	fail "trace-cmd split writes the first 2000 events of $TRACE"; exit 0
fi

read_full=$(ir rfull "$READ" "$TRACE")
ev_full=$(awk '/^events/ { print $2 }' "$TMP/rfull.out")
read_head=$(ir rhead "$READ" "$HEAD")
ev_head=$(awk '/^events/ { print $2 }' "$TMP/rhead.out")
an_full=$(ir afull "$SL" analyze --no-pager "$TRACE")
an_head=$(ir ahead "$SL" analyze --no-pager "$HEAD")
for v in "$read_full" "$read_head" "$an_full" "$an_head"; do
	case $v in ''|x) fail "every count ran: read $read_full/$read_head, analyze $an_full/$an_head"; exit 0 ;; esac
done
expect_eq "the trace holds 179308 events (its prefix 2000)" "$ev_full/$ev_head" "179308/2000"

dev=$((ev_full - ev_head))
echo "# instructions (valgrind Ir): read $read_full - $read_head, analyze $an_full - $an_head, over $dev events"
within_budget read_per_event $(( (read_full - read_head) / dev ))
within_budget analyze_per_event $(( (an_full - an_head) / dev ))
within_budget startup "$an_head"
# (a forked child's count starts from its parent's at the fork: the
# format-check sandbox of dat_meta.c counts what its parent did before
# it twice, about 6 M of the start-up; the same in every build)

# timehist: the same reading and model, its own hook and a row per switch
th_full=$(ir tfull "$SL" timehist --no-pager "$TRACE")
th_head=$(ir thead "$SL" timehist --no-pager "$HEAD")
case $th_full$th_head in *x*|'') fail "both timehist counts ran: $th_full/$th_head"; exit 0 ;; esac
echo "# instructions (valgrind Ir): timehist $th_full - $th_head, over $dev events"
within_budget timehist_per_event $(( (th_full - th_head) / dev ))

# The recorded groups' part: the same trace as a text (trace-cmd report),
# as it is and with schedlint record's group markers added after its first
# event, the fork of hackbench (32387, in autogroup 2) by its shell (32378,
# in autogroup 1); the other tasks stay in the root.  The difference per
# event is what the groups add (late-preemption judged per group entity,
# shares through the hierarchy): the reading is the same in both.
#   grouped_per_event  (grouped text - plain text) / events
trace-cmd report "$TRACE" > "$TMP/plain.txt" 2>/dev/null
fork=$(sed -n 2p "$TMP/plain.txt" | sed 's/.*sched_process_fork: *//')
expect_eq "the text's first event is hackbench's fork by its shell" "$fork" \
	"comm=bash pid=32378 child_comm=bash child_pid=32387"
awk 'NR == 2 {
	print; split($0, f, ": ")
	p = f[1] ": print:                tracing_mark_write: schedlint: "
	print p "group 1 0 1024 autogroup /autogroup-1 nice 0"
	print p "group 2 0 1024 autogroup /autogroup-2 nice 0"
	print p "sched 32378=other/0/0/1 32387=other/0/0/2"
	next
} { print }' "$TMP/plain.txt" > "$TMP/grouped.txt"
an_plain=$(ir plain "$SL" analyze --no-pager "$TMP/plain.txt")
an_grouped=$(ir grouped "$SL" analyze --no-pager "$TMP/grouped.txt")
rm -f "$TMP/plain.txt" "$TMP/grouped.txt"
for v in "$an_plain" "$an_grouped"; do
	case $v in ''|x) fail "both texts analyzed: $an_plain/$an_grouped"; exit 0 ;; esac
done
# without the markers taken, the difference would be 0 and pass
check "the grouped text's report has its two autogroups" grep -q "2 autogroups, 0 cgroups" "$TMP/grouped.out"
echo "# instructions (valgrind Ir): the text $an_plain, with groups $an_grouped, over $ev_full events"
within_budget grouped_per_event $(( (an_grouped - an_plain) / ev_full ))

PERF=$TESTDATA/perf/hackbench-max.data
python3 tests/perf_edit.py shrink "$PERF" "$TMP/head.data" 500 >/dev/null 2>&1
if [ ! -s "$TMP/head.data" ]; then
	fail "perf_edit.py shrink writes the first 500 samples of $PERF"; exit 0
fi
perf_full=$(ir pfull "$READ" "$PERF")
pev_full=$(awk '/^events/ { print $2 }' "$TMP/pfull.out")
perf_head=$(ir phead "$READ" "$TMP/head.data")
pev_head=$(awk '/^events/ { print $2 }' "$TMP/phead.out")
for v in "$perf_full" "$perf_head"; do
	case $v in ''|x) fail "every perf.data count ran: $perf_full/$perf_head"; exit 0 ;; esac
done
expect_eq "the perf.data holds 10398 samples (its prefix 500)" "$pev_full/$pev_head" "10398/500"
echo "# perf.data instructions (valgrind Ir): read $perf_full - $perf_head, over $((pev_full - pev_head)) samples"
within_budget read_perf_per_event $(( (perf_full - perf_head) / (pev_full - pev_head) ))

# record --live's reader: every page of the trace replayed through
# sl_live_add_page() and sl_live_next() (3 pages of each CPU a round, with
# record's limit), callgrind counting replay() alone; summed over the
# processes (the formats' checking child counts 0: nothing of it is in
# replay()).  A count of 0 (replay() renamed or inlined) would pass.
rm -f "$TMP"/live.vg.*
valgrind --tool=callgrind --toggle-collect=replay --callgrind-out-file=/dev/null \
	--log-file="$TMP/live.vg.%p" "$LIVE" "$TRACE" > "$TMP/live.out" 2>/dev/null
live_rc=$?
live=$(cat "$TMP"/live.vg.* | awk '/Collected :/ { s += $NF } END { print s + 0 }')
lev=$(awk '/^events/ { print $2 }' "$TMP/live.out")
if [ $live_rc != 0 ] || [ "$live" -eq 0 ]; then
	fail "callgrind counted live_replay's replay(): exit $live_rc, $live instructions"; exit 0
fi
expect_eq "the live reader replays the trace's 179308 events" "$lev" "179308"
echo "# live reader instructions (callgrind, replay() alone): $live over $lev events"
within_budget live_per_event $(( live / lev ))
