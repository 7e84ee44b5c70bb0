#!/bin/sh
# timehist_perf.sh - schedlint timehist's whole output, option by option,
# line by line against perf sched timehist's of the same perf.data (perf
# 6.1's output committed: testdata/perf/timehist/, its cases file lists
# each invocation, make-perf.sh made them).  tests/timehist_check.py lines
# takes out of perf's lines only the differences by design the man page
# gives (COMPARED WITH PERF SCHED TIMEHIST), counts each kind, and counts
# every other line that differs: that count is pinned here per case (0
# but where the man page says why: runs across lost events).
. tests/lib.sh
D=$TESTDATA/perf/timehist

# cases whose lines differ by design beyond what the check takes out:
# lost.data's runs across lost events (perf measures them, we do not)
want_differ() {
	case "$1|$2" in
	'lost|-V -n') echo 482 ;;
	*) echo 0 ;;
	esac
}

grep -v '^#' "$D/cases" | while IFS='	' read -r name opts; do
	data=$TMP/$name.data
	if [ ! -e "$data" ]; then
		if [ -e "$D/$name.data.xz" ]; then
			xz -dc "$D/$name.data.xz" > "$data"
		else
			cp "$TESTDATA/perf/$name.data" "$data"
		fi
	fi
	slug=$(printf '%s' "$opts" | tr -c 'A-Za-z0-9=,.' '_' | sed 's/_\+/_/g; s/^_//; s/_$//')
	# shellcheck disable=SC2086
	"$SCHEDLINT" timehist --no-pager $opts "$data" > "$TMP/ours" 2> "$TMP/err"
	rc=$?
	# shellcheck disable=SC2086
	python3 tests/timehist_check.py lines "$TMP/ours" "$D/$name.${slug:-plain}.xz" $opts > "$TMP/check" 2>&1
	differ=$(sed -n 's/^lines: .*, differ \([0-9]*\)$/\1/p' "$TMP/check")
	want=$(want_differ "$name" "$opts")
	if [ "$rc" = 0 ] && [ "$differ" = "$want" ]; then
		pass "$name timehist $opts: perf's lines: $(head -2 "$TMP/check" | tr '\n' ' ')"
	else
		fail "$name timehist $opts against perf's" \
			"rc $rc, lines that differ ${differ:-?} (want $want): $(cat "$TMP/check" "$TMP/err" | head -16 | tr '\n' ' ')"
	fi
done > "$TMP/tap"
cat "$TMP/tap"
_n=$(grep -c '^\(not \)\?ok ' "$TMP/tap")
echo "1..$_n"
grep -q '^not ok ' "$TMP/tap" && exit 1
exit 0
