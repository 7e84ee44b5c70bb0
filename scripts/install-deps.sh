#!/bin/sh
# install-deps.sh - install the Debian 12 packages schedlint needs, if missing.
# Called by `make run` and `make check`; quiet when everything is there.
# `install-deps.sh fuzz` (make fuzz) adds clang and its libFuzzer runtime;
# `install-deps.sh check` (make check) what only the tests use: chromium, which
# renders analyze --html's page headless (tests/e2e/html.sh).
PKGS="build-essential pkg-config libtraceevent-dev libtracecmd-dev libtracefs-dev
libcjson-dev libncurses-dev libzstd-dev zlib1g-dev libcmocka-dev trace-cmd tmux python3 less man-db
linux-perf rt-tests util-linux bsdutils time libxml2-utils zstd strace valgrind jq protobuf-compiler"
[ "$1" = fuzz ] && PKGS="$PKGS clang libclang-rt-14-dev"
[ "$1" = check ] && PKGS="$PKGS chromium"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "schedlint: missing packages:$missing" >&2
	echo "schedlint: run as root, or: sudo apt-get install$missing" >&2
	exit 1
fi
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing >/dev/null
