#!/bin/sh
# run.sh - run every test and end with "N passed, N failed".
#
# Unit tests are cmocka binaries (given as arguments) and print TAP; e2e
# tests are tests/e2e/*.sh and print TAP through tests/lib.sh.  A test
# program that exits non-zero without reporting a failure (a crash, a
# sanitizer report) counts as one failure.
cd "$(dirname "$0")/.." || exit 2
export CMOCKA_MESSAGE_OUTPUT=TAP
export SCHEDLINT=${SCHEDLINT:-$PWD/schedlint} SCHEDGEN=${SCHEDGEN:-$PWD/schedgen}
# Fast (frame-pointer) unwinding on malloc: the slow one made the SANITIZE=1
# suite 15x slower where libtracecmd allocates per record (71 of CI's 82
# minutes).  Our code keeps its frame pointers, so its leaks keep whole
# stacks; library leaks are matched by the frame that called malloc
# (tests/lsan.supp).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:fast_unwind_on_malloc=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# python3 once: where it is a version manager's shim (pyenv's is a chain
# of bash scripts) each call cost about 0.8 s of CPU, 10x the interpreter
# itself, and the tests call it hundreds of times.  The interpreter the
# shim chooses now, put first on PATH for every test (tests/lib.sh).
. tests/python_path.sh
python_direct "$out"
passed=0 failed=0

run_one() {
	name=$1; shift
	log="$out/log"
	"$@" >"$log" 2>&1
	rc=$?
	p=$(grep -c '^ok ' "$log")
	f=$(grep -c '^not ok ' "$log")
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		f=1
		echo "not ok - $name exited with status $rc"
	fi
	if [ "$f" != 0 ] || [ -n "$VERBOSE" ]; then
		echo "--- $name"
		grep -v '^ok ' "$log" | head -60
	fi
	echo "$name: $p passed, $f failed"
	passed=$((passed + p)); failed=$((failed + f))
}

for t in "$@"; do
	run_one "$(basename "$t")" "$t"
done
for t in tests/e2e/*.sh; do
	[ -e "$t" ] || continue
	run_one "$(basename "$t")" sh "$t"
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
