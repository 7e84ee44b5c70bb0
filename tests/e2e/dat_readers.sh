#!/bin/sh
# dat_readers.sh - schedlint's own trace.dat reader (flyrecord, the default)
# and libtracecmd (the reference) give the identical event stream, and the
# same analysis, on every trace.dat we can make:
#   - each real trace as recorded (v7 zstd) and as trace-cmd converts it
#     (v6, v7 uncompressed);
#   - v6 pages edited to carry lost events, time extends and absolute time
#     stamps (tests/dat_edit.py);
#   - v7 written by tests/dat_v7.py: zlib (which Debian's libtracecmd cannot
#     read: compared with libtracecmd on the v6 it came from) with pages
#     that span chunks, and uncompressed big-endian and 4-byte-long files;
#   - schedgen's traces when schedgen is built: every scenario (lost
#     events), long gaps (time extends), 256 CPUs, big endian, 4-byte
#     longs, 4.9 kernel formats.
. tests/lib.sh
export SCHEDLINT

# same_stream [--analyze] NAME FILE [REF]: flyrecord on FILE prints what
# libtracecmd prints on REF (default FILE).  With --analyze also analyze
# --json agrees but for the path, format and compression (the analysis is a
# function of the events and the trace facts: once per kind of file), its
# keys in the same order too (other_events followed each reader's order of
# meeting the formats).
same_stream() {
	analyze=0
	[ "$1" = --analyze ] && { analyze=1; shift; }
	name=$1 file=$2 ref=${3:-$2}
	if ! "$SCHEDLINT" dump --ns --reader=flyrecord "$file" > "$TMP/fly.txt" 2> "$TMP/fly.err"; then
		fail "$name: flyrecord reads it" "$(cat "$TMP/fly.err")"
		return
	fi
	if ! "$SCHEDLINT" dump --ns --reader=libtracecmd "$ref" > "$TMP/ltc.txt" 2> "$TMP/ltc.err"; then
		fail "$name: libtracecmd reads it" "$(cat "$TMP/ltc.err")"
		return
	fi
	n=$(wc -l < "$TMP/fly.txt")
	if [ "$n" -gt 0 ] && cmp -s "$TMP/fly.txt" "$TMP/ltc.txt"; then
		pass "$name: both readers give the same $n events"
	else
		fail "$name: both readers give the same events" \
			"$(diff "$TMP/ltc.txt" "$TMP/fly.txt" | head -5)"
	fi
	[ "$analyze" = 1 ] || return
	"$SCHEDLINT" analyze --json --reader=flyrecord "$file" > "$TMP/fly.json" 2>&1
	"$SCHEDLINT" analyze --json --reader=libtracecmd "$ref" > "$TMP/ltc.json" 2>&1
	if python3 - "$TMP/fly.json" "$TMP/ltc.json" 2> "$TMP/why" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for d in (a, b):
    for k in ("path", "format", "compression"):
        d["trace"].pop(k, None)
if a != b:
    sys.exit("other values: " + json.dumps(a)[:300])
if json.dumps(a) != json.dumps(b):
    sys.exit("the same values, keys in another order: other_events %s, libtracecmd's %s" %
             (list(a["other_events"]), list(b["other_events"])))
PY
	then pass "$name: the same analysis"
	else fail "$name: the same analysis" "$(cat "$TMP/why")"; fi
}

# has NAME FILE KEY: dat_edit.py stats of FILE shows KEY > 0 (the test data
# really holds what the test is about)
has() {
	stats=$(python3 tests/dat_edit.py stats "$2")
	if echo "$stats" | grep -q "$3=[1-9]"; then pass "$1: the pages hold $3 ($stats)"
	else fail "$1: the pages hold $3" "$stats"; fi
}

for dat in "$TESTDATA"/real/*.dat; do
	base=$(basename "$dat" .dat)
	same_stream --analyze "$base (v7 zstd)" "$dat"
	trace-cmd convert --file-version 6 -i "$dat" -o "$TMP/$base.v6.dat" >/dev/null 2>&1
	same_stream "$base (v6)" "$TMP/$base.v6.dat"
	trace-cmd convert --compression none -i "$dat" -o "$TMP/$base.none.dat" >/dev/null 2>&1
	same_stream "$base (v7 uncompressed)" "$TMP/$base.none.dat"
	python3 tests/dat_v7.py "$TMP/$base.v6.dat" "$TMP/$base.zlib.dat" \
		--compression zlib --chunk-bytes 14336
	same_stream --analyze "$base (v7 zlib, 3.5-page chunks)" "$TMP/$base.zlib.dat" \
		"$TMP/$base.v6.dat"
done

# edited pages of a real trace
v6=$TMP/hackbench.v6.dat
python3 tests/dat_edit.py edit "$v6" "$TMP/lost.dat" lost
has "lost events" "$TMP/lost.dat" lost_pages
same_stream --analyze "lost events" "$TMP/lost.dat"
check "lost events: reported with their count" grep -q "lost_events lost count=1234$" "$TMP/fly.txt"
for kind in extends timestamps; do
	python3 tests/dat_edit.py edit "$v6" "$TMP/$kind.dat" $kind
	has "$kind" "$TMP/$kind.dat" $kind
	same_stream "$kind" "$TMP/$kind.dat"
	"$SCHEDLINT" dump --ns "$v6" > "$TMP/orig.txt"
	check "$kind: the same events as before the edit" cmp -s "$TMP/fly.txt" "$TMP/orig.txt"
	python3 tests/dat_v7.py "$TMP/$kind.dat" "$TMP/$kind.zlib.dat" --compression zlib
	same_stream "$kind (v7 zlib)" "$TMP/$kind.zlib.dat" "$TMP/$kind.dat"
done

# Lost events before a page that starts with a time extend: kbuffer (and so
# libtracecmd) reports a loss only when the first entry is an event.  Our
# reader reports it; otherwise the streams are the same.
python3 tests/dat_edit.py edit "$v6" "$TMP/extend-lost.dat" extend-lost
"$SCHEDLINT" dump --ns "$TMP/extend-lost.dat" > "$TMP/fly.txt"
"$SCHEDLINT" dump --ns --reader=libtracecmd "$TMP/extend-lost.dat" > "$TMP/ltc.txt"
check "lost events behind a time extend: flyrecord reports them" \
	grep -q "lost_events lost count=77$" "$TMP/fly.txt"
grep -v "lost_events lost count=77$" "$TMP/fly.txt" > "$TMP/fly-nolost.txt"
check "lost events behind a time extend: otherwise the same stream" \
	cmp -s "$TMP/fly-nolost.txt" "$TMP/ltc.txt"

if [ -x "$SCHEDGEN" ]; then
	for scn in "$TESTDATA"/scenarios/*.scn "$TESTDATA"/dat/*.scn; do
		[ -e "$scn" ] || continue
		name=$(basename "$scn" .scn)
		if "$SCHEDGEN" scenario "$scn" -o "$TMP/$name.dat" >/dev/null 2>&1; then
			same_stream "scenario $name" "$TMP/$name.dat"
		else
			fail "schedgen scenario $name"
		fi
	done
	has "gaps scenario" "$TMP/gaps.dat" extends
	[ -e "$TMP/lost-events.dat" ] && has "lost-events scenario" "$TMP/lost-events.dat" lost_pages
	for opts in "--cpus 256" "--cpus 8 --big-endian" "--cpus 8 --long-size 4" \
		    "--cpus 4 --kernel 4.9"; do
		# shellcheck disable=SC2086
		"$SCHEDGEN" scale $opts --events 30000 -o "$TMP/scale.dat" >/dev/null 2>&1
		same_stream --analyze "schedgen scale $opts" "$TMP/scale.dat"
		python3 tests/dat_v7.py "$TMP/scale.dat" "$TMP/scale.zlib.dat" --compression zlib
		same_stream "schedgen scale $opts (v7 zlib)" "$TMP/scale.zlib.dat" "$TMP/scale.dat"
		python3 tests/dat_v7.py "$TMP/scale.dat" "$TMP/scale.none.dat" --compression none
		same_stream "schedgen scale $opts (v7 uncompressed)" "$TMP/scale.none.dat"
	done
	"$SCHEDGEN" scale --cpus 256 --events 30000 -o "$TMP/scale.dat" >/dev/null 2>&1
	expect_eq "schedgen scale --cpus 256: every CPU has data" \
		"$("$SCHEDLINT" dump --layout "$TMP/scale.dat" | grep -c '^cpu ')" 256
else
	echo "# schedgen is not built: scenario, 256-CPU and endianness traces not compared"
fi
echo "1..$_n"
