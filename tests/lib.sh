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

# jq-free JSON access: python3 is on every Debian machine we target
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
