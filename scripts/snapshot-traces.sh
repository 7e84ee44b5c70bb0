# snapshot-traces.sh - the traces snapshot-reports.sh and snapshot-exports.sh
# cover, one list for both (sourced from the repository's top directory).
#
# snapshot_traces [MORE...]: every testdata trace a line each (real, perf,
# text, dat, whatif, formats), then the files MORE names that exist.
# snapshot_scenarios: every scenario, made into a trace by schedgen.

snapshot_traces() {
	for f in testdata/real/*.dat testdata/real/*.txt testdata/perf/*.data \
		 testdata/perf/*.txt testdata/text/*.txt testdata/dat/*.dat \
		 testdata/whatif/*.txt testdata/formats/*/*.dat testdata/formats/*/*.txt "$@"; do
		[ -f "$f" ] && echo "$f"
	done
}

snapshot_scenarios() {
	for f in testdata/scenarios/*.scn testdata/whatif/*.scn testdata/dat/*.scn; do
		[ -f "$f" ] && echo "$f"
	done
}
