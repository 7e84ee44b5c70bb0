#!/usr/bin/env python3
# forkchurn.py N [NPIDS] - a tracefs text trace of issue 25's fork churn
# (reproduction 01): bash (pid 500) forks a child N times on cpu0, the
# child's pid cycling through NPIDS pids from 2000 (default 1: the same
# pid every time); each child runs 3 us, exits, wakes bash and switches
# out dead.  Two tasks at most are ever alive: the analysis must not grow
# with N.  Six events per fork, 1 us apart, written to stdout.
import sys

def main():
    n = int(sys.argv[1])
    npids = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    out = sys.stdout
    out.write("# tracer: nop\n#\n# entries-in-buffer/entries-written: %d/%d   #P:2\n#\n"
              "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
              "#              | |         |   |||||     |         |\n" % (6 * n, 6 * n))
    # one fork: {c} the child's pid, {t0}..{t5} its six timestamps
    tmpl = ("            bash-500     [000] d..2. {t0}: sched_process_fork: comm=bash pid=500 "
            "child_comm=bash child_pid={c}\n"
            "            bash-500     [000] d..2. {t1}: sched_wakeup_new: comm=child pid={c} "
            "prio=120 target_cpu=000\n"
            "            bash-500     [000] d..2. {t2}: sched_switch: prev_comm=bash prev_pid=500 "
            "prev_prio=120 prev_state=S ==> next_comm=child next_pid={c} next_prio=120\n"
            "           child-{c:<7d} [000] d..2. {t3}: sched_process_exit: comm=child pid={c} "
            "prio=120\n"
            "           child-{c:<7d} [000] d..2. {t4}: sched_waking: comm=bash pid=500 prio=120 "
            "target_cpu=000\n"
            "           child-{c:<7d} [000] d..2. {t5}: sched_switch: prev_comm=child "
            "prev_pid={c} prev_prio=120 prev_state=X ==> next_comm=bash next_pid=500 "
            "next_prio=120\n")
    us = 1000000    # 1.000000 s
    chunk = []
    for i in range(n):
        ts = ["%d.%06d" % divmod(us + k, 1000000) for k in range(6)]
        chunk.append(tmpl.format(c=2000 + i % npids, t0=ts[0], t1=ts[1], t2=ts[2], t3=ts[3],
                                 t4=ts[4], t5=ts[5]))
        us += 6
        if len(chunk) == 4096:
            out.write("".join(chunk))
            chunk = []
    out.write("".join(chunk))

main()
