#!/bin/sh
# tests/gate/variants.sh --record FILE - the runs behind the README's
# variant table (schedlint diff --variant): the pipe benchmark free, pinned
# to CPU 0, and beside a CPU hog on every CPU, $RUNS runs each (default 5),
# recorded in turn so that drift on the machine falls on all three alike.
# Each trace is kept as its saved report (analyze --workload --json,
# as the table's diff line reads it) in the tar.gz FILE; tests/e2e/
# gate_recipe.sh prints the table from them and compares it with the README.
# Needs root, tracefs, perf and taskset; about a minute.

cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD
# the lock of the recording tests (tests/lib.sh), as tests/gate/run.sh --record
if [ -z "$SL_RECORD_LOCK_HELD" ]; then
	SL_RECORD_LOCK_HELD=1 exec flock -o -w 3600 -E 75 /tmp/schedlint-record-tests.lock sh "$ROOT/tests/gate/variants.sh" "$@"
fi
[ "$1" = --record ] && [ -n "$2" ] || { echo "usage: tests/gate/variants.sh --record FILE" >&2; exit 2; }
OUT=$2
case $OUT in /*) ;; *) OUT=$ROOT/$OUT ;; esac
RUNS=${RUNS:-5}
SCHEDLINT=${SCHEDLINT:-$ROOT/schedlint}
WORKLOAD="perf bench sched pipe -l 20000"
die() { echo "variants: $*" >&2; exit 2; }
[ "$(id -u)" = 0 ] || die "needs root (schedlint record writes to tracefs)"
for tool in perf taskset; do
	command -v "$tool" > /dev/null || die "$tool is missing"
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/schedlint-variants.XXXXXX")
HOGS=""
stop_hogs() {
	# shellcheck disable=SC2086
	[ -z "$HOGS" ] || { kill $HOGS 2> /dev/null; wait $HOGS 2> /dev/null; HOGS=""; }
}
trap 'stop_hogs; rm -rf "$WORK"' EXIT
trap 'exit 2' INT TERM HUP

# record VARIANT I COMMAND...: one run, kept as its saved report
record() {
	v=$1 i=$2; shift 2
	"$SCHEDLINT" record -o "$WORK/$v-$i.dat" -- "$@" > "$WORK/record.log" 2>&1 ||
		die "$v-$i: schedlint record failed: $(tail -n 2 "$WORK/record.log")"
	"$SCHEDLINT" analyze --workload --json "$WORK/$v-$i.dat" > "$WORK/$v-$i.json" ||
		die "$v-$i: cannot analyze it"
	rm -f "$WORK/$v-$i.dat"
}

i=1
while [ "$i" -le "$RUNS" ]; do
	# shellcheck disable=SC2086
	record free "$i" $WORKLOAD
	# shellcheck disable=SC2086
	record pinned "$i" taskset -c 0 $WORKLOAD
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		taskset -c "$cpu" sh -c 'while :; do :; done' &
		HOGS="$HOGS $!"
	done
	# shellcheck disable=SC2086
	record hog "$i" $WORKLOAD
	stop_hogs
	echo "run $i of $RUNS recorded"
	i=$((i + 1))
done
echo "$(date -u +%Y-%m-%d), $(uname -r), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end" > "$WORK/RECORDED"
(cd "$WORK" && tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -czf "$OUT" RECORDED ./*.json) ||
	die "cannot write $OUT"
echo "saved $((RUNS * 3)) reports in $OUT ($(wc -c < "$OUT") bytes)"
