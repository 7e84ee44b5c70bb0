#!/bin/sh
# scenarios.sh - schedlint finds in every scenario what its expectations,
# written by hand from SPEC.md, say it should
#
# For each testdata/scenarios/NAME.scn with a NAME.expect.json beside it:
# generate NAME.dat and NAME.txt (the same events), run
# `schedlint analyze --json ARGS` on both (ARGS: the expectation's "args"),
# and check each output with tests/check_expect.py.  One TAP line per
# scenario and format; then one that the .dat and the .txt gave identical
# findings and summaries (the scenarios' times are whole microseconds, so
# the text's rounding changes nothing: not even the messages may differ).
. tests/lib.sh

# same_findings NAME DAT_JSON TXT_JSON
same_findings() {
	out=$(python3 - "$2" "$3" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
def key(f):
    return json.dumps(f, sort_keys=True)
fa, fb = sorted(a["findings"], key=key), sorted(b["findings"], key=key)
bad = []
if a["summary"] != b["summary"]:
    bad.append("summary %s vs %s" % (a["summary"], b["summary"]))
if len(fa) != len(fb):
    bad.append("%d findings vs %d" % (len(fa), len(fb)))
else:
    for x, y in zip(fa, fb):
        if x != y:
            bad.append("%s vs %s" % (key(x), key(y)))
            break
print("; ".join(bad) if bad else "%d findings" % len(fa))
sys.exit(1 if bad else 0)
PY
)
	if [ $? = 0 ]; then pass "$1: .dat and .txt give identical findings ($out)"
	else fail "$1: .dat and .txt give identical findings" "$out"; fi
}

for scn in "$TESTDATA"/scenarios/*.scn; do
	name=$(basename "$scn" .scn)
	expect="${scn%.scn}.expect.json"
	[ -e "$expect" ] || continue
	if ! "$SCHEDGEN" scenario "$scn" -o "$TMP/$name.dat" --text "$TMP/$name.txt" 2> "$TMP/err"; then
		fail "$name: schedgen" "$(cat "$TMP/err")"
		continue
	fi
	# the expectation's analyze options, one per line
	if ! python3 -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1])).get("args", [])))' \
		"$expect" > "$TMP/args"; then
		fail "$name: $expect is not JSON"
		continue
	fi
	for fmt in dat txt; do
		old_ifs=$IFS
		IFS='
'
		# shellcheck disable=SC2046
		set -- $(cat "$TMP/args")
		IFS=$old_ifs
		"$SCHEDLINT" analyze --json "$@" "$TMP/$name.$fmt" > "$TMP/out.$fmt.json" 2> "$TMP/err"
		rc=$?
		# exit status 1 is a --fail-on rule, and also ASan's: tell them apart
		if [ "$rc" != 0 ] && [ "$rc" != 1 ] || grep -q 'Sanitizer\|runtime error' "$TMP/err"; then
			fail "$name.$fmt: schedlint analyze --json" "exit status $rc: $(head -3 "$TMP/err")"
			echo '{}' > "$TMP/out.$fmt.json"
		elif out=$(python3 tests/check_expect.py "$expect" "$TMP/out.$fmt.json" --format $fmt 2>&1); then
			pass "$name.$fmt: as expected"
		else
			fail "$name.$fmt: as expected" "$(echo "$out" | head -8 | tr '\n' ';')"
		fi
	done
	same_findings "$name" "$TMP/out.dat.json" "$TMP/out.txt.json"
done

# --- class-dl: SCHED_DEADLINE's prio -1 in trace-cmd report's texts too ---
# The scenario's .dat read back by trace-cmd report: its plugin format
# prints "dl1:501 [-1]", -R "prev_prio=-1"; both give the DL row of
# class-dl.expect.json (2 samples, 50..250 us, source prio).
if command -v trace-cmd >/dev/null 2>&1 &&
	"$SCHEDGEN" scenario "$TESTDATA/scenarios/class-dl.scn" -o "$TMP/dl.dat" > /dev/null 2>&1; then
	for how in plugin raw; do
		if [ $how = plugin ]; then trace-cmd report "$TMP/dl.dat" > "$TMP/dl.$how.txt" 2>/dev/null
		else trace-cmd report -R "$TMP/dl.dat" > "$TMP/dl.$how.txt" 2>/dev/null; fi
		"$SCHEDLINT" analyze --json "$TMP/dl.$how.txt" > "$TMP/dl.json" 2> "$TMP/err"
		if out=$(python3 tests/check_expect.py "$TESTDATA/scenarios/class-dl.expect.json" \
			"$TMP/dl.json" --format txt 2>&1); then
			pass "class-dl: trace-cmd report ($how) gives the DL row"
		else
			fail "class-dl: trace-cmd report ($how) gives the DL row" \
				"$(echo "$out" | head -4 | tr '\n' ';')"
		fi
	done
else
	fail "class-dl: schedgen and trace-cmd" "$(cat "$TMP/err" 2>/dev/null)"
fi
