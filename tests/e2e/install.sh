#!/bin/sh
# install.sh - make install / make uninstall into a DESTDIR, and the bash
# completion they install: what a package would hold, and nothing left
# behind.
. tests/lib.sh

ROOT="$TMP/root"
# -o all: the binaries make check built are the ones to install, no rebuild
if make -s --no-print-directory -o all install DESTDIR="$ROOT" PREFIX=/usr > "$TMP/out" 2>&1; then
	pass "make install DESTDIR=... PREFIX=/usr"
else
	fail "make install DESTDIR=... PREFIX=/usr" "$(head -5 "$TMP/out")"
fi
(cd "$ROOT" && find . -type f | sort) > "$TMP/files"
# every man page of the tree but schedgen's (the test generator is not installed)
want=$( (echo ./usr/bin/schedlint; echo ./usr/share/bash-completion/completions/schedlint
	 for m in man/*.1; do [ "$m" = man/schedgen.1 ] || echo "./usr/share/man/man1/${m#man/}"; done) | sort)
expect_eq "installed: schedlint, its man pages, the bash completion" "$(cat "$TMP/files")" "$want"
check "the man pages include analyze's and schedlint(1)" \
	sh -c "grep -qx './usr/share/man/man1/schedlint.1' '$TMP/files' && grep -qx './usr/share/man/man1/schedlint-analyze.1' '$TMP/files'"
check "the test generator is not in bin/" test ! -e "$ROOT/usr/bin/schedgen"
check "the installed binary runs" sh -c "'$ROOT/usr/bin/schedlint' --version | grep -q '^schedlint 0.1.0$'"
check "man finds the installed pages" sh -c "MANPATH='$ROOT/usr/share/man' man -w schedlint-analyze | grep -q '$ROOT/usr/share/man/man1/schedlint-analyze.1'"

# the completion, as bash loads it
COMP="$ROOT/usr/share/bash-completion/completions/schedlint"
# comp WORDS...: what completing the last word offers, sorted, on one line
comp() {
	bash -c '. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_schedlint; printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' \
		comp "$COMP" "$@" 2>/dev/null
}
expect_eq "complete -p schedlint" \
	"$(bash -c ". '$COMP'; complete -p schedlint")" "complete -F _schedlint schedlint"
export PATH="$(cd "$(dirname "$SCHEDLINT")" && pwd):$PATH"
expect_eq "the commands" "$(comp schedlint '')" \
	"--help --no-pager --version analyze diff dump explore export help record timehist version "
expect_eq "a command's prefix" "$(comp schedlint exp)" "explore export "
expect_eq "analyze's options, from its --help" "$(comp schedlint analyze --b)" "--base-slice= --brief --buffer= "
expect_eq "dump's filters" "$(comp schedlint dump --c)" "--comm= --cpus= "
# the metrics diff --list-metrics names, whatever they are today
want=$("$SCHEDLINT" diff --list-metrics | awk '$1 ~ /^wakee-stacking\./ { print $1 }' | sort | tr '\n' ' ')
expect_eq "metric names after --fail-on" "$(comp schedlint diff --fail-on wakee-stacking.)" "$want"
check "... among them count, cost and max_cost" \
	sh -c "echo '$want' | grep -q 'wakee-stacking.cost wakee-stacking.* wakee-stacking.count .*wakee-stacking.max_cost'"
expect_eq "diff --fail-on: the default gate and none too" "$(comp schedlint diff --fail-on d)" "default "
expect_eq "... not analyze's" "$(comp schedlint analyze --fail-on d)" " "
expect_eq "metric names after --fail-on=" "$(comp schedlint analyze --fail-on = wakeup.p9)" \
	"wakeup.p90 wakeup.p95 wakeup.p99 wakeup.p99_5 wakeup.p99_9 "
expect_eq "--color's values" "$(comp schedlint analyze --color = a)" "always auto "
expect_eq "traces: the .dat files" "$(cd "$TESTDATA/real" && comp schedlint analyze pipe)" \
	"pipe-noise.dat pipe-pinned.dat pipe.dat "
expect_eq "help: the commands" "$(comp schedlint help d)" "diff dump "
# names with a space stay whole (issue 32, 10: "my" and "trace.dat")
mkdir -p "$TMP/names/a dir" && touch "$TMP/names/my trace.dat" "$TMP/names/other.dat"
compb() {
	(cd "$TMP/names" && bash -c '. "$1"; shift; compopt() { :; }
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_schedlint; printf "[%s]" "${COMPREPLY[@]}"' comp "$COMP" "$@" 2>/dev/null)
}
expect_eq "a trace name with a space: one name" "$(compb schedlint analyze my)" "[my trace.dat]"
expect_eq "a directory with a space: one name" "$(compb schedlint analyze a)" "[a dir]"
expect_eq "-o: a name with a space: one name" "$(compb schedlint diff --junit my)" "[my trace.dat]"

if make -s --no-print-directory uninstall DESTDIR="$ROOT" PREFIX=/usr > "$TMP/out" 2>&1; then
	pass "make uninstall"
else
	fail "make uninstall" "$(head -5 "$TMP/out")"
fi
expect_eq "make uninstall leaves no file behind" "$(find "$ROOT" -type f | wc -l)" 0

# a DESTDIR with a space (issue 32, 09: split into words, ./with and
# ./space/usr/local/... made in the source tree, then Error 1)
SP="$TMP/dest with space"
if make -s --no-print-directory -o all install DESTDIR="$SP" PREFIX=/usr > "$TMP/out" 2>&1; then
	pass "make install DESTDIR='... with space'"
else
	fail "make install DESTDIR='... with space'" "$(head -5 "$TMP/out")"
fi
check "DESTDIR with a space: the binary is there" test -x "$SP/usr/bin/schedlint"
check "DESTDIR with a space: no ./with, ./space in the source tree" sh -c '! test -e with && ! test -e space'
make -s --no-print-directory uninstall DESTDIR="$SP" PREFIX=/usr > "$TMP/out" 2>&1
expect_eq "DESTDIR with a space: make uninstall leaves no file" "$(find "$SP" -type f | wc -l)" 0

echo "1..$_n"
