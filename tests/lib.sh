# lib.sh - TAP helpers for the end-to-end tests (sourced by tests/e2e/*.sh)
#
#   ok CONDITION-COMMAND... -- DESCRIPTION   is spelled as:
#   check "description" test "$a" = "$b"
#   expect_eq "description" "$actual" "$expected"

SCHEDLINT=${SCHEDLINT:-./schedlint}
SCHEDGEN=${SCHEDGEN:-./schedgen}
TESTDATA=${TESTDATA:-testdata}
_n=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# the python3 a shim would choose, called directly (tests/python_path.sh)
. tests/python_path.sh
python_direct "$TMP"

pass() { _n=$((_n + 1)); echo "ok $_n - $1"; }
fail() { _n=$((_n + 1)); echo "not ok $_n - $1"; shift; [ $# -gt 0 ] && echo "# $*"; return 0; }

# check DESCRIPTION COMMAND...: passes when COMMAND succeeds
check() {
	desc=$1; shift
	if "$@" >/dev/null 2>&1; then pass "$desc"; else fail "$desc" "command failed: $*"; fi
}

# expect_eq DESCRIPTION ACTUAL EXPECTED
expect_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$2', expected '$3'"; fi
}

# run_rc OUT ERR ARGS...: run schedlint ARGS, stdout to OUT, stderr to ERR; echo its exit status
run_rc() {
	out=$1 err=$2; shift 2
	"$SCHEDLINT" "$@" > "$out" 2> "$err"
	echo $?
}

# maxrss_kb OUT CMD...: run CMD, stdout to OUT; prints "STATUS MAXRSS_KB"
# (the peak RSS of CMD and what it ran)
maxrss_kb() {
	python3 -c '
import resource, subprocess, sys
with open(sys.argv[1], "wb") as out:
    r = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.DEVNULL)
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}

# budget NAME: the figure after NAME in bench/README.md's "budget NAME N" lines
budget() { awk -v n="$1" '$1 == "budget" && $2 == n { print $3; exit }' bench/README.md; }

# within_budget NAME FIGURE [CONTEXT]: FIGURE <= budget NAME + 10%, the
# figures printed (exact counts: instructions, heap bytes)
within_budget() {
	_b=$(budget "$1")
	if [ -z "$_b" ]; then fail "bench/README.md has a budget for $1"; return; fi
	_lim=$(( _b + _b / 10 ))
	_msg="$1: $2 (${3:+$3; }budget $_b, fails above $_lim)"
	echo "# $_msg"
	if [ "$2" -le "$_lim" ]; then pass "$_msg"
	else fail "$_msg" "$1 is $(( (100 * $2 + _b / 2) / _b - 100 ))% over its budget: a change that needs it raises the budget in bench/README.md and says why in its commit"; fi
}

# jq-free JSON access: python3 is on every Debian machine we target
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

# Tests that record on this machine's tracefs run one at a time, across
# test runs (other worktrees, a CI job beside another): every record
# removes the instances left behind by records that no longer run, so
# another run's record could take the instance a test leaves on purpose
# (a SIGKILLed record's) before the test looks at it, and its note would
# land in another test's error output.  The lock is held by flock itself
# (-o), not by what the test leaves running.
RECORD_LOCK=/tmp/schedlint-record-tests.lock
# record_locked CMD...: run CMD holding the lock (waiting up to an hour)
record_locked() { flock -o -w 3600 -E 75 "$RECORD_LOCK" "$@"; }
# recording_test_alone: run this whole test script again, holding the lock
recording_test_alone() {
	[ -n "$SL_RECORD_LOCK_HELD" ] && return 0
	SL_RECORD_LOCK_HELD=1 flock -o -w 3600 -E 75 "$RECORD_LOCK" sh "$0"
	_rc=$?
	[ $_rc = 75 ] && echo "not ok 1 - waited an hour for $RECORD_LOCK (another test run records)"
	exit $_rc
}
