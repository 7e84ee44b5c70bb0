#!/bin/sh
# perf_rounds.sh - a perf.data of large rounds reads as one of small
# rounds, in memory that does not follow the rounds' size (issue 31).
#
# perf record writes a round (its buffers, each CPU's in turn) at each
# wakeup; with large buffers (perf record -m 16M: rounds of up to 15 MiB)
# a round held its bytes mapped until handed on, two rounds at once: a
# 40 MiB peak against 21 with the default buffers.  The reader gives the
# mapped pages back once handed on, or read 4 MiB ago (they come back
# from the page cache when read).  Files made by tests/perf_edit.py
# rounds from testdata/perf/hackbench-max.data (10,398 samples, 1.2 MB):
# its samples 24 times over, each copy after the one before, in rounds of
# one copy (1.1 MB) or of 12 (13 MB: two of them are more than the 18
# MiB a 2-CPU file may hold, so the reader hands on half at a time).
# The order is the same: the same events in the same order (dump), the
# same report.  Peak RSS is not a timing: the load does not change it.
# Before: 36 MiB against 15 (+21); after: 24 (+9); the bound, +12 MiB:
# 4 MiB read ahead, 32768 records handed on between two give-backs (about
# 3.3 MB here), the queue (16 bytes a record, 3.6 MB) and some slack.
. tests/lib.sh

in=$TESTDATA/perf/hackbench-max.data
python3 tests/perf_edit.py rounds "$in" "$TMP/small.data" 24/1 &&
	python3 tests/perf_edit.py rounds "$in" "$TMP/large.data" 24/12 ||
	{ fail "perf_edit.py rounds makes the two files"; exit 0; }

"$SCHEDLINT" dump "$TMP/small.data" > "$TMP/small.dump"
"$SCHEDLINT" dump "$TMP/large.data" > "$TMP/large.dump"
expect_eq "24 copies of 10398 samples" "$(wc -l < "$TMP/small.dump" | tr -d ' ')" 249552
if cmp -s "$TMP/small.dump" "$TMP/large.dump"; then
	pass "rounds of 13 MB: the same events in the same order as rounds of 1.1 MB"
else
	fail "rounds of 13 MB: the same events in the same order as rounds of 1.1 MB" \
		"$(diff "$TMP/small.dump" "$TMP/large.dump" | head -3 | tr '\n' ';')"
fi
rm -f "$TMP/small.dump" "$TMP/large.dump"

set -- $(maxrss_kb "$TMP/small.json" "$SCHEDLINT" analyze --json "$TMP/small.data")
small_rc=$1 small_kb=$2
set -- $(maxrss_kb "$TMP/large.json" "$SCHEDLINT" analyze --json "$TMP/large.data")
large_rc=$1 large_kb=$2
expect_eq "both analyzed" "$small_rc $large_rc" "0 0"
expect_eq "the same report (but the file's name)" \
	"$(grep -v '"path":' "$TMP/large.json" | cksum)" "$(grep -v '"path":' "$TMP/small.json" | cksum)"
echo "# peak RSS: rounds of 1.1 MB $small_kb KiB, of 13 MB $large_kb KiB"
if [ $((large_kb - small_kb)) -le $((12 * 1024)) ]; then
	pass "rounds of 13 MB: peak RSS at most 12 MiB above rounds of 1.1 MB"
else
	fail "rounds of 13 MB: peak RSS at most 12 MiB above rounds of 1.1 MB" \
		"$small_kb KiB against $large_kb KiB"
fi
rm -f "$TMP/small.data" "$TMP/large.data"
