#!/usr/bin/env python3
"""check_expect_test.py - tests of check_expect.py on hand-made reports (TAP)

Run by tests/e2e/schedgen_checker.sh.  Until schedlint's analyze --json
exists, this is what shows the checker keeps its contract.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_expect  # noqa: E402

REPORT = {
    'schema': 'schedlint.report/1',
    'trace': {'format': 'trace.dat/6', 'cpus': 4, 'events': 30, 'lost_events': 0},
    'events': {'sched_switch': 12, 'sched_waking': 4, 'sched_wakeup': 4, 'other': 2},
    'wakeup_latency': {'count': 4, 'min_ns': 2000, 'max_ns': 3000000, 'p50_ns': 8000,
                       'p99_ns': 3000000, 'mean_ns': 754000},
    'tasks': [{'pid': 101, 'comm': 'client', 'switches': 3, 'preemptions': 0},
              {'pid': 102, 'comm': 'server', 'switches': 2, 'preemptions': 1}],
    'summary': {'wakee-stacking': {'count': 2, 'cost_ns': 3100000, 'max_cost_ns': 3000000},
                'late-preemption': {'count': 0}},
    'findings': [
        {'kind': 'wakee-stacking', 'ts_ns': 1000000, 'cpu': 3, 'pid': 101,
         'cost_ns': 3000000, 'reason': 'pending', 'idle_cpus': [1, 2]},
        {'kind': 'wakee-stacking', 'ts_ns': 5000000, 'cpu': 2, 'pid': 102,
         'cost_ns': 100000, 'reason': 'busy', 'idle_cpus': [0]},
        {'kind': 'sync-wake-remote', 'ts_ns': 7000000, 'cpu': 1, 'pid': 103,
         'cost_ns': 8000, 'ipi': True},
    ],
    'findings_truncated': False,
}

tests = []


def case(name):
    def wrap(fn):
        tests.append((name, fn))
        return fn
    return wrap


def check(expect, report=REPORT, fmt='dat'):
    return check_expect.Checker(fmt).check(expect, report)


@case('an empty expectation matches anything')
def _():
    return check({})


@case('the brief example matches (subset of objects, exact kind)')
def _():
    return check({
        'args': ['--llc', '0-3,4-7'],
        'wakeup_latency': {'count': 4, 'max_ns': 3000000},
        'events': {'sched_switch': 12},
        'summary': {'wakee-stacking': {'count': 2}},
        'kinds': ['wakee-stacking'],
        'findings': [
            {'kind': 'wakee-stacking', 'ts_ns': 1000000, 'cpu': 3, 'pid': 101,
             'cost_ns': 3000000, 'reason': 'pending'},
            {'kind': 'wakee-stacking', 'cpu': 2, 'pid': 102}]})


@case('a wrong count fails')
def _():
    return not check({'events': {'sched_switch': 13}})


@case('a key missing from the report fails')
def _():
    return not check({'events': {'sched_migrate_task': 0}}) and not check({'ipi': {}})


@case('dat: times compare exactly')
def _():
    return check({'wakeup_latency': {'max_ns': 3000000}}) and \
        not check({'wakeup_latency': {'max_ns': 3000001}})


@case('txt: times within 1000 ns, not more')
def _():
    return check({'wakeup_latency': {'max_ns': 3001000}}, fmt='txt') and \
        check({'wakeup_latency': {'min_ns': 1000}}, fmt='txt') and \
        not check({'wakeup_latency': {'max_ns': 3001001}}, fmt='txt')


@case('txt: counts still compare exactly')
def _():
    return not check({'wakeup_latency': {'count': 5}}, fmt='txt')


@case('percentiles and means may be 1% off, other times not')
def _():
    return check({'wakeup_latency': {'p99_ns': 3029000, 'p50_ns': 8080, 'mean_ns': 760000}}) and \
        not check({'wakeup_latency': {'p99_ns': 3031000}}) and \
        not check({'wakeup_latency': {'min_ns': 2001}})


@case('kinds: a finding too many fails')
def _():
    return not check({'kinds': ['wakee-stacking'],
                      'findings': [{'kind': 'wakee-stacking', 'pid': 101}]})


@case('kinds: a finding missing fails')
def _():
    return not check({'kinds': ['sync-wake-remote'],
                      'findings': [{'kind': 'sync-wake-remote', 'pid': 103},
                                   {'kind': 'sync-wake-remote', 'pid': 104}]})


@case('kinds: an empty list means none of that kind')
def _():
    return check({'kinds': ['late-preemption', 'idle-while-runnable']}) and \
        not check({'kinds': ['sync-wake-remote']})


@case('kinds: order does not matter, each expected finding takes its own')
def _():
    two = [{'kind': 'wakee-stacking', 'cpu': 2}, {'kind': 'wakee-stacking', 'cost_ns': 3000000}]
    same = [{'kind': 'wakee-stacking', 'reason': 'pending'},
            {'kind': 'wakee-stacking', 'reason': 'pending'}]
    return check({'kinds': ['wakee-stacking'], 'findings': two}) and \
        not check({'kinds': ['wakee-stacking'], 'findings': same})


@case('kinds: a field value that differs fails')
def _():
    return not check({'kinds': ['sync-wake-remote'],
                      'findings': [{'kind': 'sync-wake-remote', 'pid': 103, 'ipi': False}]})


@case('kinds: finding times get the text tolerance')
def _():
    f = {'kind': 'sync-wake-remote', 'ts_ns': 7000800, 'cost_ns': 7500}
    return check({'kinds': ['sync-wake-remote'], 'findings': [f]}, fmt='txt') and \
        not check({'kinds': ['sync-wake-remote'], 'findings': [f]}, fmt='dat')


@case('findings of kinds not listed only need to be there')
def _():
    return check({'findings': [{'kind': 'wakee-stacking', 'pid': 102}]}) and \
        not check({'findings': [{'kind': 'wakee-stacking', 'pid': 999}]})


@case('lists inside objects: subset, any order, distinct elements')
def _():
    return check({'tasks': [{'pid': 102, 'preemptions': 1}, {'comm': 'client'}]}) and \
        check({'findings': [{'kind': 'wakee-stacking', 'idle_cpus': [2]}]}) and \
        not check({'tasks': [{'pid': 101}, {'pid': 101}]}) and \
        not check({'tasks': [{'pid': 103}]})


@case('booleans are not numbers')
def _():
    return not check({'findings_truncated': 0})


@case('kinds with a capped list of findings fails')
def _():
    capped = dict(REPORT, findings_truncated=True)
    return not check({'kinds': ['wakee-stacking'],
                      'findings': [{'kind': 'wakee-stacking'}, {'kind': 'wakee-stacking'}]}, capped)


@case('a report without findings fails when kinds are expected')
def _():
    bare = {k: v for k, v in REPORT.items() if k != 'findings'}
    return not check({'kinds': ['wakee-stacking']}, bare) and check({}, bare)


def run_cli(expect, report, *extra):
    with tempfile.TemporaryDirectory() as d:
        e, r = os.path.join(d, 'e.json'), os.path.join(d, 'r.json')
        with open(e, 'w') as f:
            f.write(expect if isinstance(expect, str) else json.dumps(expect))
        with open(r, 'w') as f:
            f.write(report if isinstance(report, str) else json.dumps(report))
        p = subprocess.run([sys.executable, check_expect.__file__, e, r] + list(extra),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        return p.returncode, p.stdout


@case('command line: 0 and "ok" on a match')
def _():
    return run_cli({'events': {'sched_switch': 12}}, REPORT) == (0, 'ok\n')


@case('command line: 1 and the path of the mismatch')
def _():
    rc, out = run_cli({'events': {'sched_switch': 1}}, REPORT)
    return rc == 1 and 'events.sched_switch: expected 1, got 12' in out


@case('command line: --format txt relaxes times')
def _():
    e = {'wakeup_latency': {'max_ns': 3000500}}
    return run_cli(e, REPORT, '--format', 'txt')[0] == 0 and \
        run_cli(e, REPORT, '--format=dat')[0] == 1


@case('command line: 2 on a file that is not JSON, or a bad format')
def _():
    return run_cli('{', REPORT)[0] == 2 and run_cli({}, '[1]')[0] == 2 and \
        run_cli({}, REPORT, '--format', 'xml')[0] == 2


def main():
    print('1..%d' % len(tests))
    failed = 0
    for i, (name, fn) in enumerate(tests, 1):
        try:
            ok = fn()
        except Exception as e:  # a crash is a failure with its reason
            ok = False
            name += ' (%s: %s)' % (type(e).__name__, e)
        print('%s %d - %s' % ('ok' if ok else 'not ok', i, name))
        failed += not ok
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
