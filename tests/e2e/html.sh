#!/bin/sh
# html.sh - analyze --html: one self-contained page, rendered in headless
# Chromium, held against the JSON report of the same analysis
# (tests/html_check.py: sections, plots, histogram bars = wakeups, a mark
# per kept finding, nothing outside the page asked for), on every real
# trace in testdata; and the page's file handling (never over a trace,
# never half written).
. tests/lib.sh

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
# no background fetches of its own; its services that still call out are
# told apart by host in html_check.py
CHROME_FLAGS="--headless --no-sandbox --disable-gpu --disable-background-networking
 --disable-component-update --disable-sync --no-first-run --disable-default-apps
 --disable-extensions --disable-features=Translate,SpellCheck --user-data-dir=$TMP/chrome"

# render PAGE DOM NETLOG: the page as Chromium renders it
render() {
	rm -f "$3"
	# shellcheck disable=SC2086
	timeout 120 "$CHROMIUM" $CHROME_FLAGS --log-net-log="$3" --dump-dom "file://$1" \
		> "$2" 2> "$TMP/chrome.err"
}

# every real trace (a perf record --threads directory is refused by analyze, see perf_data.sh)
traces="$( (find "$TESTDATA"/real -maxdepth 1 -type f \( -name '*.dat' -o -name '*.txt' \);
	find "$TESTDATA"/perf -maxdepth 1 -type f -name '*.data') | sort)"
for t in $traces; do
	name=$(basename "$t")
	page="$TMP/$name.html"
	"$SCHEDLINT" analyze --no-pager --json "$t" > "$TMP/$name.json" 2>/dev/null
	"$SCHEDLINT" analyze --no-pager "$t" > "$TMP/text" 2>/dev/null
	"$SCHEDLINT" analyze --no-pager --html="$page" "$t" > "$TMP/text.html" 2> "$TMP/err"
	rc=$?
	if [ $rc != 0 ]; then
		fail "$name: analyze --html exits 0" "rc $rc: $(cat "$TMP/err")"
		continue
	fi
	# beside the text report, not instead of it: stdout is what it was
	if cmp -s "$TMP/text" "$TMP/text.html"; then
		pass "$name: the text report is unchanged beside --html"
	else
		fail "$name: the text report is unchanged beside --html"
	fi
	if [ -z "$CHROMIUM" ]; then
		fail "$name: rendered in headless Chromium" "no chromium (scripts/install-deps.sh check installs it)"
		continue
	fi
	render "$page" "$TMP/dom.html" "$TMP/net.json"
	if out=$(python3 tests/html_check.py "$page" "$TMP/dom.html" "$TMP/$name.json" "$TMP/net.json"); then
		pass "$name: rendered page holds its sections and plots, refers to nothing outside ($out)"
	else
		fail "$name: rendered page holds its sections and plots, refers to nothing outside" "$out"
	fi
done

# the check can fail: a page that loads a script and an image, and one
# without its plots, are caught (in the file, the DOM and the net log)
t=$TESTDATA/real/pipe.dat
"$SCHEDLINT" analyze --json "$t" > "$TMP/pipe.json"
"$SCHEDLINT" analyze --html="$TMP/pipe.html" "$t" > /dev/null
sed 's|</body>|<img src="http://198.51.100.7/x.png"><script src="https://example.invalid/a.js"></script></body>|' \
	"$TMP/pipe.html" > "$TMP/bad.html"
if [ -n "$CHROMIUM" ]; then
	render "$TMP/bad.html" "$TMP/bad-dom.html" "$TMP/bad-net.json"
	out=$(python3 tests/html_check.py "$TMP/bad.html" "$TMP/bad-dom.html" "$TMP/pipe.json" "$TMP/bad-net.json")
	case $out in
	*"net log: the page asked for http://198.51.100.7/x.png"*"example.invalid"*|*"example.invalid"*"net log: the page asked for http://198.51.100.7/x.png"*)
		pass "the check catches a page that asks for an image and a script" ;;
	*)	fail "the check catches a page that asks for an image and a script" "$out" ;;
	esac
fi
sed 's|<svg class="plot" id="histogram"|<svg id="histogram"|; s|class="bar"|class="b"|g' "$TMP/pipe.html" > "$TMP/nobars.html"
out=$(python3 tests/html_check.py "$TMP/nobars.html" "$TMP/nobars.html" "$TMP/pipe.json")
case $out in
*"bars add up to 0"*) pass "the check catches a histogram that lost its bars" ;;
*)	fail "the check catches a histogram that lost its bars" "$out" ;;
esac

# --html=- : the page on stdout, instead of the text report
"$SCHEDLINT" analyze --html=- "$t" > "$TMP/stdout.html"
expect_eq "--html=- writes the page to stdout" "$(head -c 15 "$TMP/stdout.html")" "<!DOCTYPE html>"
check "--html=- gives the same page as --html=FILE" cmp "$TMP/stdout.html" "$TMP/pipe.html"
"$SCHEDLINT" analyze --html="$TMP/again.html" "$t" > /dev/null
check "the same trace gives the same page" cmp "$TMP/again.html" "$TMP/pipe.html"

# --html and --json together: the JSON on stdout, the page in its file
"$SCHEDLINT" analyze --json --html="$TMP/both.html" "$t" > "$TMP/both.json"
check "--json with --html: the JSON on stdout is the report" cmp "$TMP/both.json" "$TMP/pipe.json"
check "--json with --html: the page is written" cmp "$TMP/both.html" "$TMP/pipe.html"
"$SCHEDLINT" analyze --json --html=- "$t" > /dev/null 2> "$TMP/err"
expect_eq "--json with --html=- is a usage error" "$?" 2

# never over a trace: 'analyze --html a.dat b.dat' reads as a page named a.dat
cp "$TESTDATA/real/hogs.dat" "$TMP/a.dat"
"$SCHEDLINT" analyze --html "$TMP/a.dat" "$t" > "$TMP/out" 2> "$TMP/err"
rc=$?
expect_eq "--html naming an existing trace: exit 2" "$rc" 2
check "--html naming an existing trace: the trace is untouched" cmp "$TMP/a.dat" "$TESTDATA/real/hogs.dat"
check "--html naming an existing trace: one message naming it" grep -q "a.dat: the file exists and is no HTML page" "$TMP/err"
expect_eq "--html naming an existing trace: no report" "$(wc -c < "$TMP/out")" 0
cp "$t" "$TMP/self.dat"
"$SCHEDLINT" analyze --html="$TMP/self.dat" "$TMP/self.dat" > /dev/null 2> "$TMP/err"
expect_eq "--html naming the trace analyzed: exit 2" "$?" 2
check "--html naming the trace analyzed: untouched" cmp "$TMP/self.dat" "$t"
"$SCHEDLINT" analyze --html= "$t" > /dev/null 2> "$TMP/err"
expect_eq "--html with an empty name: exit 2" "$?" 2

# a page that cannot be written: exit 2, the file named, nothing left behind
"$SCHEDLINT" analyze --html="$TMP/no/such/dir/p.html" "$t" > /dev/null 2> "$TMP/err"
expect_eq "--html into a missing directory: exit 2" "$?" 2
check "--html into a missing directory: the message names the page" grep -q "no/such/dir/p.html" "$TMP/err"
echo '<!DOCTYPE html><p>old</p>' > "$TMP/old.html"
"$SCHEDLINT" analyze --html="$TMP/old.html" "$TMP/missing.dat" > /dev/null 2>&1
check "a trace that cannot be read leaves an older page as it was" grep -q '<p>old</p>' "$TMP/old.html"
expect_eq "no temporary page is left behind" "$(ls "$TMP" | grep -c '\.tmp\.')" 0
if [ -w /dev/full ]; then
	"$SCHEDLINT" analyze --html=- "$t" > /dev/full 2> "$TMP/err"
	expect_eq "--html=- on a full disk: exit 2" "$?" 2
fi

# diff --html: the recorded gate runs of tests/gate (A/A and A/B)
mkdir -p "$TMP/runs"
tar xzf "$TESTDATA/gate/runs.tar.gz" -C "$TMP/runs" ./aa-1 ./ab-1
for pair in aa-1 ab-1; do
	r=$TMP/runs/$pair
	"$SCHEDLINT" diff --json --base "$r"/base-*.json --new "$r"/new-*.json \
		--fail-on 'wakeup.p*>+35%&+250ns' > "$TMP/$pair.json"
	want=$?
	"$SCHEDLINT" diff --html="$TMP/$pair.html" --base "$r"/base-*.json --new "$r"/new-*.json \
		--fail-on 'wakeup.p*>+35%&+250ns' > "$TMP/$pair.txt" 2> "$TMP/err"
	expect_eq "diff --html $pair: the exit status is the diff's ($want)" "$?" "$want"
	if [ -n "$CHROMIUM" ]; then
		render "$TMP/$pair.html" "$TMP/dom.html" "$TMP/net.json"
		if out=$(python3 tests/html_check.py --diff "$TMP/$pair.html" "$TMP/dom.html" "$TMP/$pair.json" "$TMP/net.json"); then
			pass "diff --html $pair: rendered, a line per run and side, a row per metric ($out)"
		else
			fail "diff --html $pair: rendered, a line per run and side, a row per metric" "$out"
		fi
	else
		fail "diff --html $pair: rendered in headless Chromium" "no chromium"
	fi
done
# and of every real trace against testdata/real/pipe.dat (traces, not saved reports)
for t in $traces; do
	name=$(basename "$t")
	"$SCHEDLINT" diff --json "$TESTDATA/real/pipe.dat" "$t" > "$TMP/d.json" 2>/dev/null
	want=$?
	"$SCHEDLINT" diff --html="$TMP/d.html" "$TESTDATA/real/pipe.dat" "$t" > /dev/null 2>&1
	rc=$?
	if [ $rc != "$want" ] || [ $rc = 2 ]; then
		fail "diff --html pipe.dat $name: exits as diff does ($want), not 2" "rc $rc"
		continue
	fi
	[ -n "$CHROMIUM" ] && render "$TMP/d.html" "$TMP/dom.html" "$TMP/net.json"
	if out=$(python3 tests/html_check.py --diff "$TMP/d.html" "$TMP/dom.html" "$TMP/d.json" "$TMP/net.json"); then
		pass "diff --html pipe.dat $name: rendered, a line per side, a row per metric ($out)"
	else
		fail "diff --html pipe.dat $name: rendered, a line per side, a row per metric" "$out"
	fi
done
check "diff --html: the A/B page says FAILED, in the text's words" grep -q "FAILED: 1 of 1 rule failed" "$TMP/ab-1.html"
check "diff --html: the A/A page says passed, in the text's words" grep -q "Passed: 1 rule passed" "$TMP/aa-1.html"
r=$TMP/runs/ab-1
cp "$r/base-1.json" "$TMP/keep.json"
"$SCHEDLINT" diff --html "$r/base-1.json" --base "$r"/base-*.json --new "$r"/new-*.json > /dev/null 2> "$TMP/err"
expect_eq "diff --html naming a run: exit 2" "$?" 2
check "diff --html naming a run: the run is untouched" cmp "$r/base-1.json" "$TMP/keep.json"
"$SCHEDLINT" diff --html="$TMP/err.html" "$r/base-1.json" "$TMP/missing.json" > /dev/null 2>&1
expect_eq "diff --html with a run that cannot be read: exit 2" "$?" 2
check "diff --html with a run that cannot be read: the page says why" grep -q "missing.json" "$TMP/err.html"

# size: the page of the largest committed trace stays small (the time
# plots have a fixed number of windows, the marks one per kept finding)
big=$(ls -S $traces | head -1)
"$SCHEDLINT" analyze --html="$TMP/big.html" "$big" > /dev/null
size=$(wc -c < "$TMP/big.html")
check "the page of the largest trace ($(basename "$big"), $size bytes) is under 8 MB" test "$size" -lt 8000000

# written in under 2x the work of analyze --json on the largest committed
# trace: counted in instructions (valgrind, every process), not timed
ir() {
	SCHEDLINT_THREADS=1 valgrind --tool=cachegrind --cache-sim=no --trace-children=yes \
		--cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
		sed -n 's/.*I *refs: *//p' | tr -d , | awk '{ s += $1 } END { print s + 0 }'
}
bench=$TESTDATA/bench/hackbench-g4.dat
REL=${INSTR_BUILD:-build/rel}
if command -v valgrind > /dev/null; then
	j=$(ir "$REL/schedlint" analyze --json "$bench")
	h=$(ir "$REL/schedlint" analyze --no-pager --html="$TMP/bench.html" "$bench")
	echo "# instructions: analyze --json $j, analyze --html (and the text report) $h"
	check "analyze --html costs under 2x analyze --json ($h vs $j instructions)" \
		test "$j" -gt 0 -a "$h" -lt $((2 * j))
else
	fail "valgrind is installed (scripts/install-deps.sh)"
fi

echo "1..$_n"
