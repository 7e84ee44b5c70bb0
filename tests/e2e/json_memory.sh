#!/bin/sh
# json_memory.sh - analyze --json needs about the memory of the analysis,
# as the text report does (issue 31; issue 32's item 17): the lists with
# a row per task, per comm and per finding are written one row at a
# time, not built into a cJSON tree of the whole report first (a87902d:
# ~10 KB a listed task for --json against ~1.3 KB for the text report).
# Measured as growth: from 2000 to 20000 forks (tests/forkchurn.py: a
# task each, every one kept and listed), peak RSS per added task for
# --json at most 3x the text report's.  Peak RSS is not a timing: the
# load of the machine does not change it.
. tests/lib.sh

# ASan keeps freed memory in quarantine: a small one (as fork_churn.sh)
if grep -q __asan_init "$SCHEDLINT" 2>/dev/null; then
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=1"
fi

for n in 2000 20000; do
	python3 tests/forkchurn.py $n > "$TMP/fc$n.txt"
	set -- $(maxrss_kb "$TMP/text$n" "$SCHEDLINT" analyze --no-pager "$TMP/fc$n.txt")
	eval "text_rc$n=$1 text_kb$n=$2"
	set -- $(maxrss_kb "$TMP/json$n" "$SCHEDLINT" analyze --json "$TMP/fc$n.txt")
	eval "json_rc$n=$1 json_kb$n=$2"
done
expect_eq "both reports of both traces written" \
	"$text_rc2000 $json_rc2000 $text_rc20000 $json_rc20000" "0 0 0 0"
expect_eq "--json lists every task (20001) and its accounting row" \
	"$(json "$TMP/json20000" 'len(d["tasks"]), len(d["accounting"]["tasks"]), {c["comm"]: c["tasks"] for c in d["comms"]}["child"]')" \
	"(20001, 20001, 20000)"
text_per=$(( (text_kb20000 - text_kb2000) * 1024 / 18000 ))
json_per=$(( (json_kb20000 - json_kb2000) * 1024 / 18000 ))
echo "# peak RSS per added task: text $text_per bytes ($text_kb2000 -> $text_kb20000 KB)," \
	"--json $json_per bytes ($json_kb2000 -> $json_kb20000 KB)"
if [ "$json_per" -le $((3 * text_per + 256)) ]; then
	pass "--json grows by at most 3x the text report's peak RSS per task ($json_per <= 3 x $text_per)"
else
	fail "--json grows by at most 3x the text report's peak RSS per task" \
		"--json $json_per bytes a task, text $text_per"
fi
rm -f "$TMP"/fc*.txt "$TMP"/text* "$TMP"/json*
