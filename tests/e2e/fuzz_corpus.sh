#!/bin/sh
# fuzz_corpus.sh - replay the fuzzers' stored corpora and every crash they
# found (tests/fuzz/corpus/KIND, tests/fuzz/regress/KIND) through the
# harnesses, built without libFuzzer (replay_NAME): the model's invariants
# are checked after every event, and under SANITIZE=1 ASan/UBSan/LSan
# watch.  One test per harness and directory.
. tests/lib.sh
BUILD=${BUILD:-build/rel}

for bin in "$BUILD"/tests/replay_*; do
	[ -x "$bin" ] || continue
	name=${bin##*/replay_}
	case $name in dat*) kind=dat ;; *) kind=$name ;; esac
	for dir in tests/fuzz/regress/$kind tests/fuzz/corpus/$kind; do
		[ -d "$dir" ] || continue
		nr=$(find "$dir" -type f ! -name '*.md' | wc -l)
		[ "$nr" -gt 0 ] || continue
		"$bin" "$dir" > "$TMP/out" 2> "$TMP/err"
		rc=$?
		if [ "$rc" = 0 ] && [ "$(grep -c '^ok ' "$TMP/out")" = "$nr" ]; then
			pass "replay_$name: $dir ($nr inputs)"
		else
			fail "replay_$name: $dir ($nr inputs)" "status $rc after" \
				"$(grep '^# replaying' "$TMP/err" | tail -1)" \
				"$(grep -v '^# replaying' "$TMP/err" | grep -E 'ERROR|invariant|runtime error|SUMMARY' | head -3)"
		fi
	done
done
echo "1..$_n"
