#!/usr/bin/env python3
"""sync_wake_oracle.py - count sync-wake-remote patterns in `trace-cmd report -N` output.

An independent count to hold the sync-wake-remote analyzer's against, from
trace-cmd's own decoding: a task W logs sched_waking of T on CPU a, T's
sched_wakeup says its destination is another CPU, and W's next switch-out on
a (within 100 us of the waking) is to sleep (S or D) with the idle task next.
It ignores the analyzer's finer conditions (interrupt context, a wakeup
pending on a), so it counts a superset.  Prints the count.
"""
import re, sys
LINE = re.compile(r'^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+(?:\S+\s+)?(?P<ts>\d+\.\d+):\s+(?P<ev>\w+):\s+(?P<f>.*)$')
def kv(f):
    return dict(m.groups() for m in re.finditer(r'(\w+)=(\S+)', f))
pending = {}   # cpu -> list of (waker, wakee, ts)
dest = {}
count = 0
for line in sys.stdin:
    m = LINE.match(line)
    if not m: continue
    cpu, pid, ts, ev = int(m['cpu']), int(m['pid']), float(m['ts']), m['ev']
    f = kv(m['f'])
    if ev == 'sched_waking' and pid != 0:
        pending.setdefault(cpu, []).append((pid, int(f['pid']), ts))
    elif ev == 'sched_wakeup':
        dest[int(f['pid'])] = int(f['target_cpu'])
    elif ev == 'sched_switch':
        prev = int(f['prev_pid'])
        ws = [w for w in pending.get(cpu, []) if w[0] == prev]
        if f['prev_state'] in ('S', 'D') and int(f['next_pid']) == 0:
            for w, t, wts in ws:
                if ts - wts <= 100e-6 and dest.get(t, cpu) != cpu:
                    count += 1
        pending[cpu] = []
print(count)
