#!/bin/sh
# readme-examples.sh - the examples in the README, from the current binary
#
#   scripts/readme-examples.sh [--check] [FILE.md...]      (default README.md)
#
# An example is a marker line followed by a fenced block:
#
#   <!-- example: schedlint analyze --brief testdata/real/pipe.dat -->
#   ```
#   $ schedlint analyze --brief testdata/real/pipe.dat
#   ...what it prints...
#   ```
#
# The command runs from the top of the source tree with its ./schedlint
# first in PATH, 80 columns, no pager and no colors (sh -c: pipes work; the
# exit status does not matter: a failing --fail-on rule is an example too).
# Without --check the blocks are rewritten; with it nothing is written and
# the exit status is 1, with a diff, when a block is not what the binary
# prints now (make check runs it: tests/e2e/readme.sh).
cd "$(dirname "$0")/.." || exit 2
check=0
[ "$1" = --check ] && { check=1; shift; }
[ $# -eq 0 ] && set -- README.md
if [ ! -x ./schedlint ]; then
	echo "readme-examples.sh: build ./schedlint first (make)" >&2
	exit 2
fi
PATH="$PWD:$PATH" COLUMNS=80 LANG=C.UTF-8 exec python3 - "$check" "$@" <<'PY'
import difflib, os, re, subprocess, sys

check = sys.argv[1] == '1'
marker = re.compile(r'^<!-- example: (.*) -->$')
env = dict(os.environ)
for var in ('PAGER', 'SCHEDLINT_PAGER', 'NO_COLOR', 'SCHEDLINT_THREADS'):
    env.pop(var, None)
status = 0
for path in sys.argv[2:]:
    lines = open(path, encoding='utf-8').read().split('\n')
    out, i = [], 0
    while i < len(lines):
        out.append(lines[i])
        m = marker.match(lines[i])
        i += 1
        if not m:
            continue
        cmd = m.group(1)
        if i >= len(lines) or not lines[i].startswith('```'):
            print(f'{path}:{i}: an example marker needs a ``` block after it', file=sys.stderr)
            sys.exit(2)
        fence = lines[i]
        end = i + 1
        while end < len(lines) and lines[end] != '```':
            end += 1
        if end == len(lines):
            print(f'{path}:{i + 1}: the example block is not closed', file=sys.stderr)
            sys.exit(2)
        run = subprocess.run(['sh', '-c', cmd], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, env=env)
        printed = run.stdout.decode('utf-8', 'replace').rstrip('\n').split('\n')
        block = [fence, '$ ' + cmd] + [l.rstrip() for l in printed] + ['```']
        if check and block != lines[i:end + 1]:
            sys.stdout.writelines(difflib.unified_diff(
                [l + '\n' for l in lines[i:end + 1]], [l + '\n' for l in block],
                f'{path} (line {i + 1})', f'what `{cmd}` prints now'))
            status = 1
        out.extend(block)
        i = end + 1
    if not check:
        new = '\n'.join(out)
        if new != '\n'.join(lines):
            open(path, 'w', encoding='utf-8').write(new)
            print(f'{path}: examples updated')
if check and status:
    print('the README examples are stale: run scripts/readme-examples.sh and commit the result',
          file=sys.stderr)
sys.exit(status)
PY
