#!/usr/bin/env python3
# pidreuse.py N [K [LAST]] - a tracefs text trace of N children of bash
# (pid 500) on cpu0, every one with pid 2000 and no exit: each child's
# fork reuses the pid while the child before is still alive, so the model
# ends it there (handle_fork()).  Each child is woken K times (default
# 13), the first by its fork (sched_wakeup_new), its K - 1 wakeup
# latencies K - 1 .. 1 us; it sleeps (S) 1 us between runs.  Its last
# switch-out (LAST): R, preempted, still queued when the next fork comes
# 1 us later (the default); S, asleep, the next fork 1 us later; W,
# asleep, woken 1 us later and not run, the next fork 5 us after that.
# Every child is the same: the same latencies, the same report.  Written
# to stdout.
import sys

def main():
    n = int(sys.argv[1])
    k_runs = int(sys.argv[2]) if len(sys.argv) > 2 else 13
    last = sys.argv[3] if len(sys.argv) > 3 else "R"
    lines = []
    us = 1000000000    # 1000.000000 s
    for _ in range(n):
        ev = [("bash", 500, "sched_process_fork: comm=bash pid=500 child_comm=bash child_pid=2000", 1)]
        for k in range(k_runs):
            if k == 0:
                ev.append(("bash", 500, "sched_wakeup_new: comm=child pid=2000 prio=120 target_cpu=000",
                           k_runs - k))
            else:
                ev.append(("bash", 500, "sched_waking: comm=child pid=2000 prio=120 target_cpu=000",
                           k_runs - k))
            ev.append(("bash", 500, "sched_switch: prev_comm=bash prev_pid=500 prev_prio=120 "
                       "prev_state=R ==> next_comm=child next_pid=2000 next_prio=120", 1))
            ev.append(("child", 2000, "sched_switch: prev_comm=child prev_pid=2000 prev_prio=120 "
                       "prev_state=%s ==> next_comm=bash next_pid=500 next_prio=120"
                       % ("S" if k < k_runs - 1 or last != "R" else "R"), 1))
        if last == "W":
            ev.append(("bash", 500, "sched_waking: comm=child pid=2000 prio=120 target_cpu=000", 5))
        for comm, pid, text, step in ev:
            lines.append("%16s-%-7d [000] d..2. %d.%06d: %s\n" % (comm, pid, us // 1000000, us % 1000000,
                                                                 text))
            us += step
    sys.stdout.write("# tracer: nop\n#\n# entries-in-buffer/entries-written: %d/%d   #P:1\n#\n"
                     "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
                     "#              | |         |   |||||     |         |\n" % (len(lines), len(lines)))
    sys.stdout.write("".join(lines))

main()
