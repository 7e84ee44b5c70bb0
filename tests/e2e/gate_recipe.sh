#!/bin/sh
# gate_recipe.sh - the README's CI recipe holds on identical runs and fires
# on a regression (issues 22, 30), proved on runs recorded once and
# committed: tests/gate/run.sh takes the recipe out of README.md and runs it
# over testdata/gate/runs.tar.gz (10 A/A and 10 A/B comparisons, 5 runs a
# side) and testdata/gate/busy.tar.gz (10 A/B comparisons beside a busy
# loop on each CPU), and 18 A/A comparisons made of their base runs, not
# alternated (counted, no bar); the numbers it prints are the README's.  And the README's variant table
# is what schedlint diff --variant prints from testdata/gate/variants.tar.gz.
. tests/lib.sh
case $SCHEDLINT in /*) ;; *) SCHEDLINT=$PWD/$SCHEDLINT ;; esac
export SCHEDLINT

sh tests/gate/run.sh > "$TMP/gate.log" 2>&1
rc=$?
aa=$(sed -n 's/^A\/A: \([0-9]*\) false alarms in \([0-9]*\) comparisons.*/\1 of \2/p' "$TMP/gate.log")
ab=$(sed -n 's/^A\/B: \([0-9]*\) of \([0-9]*\) comparisons detected.*/\1 of \2/p' "$TMP/gate.log")
busy=$(sed -n 's/^A\/B busy: \([0-9]*\) of \([0-9]*\) comparisons detected.*/\1 of \2/p' "$TMP/gate.log")
across=$(sed -n 's/^A\/A across: \([0-9]*\) false alarms in \([0-9]*\) comparisons.*/\1 of \2/p' "$TMP/gate.log")
expect_eq "the recipe on the committed runs: exit 0, passed" "$rc $(tail -n 1 "$TMP/gate.log")" "0 gate-check: passed"
expect_eq "A/A: 0 false alarms in 10 comparisons" "$aa" "0 of 10"
if [ "${ab%% *}" -ge 9 ] 2> /dev/null && [ "${ab#* of }" = 10 ]; then
	pass "A/B: the injected regression detected in $ab comparisons (>= 9)"
else
	fail "A/B: detected in >= 9 of 10" "got '$ab'; $(grep '^A/B ' "$TMP/gate.log" | head -10)"
fi
if [ "${busy%% *}" -ge 9 ] 2> /dev/null && [ "${busy#* of }" = 10 ]; then
	pass "A/B busy: a busy loop on each CPU detected in $busy comparisons (>= 9)"
else
	fail "A/B busy: detected in >= 9 of 10" "got '$busy'; $(grep '^A/B busy ' "$TMP/gate.log" | head -10)"
fi
check "A/A across: 18 comparisons of batches a minute apart, counted ($across)" \
	sh -c "echo '$across' | grep -q '^[0-9]* of 18$'"
expect_eq "every comparison ran and wrote valid JUnit and Markdown" \
	"$(grep -c '^A/[AB] *[a-z]* *[0-9]*: exit [01],' "$TMP/gate.log")" 48
# the README states what the script measures, word for word
for series in A/A A/B "A/B busy" "A/A across"; do
	line=$(grep "^$series: " "$TMP/gate.log")
	if [ -n "$line" ] && grep -qF -- "$line" README.md; then
		pass "README.md has the measured '$series' line"
	else
		fail "README.md has the measured '$series' line" "script: '$line'"
	fi
done
# the replay cannot pass on a run it does not have: comparison 11 is broken
SERIES=aa AA=11 sh tests/gate/run.sh > "$TMP/gate11.log" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q '^A/A 11: exit 2' "$TMP/gate11.log" &&
   grep -q '1 comparisons could not run' "$TMP/gate11.log"; then
	pass "a comparison with no recorded runs is exit 2, not a pass"
else
	fail "a comparison with no recorded runs is exit 2" "rc=$rc $(tail -n 3 "$TMP/gate11.log")"
fi
# and a recipe that lost its diff line is refused, not run
mkdir -p "$TMP/tree/tests" && cp -r tests/gate tests/junit.xsd tests/md_check.py "$TMP/tree/tests/" &&
	mkdir -p "$TMP/tree/testdata" && cp -r testdata/gate "$TMP/tree/testdata/" &&
	sed '/^schedlint diff/,/^<!-- \/ci-recipe -->/{/^schedlint diff/d; /^    /d}' README.md > "$TMP/tree/README.md"
SCHEDLINT=$SCHEDLINT sh "$TMP/tree/tests/gate/run.sh" > "$TMP/lost.log" 2>&1
rc=$?
expect_eq "a README recipe without its schedlint diff: exit 2" \
	"$rc $(cat "$TMP/lost.log")" "2 gate-check: the README's recipe lost use_base, use_new or its schedlint diff"

# --- the variant table: free, pinned, hog ---

mkdir -p "$TMP/v" && tar -xzf testdata/gate/variants.tar.gz -C "$TMP/v"
# the README's example: "$ schedlint diff --variant ..." (continued with \) and its output
awk '/^<!-- variant-table -->$/ { on = 1; next } /^<!-- \/variant-table -->$/ { on = 0 } on && !/^```/' \
	README.md > "$TMP/block"
cmd=$(sed -n '/^\$ schedlint diff/,/[^\\]$/p' "$TMP/block" | sed 's/^\$ //; s/\\$//' | tr -d '\n')
sed '1,/[^\\]$/d' "$TMP/block" > "$TMP/readme_table"
# shellcheck disable=SC2086
(cd "$TMP/v" && eval "\"$SCHEDLINT\" ${cmd#schedlint }") > "$TMP/table" 2> "$TMP/err"
rc=$?
if [ "$rc" = 0 ] && [ -s "$TMP/readme_table" ] && cmp -s "$TMP/table" "$TMP/readme_table"; then
	pass "the README's variant table is what diff prints from the committed runs ($(wc -l < "$TMP/table") lines)"
else
	fail "the README's variant table is diff's output" "rc=$rc cmd=[$cmd] $(diff "$TMP/readme_table" "$TMP/table" | head -8) $(head -c 200 "$TMP/err")"
fi
# shellcheck disable=SC2086
(cd "$TMP/v" && eval "\"$SCHEDLINT\" ${cmd#schedlint } --markdown") > "$TMP/table.md" 2> "$TMP/err"
awk '/^<!-- variant-markdown -->$/ { on = 1; next } /^<!-- \/variant-markdown -->$/ { on = 0 } on' \
	README.md > "$TMP/readme_md"
if python3 tests/md_check.py "$TMP/table.md" --header metric free pinned hog > "$TMP/md" 2>&1 &&
   [ -s "$TMP/readme_md" ] && cmp -s "$TMP/table.md" "$TMP/readme_md"; then
	pass "its --markdown is well-formed and is the README's ($(cat "$TMP/md"))"
else
	fail "the variant table's --markdown is well-formed and the README's" \
		"$(head -c 300 "$TMP/md") $(diff "$TMP/readme_md" "$TMP/table.md" | head -8)"
fi

echo "1..$_n"
