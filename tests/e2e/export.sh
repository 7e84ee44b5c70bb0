#!/bin/sh
# export.sh - schedlint export, held against facts found without it:
#   .pftrace, decoded by protoc against tests/perfetto/schedlint.proto (the
#   subset of Perfetto's protos export writes), on every real trace in
#   testdata/real: every sched_switch, sched_waking, sched_wakeup_new and
#   sched_migrate_task the trace has (counted in trace-cmd report's text,
#   or in the text trace itself), one slice per finding analyze --json
#   lists, a flow from the waker to each wakee-stacking and
#   sync-wake-remote finding woken by a task; the kernel release in
#   SystemInfo; export's peak RSS at most analyze's + 8 MiB on the largest
#   trace.
#   .ndjson: every line parses; wakeup rows = analyze's wakeup count,
#   finding rows = the summary's count of each listed kind, one trace_id,
#   crc32 and size of the file's bytes (python's zlib); the man page's jq
#   query runs on a directory of exports.
#   Bad uses: exit 2, one line, no file left behind.
. tests/lib.sh

PROTO_DIR=tests/perfetto
if ! command -v protoc >/dev/null 2>&1; then
	fail "protoc is installed (protobuf-compiler, scripts/install-deps.sh)"; echo "1..$_n"; exit 0
fi
decode() { protoc --proto_path=$PROTO_DIR --decode=perfetto.protos.Trace $PROTO_DIR/schedlint.proto < "$1"; }

# count EVENT TRACE: the events of that name in the trace, without schedlint
count() {
	case $2 in
	*.dat) trace-cmd report -i "$2" 2>/dev/null | grep -c "[ :]$1:" ;;
	*) grep -c "[ :]$1:" "$2" ;;
	esac
}

for f in "$TESTDATA"/real/*.dat "$TESTDATA"/real/*.txt; do
	[ -f "$f" ] || continue
	n=$(basename "$f")
	if ! "$SCHEDLINT" export -o "$TMP/t.pftrace" "$f" 2> "$TMP/err"; then
		fail "$n: exported" "$(cat "$TMP/err")"; continue
	fi
	if ! decode "$TMP/t.pftrace" > "$TMP/t.txt" 2> "$TMP/err"; then
		fail "$n: protoc decodes the export" "$(head -3 "$TMP/err")"; continue
	fi
	"$SCHEDLINT" analyze --json "$f" > "$TMP/a.json" 2>/dev/null
	sw=$(count sched_switch "$f"); wk=$(count sched_waking "$f")
	wn=$(count sched_wakeup_new "$f"); mg=$(count sched_migrate_task "$f")
	expect_eq "$n: every sched_switch ($sw), sched_waking ($wk), sched_wakeup_new, migration" \
		"$(grep -c '^      sched_switch {' "$TMP/t.txt") $(grep -c '^      sched_waking {' "$TMP/t.txt") $(grep -c '^      sched_wakeup_new {' "$TMP/t.txt") $(grep -c '^      sched_migrate_task {' "$TMP/t.txt")" \
		"$sw $wk $wn $mg"
	if [ "$wk" -gt 0 ]; then
		expect_eq "$n: no sched_wakeup beside sched_waking" "$(grep -c '^      sched_wakeup {' "$TMP/t.txt")" 0
	fi
	# the findings: a slice per listed finding, by kind; flows from wakers
	expect_eq "$n: a slice per finding listed" "$(grep -c '^    type: TYPE_SLICE_BEGIN' "$TMP/t.txt")" \
		"$(jq '.findings | length' "$TMP/a.json")"
	for k in $(jq -r '[.findings[].kind] | unique | .[]' "$TMP/a.json"); do
		want=$(jq --arg k $k '[.findings[] | select(.kind == $k)] | length' "$TMP/a.json")
		got=$(grep -c "^    name: \"$k " "$TMP/t.txt")
		expect_eq "$n: $k: a slice per finding listed ($want)" "$got" "$want"
	done
	for k in wakee-stacking sync-wake-remote; do
		want=$(jq --arg k $k '[.findings[] | select(.kind == $k and .waker_pid > 0)] | length' "$TMP/a.json")
		# per track_event: its name and flow ids, judged at its end
		ends=$(awk -v k="$k" '/^  track_event \{/ { te = 1; ids = ""; name = "" }
			te && /^    terminating_flow_ids:/ { ids = ids " " $2 }
			te && /^    name:/ { name = $0 }
			te && /^  \}/ { te = 0; if (index(name, "name: \"" k " ")) n += split(ids, x, " ") }
			END { print n + 0 }' "$TMP/t.txt")
		starts=$(awk -v k="$k" '/^  track_event \{/ { te = 1; ids = ""; name = "" }
			te && /^    flow_ids:/ { ids = ids " " $2 }
			te && /^    name:/ { name = $0 }
			te && /^  \}/ { te = 0; if (name ~ /name: "wakes / && index(name, "(" k ")")) n += split(ids, x, " ") }
			END { print n + 0 }' "$TMP/t.txt")
		expect_eq "$n: $k: a flow from the waker's thread to each of the $want woken by a task" \
			"$ends $starts" "$want $want"
	done
	kern=$(jq -r '.trace.kernel // empty' "$TMP/a.json")
	if [ -n "$kern" ]; then
		check "$n: SystemInfo names the kernel release ($kern)" grep -q "^      release: \"$kern\"" "$TMP/t.txt"
	fi
done
# protobuf's string fields are UTF-8 (Perfetto keeps them in SQLite strings):
# comms of any bytes (the odd-comms traces) reach them with U+FFFD for the
# bytes that are not, as the JSON report and the NDJSON rows have them
for f in "$TESTDATA"/text/*odd-comms*.txt; do
	n=$(basename "$f")
	"$SCHEDLINT" export -o "$TMP/odd.pftrace" "$f" 2> /dev/null
	decode "$TMP/odd.pftrace" > "$TMP/odd.txt" 2> "$TMP/err"
	expect_eq "$n: every string of the Perfetto trace is UTF-8 (protoc)" "$(grep -c 'invalid UTF-8' "$TMP/err")" 0
done
# each finding's what-if (the man page: "its fields, message and what-if as
# arguments"; the rows: the report's findings[] fields) is analyze's: the
# what-if scenarios have an estimate for every finding (tests/e2e/whatif.sh)
for s in late stacking; do
	n=whatif-$s-bad
	if ! "$SCHEDGEN" scenario "$TESTDATA/whatif/$n.scn" -o "$TMP/wi.dat" > /dev/null 2> "$TMP/err"; then
		fail "$n: schedgen" "$(head -3 "$TMP/err")"; continue
	fi
	"$SCHEDLINT" analyze --json "$TMP/wi.dat" > "$TMP/wi.json" 2>/dev/null
	want=$(jq '[.findings[] | select(.whatif != null)] | length' "$TMP/wi.json")
	check "$n: analyze estimates its findings ($want)" test "$want" -gt 0
	"$SCHEDLINT" export -o "$TMP/wi.ndjson" "$TMP/wi.dat" 2> "$TMP/err"
	expect_eq "$n: each finding row's whatif is analyze's" \
		"$(jq -sc '[.[] | select(.type == "finding") | [.kind, .ts_ns, .pid, .whatif]] | sort' "$TMP/wi.ndjson")" \
		"$(jq -c '[.findings[] | [.kind, .ts_ns, .pid, .whatif]] | sort' "$TMP/wi.json")"
	"$SCHEDLINT" export -o "$TMP/wi.pftrace" "$TMP/wi.dat" 2> "$TMP/err"
	decode "$TMP/wi.pftrace" > "$TMP/wi.txt" 2> "$TMP/err"
	expect_eq "$n: a whatif object and whatif_text on each slice of a finding with an estimate" \
		"$(grep -A1 'legacy_json_value: "{' "$TMP/wi.txt" | grep -c 'name: "whatif"') $(grep -c 'name: "whatif_text"' "$TMP/wi.txt")" \
		"$want $want"
done
# the flows join: every terminating id is a flow id of one instant
ids_end=$(grep 'terminating_flow_ids:' "$TMP/t.txt" | awk '{ print $2 }' | sort)
ids_start=$(grep '^    flow_ids:' "$TMP/t.txt" | awk '{ print $2 }' | sort)
expect_eq "the last trace's flows: each begins once and ends once" "$ids_end" "$ids_start"

# memory: the schedule streams (the largest trace: bench's hackbench, 179 k
# events), and the findings and samples are written as they are made, no
# tree each (issue 31): under ASan too (make check SANITIZE=1), where freed
# blocks wait in its quarantine and the peak counts what a command
# allocates and frees (a cJSON tree per finding made it 68 MB to 58)
BIG=$TESTDATA/bench/hackbench-g4.dat
if [ -x /usr/bin/time ] && [ -f "$BIG" ]; then
	/usr/bin/time -f %M "$SCHEDLINT" analyze "$BIG" > /dev/null 2> "$TMP/rss.a"
	a=$(tail -1 "$TMP/rss.a")
	for x in pftrace ndjson; do
		/usr/bin/time -f %M "$SCHEDLINT" export -o "$TMP/big.$x" "$BIG" 2> "$TMP/rss.e"
		e=$(tail -1 "$TMP/rss.e")
		check "export .$x: peak RSS ($e KiB) <= analyze's ($a KiB) + 8 MiB" test "$e" -le $((a + 8192))
		rm -f "$TMP/big.$x"
	done
fi

# --- NDJSON ---
mkdir -p "$TMP/runs"
for f in "$TESTDATA"/real/pipe.dat "$TESTDATA"/real/hackbench.dat "$TESTDATA"/real/hogs.txt; do
	n=$(basename "$f")
	if ! "$SCHEDLINT" export -o "$TMP/runs/$n.ndjson" "$f" 2> "$TMP/err"; then
		fail "$n: exported as NDJSON" "$(cat "$TMP/err")"; continue
	fi
	"$SCHEDLINT" analyze --json "$f" > "$TMP/a.json" 2>/dev/null
	r=$TMP/runs/$n.ndjson
	expect_eq "$n: every line is one JSON object" "$(jq -R 'fromjson | type' "$r" | sort | uniq -c | awk '{ print $2 }')" '"object"'
	expect_eq "$n: wakeup rows = the report's wakeup count" \
		"$(jq -s '[.[] | select(.type == "wakeup")] | length' "$r")" "$(jq .wakeup_latency.count "$TMP/a.json")"
	expect_eq "$n: wakeup rows' latencies sum to count x mean, their max is the max" \
		"$(jq -s '[.[] | select(.type == "wakeup") | .latency_ns] | max // 0' "$r")" "$(jq .wakeup_latency.max_ns "$TMP/a.json")"
	expect_eq "$n: finding rows of each kind = the summary's counts" \
		"$(jq -sSc '[.[] | select(.type == "finding") | .kind] | group_by(.) | map({(.[0]): length}) | add // {}' "$r")" \
		"$(jq -Sc '.summary | to_entries | map(select(.key != "sync-wake-local" and .value.count > 0)) | map({(.key): .value.count}) | add // {}' "$TMP/a.json")"
	expect_eq "$n: as many finding rows as the summary row counts of its kinds" \
		"$(jq -s '[.[] | select(.type == "finding")] | length' "$r")" \
		"$(jq -s '[.[] | select(.type == "summary") | .findings[] | .rows] | add' "$r")"
	expect_eq "$n: one summary row, last" "$(jq -s '[.[] | select(.type == "summary")] | length' "$r") $(tail -1 "$r" | jq -r .type)" "1 summary"
	want=$(python3 -c "import sys, zlib; d = open(sys.argv[1], 'rb').read(); print('%08x-%d' % (zlib.crc32(d), len(d)))" "$f")
	expect_eq "$n: one trace_id on every row, crc32-size of the file" "$(jq -r .trace_id "$r" | sort -u)" "$want"
	kern=$(jq -r '.trace.kernel // "null"' "$TMP/a.json")
	expect_eq "$n: the kernel on every row" "$(jq -r '.kernel // "null"' "$r" | sort -u)" "$kern"
done
# the man page's jq query, on the directory (schedlint-export.1, EXAMPLES)
q=$(sed -n '/^\.\\" jq-query-begin/,/^\.\\" jq-query-end/p' man/schedlint-export.1 | grep "^jq " | sed 's/\\-/-/g; s/\\(aq/'"'"'/g')
if [ -z "$q" ]; then
	fail "the man page has the jq query"
else
	(cd "$TMP" && eval "$q") > "$TMP/q.json" 2> "$TMP/err"
	expect_eq "the man page's jq query: one row per trace, its wakeups" \
		"$(jq -c '[.[] | .wakeups] | sort' "$TMP/q.json")" \
		"$(for f in pipe.dat hackbench.dat hogs.txt; do "$SCHEDLINT" analyze --json "$TESTDATA/real/$f" | jq .wakeup_latency.count; done | sort -n | jq -sc .)"
fi

# --help: --max-findings and --window once each, in export's words (the
# analysis options after them listed them again, "(1000)" beside "every
# one for ndjson")
expect_eq "export --help: --max-findings and --window listed once each" \
	"$("$SCHEDLINT" export --help | grep -cE '^  --(max-findings|window)=')" 2
check "export --help: ... with export's own defaults" sh -c \
	"'$SCHEDLINT' export --help | grep -A1 '^  --max-findings=' | grep -q 'every'"

# --- bad uses: exit 2, one message, nothing left behind ---
"$SCHEDLINT" export "$TESTDATA/real/pipe.dat" > /dev/null 2> "$TMP/err"
expect_eq "no -o: exit 2" "$?" 2
"$SCHEDLINT" export -o "$TMP/x.txt" "$TESTDATA/real/pipe.dat" > /dev/null 2> "$TMP/err"
expect_eq "an unknown extension: exit 2" "$?" 2
"$SCHEDLINT" export -o "$TMP/bad.pftrace" "$TESTDATA/bad/$(ls "$TESTDATA/bad" | head -1)" > /dev/null 2> "$TMP/err"
expect_eq "a bad trace: exit 2, one line" "$? $(wc -l < "$TMP/err")" "2 1"
check "a bad trace: no file, no temporary left" sh -c "! ls '$TMP' | grep -q '^bad\.pftrace'"
# NDJSON hashes the file before the reader opens it: the reader's words
# all the same, as analyze says them ("/tmp: reading it: Is a directory")
for o in x.ndjson x.pftrace; do
	for t in "$TMP/nosuch.dat" "$TMP"; do
		"$SCHEDLINT" export -o "$TMP/$o" "$t" > /dev/null 2> "$TMP/err"
		rc=$?
		"$SCHEDLINT" analyze "$t" > /dev/null 2> "$TMP/analyze.err"
		expect_eq "export -o $o $(basename "$t"): exit 2, analyze's error" \
			"$rc $(cat "$TMP/err")" "2 $(cat "$TMP/analyze.err")"
	done
done
"$SCHEDLINT" export -o "$TMP/nodir/x.pftrace" "$TESTDATA/real/pipe.dat" > /dev/null 2> "$TMP/err"
expect_eq "an unwritable FILE: exit 2" "$?" 2
"$SCHEDLINT" export -o "$TMP/in.ndjson" - < "$TESTDATA/real/hogs.txt" > /dev/null 2> "$TMP/err"
expect_eq "NDJSON from stdin: exit 2 (no file to hash)" "$? $(ls "$TMP" | grep -c '^in\.ndjson')" "2 0"
"$SCHEDLINT" export -o "$TMP/in.pftrace" - < "$TESTDATA/real/hogs.txt" 2> "$TMP/err"
expect_eq "a Perfetto trace from stdin: every sched_switch" \
	"$(decode "$TMP/in.pftrace" | grep -c '^      sched_switch {')" "$(count sched_switch "$TESTDATA/real/hogs.txt")"
expect_eq "--format ndjson wins over the extension" \
	"$("$SCHEDLINT" export --format ndjson -o "$TMP/y.out" "$TESTDATA/real/hogs.dat" && tail -1 "$TMP/y.out" | jq -r .type)" summary
# -o never names the trace being read: --format lets any name through, and
# the export replaced the trace.dat it had just read with its NDJSON (exit 0)
cp "$TESTDATA/real/hogs.dat" "$TMP/self.dat"
ln -s self.dat "$TMP/self-link.ndjson"
for o in "--format ndjson -o $TMP/self.dat" "--format pftrace -o $TMP/self.dat" "-o $TMP/self-link.ndjson"; do
	# shellcheck disable=SC2086
	"$SCHEDLINT" export $o "$TMP/self.dat" > /dev/null 2> "$TMP/err"
	rc=$?
	if [ $rc = 2 ] && [ "$(wc -l < "$TMP/err")" = 2 ] && grep -q 'is the trace being exported' "$TMP/err" &&
	   cmp -s "$TESTDATA/real/hogs.dat" "$TMP/self.dat" && [ -L "$TMP/self-link.ndjson" ]; then
		pass "export $o TRACE (the same file): exit 2, the trace intact ($(head -1 "$TMP/err"))"
	else
		fail "export $o TRACE (the same file): exit 2, the trace intact" "rc=$rc $(head -c 300 "$TMP/err")"
		cp "$TESTDATA/real/hogs.dat" "$TMP/self.dat"
		rm -f "$TMP/self-link.ndjson"; ln -s self.dat "$TMP/self-link.ndjson"
	fi
done
echo "1..$_n"
