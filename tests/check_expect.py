#!/usr/bin/env python3
"""check_expect.py - compare `schedlint analyze --json` output with a scenario's
hand-written expectations

    python3 tests/check_expect.py NAME.expect.json REPORT.json [--format dat|txt]

The expectation file (testdata/scenarios/NAME.expect.json) holds a subset of
the report (SPEC.md "Output"), written from the SPEC before any analyzer ran:

    { "args": ["--llc", "0-3,4-7"],
      "wakeup_latency": {"count": 4, "max_ns": 3000000},
      "events": {"sched_switch": 12},
      "summary": {"wakee-stacking": {"count": 1}},
      "kinds": ["wakee-stacking"],
      "findings": [ {"kind": "wakee-stacking", "cpu": 3, "pid": 101,
                     "cost_ns": 3000000, "reason": "pending"} ] }

Rules:
  - "args" is for the runner (the analyze options), not compared.
  - Every other key is optional.  Objects match on the keys given (a subset
    match, recursively); a list matches when each expected element matches
    a different element of the report's list, in any order.
  - "kinds": for each kind listed, the report's findings of that kind must
    be exactly the expected findings of that kind: as many, each matching a
    different one.  An empty list of findings for a kind means "none".
    Expected findings of kinds not listed only need to be present.
  - Numbers compare exactly, except times (keys ending in "_ns"): exactly
    for a trace.dat, within 1000 ns for text (whose timestamps are rounded
    to the microsecond).  Percentiles and means (p50_ns ... p99_9_ns,
    mean_ns) may also be off by 1% (SPEC: "exact or within 1% relative").

Prints "ok" or one line per mismatch (with its path in the report), exits
0 when everything matches, 1 when something does not, 2 on usage or input
errors.
"""
import json
import re
import sys

TEXT_TOLERANCE_NS = 1000
RELATIVE_KEYS = re.compile(r'^(p\d+(_\d+)?|mean)_ns$')


class Checker:
    def __init__(self, fmt='dat'):
        self.fmt = fmt
        self.problems = []

    # -- scalars ---------------------------------------------------------

    def scalar_ok(self, key, want, got):
        if isinstance(want, bool) or isinstance(got, bool):
            return want is got
        if isinstance(want, (int, float)) and isinstance(got, (int, float)):
            if not (key or '').endswith('_ns'):
                return want == got
            tol = TEXT_TOLERANCE_NS if self.fmt == 'txt' else 0
            if RELATIVE_KEYS.match(key):
                tol = max(tol, abs(want) * 0.01)
            return abs(want - got) <= tol
        return want == got

    # -- structures ------------------------------------------------------

    def matches(self, want, got, key=None):
        """True when got contains want (no messages)"""
        if isinstance(want, dict):
            return isinstance(got, dict) and all(
                k in got and self.matches(v, got[k], k) for k, v in want.items())
        if isinstance(want, list):
            return isinstance(got, list) and self.assign(want, got, key) is not None
        return self.scalar_ok(key, want, got)

    def assign(self, wants, gots, key=None):
        """a matching: each want to a different got (augmenting paths), or None"""
        owner = [None] * len(gots)

        def place(i, seen):
            for j, g in enumerate(gots):
                if j in seen or not self.matches(wants[i], g, key):
                    continue
                seen.add(j)
                if owner[j] is None or place(owner[j], seen):
                    owner[j] = i
                    return True
            return False

        for i in range(len(wants)):
            if not place(i, set()):
                return None
        return owner

    def compare(self, want, got, path, key=None):
        """like matches(), but say where it differs"""
        if isinstance(want, dict):
            if not isinstance(got, dict):
                self.problems.append('%s: expected an object, got %s' % (path, json.dumps(got)))
                return
            for k, v in want.items():
                if k not in got:
                    self.problems.append('%s.%s: missing (expected %s)' % (path, k, json.dumps(v)))
                else:
                    self.compare(v, got[k], '%s.%s' % (path, k), k)
        elif isinstance(want, list):
            if not isinstance(got, list):
                self.problems.append('%s: expected a list, got %s' % (path, json.dumps(got)))
                return
            if self.assign(want, got, key) is None:
                for i, w in enumerate(want):
                    if not any(self.matches(w, g, key) for g in got):
                        self.problems.append('%s[%d]: nothing matches %s' % (path, i, json.dumps(w)))
                        return
                self.problems.append('%s: the expected elements do not each match a different one'
                                     % path)
        elif not self.scalar_ok(key, want, got):
            self.problems.append('%s: expected %s, got %s' % (path, json.dumps(want), json.dumps(got)))

    # -- findings ----------------------------------------------------------

    def findings(self, expect, report):
        got_all = report.get('findings')
        want_all = expect.get('findings', [])
        kinds = expect.get('kinds', [])
        if got_all is None:
            if want_all or kinds:
                self.problems.append('findings: missing in the report')
            return
        if kinds and report.get('findings_truncated'):
            self.problems.append('findings: the report capped its list (findings_truncated); '
                                 'raise --max-findings in "args"')
        for kind in kinds:
            want = [f for f in want_all if f.get('kind') == kind]
            got = [f for f in got_all if f.get('kind') == kind]
            if len(want) != len(got):
                self.problems.append('findings[%s]: expected %d, got %d' % (kind, len(want), len(got)))
                for f in got[:5]:
                    self.problems.append('  got %s' % json.dumps(f, sort_keys=True))
                continue
            if self.assign(want, got) is None:
                for w in want:
                    if not any(self.matches(w, g) for g in got):
                        self.problems.append('findings[%s]: nothing matches %s' % (kind, json.dumps(w)))
                        break
                else:
                    self.problems.append('findings[%s]: no one-to-one match' % kind)
        others = [f for f in want_all if f.get('kind') not in kinds]
        for w in others:
            if not any(self.matches(w, g) for g in got_all):
                self.problems.append('findings: nothing matches %s' % json.dumps(w))

    def check(self, expect, report):
        for key, want in expect.items():
            if key in ('args', 'kinds', 'findings'):
                continue
            if key not in report:
                self.problems.append('%s: missing in the report' % key)
                continue
            self.compare(want, report[key], key, key)
        self.findings(expect, report)
        return not self.problems


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        sys.stderr.write('check_expect: %s: %s\n' % (path, e))
        return None


def main(argv):
    args = [a for a in argv[1:] if not a.startswith('--format')]
    fmt = 'dat'
    for i, a in enumerate(argv):
        if a.startswith('--format='):
            fmt = a.split('=', 1)[1]
        elif a == '--format' and i + 1 < len(argv):
            fmt = argv[i + 1]
            args.remove(fmt)
    if len(args) != 2 or fmt not in ('dat', 'txt'):
        sys.stderr.write('usage: check_expect.py EXPECT.json REPORT.json [--format dat|txt]\n')
        return 2
    expect, report = load(args[0]), load(args[1])
    if not isinstance(expect, dict) or not isinstance(report, dict):
        if expect is not None and report is not None:
            sys.stderr.write('check_expect: both files must hold a JSON object\n')
        return 2
    c = Checker(fmt)
    if c.check(expect, report):
        print('ok')
        return 0
    for p in c.problems:
        print(p)
    return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
