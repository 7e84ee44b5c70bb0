#!/bin/sh
# scenarios.sh - schedlint finds in every scenario what its expectations,
# written by hand from SPEC.md, say it should
#
# For each testdata/scenarios/NAME.scn with a NAME.expect.json beside it:
# generate NAME.dat and NAME.txt (the same events), run
# `schedlint analyze --json ARGS` on both (ARGS: the expectation's "args"),
# and check each output with tests/check_expect.py.  One TAP line per
# scenario and format.
. tests/lib.sh

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
		"$SCHEDLINT" analyze --json "$@" "$TMP/$name.$fmt" > "$TMP/out.json" 2> "$TMP/err"
		rc=$?
		if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
			fail "$name.$fmt: schedlint analyze --json" "exit status $rc: $(head -3 "$TMP/err")"
		elif out=$(python3 tests/check_expect.py "$expect" "$TMP/out.json" --format $fmt 2>&1); then
			pass "$name.$fmt: as expected"
		else
			fail "$name.$fmt: as expected" "$(echo "$out" | head -8 | tr '\n' ';')"
		fi
	done
done
