#!/usr/bin/env python3
"""timehist_check.py - schedlint timehist against perf sched timehist, row by row

    timehist_check.py rows OURS PERF [--offset-us=N]   (both: timehist -w -M --state;
                                          N: OURS of a trace.dat recorded beside,
                                          its clock perf's + N us)
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

lines: the whole output of one invocation (any options), line by line:
each line of ours must be perf's line once the differences by design
are taken out of perf's (and only those), each counted and printed:
  round    a number 1 apart in its last digit (perf truncates, we round);
  pid      perf's comm[tid/pid] written comm[tid];
  kworker  perf's /proc name of a kworker ("kworker/0:0-eve") cut at its "-";
  state    perf 6.1's letters (K, W, X, Z) as the kernel's;
  minus1   a row or summary line of perf's nameless tid -1 (an exited
           thread): left out, with the summary's totals it moves;
  visual   -V: perf's one column more than the CPUs, and the one more
           blank its migration rows have before and after the columns;
  parent   the summary's parent column, which we do not print;
  order    the summary's tasks in tid order (perf's is its hash table's);
  migr     the summary's migrations, which perf counts only under -M;
  rplus    -s --state: a preempted task's wait (R+) perf counts as sleep;
  comm     a task named otherwise: perf prints :tid for a task it has
           no PERF_RECORD_COMM of (a woken one, or any once perf lost
           the records), we the tracepoint's name;
  idle0    -I: perf's zeros in a task's row (it measures only the idle
           task under -I);
  total    -s with a task filter: perf prints neither idle stats nor
           totals, we the totals of the tasks shown;
  from_    --time FROM: a CPU's first row in the window, its run begun
           before FROM: perf measures its wait time and sch delay to
           FROM too (both longer by as much), we to its switch-in;
  mtime    --time: perf's migration rows outside the window (perf 6.1
           does not filter them);
  lost     -s: perf's "lost N events" lines before the summary;
  wcpu     --cpu: perf's wakeup and migration rows and lost lines of
           the other CPUs (perf 6.1 filters only the switch rows);
  dead     a task in the other list of the summary: perf's terminated
           tasks are those it has a PERF_RECORD_EXIT of, ours those that
           left the CPU as X or Z.
Printed: "lines: ours N, perf M, same S, differ D" and the counts of
each kind; exit 1 when any line differs otherwise.

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


def ns(text):
    """seconds with up to 9 decimals: ns"""
    sec, _, frac = text.partition('.')
    return int(sec) * 1000000000 + int((frac + '000000000')[:9])


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


def check_rows(ours_path, perf_path, offset_us=None):
    ours, perf = parse_rows(ours_path, False), parse_rows(perf_path, True)
    tolerance = 1
    if offset_us is not None:
        # ours of a trace.dat recorded beside the perf.data: its clock is
        # perf's + offset_us (to the us: 2 us apart at most); perf's rows
        # in ours' span only, the first and last 10 ms of it aside (each
        # recorder's start and end)
        for o in ours:
            o['t'] -= offset_us
        lo, hi = ours[0]['t'] + 10000, ours[-1]['t'] - 10000
        ours = [o for o in ours if lo <= o['t'] <= hi]
        perf = [q for q in perf if lo <= q['t'] <= hi]
        tolerance = 2
    index = {}
    for o in ours:
        index.setdefault((o['kind'], o['cpu'], o['key']), []).append(o)
    kinds = ['switch', 'wakeup', 'migrate', 'lost']
    stats = {k: dict(ours=0, perf=0, matched=0) for k in kinds}
    differ = dict(wait=0, delay=0, run=0, state=0, comm=0)
    if offset_us is not None:
        differ['before'] = 0
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
            if not o.get('used') and abs(o['t'] - p['t']) <= tolerance and \
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
        if offset_us is not None and best['wait'] == 0 and p['wait'] > 0 and \
                abs(best['delay'] - p['delay']) <= tolerance and abs(best['run'] - p['run']) <= tolerance:
            differ['before'] += 1	# its switch-out before it is before the trace.dat's start
            continue
        for f in ('wait', 'delay', 'run'):
            if abs(best[f] - p[f]) > tolerance:
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


ROW_START = re.compile(r'^\s*\d+\.\d{6} \[\d{4}\] ')
NUMBER = re.compile(r'^\(?-?\d+\.\d+%?\)?$')
PID_NAME = re.compile(r'^(.*?)\[(-?\d+)/(-?\d+)\]$')
KWORKER = re.compile(r'^(kworker/[^-\[]+)-[^\[]*(\[.*)$')
SUMMARY_TASK = re.compile(r'^\s*(\S.*\[-?\d+(?:/-?\d+)?\]|:\d+)\s+-?\d+\s')


def ms(text):
    return round(float(text) * 1000)


def tid_of(token):
    """comm[tid], comm[tid/pid] or :tid: tid; 0 for <idle>"""
    m = re.search(r'\[(-?\d+)(?:/-?\d+)?\]$', token) or re.match(r'^:(-?\d+)$', token) or \
        re.match(r'^next:(-?\d+)$', token)
    return int(m[1]) if m else 0


class Lines:
    def __init__(self):
        self.kinds = dict(round=0, pid=0, kworker=0, state=0, minus1=0, visual=0, parent=0,
                          order=0, migr=0, rplus=0, comm=0, idle0=0, total=0, from_=0, mtime=0,
                          lost=0, dead=0, wcpu=0)

    def name(self, tok):
        """perf's name token as ours would be"""
        m = PID_NAME.match(tok)
        if m:
            self.kinds['pid'] += 1
            tok = f'{m[1]}[{m[2]}]'
        m = KWORKER.match(tok)
        if m:
            self.kinds['kworker'] += 1
            tok = m[1] + m[2]
        return tok

    def same_tokens(self, ours, perf):
        """ours and perf's tokens equal but for rounding: kinds counted"""
        if len(ours) != len(perf):
            return False
        rounded = 0
        for a, b in zip(ours, perf):
            if a == b:
                continue
            if NUMBER.match(a) and NUMBER.match(b):
                fa, fb = a.strip('()%'), b.strip('()%')
                d = len(fa.split('.')[1])
                if d == len(fb.split('.')[1]) and \
                        abs(round(float(fa) * 10 ** d) - round(float(fb) * 10 ** d)) <= 1:
                    rounded += 1
                    continue
            return False
        self.kinds['round'] += 1 if rounded else 0
        return True


def split_row(line, ncols, migrate_shift):
    """a row's time and CPU, its -V columns (ncols wide, '' without), its other tokens"""
    m = ROW_START.match(line)
    if not m:
        return None
    head, rest = line[:m.end()].split(), line[m.end():]
    vis = ''
    if ncols:
        rest = rest[1:]		# the blank before the columns
        if migrate_shift:
            rest = rest[1:]
        vis, rest = rest[:ncols], rest[ncols:]
    return head, vis, rest.split()


def summary_blocks(text, lk, perf):
    """text's lines, each ('line', tokens or text) or, for a run of summary
    task lines, ('tasks', {tid: tokens}, has a tid -1 line); perf's
    parent column taken out"""
    items, tasks, in_tasks, minus1 = [], None, False, False
    parent = perf and any(re.match(r'^\s*comm\s+parent\s', l) for l in text)
    for line in text:
        if parent and re.match(r'^\s*comm\s+parent\s', line):
            line = line.replace('  parent', '', 1)
            lk.kinds['parent'] += 1
        if line.startswith('-' * 40):
            if parent:
                line = line[:len(line) - 8]
            items.append(('line', line))
            in_tasks = True
            continue
        if in_tasks and SUMMARY_TASK.match(line):
            toks = line.split()
            if perf:
                toks[0] = lk.name(toks[0])
                if parent:
                    del toks[1]
                    lk.kinds['parent'] += 1
            tid = tid_of(toks[0])
            if tid == -1:
                minus1 = True
                lk.kinds['minus1'] += 1
                continue
            if tasks is None:
                tasks = {}
            tasks.setdefault(tid, []).append(toks)
            continue
        if tasks is not None:
            items.append(('tasks', tasks, minus1))
            tasks, minus1 = None, False
        if line.startswith(('Idle stats', '    Total number')):
            in_tasks = False
        items.append(('line', line))
    if tasks is not None:
        items.append(('tasks', tasks, minus1))
    return items


def join_names(line):
    """a name with blanks ("tmux: server[15156]") as one token: blanks in it made \\x01"""
    for k in ('awakened: ', 'migrated: ', 'next: '):
        line = line.replace(k, k[:-1] + '\x02')
    line = re.sub(r'(?<=\S) (?=[^\s\[\]]+\[-?\d+(?:/-?\d+)?\])', '\x01', line)
    return line.replace('\x02', ' ')


def check_lines(ours_path, perf_path, options=()):
    lk = Lines()
    summary_only = '-s' in options
    ours = [join_names(l.rstrip()) for l in lines(ours_path)]
    perf = []
    for l in lines(perf_path):
        if l.startswith(('Samples do not have callchains', 'No kallsyms')):
            continue
        if summary_only and LOST_RE.match(l):
            lk.kinds['lost'] += 1
            continue
        perf.append(join_names(l.rstrip()))
    idle_only = '-I' in options
    window = cpus = None
    for o in options:
        if o.startswith('--cpu='):
            cpus = {int(c) for c in o[6:].split(',')}
        if o.startswith('--time='):
            a, _, b = o[7:].partition(',')
            window = (ns(a) // 1000 if a else 0, ns(b) // 1000 if b else 1 << 62)
    # -V: the header's CPU digits
    m = re.match(r'^\s*time\s+cpu\s+([0-9a-f]+)\s+task name', ours[0] if ours else '')
    our_cols = len(m[1]) if m else 0
    m = re.match(r'^\s*time\s+cpu\s+([0-9a-f]+)\s+task name', perf[0] if perf else '')
    perf_cols = len(m[1]) if m else 0
    oitems, pitems = summary_blocks(ours, lk, False), summary_blocks(perf, lk, True)
    minus1 = any(l.startswith(':-1[-1') for l in (x.split()[2] if ROW_START.match(x) and len(x.split()) > 2
                                                 else '' for x in perf)) or \
        any(it[0] == 'tasks' and it[2] for it in pitems)
    same, differ, first = 0, 0, []

    def bad(n, o, p):
        nonlocal differ
        differ += 1
        first.append((n, o, p))

    oi = 0
    for n, pit in enumerate(pitems):
        oit = oitems[oi] if oi < len(oitems) else ('line', '<none>')
        oi += 1
        if pit[0] == 'tasks':
            if oit[0] != 'tasks':
                bad(n + 1, oit[1], 'perf\'s task lines')
                continue
            otasks, ptasks = oit[1], pit[1]
            if list(ptasks) != sorted(ptasks):
                lk.kinds['order'] += 1
            for tid in sorted(set(otasks) | set(ptasks)):
                o, p = otasks.get(tid), ptasks.get(tid)
                if o is None or p is None:
                    # in the other list (still running, terminated)?
                    other = [it[1] for it in (oitems if o is None else pitems)
                             if it[0] == 'tasks' and it[1] is not (otasks if o is None else ptasks)]
                    if other and tid in other[0]:
                        lk.kinds['dead'] += 1
                        if o is None:
                            o = other[0][tid]
                        else:
                            continue	# compared from perf's side
                    elif p is None and minus1:
                        lk.kinds['minus1'] += 1	# all its runs are perf's tid -1's
                        continue
                    else:
                        bad(n + 1, o, p)
                        continue
                for ot, pt in zip(o, p):
                    if len(ot) == len(pt) and pt[-1] == '0' and ot[-1] != '0' and \
                            '-M' not in options and '--state' not in options:
                        pt = pt[:-1] + [ot[-1]]
                        lk.kinds['migr'] += 1
                    if '--state' in options and len(ot) == len(pt) == 7 and abs(ms(pt[5]) - ms(ot[5])) > 1 and \
                            abs(ms(ot[3]) + ms(ot[5]) - ms(pt[3]) - ms(pt[5])) <= 3 and \
                            ms(pt[5]) <= ms(ot[5]) + 1:
                        pt = pt[:3] + [ot[3], pt[4], ot[5], pt[6]]
                        lk.kinds['rplus'] += 1
                    if lk.same_tokens(ot, pt):
                        same += 1
                    elif minus1 and int(ot[1]) > int(pt[1]):
                        lk.kinds['minus1'] += 1	# its last runs are perf's tid -1's
                    else:
                        bad(n + 1, ' '.join(ot), ' '.join(pt))
            continue
        o, p = oit[1], pit[1]
        if not isinstance(o, str):
            bad(n + 1, o, p)
            continue
        m = LOST_RE.match(p)
        if m and cpus is not None and int(m[3]) not in cpus:
            lk.kinds['wcpu'] += 1
            oi -= 1		# not ours
            continue
        prow = split_row(p, perf_cols, perf_cols and ' migrated: ' in p)
        if prow is None:
            o2 = o.replace('[tid]', '[tid/pid]')
            if o2 != o:
                lk.kinds['pid'] += 1
            if perf_cols and re.match(r'^\s*(time|-----)', p):
                # the header's CPU columns
                po, pp = o2.split(), p.split()
                if len(po) > 2 and len(pp) > 2 and len(pp[2]) == len(po[2]) + 1:
                    pp[2] = pp[2][:-1]
                    lk.kinds['visual'] += 1
                if po == pp:
                    same += 1
                    continue
            if lk.same_tokens(o2.split(), p.split()) and (o2.strip() or not p.strip()):
                same += 1
            elif minus1 and re.match(r'^\s*Total number of unique tasks', p):
                lk.kinds['minus1'] += 1
            else:
                bad(n + 1, o, p)
            continue
        head, vis, toks = prow
        if window and 'migrated:' in toks and not window[0] <= us(head[0]) <= window[1]:
            lk.kinds['mtime'] += 1
            oi -= 1		# not ours
            continue
        if cpus is not None and ('awakened:' in toks or 'migrated:' in toks) and \
                int(head[1].strip('[]')) not in cpus:
            lk.kinds['wcpu'] += 1
            oi -= 1		# not ours
            continue
        if perf_cols:
            if vis[our_cols:].strip():
                bad(n + 1, o, p)
                continue
            vis = vis[:our_cols]
            lk.kinds['visual'] += 1
        orow = split_row(o, our_cols, False)
        if orow is None or orow[1] != vis:
            bad(n + 1, o, p)
            continue
        otoks = orow[2]
        if toks and toks[0].startswith(':-1['):
            lk.kinds['minus1'] += 1		# ours has the thread's row here
            continue
        toks = [lk.name(t) if t.endswith(']') else t for t in toks]
        # a state perf 6.1 printed in its K, W, X, Z
        for i in range(4, len(toks)):
            if toks[i] in PERF_STATE and re.match(r'^\d+\.\d{3}$', toks[i - 1]) and i < len(otoks) and \
                    otoks[i] == ('I' if toks[0] == '<idle>' else PERF_STATE[toks[i]]):
                toks[i] = otoks[i]
                lk.kinds['state'] += 1
        if len(toks) == len(otoks):
            for i in range(len(toks)):
                if toks[i] != otoks[i] and (toks[i].endswith(']') or toks[i].startswith(':')) and \
                        tid_of(toks[i]) == tid_of(otoks[i]) and tid_of(toks[i]) and \
                        ('awakened:' in toks or 'migrated:' in toks or toks[i].startswith(':')):
                    lk.kinds['comm'] += 1
                    toks[i] = otoks[i]
        if idle_only and toks[0] != '<idle>' and toks[1:4] == ['0.000'] * 3 and \
                lk.same_tokens(otoks[:1] + otoks[4:], toks[:1] + toks[4:]) and otoks[1:4] != toks[1:4]:
            lk.kinds['idle0'] += 1
            toks = toks[:1] + otoks[1:4] + toks[4:]
        if window and window[0] and len(toks) >= 4 and len(otoks) >= 4 and toks[0] == otoks[0] and \
                all(re.match(r'^\d+\.\d{3}$', t) for t in toks[1:4] + otoks[1:4]):
            # perf's wait and delay longer by as much (FROM - switch-in), or both 0 (none)
            dw, dd = ms(toks[1]) - ms(otoks[1]), ms(toks[2]) - ms(otoks[2])
            if (dw > 1 or dd > 1) and (dw > 1 or toks[1] == otoks[1] == '0.000') and \
                    (dd > 1 or toks[2] == otoks[2] == '0.000') and (dw <= 1 or dd <= 1 or abs(dw - dd) <= 2):
                lk.kinds['from_'] += 1
                toks = toks[:1] + otoks[1:3] + toks[3:]
        if lk.same_tokens(orow[0] + otoks, head + toks):
            same += 1
        else:
            bad(n + 1, o, p)
    if len(oitems) > oi:
        rest = oitems[oi:]
        # perf stops after the task lists when a filter skipped samples
        if pitems and pitems[-1][1] == '<no terminated tasks>' and \
                all(it[0] == 'line' and (not it[1].strip() or 'Total ' in it[1]) for it in rest):
            lk.kinds['total'] += len(rest)
        else:
            bad(oi + 1, rest[0][1], '<none>')
    print(f'lines: ours {len(ours)}, perf {len(perf)}, same {same}, differ {differ}')
    print('by design: ' + ', '.join(f'{k} {n}' for k, n in lk.kinds.items() if n))
    for n, o, p in first[:6]:
        print(f'  item {n}:\n    ours {o}\n    perf {p}')
    return 1 if differ else 0


if __name__ == '__main__':
    checks = dict(rows=check_rows, summary=check_summary, lines=check_lines)
    if len(sys.argv) < 4 or sys.argv[1] not in checks:
        sys.exit(__doc__)
    if sys.argv[1] == 'lines':
        sys.exit(check_lines(sys.argv[2], sys.argv[3], sys.argv[4:]))
    if sys.argv[1] == 'rows' and len(sys.argv) == 5 and sys.argv[4].startswith('--offset-us='):
        sys.exit(check_rows(sys.argv[2], sys.argv[3], int(sys.argv[4][12:])))
    sys.exit(checks[sys.argv[1]](*sys.argv[2:]))
