#!/usr/bin/env python3
"""record_cost.py - what a recorder cost, measured from the trace it wrote

Reads the text of a trace on stdin - `trace-cmd report -N FILE` of a
schedlint recording or `perf script -i FILE` of a perf sched recording,
nothing of schedlint's own reading - and prints one JSON object: the
events, and the recorder's runs (a run: from a sched_switch onto a CPU to
the sched_switch off it), over the whole trace and while the workload ran.

A schedlint recording ends its events at the "schedlint: events
stopped" marker (its last sweeps follow with the events disabled):
what follows it is not read, and runs still open end at the last event
before it, as analyze ends them.

The recorder's tasks: --marker, the task that wrote the schedlint
workload marker ("schedlint: workload pid=..."), which is schedlint
record itself; or --pid PID (repeatable) and/or --comm COMM (its tasks
of that name).  The workload: the tasks named --workload-comm, or with
--workload-marker the task the marker names and every task forked from
one of its tasks; the window "while the workload runs" is from the
first to the last sched_switch of one of them.

A run that ended with the recorder still runnable (prev_state R, R+) was
preempted: its length is the scheduler's doing as much as the
recorder's; the others ended because the recorder slept.  A burst is
the recorder's time on a CPU from a wakeup to its next sleep, its runs
cut by preemptions added up: the work it did at a stretch, which the
recorder controls whatever else the machine runs (a preemption stretches
a run, never a burst's CPU time).  over_long_us sums the bursts' time
past --long-us, over_long_pct is its share of the bursts' time.
"""
import argparse
import json
import re
import sys

# trace-cmd report: "  comm-pid [001]  12.345678: name: ..."
# perf script:      "  comm  pid [001]  12.345678: sched:name: ..."
LINE = re.compile(r'^\s*(?P<comm>.*?)[- ]\s*(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+'
                  r'(?:\S+\s+)?(?P<ts>\d+\.\d+):\s+(?P<name>[\w:]+):\s*(?P<rest>.*)$')
SWITCH = re.compile(r'prev_comm=(?P<pcomm>.*?) prev_pid=(?P<ppid>\d+) .*prev_state=(?P<state>\S+)'
                    r' ==> next_comm=(?P<ncomm>.*?) next_pid=(?P<npid>\d+) ')
MARKER = re.compile(r'schedlint: workload pid=(\d+)')
FORK = re.compile(r'pid=(\d+) child_comm=.*? child_pid=(\d+)')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--marker', action='store_true')
    ap.add_argument('--pid', type=int, action='append', default=[])
    ap.add_argument('--comm', action='append', default=[])
    ap.add_argument('--workload-comm')
    ap.add_argument('--workload-marker', action='store_true')
    ap.add_argument('--long-us', type=float, default=500.0)
    a = ap.parse_args()

    rec_pids = set(a.pid)
    events = switches = 0
    first_ts = last_ts = None
    stamps = []              # every event's time, for the window's count
    runs = []                # (start, end, preempted)
    running = {}             # cpu -> start of the recorder's run there
    seen_cpu = set()
    w_first = w_last = None
    workload = set()

    for line in sys.stdin:
        m = LINE.match(line)
        if not m:
            continue
        if 'schedlint: events stopped' in m['rest']:
            # record's last sweeps follow, with its events disabled: the
            # trace's events end before this marker, runs open there too
            break
        events += 1
        ts = float(m['ts'])
        cpu = int(m['cpu'])
        pid = int(m['pid'])
        name = m['name'].split(':')[-1]
        if first_ts is None:
            first_ts = ts
        last_ts = ts
        stamps.append(ts)
        if a.marker and name == 'print':
            mm = MARKER.search(m['rest'])
            if mm:
                rec_pids.add(pid)
                if a.workload_marker and not workload:
                    workload.add(int(mm[1]))
        if name == 'sched_process_fork' and workload:
            f = FORK.search(m['rest'])
            if f and int(f[1]) in workload:
                workload.add(int(f[2]))
        if a.comm and m['comm'].strip() in a.comm:
            rec_pids.add(pid)
        if cpu not in seen_cpu:
            seen_cpu.add(cpu)
            # the recorder was on this CPU when its trace began
            if pid in rec_pids and name != 'sched_switch':
                running[cpu] = ts
        if name != 'sched_switch':
            continue
        s = SWITCH.search(m['rest'])
        if not s:
            continue
        switches += 1
        ppid, npid = int(s['ppid']), int(s['npid'])
        if a.comm and s['pcomm'] in a.comm:
            rec_pids.add(ppid)
        if a.comm and s['ncomm'] in a.comm:
            rec_pids.add(npid)
        if (a.workload_comm in (s['pcomm'], s['ncomm']) or
                ppid in workload or npid in workload):
            if w_first is None:
                w_first = ts
            w_last = ts
        if ppid in rec_pids and cpu in running:
            runs.append((running.pop(cpu), ts, s['state'].startswith('R')))
        if npid in rec_pids:
            running[cpu] = ts
    for cpu, start in running.items():
        runs.append((start, last_ts, False))

    def bursts(rs):
        out, cur = [], 0.0
        for s, e, preempted in sorted(rs):
            cur += (e - s) * 1e6
            if not preempted:
                out.append(cur)
                cur = 0.0
        if cur:
            out.append(cur)
        return out

    def summary(rs, span):
        lens = sorted((e - s) * 1e6 for s, e, _ in rs)
        bs = bursts(rs)
        over = sum(b - a.long_us for b in bs if b > a.long_us)
        total = sum(lens)
        long_runs = [r for r in rs if (r[1] - r[0]) * 1e6 > a.long_us]
        return {
            'run_ms': round(total / 1e3, 3),
            'runs': len(rs),
            'longest_us': round(lens[-1], 1) if lens else 0.0,
            'p50_us': round(lens[len(lens) // 2], 1) if lens else 0.0,
            'long_runs': len(long_runs),
            'long_runs_not_preempted': sum(1 for r in long_runs if not r[2]),
            'cpu_share_pct': round(100.0 * total / 1e6 / span, 2) if span > 0 else 0.0,
            'longest_burst_us': round(max(bs), 1) if bs else 0.0,
            'long_bursts': sum(1 for b in bs if b > a.long_us),
            # the bursts' CPU time past --long-us, and its share of all of it
            'over_long_us': round(over, 1),
            'over_long_pct': round(100.0 * over / sum(bs), 1) if bs else 0.0,
        }

    span = (last_ts - first_ts) if events else 0.0
    out = {
        'events': events,
        'sched_switch': switches,
        'span_s': round(span, 4),
        'recorder_pids': sorted(rec_pids),
        'whole': summary(runs, span),
    }
    if w_first is not None:
        inside = [r for r in runs if r[1] > w_first and r[0] < w_last]
        out['workload_s'] = round(w_last - w_first, 4)
        out['while_workload'] = summary(inside, w_last - w_first)
        n = sum(1 for t in stamps if w_first <= t <= w_last)
        out['while_workload']['events'] = n
        out['while_workload']['ns_per_event'] = \
            round(out['while_workload']['run_ms'] * 1e6 / n, 1) if n else None
    total_ns = out['whole']['run_ms'] * 1e6
    out['ns_per_event'] = round(total_ns / events, 1) if events else None
    out['ns_per_switch'] = round(total_ns / switches, 1) if switches else None
    json.dump(out, sys.stdout)
    print()


if __name__ == '__main__':
    main()
