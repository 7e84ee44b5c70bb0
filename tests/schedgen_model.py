#!/usr/bin/env python3
"""schedgen_model.py - check that a generated trace obeys SPEC.md's state model

    python3 tests/schedgen_model.py TRACE.txt

Reads tracefs text as schedgen writes it and replays the rules of "The
state model" independently of schedlint: every CPU's current task, queued
and pending tasks, the wakeup sequence (waking -> migrate -> wakeup), and
that every event is logged by the task the model says runs there.  Prints
the first problems and exits 1 when there are any, else prints a summary.

A scenario that breaks the model on purpose (event lines for a stale task
state, say) is not checked: the tests skip scenarios marked
"#! model-check: off".
"""
import sys



def parse(line):
    """'  comm-pid  [cpu] flags  ts: name: k=v k=v' -> cpu, ts (us), pid, name, fields"""
    left = line.index(' [')
    right = line.index('] ', left)
    pid = line[:left].rsplit('-', 1)[1]
    rest = line[right + 2:].split(' ', 1)[1]
    ts, name, fields = rest.lstrip().split(': ', 2)
    secs, us = ts.split('.')
    f = dict(kv.split('=', 1) for kv in fields.split() if '=' in kv)
    return int(line[left + 2:right]), int(secs) * 1000000 + int(us), int(pid), name, f


class Model:
    def __init__(self):
        self.curr = {}        # cpu -> pid running (0 = idle); absent = unknown
        self.where = {}       # pid -> (state, cpu): running, queued, waking, blocked, dead
        self.waking = {}      # pid -> destination decided so far in a wakeup
        self.last_ts = {}     # cpu -> last timestamp (us)
        self.ipis = {}        # cpu -> IPIs sent to it and not yet handled
        self.errors = []
        self.events = 0
        self.lineno = 0

    def error(self, msg):
        if len(self.errors) < 20:
            self.errors.append('line %d: %s' % (self.lineno, msg))
        else:
            self.errors[-1] = '... and more'

    def state(self, pid):
        return self.where.get(pid, (None, None))

    def set(self, pid, st, cpu):
        if pid:
            self.where[pid] = (st, cpu)

    def lost(self, cpu):
        # the CPU's state is unknown until its next sched_switch
        self.curr.pop(cpu, None)

    def event(self, cpu, ts, pid, name, f):
        self.events += 1
        if ts < self.last_ts.get(cpu, 0):
            self.error('cpu %d: time goes back' % cpu)
        self.last_ts[cpu] = ts
        if cpu in self.curr and self.curr[cpu] != pid:
            self.error('cpu %d: %s logged by pid %d, but pid %d runs there'
                       % (cpu, name, pid, self.curr[cpu]))
        handler = getattr(self, 'ev_' + name, None)
        if handler:
            handler(cpu, f)

    def ev_sched_switch(self, cpu, f):
        prev, nxt, state = int(f['prev_pid']), int(f['next_pid']), f['prev_state']
        if cpu in self.curr and self.curr[cpu] != prev:
            self.error('cpu %d: switch from %d, but %d runs there' % (cpu, prev, self.curr[cpu]))
        if prev:
            if state in ('R', 'R+') or state.isdigit() and (int(state) == 0 or int(state) >= 256):
                self.set(prev, 'queued', cpu)
            elif state in ('X', 'Z', 'x') or state.isdigit() and int(state) in (16, 32, 64):
                self.set(prev, 'dead', cpu)
            else:
                self.set(prev, 'blocked', cpu)
        if nxt:
            st, where = self.state(nxt)
            if st is not None and (st != 'queued' or where != cpu):
                self.error('cpu %d: %d switched in, but it is %s on cpu %s' % (cpu, nxt, st, where))
            self.set(nxt, 'running', cpu)
            self.waking.pop(nxt, None)
        self.curr[cpu] = nxt

    def ev_sched_waking(self, cpu, f):
        pid, target = int(f['pid']), int(f['target_cpu'])
        st, where = self.state(pid)
        if st in ('blocked', 'running', 'queued') and where != target:
            self.error('waking of %d names cpu %d, but it was last on cpu %s' % (pid, target, where))
        if st == 'dead':
            self.error('waking of dead task %d' % pid)
        if st in (None, 'blocked'):
            self.waking[pid] = target

    def ev_sched_migrate_task(self, cpu, f):
        pid, orig, dest = int(f['pid']), int(f['orig_cpu']), int(f['dest_cpu'])
        st, where = self.state(pid)
        if st is not None and where != orig:
            self.error('migrate of %d from cpu %d, but it is %s on cpu %s' % (pid, orig, st, where))
        if st == 'running':
            self.error('migrate of %d while it runs' % pid)
        if pid in self.waking:
            self.waking[pid] = dest
        elif st == 'queued':
            self.set(pid, 'queued', dest)
        elif st is not None:
            self.set(pid, st, dest)

    def ev_sched_wakeup(self, cpu, f):
        pid, target = int(f['pid']), int(f['target_cpu'])
        st, where = self.state(pid)
        if st in ('running', 'queued'):
            if where != target:
                self.error('wakeup of %s task %d names cpu %d, not %s' % (st, pid, target, where))
            return
        if pid in self.waking and self.waking[pid] != target:
            self.error('wakeup of %d on cpu %d, but its wakeup placed it on %d'
                       % (pid, target, self.waking[pid]))
        self.waking.pop(pid, None)
        if st == 'dead':
            self.error('wakeup of dead task %d' % pid)
        self.set(pid, 'queued', target)

    def ev_sched_wakeup_new(self, cpu, f):
        pid, target = int(f['pid']), int(f['target_cpu'])
        if self.state(pid)[0] not in (None, 'new'):
            self.error('wakeup_new of %d, which exists already' % pid)
        self.set(pid, 'queued', target)

    def ev_sched_process_fork(self, cpu, f):
        child = int(f['child_pid'])
        if self.state(child)[0] is not None:
            self.error('fork of %d, which exists already' % child)
        self.set(child, 'new', cpu)

    def ev_ipi_send_cpu(self, cpu, f):
        target = int(f['cpu'])
        self.ipis[target] = self.ipis.get(target, 0) + 1

    def ipi_entry(self, cpu):
        if self.ipis.get(cpu, 0) <= 0:
            self.error('cpu %d: IPI handled but none was sent' % cpu)
        self.ipis[cpu] = self.ipis.get(cpu, 0) - 1

    def ev_call_function_single_entry(self, cpu, f):
        self.ipi_entry(cpu)

    def ev_reschedule_entry(self, cpu, f):
        if any(self.ipis.values()):     # 4.x logs no ipi_send_cpu
            self.ipi_entry(cpu)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2].strip())
        return 2
    m = Model()
    with open(sys.argv[1]) as f:
        for line in f:
            m.lineno += 1
            if line.startswith('#'):
                continue
            line = line.rstrip('\n')
            if line.startswith('CPU:'):
                m.lost(int(line[4:].split(' ', 1)[0]))
                continue
            try:
                cpu, ts, pid, name, fields = parse(line)
            except (ValueError, IndexError):
                m.error('not a trace line: %r' % line[:80])
                continue
            m.event(cpu, ts, pid, name, fields)
    for e in m.errors:
        print(e)
    if m.errors:
        return 1
    print('%d events, %d tasks: consistent' % (m.events, len(m.where)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
