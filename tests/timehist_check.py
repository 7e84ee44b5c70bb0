#!/usr/bin/env python3
"""timehist_check.py - schedlint timehist against perf sched timehist, line by line

    timehist_check.py OURS PERF

OURS: `schedlint timehist X.data`, one line per switch-in of a woken task.
PERF: `perf sched timehist -i X.data`, one line per switch-out, with the
run that ends there (run time), the wait since the task's previous
switch-out (wait time) and the time from its wakeup to its switch-in
(sch delay), all in msec with 3 decimals.  So perf's line k of a task
gives its switch-in (time - run time) and its latency; its line k-1 the
run before.  Checked, in whole microseconds (perf prints no more; its
times and durations are each off by up to 1 us):

  - each of our lines is a run perf shows (same pid, same CPU, switch-in
    within 2 us), unless the task was still running at the end;
  - its wait equals perf's sch delay, its "ran before" perf's previous
    run of the task, its slept + wait perf's wait time (1-2 us);
  - each perf run with a sch delay of 1 us or more is one of our lines.
    Allowed exceptions, counted and printed: perf measures a new task
    from its sched_wakeup_new (fork -> first run), schedlint does not
    take that as a wakeup.  And a task woken while it still ran (its
    sched_waking before its switch-out: the kernel's ttwu of a task still
    on its CPU) and switched in later: perf shows no sch delay for that
    run, schedlint measures it from the waking (such lines are counted).

Prints the counts; exit 1 on the first mismatch (it is printed).
"""
import re
import sys

OURS_RE = re.compile(r'^\s*(\d+)\.(\d{6}) \[(\d+)\]\s+(.*)\[(-?\d+)\]\s+(\d+)\.(\d{6})\s+(\S+)\s+(\S+)\s+(\S+)( \*)?$')
PERF_RE = re.compile(r'^\s*(\d+)\.(\d{6}) \[(\d+)\]\s+(.*)\[(\d+)(?:/\d+)?\]\s+(\d+\.\d{3})\s+(\d+\.\d{3})\s+(\d+\.\d{3})\s*$')


def us(sec, frac):
    return int(sec) * 1000000 + int(frac)


def dur_us(text):
    """'12.345' (us with ns) -> 12.345; '-' -> None"""
    return None if text == '-' else float(text)


def ms_us(text):
    return round(float(text) * 1000)


def main():
    ours, perf = [], []
    for line in open(sys.argv[1]):
        m = OURS_RE.match(line)
        if m:
            ours.append(dict(t_in=us(m[1], m[2]), cpu=int(m[3]), pid=int(m[5]),
                             woken=us(m[6], m[7]), slept=dur_us(m[8]), wait=dur_us(m[9]),
                             ran=dur_us(m[10])))
    for line in open(sys.argv[2]):
        m = PERF_RE.match(line)
        if m and m[4] != '<idle>':
            t_out, run = us(m[1], m[2]), ms_us(m[8])
            perf.append(dict(t_out=t_out, t_in=t_out - run, cpu=int(m[3]), pid=int(m[5]),
                             wait=ms_us(m[6]), delay=ms_us(m[7]), run=run, used=False))
    by_pid = {}
    for p in perf:
        by_pid.setdefault(p['pid'], []).append(p)

    def fail(what, o=None, p=None):
        print('MISMATCH:', what)
        if o:
            print('  ours:', o)
        if p:
            print('  perf:', p)
        sys.exit(1)

    still_running = early = 0
    for o in ours:
        runs = by_pid.get(o['pid'], [])
        match = [i for i, p in enumerate(runs)
                 if p['cpu'] == o['cpu'] and abs(p['t_in'] - o['t_in']) <= 2]
        if not match:
            # a run perf has no line for: it had not ended when the trace did
            if not runs or runs[-1]['t_out'] <= o['t_in']:
                still_running += 1
                continue
            fail('no perf run of this task starts there', o)
        i = match[0]
        p = runs[i]
        p['used'] = True
        if p['delay'] == 0 and i > 0 and o['woken'] < runs[i - 1]['t_out']:
            # woken while it still ran (its waking came before its
            # switch-out): perf drops that wakeup, schedlint measures from it
            early += 1
            continue
        if abs(p['delay'] - o['wait']) > 1.001:
            fail('wait differs from perf\'s sch delay', o, p)
        if o['ran'] is not None and i > 0 and runs[i - 1]['run'] and \
                abs(runs[i - 1]['run'] - o['ran']) > 1.001:
            fail('ran before differs from perf\'s previous run', o, runs[i - 1])
        if o['slept'] is not None and i > 0 and abs(p['wait'] - (o['slept'] + o['wait'])) > 2.001:
            fail('slept + wait differs from perf\'s wait time', o, p)
    missed = [p for p in perf if not p['used'] and p['delay'] >= 1]
    new_tasks = [p for p in missed if p is by_pid[p['pid']][0]]
    others = [p for p in missed if p is not by_pid[p['pid']][0]]
    for p in others:
        fail('perf has a wakeup schedlint does not list', None, p)
    print(f'{len(ours)} lines of ours: {len(ours) - still_running} matched to perf\'s '
          f'({early} woken while still running: no sch delay in perf), '
          f'{still_running} still running at the end; perf\'s runs with a sch delay: '
          f'{sum(1 for p in perf if p["delay"] >= 1)}, of them {len(new_tasks)} a new '
          f'task\'s first run (fork -> run, not a wakeup here)')


if __name__ == '__main__':
    main()
