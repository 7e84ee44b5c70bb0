#!/bin/sh
# make-perf.sh - perf sched timehist's output of each case in ./cases, as
# tests/e2e/timehist_perf.sh reads it: NAME.SLUG.xz (perf 6.1 here; run by
# hand where perf is, from this directory).  NAME.data.xz is the
# recording (lost: ../lost.data).
set -e
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' cases | while IFS='	' read -r name opts; do
	data=$tmp/$name.data
	if [ ! -e "$data" ]; then
		if [ -e "$name.data.xz" ]; then xz -dc "$name.data.xz" > "$data"; else cp "../$name.data" "$data"; fi
	fi
	slug=$(printf '%s' "$opts" | tr -c 'A-Za-z0-9=,.' '_' | sed 's/_\+/_/g; s/^_//; s/_$//')
	# shellcheck disable=SC2086
	perf sched timehist $opts -i "$data" 2>/dev/null | sed 's/ *$//' | xz -9 > "$name.${slug:-plain}.xz"
done
