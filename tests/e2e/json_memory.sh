#!/bin/sh
# json_memory.sh - analyze --json needs about the memory of the analysis,
# as the text report does (issue 31; issue 32's item 17): the lists with
# a row per task, per comm and per finding are written one row at a
# time, not built into a cJSON tree of the whole report first (a87902d:
# ~10 KB a listed task for --json against ~1.3 KB for the text report).
# Measured as growth, on issue 31's 40,000 tasks of distinct pids and
# comms and more: from 40000 to 60000 forks of tests/forkchurn.py, each
# child a pid and a comm of its own (every task kept and listed, in the
# task, comm and accounting lists; fewer than --keep-tasks' 65536), peak
# RSS per added task for --json at most 3x the text report's.  Peak RSS
# is not a timing: the load of the machine does not change it.  Up to
# about 30000 such tasks the peak is the analysis's fixed part (about 14
# MiB: buffers, tables, libraries), and since a dead task is a packed
# record (8bed215) forks of one pid and comm stay under it up to 30000
# (this test measured 2000 to 20000 of those before: 0 +- 14 bytes a task
# for both reports, so the 3x compared nothing).  The text report must
# grow by a measurable amount a task, or the test says it measures
# nothing.
. tests/lib.sh

# ASan keeps freed memory in quarantine: a small one (as fork_churn.sh)
if grep -q __asan_init "$SCHEDLINT" 2>/dev/null; then
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=1"
fi

for n in 40000 60000; do
	python3 tests/forkchurn.py $n $n $n > "$TMP/fc$n.txt"
	set -- $(maxrss_kb "$TMP/text$n" "$SCHEDLINT" analyze --no-pager "$TMP/fc$n.txt")
	eval "text_rc$n=$1 text_kb$n=$2"
	set -- $(maxrss_kb "$TMP/json$n" "$SCHEDLINT" analyze --json "$TMP/fc$n.txt")
	eval "json_rc$n=$1 json_kb$n=$2"
	rm -f "$TMP/fc$n.txt"
done
expect_eq "both reports of both traces written" \
	"$text_rc40000 $json_rc40000 $text_rc60000 $json_rc60000" "0 0 0 0"
expect_eq "--json lists every task (60001), its accounting row and its comm (60000 child comms)" \
	"$(json "$TMP/json60000" 'len(d["tasks"]), len(d["accounting"]["tasks"]), len([c for c in d["comms"] if c["comm"].startswith("child") and c["tasks"] == 1])')" \
	"(60001, 60001, 60000)"
text_per=$(( (text_kb60000 - text_kb40000) * 1024 / 20000 ))
json_per=$(( (json_kb60000 - json_kb40000) * 1024 / 20000 ))
echo "# peak RSS per added task: text $text_per bytes ($text_kb40000 -> $text_kb60000 KB)," \
	"--json $json_per bytes ($json_kb40000 -> $json_kb60000 KB)"
# (2026-12-02, after 1982fac: about 205 bytes a task for both, 320-340
# under ASan: a pid, a comm, a kept record)
if [ "$text_per" -ge 64 ]; then
	pass "the text report grows with the tasks ($text_per >= 64 bytes a task): the growth is measured"
else
	fail "the text report grows with the tasks: the growth is measured" \
		"$text_per bytes a task: below the fixed part, the 3x below compares nothing"
fi
if [ "$json_per" -le $((3 * text_per)) ]; then
	pass "--json grows by at most 3x the text report's peak RSS per task ($json_per <= 3 x $text_per)"
else
	fail "--json grows by at most 3x the text report's peak RSS per task" \
		"--json $json_per bytes a task, text $text_per"
fi
rm -f "$TMP"/text* "$TMP"/json*
