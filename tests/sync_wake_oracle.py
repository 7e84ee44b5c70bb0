#!/usr/bin/env python3
"""sync_wake_oracle.py - count sync-wake-remote patterns in `trace-cmd report -N` output.

An independent count to hold the sync-wake-remote analyzer's against, from
trace-cmd's own decoding and the SPEC's words: a task W logs sched_waking of
T on CPU a; T's destination, the target_cpu of the sched_wakeup that follows
that waking (or, when the trace lacks it, the CPU T is next seen running
on), is another CPU; and W's next blocking switch-out on a (a non-runnable
state, with the idle task or T itself next: a newidle balance may pull T
back) comes when W has run at most 100 us since the waking (compared in
whole microseconds, as the report prints them).  W's wakings survive a
runnable switch-out whose next task is one W woke onto a (a wakeup
preemption): the time until W runs on a again is not W's running time.
Every waking W made since it was switched in counts on its own, also an
earlier one of the same T.  The sched_wakeup may come after W's
switch-out: on the wakelist path it is logged by the target CPU's
interrupt.  The count ignores the analyzer's finer conditions (interrupt
context, other tasks queued or pending on a, a wakee never switched in,
CPUs whose state the model does not know, how many wakings and preempted
wakers it keeps), so it is a superset.  Prints the count; with --list, one
line per pattern (waking time, a, W, T, destination).  With --local, the
same for the wakings placed on a itself (sync-wake-local).
"""
import re, sys
LINE = re.compile(r'^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+(?:\S+\s+)?(?P<s>\d+)\.(?P<us>\d+):\s+(?P<ev>\w+):\s+(?P<f>.*)$')
def kv(f):
    return dict(m.groups() for m in re.finditer(r'(\w+)=(\S+)', f))
pending = {}   # cpu -> wakings by the task running there: [ts, cpu, W, T, dest, ran, from]
parked = {}    # W preempted by a task it woke onto its CPU -> (cpu, its wakings)
open_waking = {}   # T -> its waking still waiting for the sched_wakeup that places it
decided = []
for line in sys.stdin:
    m = LINE.match(line)
    if not m: continue
    cpu, pid, ev = int(m['cpu']), int(m['pid']), m['ev']
    us = int(m['s']) * 1000000 + int(m['us'].ljust(6, '0')[:6])
    f = kv(m['f'])
    # a wakeup whose sched_wakeup the trace lacks: placed where T turns up running
    if ev == 'sched_switch' and int(f['next_pid']) in open_waking:
        open_waking.pop(int(f['next_pid']))[4] = cpu
    elif pid in open_waking and ev != 'sched_waking':
        open_waking.pop(pid)[4] = cpu
    if ev == 'sched_waking':
        t = int(f['pid'])
        r = [us, cpu, pid, t, None, 0, us]
        open_waking[t] = r
        if pid != 0:
            pending.setdefault(cpu, []).append(r)
    elif ev == 'sched_wakeup':
        r = open_waking.pop(int(f['pid']), None)
        if r is not None:
            r[4] = int(f['target_cpu'])
    elif ev == 'sched_switch':
        prev = int(f['prev_pid'])
        nxt = int(f['next_pid'])
        mine = [r for r in pending.get(cpu, []) if r[2] == prev]
        if not f['prev_state'].startswith('R'):
            for r in mine:
                if r[5] + us - r[6] <= 100 and nxt in (0, r[3]):
                    decided.append(r)
        elif any(r[3] == nxt and r[4] == cpu for r in mine):
            for r in mine:
                r[5] += us - r[6]
            parked[prev] = (cpu, mine)
        pending[cpu] = []
        if nxt in parked:
            where, rs = parked.pop(nxt)
            if where == cpu:
                for r in rs:
                    r[6] = us
                pending[cpu] = rs
local = '--local' in sys.argv[1:]
found = [r for r in decided if r[4] is not None and (r[4] == r[1]) == local]
if '--list' in sys.argv[1:]:
    for r in found:
        print(f"{r[0] // 1000000}.{r[0] % 1000000:06d} {r[1]} {r[2]} {r[3]} {r[4]}")
else:
    print(len(found))
