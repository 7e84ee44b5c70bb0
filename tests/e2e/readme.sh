#!/bin/sh
# readme.sh - the READMEs tell the truth: their examples are what the
# binary prints now (scripts/readme-examples.sh), and every file of the
# source tree they name exists.
. tests/lib.sh

if sh scripts/readme-examples.sh --check README.md > "$TMP/diff" 2>&1; then
	pass "README.md: every example is what the binary prints"
else
	fail "README.md: every example is what the binary prints" \
		"$(head -30 "$TMP/diff")"
fi
check "README.md has examples" test "$(grep -c '^<!-- example: ' README.md)" -ge 3

# the checker itself: a stale block is caught, and rewritten
cp README.md "$TMP/stale.md"
sed -i '0,/^\$ schedlint analyze --brief/s//$ schedlint analyze --brief/; /^  span     /s/21903/21904/' "$TMP/stale.md"
check "--check catches a stale example" sh -c "! sh scripts/readme-examples.sh --check '$TMP/stale.md' >/dev/null 2>&1"
sh scripts/readme-examples.sh "$TMP/stale.md" > /dev/null
check "without --check the example is rewritten" cmp -s "$TMP/stale.md" README.md

# files named in backquotes or links: those under the tree's own folders
for md in README.md bench/README.md tests/README.md testdata/real/README.md; do
	python3 - "$md" > "$TMP/missing" <<'PY'
import os, re, sys
md = sys.argv[1]
here = os.path.dirname(md)
top = ('src', 'include', 'analyzers', 'tests', 'testdata', 'man', 'bench', 'scripts',
       'tools', '.ci', 'build')
text = open(md, encoding='utf-8').read()
# bare names ("reader.c" in a sentence about src/read/) are found anywhere in the tree
everywhere = set()
for d, dirs, files in os.walk('.'):
    dirs[:] = [x for x in dirs if x not in ('.git', 'build')]
    everywhere.update(files)
names = re.findall(r'`([^`\s]+)`', text) + re.findall(r'\]\(([^)#\s]+)\)', text)
for name in names:
    if name.startswith(('-', '/', 'http')) or any(c in name for c in '*{}<>$=|') or \
       re.search(r'[A-Z]{3,}', name) or (name.startswith('.') and '/' not in name):
        continue        # options, patterns (cmd_NAME.c), extensions (.dat)
    path = name.rstrip('.,:;')
    looks_like_file = '/' in path and path.split('/')[0] in top or \
        re.search(r'\.(c|h|sh|py|md|dat|txt|1)$', path)
    if not looks_like_file:
        continue
    if path.startswith('build/'):
        continue        # made by make
    if '/' not in path and path in everywhere:
        continue
    if not (os.path.exists(path) or os.path.exists(os.path.join(here, path))):
        print(path)
PY
	if [ -s "$TMP/missing" ]; then
		fail "$md: every file it names exists" "$(tr '\n' ' ' < "$TMP/missing")"
	else
		pass "$md: every file it names exists"
	fi
done

echo "1..$_n"
