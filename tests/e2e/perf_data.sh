#!/bin/sh
# perf_data.sh - perf.data read directly equals its perf script text.
#
# For every testdata/perf/X.data and its committed `perf script --ns
# --header` text X.txt: the JSON reports are equal but for the fields that
# describe the input file (path, format, kernel, clock), and the event
# streams (schedlint dump) are equal event for event, in the same order
# (perf's round-by-round order), but for the two columns perf script does
# not print (irq context) or prints otherwise (pid -1 for an exited task).
# Then facts written down from `perf report --header-only` of the files,
# pipe mode on standard input, and a perf.data file on a pipe.
. tests/lib.sh
D=$TESTDATA/perf

for n in pipe pipe-wakeup messaging messaging-wakeup hackbench hackbench-wakeup pipemode; do
	data=$D/$n.data
	txt=$D/$n.txt
	"$SCHEDLINT" analyze --json "$data" > "$TMP/a.json" 2> "$TMP/err"
	rc=$?
	"$SCHEDLINT" analyze --json "$txt" > "$TMP/b.json" 2>> "$TMP/err"
	python3 - "$TMP/a.json" "$TMP/b.json" > "$TMP/diff" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    for k in ("path", "format", "kernel", "clock"):
        d["trace"].pop(k, None)
def walk(x, y, path):
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            if k not in x or k not in y:
                print(f"{path}.{k} in one only"); continue
            walk(x[k], y[k], f"{path}.{k}")
    elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for i, (p, q) in enumerate(zip(x, y)):
            walk(p, q, f"{path}[{i}]")
    elif x != y:
        print(f"{path}: {str(x)[:60]} vs {str(y)[:60]}")
walk(a, b, "")
PY
	if [ "$rc" = 0 ] && [ ! -s "$TMP/diff" ] && [ -s "$TMP/a.json" ]; then
		pass "$n: perf.data analyzes as its perf script text"
	else
		fail "$n: perf.data analyzes as its perf script text" \
			"rc $rc; $(head -3 "$TMP/diff" | tr '\n' ';') $(head -1 "$TMP/err")"
	fi
	"$SCHEDLINT" dump "$data" | cut -d' ' -f1,2,5- > "$TMP/a.dump"
	"$SCHEDLINT" dump "$txt" | cut -d' ' -f1,2,5- > "$TMP/b.dump"
	if [ -s "$TMP/a.dump" ] && cmp -s "$TMP/a.dump" "$TMP/b.dump"; then
		pass "$n: the same events in the same order"
	else
		fail "$n: the same events in the same order" \
			"$(diff "$TMP/a.dump" "$TMP/b.dump" | head -3 | tr '\n' ';')"
	fi
done

# From perf report --header-only: os release 6.18.44-fc-v669, nrcpus 2;
# 1732 samples (perf record's own count), all of them tracepoints.
"$SCHEDLINT" analyze --json "$D/pipe.data" > "$TMP/p.json"
expect_eq "pipe.data: format, CPUs, kernel, clock, events" \
	"$(json "$TMP/p.json" 'd["trace"]["format"], d["trace"]["cpus"], d["trace"]["kernel"], d["trace"]["clock"], d["trace"]["events"], d["trace"]["has_sched_wakeup"]')" \
	"('perf.data', 2, '6.18.44-fc-v669', 'perf', 1732, False)"

# lost.data: perf sched record -m 1 overran its buffers.  Written down from
# perf report --stats of it (lost.stats): 34 PERF_RECORD_LOST (the gaps)
# and LOST_SAMPLES per event 5686 + 6328 + 19 + 19 + 19 + 3009 + 1092 =
# 16172, perf record's own total (its text, without --show-lost-events,
# shows no loss: so only the events are compared with it, in order, over
# its 153 rounds).
stats=$(awk '/^ +LOST events:/ { gaps = $3 } /^ +LOST_SAMPLES events:/ { if (seen++) lost += $3 }
	END { print gaps, lost }' "$D/lost.stats")
"$SCHEDLINT" analyze --json "$D/lost.data" > "$TMP/l.json"
expect_eq "lost.data: lost events and gaps as perf counts them" \
	"$stats/$(json "$TMP/l.json" 'd["trace"]["lost_events"], d["trace"]["lost_gaps"]')" "34 16172/(16172, 34)"
"$SCHEDLINT" dump "$D/lost.data" | grep -v ' lost ' | cut -d' ' -f1,2,5- > "$TMP/a.dump"
"$SCHEDLINT" dump "$D/lost.txt" | cut -d' ' -f1,2,5- > "$TMP/b.dump"
if [ -s "$TMP/a.dump" ] && cmp -s "$TMP/a.dump" "$TMP/b.dump"; then
	pass "lost.data: the events of its perf script text, in its order"
else
	fail "lost.data: the events of its perf script text, in its order" \
		"$(diff "$TMP/a.dump" "$TMP/b.dump" | head -3 | tr '\n' ';')"
fi

# pipe mode from standard input, as perf record -o - | schedlint analyze -
cat "$D/pipemode.data" | "$SCHEDLINT" analyze --json - > "$TMP/s.json" 2> "$TMP/err"
expect_eq "pipe mode on stdin: exit 0, 1341 events" \
	"$?/$(json "$TMP/s.json" 'd["trace"]["events"]' 2>/dev/null)" "0/1341"

# pipe mode cut short on a pipe (the read window's path): in the header,
# a record, the tracing data, the samples: one line each, exit 2
for n in 15 24 5000 100000; do
	head -c $n "$D/pipemode.data" | "$SCHEDLINT" analyze - > "$TMP/out" 2> "$TMP/err"
	rc=$?
	expect_eq "pipe mode cut at byte $n on stdin: exit 2, one line, no output" \
		"$rc/$(wc -l < "$TMP/err")/$(wc -c < "$TMP/out")/$(grep -c 'truncated perf.data' "$TMP/err")" "2/1/0/1"
done

# a perf.data file (not pipe mode) cannot be read from a pipe: one line, exit 2
cat "$D/pipe.data" | "$SCHEDLINT" analyze - > "$TMP/out" 2> "$TMP/err"
rc=$?
expect_eq "perf.data file on a pipe: exit 2, one line, no output" \
	"$rc/$(wc -l < "$TMP/err")/$(wc -c < "$TMP/out")/$(grep -c 'give its file name' "$TMP/err")" "2/1/0/1"

# The irq context perf script does not print: each sample's common_flags
# (the tracepoint's first bytes after common_type: TRACE_FLAG_HARDIRQ 0x08,
# SOFTIRQ 0x10, NMI 0x40), read here from the raw bytes with
# tests/perf_edit.py's parser, against the context column of schedlint dump
# (n, h, s or .: the first that applies).  The model asks it of wakers
# (sync-wake-remote: a wakeup from an interrupt is not a sync wake).
for n in messaging lost; do
	python3 - "$D/$n.data" > "$TMP/ctx.want" <<'PY'
import struct, sys
sys.path.insert(0, 'tests')
from perf_edit import parse, records, REC_SAMPLE
b = open(sys.argv[1], 'rb').read()
f = parse(b)
# the tracepoints' attributes, by id (perf sched record: one sample layout,
# IDENTIFIER first; its dummy software event has no samples)
tp = {}
for e, _, ids in f['attrs']:
    if struct.unpack_from('<I', e, 0)[0] == 2:
        for i in range(0, len(ids), 8):
            tp[struct.unpack_from('<Q', ids, i)[0]] = struct.unpack_from('<Q', e, 24)[0]
st = set(tp.values()).pop()
assert set(tp.values()) == {st} and st & 1 << 16 and not st & (1 << 4 | 1 << 5)
before = sum(1 for bit in (16, 0, 1, 2, 3, 6, 9, 7, 8) if st >> bit & 1)
count = {'n': 0, 'h': 0, 's': 0, '.': 0}
for pos, t, sz, _ in records(b, f['d_off'], f['d_off'] + f['d_size']):
    if t == REC_SAMPLE:
        assert struct.unpack_from('<Q', b, pos + 8)[0] in tp
        fl = b[pos + 8 + 8 * before + 4 + 2]
        count['n' if fl & 0x40 else 'h' if fl & 0x08 else 's' if fl & 0x10 else '.'] += 1
print(' '.join('%s=%d' % kv for kv in sorted(count.items())))
PY
	"$SCHEDLINT" dump "$D/$n.data" | awk '$5 != "lost" { c[$4]++ }
		END { printf ".=%d h=%d n=%d s=%d\n", c["."], c["h"], c["n"], c["s"] }' > "$TMP/ctx.got"
	if grep -Eq 'h=[1-9].* s=[1-9]' "$TMP/ctx.want" && cmp -s "$TMP/ctx.want" "$TMP/ctx.got"; then
		pass "$n.data: the irq context of every sample, from common_flags ($(cat "$TMP/ctx.got"))"
	else
		fail "$n.data: the irq context of every sample, from common_flags" \
			"raw $(cat "$TMP/ctx.want"), dump $(cat "$TMP/ctx.got")"
	fi
done

# --- a perf record --threads directory (issue 32, 14) ---
# Its header file, data, has no samples (they are in data.N): it was
# analyzed as an empty trace, exit 0; the directory was "not a trace".
for f in threads.data threads.data/data; do
	"$SCHEDLINT" analyze "$D/$f" > "$TMP/out" 2> "$TMP/err"
	expect_eq "$f: exit 2, nothing on stdout, says it is a --threads directory" \
		"$?, $(wc -c < "$TMP/out"), $(cat "$TMP/err")" \
		"2, 0, schedlint: $D/$f: a perf.data directory (perf record --threads) or its header file: its samples are in the data.N files, which schedlint does not read; record without --threads"
done

# --- a perf.data without samples is refused as a text without events is (issue 32, 04) ---
# (pipemode.data's header records, no sample: "0 events", exit 0, and a
# --fail-on gate passed)
python3 tests/perf_pipe.py "$D/pipemode.data" normal 0 > "$TMP/nosamp.data"
"$SCHEDLINT" analyze - < "$TMP/nosamp.data" > "$TMP/out" 2> "$TMP/err"
expect_eq "no samples: exit 2, 'no events', nothing on stdout" \
	"$?, $(cat "$TMP/err"), $(wc -c < "$TMP/out")" \
	"2, schedlint: -: no events (no samples in this perf.data), 0"
"$SCHEDLINT" analyze --fail-on='late-preemption.count>0' - < "$TMP/nosamp.data" > /dev/null 2>&1
expect_eq "no samples: a --fail-on gate does not pass (exit 2)" "$?" 2

echo "1..$_n"
