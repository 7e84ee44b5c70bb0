#!/bin/sh
# dat_buffers.sh - a trace.dat whose events are in instance buffers
# (trace-cmd record/extract -B) is never analyzed as an empty trace: without
# --buffer it is an error naming the buffers there are; --buffer=NAME reads
# one, the same with both readers, v7 and v6.
#
# testdata/dat/instances.dat: `trace-cmd extract -B sl_sched -B sl_irq` of
# two tracefs instances during `perf bench sched pipe -l 1500`: sl_sched
# holds the sched events, sl_irq local_timer_entry only, the top-level
# buffer nothing.
. tests/lib.sh

dat=$TESTDATA/dat/instances.dat
trace-cmd convert --file-version 6 -i "$dat" -o "$TMP/instances.v6.dat" >/dev/null 2>&1

for f in "$dat" "$TMP/instances.v6.dat"; do
	v=$(basename "$f")
	for reader in flyrecord libtracecmd; do
		"$SCHEDLINT" analyze --reader=$reader "$f" > "$TMP/out" 2> "$TMP/err"
		rc=$?
		if [ "$rc" = 2 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l < "$TMP/err")" = 1 ] &&
		   grep -qF "$f" "$TMP/err" && grep -q '"sl_irq" and "sl_sched"' "$TMP/err" &&
		   grep -q -- '--buffer=NAME' "$TMP/err"; then
			pass "$v ($reader): no --buffer is an error naming the buffers ($(cat "$TMP/err"))"
		else
			fail "$v ($reader): no --buffer is an error naming the buffers" \
				"rc=$rc $(cat "$TMP/err")"
		fi
		"$SCHEDLINT" analyze --reader=$reader --buffer=nope "$f" > "$TMP/out" 2> "$TMP/err"
		rc=$?
		if [ "$rc" = 2 ] && [ ! -s "$TMP/out" ] && grep -q 'no buffer "nope".*"sl_irq" and "sl_sched"' "$TMP/err"; then
			pass "$v ($reader): --buffer=nope names the buffers there are"
		else
			fail "$v ($reader): --buffer=nope names the buffers there are" \
				"rc=$rc $(cat "$TMP/err")"
		fi
		"$SCHEDLINT" dump --ns --reader=$reader --buffer=sl_sched "$f" > "$TMP/$v.$reader.sched" 2> "$TMP/err"
		"$SCHEDLINT" dump --ns --reader=$reader --buffer=sl_irq "$f" > "$TMP/$v.$reader.irq" 2>> "$TMP/err"
		check "$v ($reader): --buffer reads without a word on stderr" test ! -s "$TMP/err"
	done
	for b in sched irq; do
		n=$(wc -l < "$TMP/$v.flyrecord.$b")
		if [ "$n" -gt 0 ] && cmp -s "$TMP/$v.flyrecord.$b" "$TMP/$v.libtracecmd.$b"; then
			pass "$v --buffer=sl_$b: both readers give the same $n events"
		else
			fail "$v --buffer=sl_$b: both readers give the same events" \
				"$(diff "$TMP/$v.flyrecord.$b" "$TMP/$v.libtracecmd.$b" | head -5)"
		fi
	done
done
check "v6 and v7: the same sl_sched events" \
	cmp -s "$TMP/instances.dat.flyrecord.sched" "$TMP/instances.v6.dat.flyrecord.sched"
check "v6 and v7: the same sl_irq events" \
	cmp -s "$TMP/instances.dat.flyrecord.irq" "$TMP/instances.v6.dat.flyrecord.irq"
# each buffer holds its own events: the sched ones in sl_sched, the ticks in sl_irq
sched=$TMP/instances.dat.flyrecord.sched irq=$TMP/instances.dat.flyrecord.irq
expect_eq "sl_irq: local_timer_entry only" \
	"$(awk '{print $5}' "$irq" | sort -u | tr '\n' ' ')" "local_timer_entry "
check "sl_sched: sched_switch events" grep -q " sched_switch " "$sched"
check "sl_sched: no local_timer_entry" sh -c "! grep -q ' local_timer_entry ' '$sched'"

# the analysis of the buffer asked for
"$SCHEDLINT" analyze --json --buffer=sl_sched "$dat" > "$TMP/a.json"
expect_eq "analyze --buffer=sl_sched: the events of the buffer" \
	"$(json "$TMP/a.json" 'd["trace"]["events"]')" "$(grep -vc " lost_events " "$sched")"

"$SCHEDLINT" dump --layout --buffer=sl_sched "$dat" > "$TMP/layout"
check "dump --layout: the buffer read" grep -qx "buffer sl_sched" "$TMP/layout"
check "dump --layout: the instances" sh -c "grep -qx 'instance sl_sched' '$TMP/layout' && grep -qx 'instance sl_irq' '$TMP/layout'"
# Top-level data and instances: the v6 copy with its (empty) top-level
# flyrecord table pointed at sl_sched's CPU data.  The top-level buffer is
# read, with a warning that names the instances left unread.
python3 - "$TMP/instances.v6.dat" "$TMP/both.dat" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
top = d.index(b"flyrecord\0")                     # the first: the top-level table
name = d.index(b"sl_sched\0")
inst = struct.unpack_from("<Q", d, name - 8)[0]   # the instance's BUFFER option: offset, name
assert d[inst:inst + 10] == b"flyrecord\0" and inst != top
d[top + 10:top + 10 + 2 * 16] = d[inst + 10:inst + 10 + 2 * 16]
open(sys.argv[2], "wb").write(d)
PY
for reader in flyrecord libtracecmd; do
	"$SCHEDLINT" dump --ns --reader=$reader "$TMP/both.dat" > "$TMP/both.txt" 2> "$TMP/err"
	rc=$?
	if [ "$rc" = 0 ] && [ "$(wc -l < "$TMP/err")" = 1 ] &&
	   grep -q "warning: .*both.dat: read the top-level buffer only.*\"sl_irq\" and \"sl_sched\".*--buffer=NAME" "$TMP/err"; then
		pass "top-level data and instances ($reader): a warning naming them ($(cat "$TMP/err"))"
	else
		fail "top-level data and instances ($reader): a warning naming them" "rc=$rc $(cat "$TMP/err")"
	fi
	check "top-level data and instances ($reader): the top-level events are read" \
		cmp -s "$TMP/both.txt" "$TMP/instances.v6.dat.flyrecord.sched"
done

# a file with the top-level buffer only reads as before, without a word
"$SCHEDLINT" analyze "$TESTDATA/real/hogs.dat" > /dev/null 2> "$TMP/err"
check "a file without instances: nothing on stderr" test ! -s "$TMP/err"
"$SCHEDLINT" dump --layout "$TESTDATA/real/hogs.dat" > "$TMP/layout"
check "dump --layout without instances: buffer -" grep -qx "buffer -" "$TMP/layout"
echo "1..$_n"
