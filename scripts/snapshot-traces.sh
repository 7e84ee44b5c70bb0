# snapshot-traces.sh - the traces snapshot-reports.sh and snapshot-exports.sh
# cover, one list for both (sourced from the repository's top directory).
#
# snapshot_traces [MORE...]: every testdata trace a line each (real, perf,
# text, dat, whatif, formats), then the files MORE names that exist.
# snapshot_scenarios: every scenario, made into a trace by schedgen.
# snapshot_all EXT [MORE...]: the caller's one NAME TRACE for each trace
# (MORE as snapshot_traces), then for each scenario made by "$gen" into
# "$out/gen" and run from "$out" (its paths the same in two snapshots;
# "schedgen failed" in "$out/NAME.EXT" when it cannot be made); "$out/gen"
# removed after, the number of traces in $n.

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

snapshot_all() {
	_ext=$1; shift
	n=0
	for f in $(snapshot_traces "$@"); do
		name=$(echo "$f" | sed 's|^testdata/||; s|/|_|g')
		one "$name" "$f"
		n=$((n + 1))
	done
	for scn in $(snapshot_scenarios); do
		name=$(echo "$scn" | sed 's|^testdata/||; s|/|_|g; s|\.scn$||')
		if "$gen" scenario "$scn" -o "$out/gen/$name.dat" > /dev/null 2>&1; then
			(cd "$out" && one "$name" "gen/$name.dat")
		else
			echo "schedgen failed" > "$out/$name.$_ext"
		fi
		n=$((n + 1))
	done
	rm -rf "$out/gen"
}
