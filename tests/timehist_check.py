#!/usr/bin/env python3
"""timehist_check.py - schedlint timehist against perf sched timehist, row by row

    timehist_check.py rows OURS PERF      (both: timehist -w -M --state)
    timehist_check.py summary OURS PERF   (both: timehist -s, or -s --state)

PERF is perf's own output, committed (testdata/perf/X.timehist*, perf 6.1;
.xz is read decompressed):
the tests need no perf.  What differs by design (the man page says why):

  - perf truncates times and durations to the microsecond, schedlint
    rounds: a time or a duration may be 1 us apart;
  - perf prints a thread as comm[tid/pid], schedlint comm[tid]; perf's
    comm of a task that ran before the recording is /proc's
    ("kworker/0:0-eve"), schedlint's the tracepoint's ("kworker/0:0"):
    rows are matched by tid, names only counted when they differ;
  - perf 6.1's state letters come from an old table: it prints K for I
    (idle kthread), W for R+ (preempted), X for Z and Z for X.

rows: each row (a switch, a wakeup with -w, a migration with -M, a lost
events line) is matched to one of the other side's of the same kind, CPU
and task(s), at the same time (1 us).  Printed: per kind, the rows of
each side and the matched ones; for the matched switch rows, how many
differ by more than 1 us in wait time, sch delay or run time, or in
state.  Exit 1 when the row counts of a kind differ by more than 1%, or
more than 1% of them are unmatched or differ.

summary: per task (tid), perf's count and run-time against ours.
Printed: the tasks on each side, matched, and how many differ in count
or run time by more than 1%.  Exit 1 when any task's count or run time
differs by more than 1% (and 2 us), or a task of perf's with runs is
missing.
"""
import lzma
import re
import sys

TIME = r'(\d+\.\d{6})'
SWITCH_RE = re.compile(r'^\s*' + TIME + r' \[(\d+)\]\s+(.*?)\s+(\d+\.\d{3})\s+(\d+\.\d{3})\s+(\d+\.\d{3})(?:\s+(\S+))?\s*$')
EVENT_RE = re.compile(r'^\s*' + TIME + r' \[(\d+)\]\s+(.*?)\s+(awakened|migrated): (.*?)(?: cpu (\d+) => (\d+))?\s*$')
LOST_RE = re.compile(r'^\s*' + TIME + r' lost (\d+) events on cpu (\d+)\s*$')
NAME_RE = re.compile(r'^(.*)\[(-?\d+)(?:/\d+)?\]$')
UNNAMED_RE = re.compile(r'^:(\d+)$')
PERF_STATE = {'K': 'I', 'W': 'R+', 'X': 'Z', 'Z': 'X'}


def us(text):
    sec, frac = text.split('.')
    return int(sec) * 1000000 + int(frac)


def ms_us(text):
    a, b = text.split('.')
    return int(a) * 1000 + int(b)


def name(text):
    """'comm[tid/pid]' -> (tid, comm); ':tid' (no comm known) -> (tid, ''); '<idle>' -> (0, '<idle>')

    perf names an exited thread it has no pid for ':-1[-1/pid]': tid -1
    matches any task."""
    m = NAME_RE.match(text)
    if m:
        return int(m[2]), m[1]
    m = UNNAMED_RE.match(text)
    return (int(m[1]), '') if m else (0, text)


def lines(path):
    """the lines of path; X.xz decompressed (the committed perf outputs)"""
    if path.endswith('.xz'):
        return lzma.open(path, 'rt', errors='replace')
    return open(path, errors='replace')


def parse_rows(path, perf):
    rows = []
    for line in lines(path):
        m = EVENT_RE.match(line)
        if m:
            tid, comm = name(m[3])
            otid, ocomm = name(m[5])
            kind = 'wakeup' if m[4] == 'awakened' else 'migrate'
            extra = (m[6], m[7]) if kind == 'migrate' else ()
            rows.append(dict(kind=kind, t=us(m[1]), cpu=int(m[2]), key=(tid, otid) + extra,
                             comm=(comm, ocomm)))
            continue
        m = SWITCH_RE.match(line)
        if m:
            tid, comm = name(m[3])
            state = m[7]
            if perf and state:
                state = 'I' if tid == 0 else PERF_STATE.get(state, state)
            rows.append(dict(kind='switch', t=us(m[1]), cpu=int(m[2]), key=(tid,),
                             comm=(comm,), wait=ms_us(m[4]), delay=ms_us(m[5]),
                             run=ms_us(m[6]), state=state))
            continue
        m = LOST_RE.match(line)
        if m:
            rows.append(dict(kind='lost', t=us(m[1]), cpu=int(m[3]), key=(int(m[2]),), comm=()))
    return rows


def check_rows(ours_path, perf_path):
    ours, perf = parse_rows(ours_path, False), parse_rows(perf_path, True)
    index = {}
    for o in ours:
        index.setdefault((o['kind'], o['cpu'], o['key']), []).append(o)
    kinds = ['switch', 'wakeup', 'migrate', 'lost']
    stats = {k: dict(ours=0, perf=0, matched=0) for k in kinds}
    differ = dict(wait=0, delay=0, run=0, state=0, comm=0)
    first = {}
    for o in ours:
        stats[o['kind']]['ours'] += 1
    for p in perf:
        stats[p['kind']]['perf'] += 1
        if -1 in p['key']:
            cands = [o for (k, c, key), os in index.items()
                     if k == p['kind'] and c == p['cpu'] and len(key) == len(p['key']) and
                     all(a == b or b == -1 for a, b in zip(key, p['key'])) for o in os]
        else:
            cands = index.get((p['kind'], p['cpu'], p['key']), [])
        best = None
        for o in cands:
            if not o.get('used') and abs(o['t'] - p['t']) <= 1 and \
                    (best is None or abs(o['t'] - p['t']) < abs(best['t'] - p['t'])):
                best = o
        if best is None:
            first.setdefault('unmatched perf ' + p['kind'], p)
            continue
        best['used'] = True
        stats[p['kind']]['matched'] += 1
        if best['comm'] != p['comm']:
            differ['comm'] += 1
        if p['kind'] != 'switch':
            continue
        for f in ('wait', 'delay', 'run'):
            if abs(best[f] - p[f]) > 1:
                differ[f] += 1
                first.setdefault(f, (best, p))
        if p['state'] and best['state'] != p['state']:
            differ['state'] += 1
            first.setdefault('state', (best, p))
    for o in ours:
        if not o.get('used'):
            first.setdefault('unmatched ours ' + o['kind'], o)
    bad = False
    for k in kinds:
        s = stats[k]
        print(f"{k}: ours {s['ours']}, perf {s['perf']}, matched {s['matched']}")
        most = max(s['ours'], s['perf'])
        if most and (abs(s['ours'] - s['perf']) > 0.01 * most or
                     most - s['matched'] > 0.01 * most):
            bad = True
    print('matched switch rows that differ: ' +
          ', '.join(f'{f} {n}' for f, n in differ.items()))
    if any(differ[f] > 0.01 * max(stats['switch']['matched'], 1)
           for f in ('wait', 'delay', 'run', 'state')):
        bad = True
    for what, example in first.items():
        print(f'  first {what}: {example}')
    return 1 if bad else 0


SUM_PERF_RE = re.compile(r'^\s*(.*?\[[\d/]+\])\s+(-?\d+)\s+(\d+)\s+(\d+\.\d{3})\s')
SUM_OURS_RE = re.compile(r'^\s*(.*?\[\d+\])\s+(\d+)\s+(\d+\.\d{3})\s')


def parse_summary(path, regex, perf):
    tasks = {}
    for line in lines(path):
        m = regex.match(line)
        if not m:
            continue
        tid, _ = name(m[1])
        count, run = (m[3], m[4]) if perf else (m[2], m[3])
        t = tasks.setdefault(tid, dict(n=0, run=0))
        t['n'] += int(count)
        t['run'] += ms_us(run)
    return tasks


def check_summary(ours_path, perf_path):
    ours = parse_summary(ours_path, SUM_OURS_RE, False)
    perf = parse_summary(perf_path, SUM_PERF_RE, True)
    differ = []
    missing = [tid for tid in perf if tid not in ours]
    for tid, p in perf.items():
        o = ours.get(tid)
        if o and (abs(o['n'] - p['n']) > 0.01 * p['n'] or
                  abs(o['run'] - p['run']) > max(0.01 * p['run'], 2 + p['n'])):
            differ.append((tid, o, p))
    print(f'tasks: ours {len(ours)}, perf {len(perf)}, matched {len(perf) - len(missing)}, '
          f'differ (count or run time by more than 1%) {len(differ)}')
    for tid, o, p in differ[:5]:
        print(f'  {tid}: ours {o}, perf {p}')
    for tid in missing[:5]:
        print(f'  missing: {tid} {perf[tid]}')
    return 1 if differ or missing else 0


if __name__ == '__main__':
    if len(sys.argv) != 4 or sys.argv[1] not in ('rows', 'summary'):
        sys.exit(__doc__)
    sys.exit((check_rows if sys.argv[1] == 'rows' else check_summary)(sys.argv[2], sys.argv[3]))
