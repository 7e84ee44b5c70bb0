#!/bin/sh
# layering.sh - the source folders are the pipeline's stages, and includes
# and calls run down them (the order: tests/layering.py).  First the real
# tree and the objects make built from it; then the checks are shown to
# fail: on the real tree with one include that runs up, and on small fake
# trees with each kind of fault (up, sideways, a circle, a file outside
# the stages, a header without a stage, a name that resolves nowhere, a
# call up, a call circle inside a folder).
. tests/lib.sh

BUILD=${BUILD:-build/rel}
LAYERING="python3 tests/layering.py"

# passes DESCRIPTION ARGS...: the check finds nothing
passes() {
	_desc=$1; shift
	if _out=$($LAYERING "$@" 2>&1); then pass "$_desc"
	else fail "$_desc" "$(echo "$_out" | head -20)"; fi
}

# fails_with DESCRIPTION PATTERN ARGS...: the check fails (exit 1) and says PATTERN
fails_with() {
	_desc=$1 _pat=$2; shift 2
	_out=$($LAYERING "$@" 2>&1)
	_rc=$?
	if [ $_rc = 1 ] && echo "$_out" | grep -q -- "$_pat"; then pass "$_desc"
	else fail "$_desc" "exit $_rc, expected 1 and '$_pat' in: $(echo "$_out" | head -5)"; fi
}

passes "every #include in src/, analyzers/, include/schedlint/ runs down the stages" includes .
passes "every call between the objects of $BUILD runs down the stages, no call circle" calls "$BUILD" .

# every stage folder says what it is and what it may include
for d in src/*/ analyzers/; do
	d=${d%/}
	check "$d has a README" test -s "$d/README"
done

# The real tree with one include up: the model reaching into the report.
mkdir -p "$TMP/real"
cp -r src analyzers include "$TMP/real/"
echo '#include "report/report.h"' >> "$TMP/real/src/model/model.c"
fails_with "the real tree with model.c including report/report.h fails, naming it" \
	'src/model/model.c includes src/report/report.h: runs up' includes "$TMP/real"

# fake ROOT FILE TEXT...: write a file of a fake tree
fake() {
	mkdir -p "$(dirname "$1/$2")"
	_f=$1/$2; shift 2
	printf '%s\n' "$@" > "$_f"
}

G=$TMP/good
fake "$G" src/util/util.h '#include <stdio.h>'
fake "$G" include/schedlint/strtab.h '#include <stddef.h>'
fake "$G" include/schedlint/reader.h '#include "strtab.h"'
fake "$G" src/read/reader.c '#include "schedlint/reader.h"' '#include "util/util.h"'
fake "$G" src/model/model.c '#include "schedlint/reader.h"' '#include "read/x.h"'
fake "$G" src/read/x.h ''
fake "$G" analyzers/a.c '#include "schedlint/strtab.h"'
fake "$G" src/report/r.h '#include "schedlint/reader.h"'
fake "$G" src/tui/t.c '#include "util/util.h"'
fake "$G" src/cmd/main.c '#include "report/r.h"' '#include "../tui/t.c"'
passes "a fake tree whose includes run down passes" includes "$G"

B=$TMP/up; cp -r "$G" "$B"
fake "$B" src/read/x.h '#include "model/m.h"'
fake "$B" src/model/m.h ''
fails_with "read including model fails" 'src/read/x.h includes src/model/m.h: runs up' includes "$B"

B=$TMP/side; cp -r "$G" "$B"
fake "$B" src/report/r.c '#include "tui/t.h"'
fake "$B" src/tui/t.h ''
fails_with "report including tui (side by side) fails" 'src/report/r.c includes src/tui/t.h: runs up' includes "$B"

B=$TMP/circle; cp -r "$G" "$B"
fake "$B" src/util/c.h '#include "read/c.h"'
fake "$B" src/read/c.h '#include "util/c.h"'
fails_with "an include circle between util and read is named a circle" \
	'includes circle across folders src/read, src/util' includes "$B"

B=$TMP/loose; cp -r "$G" "$B"
fake "$B" src/loose.c ''
fails_with "a file directly in src/ fails" 'src/loose.c: not in a stage folder' includes "$B"

B=$TMP/newdir; cp -r "$G" "$B"
fake "$B" src/extra/e.c ''
fails_with "a folder that is no stage fails" 'src/extra is no stage' includes "$B"

B=$TMP/header; cp -r "$G" "$B"
fake "$B" include/schedlint/new.h ''
fails_with "a public header without a stage fails" 'include/schedlint/new.h: a header without a stage' includes "$B"

B=$TMP/nowhere; cp -r "$G" "$B"
fake "$B" src/util/u.c '#include "model.h"'
fails_with "an include that names no file of the tree fails" 'names no file of the tree' includes "$B"

# Calls: objects of a fake tree, built here.
if command -v "${CC:-cc}" >/dev/null 2>&1; then
	C=$TMP/calls
	fake "$C" src/util/u.c 'int u(void) { return 1; }'
	fake "$C" src/read/r.c 'int u(void);' 'int r(void) { return u(); }'
	fake "$C" src/read/s.c 'int r(void);' 'int s(void) { return r(); }'
	fake "$C" src/cmd/main.c 'int s(void);' 'int main(void) { return s(); }'
	for f in src/util/u src/read/r src/read/s src/cmd/main; do
		mkdir -p "$C/build/$(dirname $f)"
		"${CC:-cc}" -c -o "$C/build/$f.o" "$C/$f.c"
	done
	passes "fake objects whose calls run down pass" calls "$C/build" "$C"

	fake "$C" src/util/u.c 'int r(void);' 'int u(void) { return 1; }' 'int w(void) { return r(); }'
	"${CC:-cc}" -c -o "$C/build/src/util/u.o" "$C/src/util/u.c"
	fails_with "a call from util up into read fails" 'src/util/u.c calls src/read/r.c: runs up' calls "$C/build" "$C"

	fake "$C" src/util/u.c 'int u(void) { return 1; }'
	fake "$C" src/read/r.c 'int u(void);' 'int s(void);' 'int r(void) { return u(); }' 'int t(void) { return s(); }'
	for f in src/util/u src/read/r; do "${CC:-cc}" -c -o "$C/build/$f.o" "$C/$f.c"; done
	fails_with "a call circle inside src/read fails" 'calls circle inside src/read: src/read/r.c src/read/s.c' \
		calls "$C/build" "$C"
else
	fail "a C compiler for the fake objects" "no ${CC:-cc}"
fi
echo "1..$_n"
