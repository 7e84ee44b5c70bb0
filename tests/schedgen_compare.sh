#!/bin/sh
# schedgen_compare.sh - do a trace.dat and its text hold the same events?
#
#   trace-cmd report -N -l TRACE.dat > REPORT
#   sh tests/schedgen_compare.sh TRACE.txt REPORT
#
# Both sides are brought to one line per event (CPU, timestamp to the
# microsecond, event name, logging pid, irq-info flags, the event's fields)
# and one per loss (CPU, count), then compared.  trace-cmd prints %pS
# without the symbol size (the kernel adds "/0x150"), cuts comms to 8
# characters in -l mode, prints 'N' for any need-resched bit and has no
# migrate-disable column, so only what both show is compared.  Comms are
# one word (schedgen's are).  Prints the count, or the first difference;
# exits 1 when they differ.  awk, because traces have millions of lines.
text=$1 report=$2
[ -r "$text" ] && [ -r "$report" ] || { echo "usage: $0 TRACE.txt REPORT" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# flags(f): the first four irq-info characters, need-resched as 'N'
common='
function flags(f) {
	return substr(f, 1, 1) (substr(f, 2, 1) == "n" ? "N" : substr(f, 2, 1)) substr(f, 3, 2)
}
function pid(s,    n, p) { n = split(s, p, "-"); return p[n] }
'

awk "$common"'
/^#/ { next }
/^CPU:/ { split($1, c, ":"); print "lost", c[2], $3; next }
{
	# a trace_marker write: the kernel names it by %ps of its ip, trace-cmd "print"
	first = 6
	name = $5
	if (name == "tracing_mark_write:") {
		name = "print:"
		first = 5
	}
	out = substr($2, 2, length($2) - 2) + 0 " " $4 " " name " " pid($1) " " flags($3)
	for (i = first; i <= NF; i++) {
		x = $i
		if (x ~ /^call(site|back)=/)
			sub(/\/0x[0-9a-f]+$/, "", x)
		out = out " " x
	}
	print out
}' "$text" > "$tmp/text"

awk "$common"'
/^cpus=/ || NF == 0 { next }
/^CPU:/ { split($1, c, ":"); print "lost", c[2], substr($2, 2); next }
{
	match($2, /^[0-9]+/)
	out = substr($2, 1, RLENGTH) + 0 " " $3 " " $4 " " pid($1) " " flags(substr($2, RLENGTH + 1))
	for (i = 5; i <= NF; i++)
		out = out " " $i
	print out
}' "$report" > "$tmp/report"

if cmp -s "$tmp/text" "$tmp/report"; then
	echo "$(wc -l < "$tmp/text") lines agree"
	exit 0
fi
diff "$tmp/text" "$tmp/report" | head -6
exit 1
