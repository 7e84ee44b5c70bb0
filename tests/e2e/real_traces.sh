#!/bin/sh
# real_traces.sh - every real trace in testdata/real: schedlint's per-event
# counts equal trace-cmd report's for the same file, in every trace.dat
# version and compression trace-cmd convert makes of it.
. tests/lib.sh

# counts_match NAME FILE: analyze --json events (+ other_events) == trace-cmd report
counts_match() {
	name=$1 file=$2
	if ! "$SCHEDLINT" analyze --json "$file" > "$TMP/a.json" 2> "$TMP/err"; then
		fail "$name: analyze" "$(cat "$TMP/err")"
		return
	fi
	trace-cmd report "$file" 2>/dev/null | python3 tests/report_counts.py > "$TMP/tc.json"
	python3 - "$TMP/a.json" "$TMP/tc.json" > "$TMP/diff" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
tc = json.load(open(sys.argv[2]))
ours = {k: v for k, v in a["events"].items() if k != "other" and v}
ours.update(a["other_events"])
bad = [f"{k}: schedlint {ours.get(k, 0)} trace-cmd {tc.get(k, 0)}"
       for k in sorted(set(ours) | set(tc)) if ours.get(k, 0) != tc.get(k, 0)]
total = sum(tc.values())
if a["trace"]["events"] != total:
    bad.append(f"total: schedlint {a['trace']['events']} trace-cmd {total}")
if total == 0:
    bad.append("trace-cmd printed no events")
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
	if [ $? = 0 ]; then pass "$name: event counts equal trace-cmd report's"
	else fail "$name: event counts equal trace-cmd report's" "$(cat "$TMP/diff")"; fi
}

for dat in "$TESTDATA"/real/*.dat; do
	base=$(basename "$dat" .dat)
	counts_match "$base (as recorded)" "$dat"
	if trace-cmd convert --file-version 6 -i "$dat" -o "$TMP/$base.v6.dat" >/dev/null 2>&1; then
		counts_match "$base (v6)" "$TMP/$base.v6.dat"
	else
		fail "$base: trace-cmd convert to v6"
	fi
	if trace-cmd convert --compression none -i "$dat" -o "$TMP/$base.v7none.dat" >/dev/null 2>&1; then
		counts_match "$base (v7 uncompressed)" "$TMP/$base.v7none.dat"
	else
		fail "$base: trace-cmd convert to uncompressed v7"
	fi
	if trace-cmd convert --compression zlib -i "$dat" -o "$TMP/$base.zlib.dat" >/dev/null 2>&1; then
		counts_match "$base (v7 zlib)" "$TMP/$base.zlib.dat"
	fi
	# the same buffer in every version gives the same analysis
	for v in v6 v7none; do
		"$SCHEDLINT" analyze --json "$TMP/$base.$v.dat" > "$TMP/$v.json" 2>/dev/null
		"$SCHEDLINT" analyze --json "$dat" > "$TMP/orig.json" 2>/dev/null
		python3 - "$TMP/orig.json" "$TMP/$v.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for d in (a, b):
    d["trace"].pop("path"); d["trace"].pop("format"); d["trace"].pop("compression", None)
sys.exit(0 if a == b else 1)
PY
		if [ $? = 0 ]; then pass "$base: $v gives the same report as the original"
		else fail "$base: $v gives the same report as the original"; fi
	done
done
echo "1..$_n"
