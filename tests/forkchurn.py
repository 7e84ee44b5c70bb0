#!/usr/bin/env python3
# forkchurn.py N [NPIDS [NCOMMS]] - a tracefs text trace of issue 25's fork
# churn (reproduction 01): bash (pid 500) forks a child N times on cpu0,
# the child's pid cycling through NPIDS pids from 2000 (default 1: the same
# pid every time) and its comm through NCOMMS names (default 1: "child";
# more: "child0", "child1", ...); each child runs 3 us, exits, wakes bash
# and switches out dead.  Two tasks at most are ever alive: the analysis must not grow
# with N.  Six events per fork, 1 us apart, written to stdout.
import sys

def main():
    n = int(sys.argv[1])
    npids = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    ncomms = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    out = sys.stdout
    out.write("# tracer: nop\n#\n# entries-in-buffer/entries-written: %d/%d   #P:2\n#\n"
              "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
              "#              | |         |   |||||     |         |\n" % (6 * n, 6 * n))
    # one fork: {c} the child's pid, {n} its comm, {t0}..{t5} its six timestamps
    tmpl = ("            bash-500     [000] d..2. {t0}: sched_process_fork: comm=bash pid=500 "
            "child_comm=bash child_pid={c}\n"
            "            bash-500     [000] d..2. {t1}: sched_wakeup_new: comm={n} pid={c} "
            "prio=120 target_cpu=000\n"
            "            bash-500     [000] d..2. {t2}: sched_switch: prev_comm=bash prev_pid=500 "
            "prev_prio=120 prev_state=S ==> next_comm={n} next_pid={c} next_prio=120\n"
            "{n:>16}-{c:<7d} [000] d..2. {t3}: sched_process_exit: comm={n} pid={c} "
            "prio=120\n"
            "{n:>16}-{c:<7d} [000] d..2. {t4}: sched_waking: comm=bash pid=500 prio=120 "
            "target_cpu=000\n"
            "{n:>16}-{c:<7d} [000] d..2. {t5}: sched_switch: prev_comm={n} "
            "prev_pid={c} prev_prio=120 prev_state=X ==> next_comm=bash next_pid=500 "
            "next_prio=120\n")
    us = 1000000    # 1.000000 s
    chunk = []
    for i in range(n):
        ts = ["%d.%06d" % divmod(us + k, 1000000) for k in range(6)]
        comm = "child" if ncomms == 1 else "child%d" % (i % ncomms)
        chunk.append(tmpl.format(c=2000 + i % npids, n=comm, t0=ts[0], t1=ts[1], t2=ts[2], t3=ts[3],
                                 t4=ts[4], t5=ts[5]))
        us += 6
        if len(chunk) == 4096:
            out.write("".join(chunk))
            chunk = []
    out.write("".join(chunk))

main()
