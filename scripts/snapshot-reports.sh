#!/bin/sh
# snapshot-reports.sh - every testdata trace's reports, to compare two builds
#
#   sh scripts/snapshot-reports.sh OUTDIR [SCHEDLINT [SCHEDGEN]]
#
# Writes OUTDIR/NAME.txt (analyze's text report, no colour, no pager),
# OUTDIR/NAME.json (analyze --json) and OUTDIR/NAME.timehist for every
# trace under testdata/ (real, perf, text, dat, whatif, formats) and every
# scenario (testdata/{scenarios,whatif,dat}/*.scn, made into a .dat by
# schedgen as OUTDIR/gen/NAME.dat and analyzed as gen/NAME.dat from OUTDIR,
# so that two snapshots print the same path): the list is
# scripts/snapshot-traces.sh, snapshot-exports.sh's too.  Then `diff -r OLD
# NEW` says which reports a change moved: a change that should move none is
# byte-identical here, and one that moves counts names them in its commit.  A developer's tool, not a
# test: the tests hold the reports against facts, this only against the
# build before.
set -u
out=${1:?usage: snapshot-reports.sh OUTDIR [SCHEDLINT [SCHEDGEN]]}
sl=${2:-./schedlint}
gen=${3:-./schedgen}
cd "$(dirname "$0")/.." || exit 2
. scripts/snapshot-traces.sh
mkdir -p "$out/gen" || exit 2
out=$(cd "$out" && pwd) || exit 2
case $sl in /*) ;; *) sl=$PWD/$sl ;; esac
case $gen in /*) ;; *) gen=$PWD/$gen ;; esac
export NO_COLOR=1 SCHEDLINT_THREADS=1

one() {	# NAME TRACE
	"$sl" --no-pager analyze "$2" > "$out/$1.txt" 2>&1; echo "rc=$?" >> "$out/$1.txt"
	"$sl" --no-pager analyze --json "$2" > "$out/$1.json" 2>&1; echo "rc=$?" >> "$out/$1.json"
	"$sl" --no-pager timehist "$2" > "$out/$1.timehist" 2>&1; echo "rc=$?" >> "$out/$1.timehist"
}

snapshot_all txt
echo "$n traces, reports in $out"
