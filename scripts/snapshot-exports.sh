#!/bin/sh
# snapshot-exports.sh - every testdata trace's exports, to compare two builds
#
#   sh scripts/snapshot-exports.sh OUTDIR [SCHEDLINT [SCHEDGEN]]
#
# Writes OUTDIR/NAME.ndjson (schedlint export's rows, every finding),
# OUTDIR/NAME.m7.ndjson (--max-findings 7) and OUTDIR/NAME.pftrace.txt (the
# Perfetto trace decoded by protoc against tests/perfetto/schedlint.proto;
# NAME.pftrace itself without protoc), with each run's messages and exit
# status in NAME.err, for the traces and scenarios snapshot-reports.sh
# covers (scripts/snapshot-traces.sh) and testdata/bench.  The scenarios' traces are made in OUTDIR/gen
# and exported as gen/NAME.dat from OUTDIR, so that the paths the exports
# hold (the summary row's path, each slice's dump command) are the same in
# two snapshots.  Then `diff -r OLD NEW`: a change to export, or to what it
# writes from (the findings, their fields, the latency series), shows.  A
# developer's tool, not a test (tests/e2e/export.sh holds exports against
# facts).
set -u
out=${1:?usage: snapshot-exports.sh OUTDIR [SCHEDLINT [SCHEDGEN]]}
sl=${2:-./schedlint}
gen=${3:-./schedgen}
cd "$(dirname "$0")/.." || exit 2
. scripts/snapshot-traces.sh
mkdir -p "$out/gen" || exit 2
out=$(cd "$out" && pwd) || exit 2
case $sl in /*) ;; *) sl=$PWD/$sl ;; esac
case $gen in /*) ;; *) gen=$PWD/$gen ;; esac
proto=$PWD/tests/perfetto
export NO_COLOR=1 SCHEDLINT_THREADS=1

one() {	# NAME TRACE (relative to the current directory)
	{
		"$sl" export -o "$out/$1.ndjson" "$2"; echo "ndjson rc=$?"
		"$sl" export --max-findings 7 -o "$out/$1.m7.ndjson" "$2"; echo "m7 rc=$?"
		"$sl" export -o "$out/$1.pftrace" "$2"; echo "pftrace rc=$?"
	} > "$out/$1.err" 2>&1
	if [ -f "$out/$1.pftrace" ] && command -v protoc > /dev/null 2>&1; then
		protoc --proto_path="$proto" --decode=perfetto.protos.Trace "$proto/schedlint.proto" \
			< "$out/$1.pftrace" > "$out/$1.pftrace.txt" 2>> "$out/$1.err" &&
			rm -f "$out/$1.pftrace"
	fi
}

snapshot_all err testdata/bench/*.dat
echo "$n traces, exports in $out"
