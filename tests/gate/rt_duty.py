#!/usr/bin/env python3
"""rt_duty.py BUSY_MS PERIOD_MS: spin BUSY_MS of every PERIOD_MS, for ever.

The injected regression of tests/gate/run.sh: started under chrt -f and
taskset on every CPU, it is what a kernel thread turned real-time, or an
interrupt storm, does to the tasks it shares a CPU with (issue 22: "an
RT task with a duty cycle").  A wakeup that lands while it spins waits up
to BUSY_MS.  Ends on SIGTERM.
"""
import signal
import sys
import time

busy, period = (float(a) / 1000 for a in sys.argv[1:3])
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
start = time.monotonic()
while True:
    t = time.monotonic()
    while time.monotonic() - t < busy:
        pass
    # sleep to the next period boundary: the duty cycle stays BUSY/PERIOD
    next_t = start + (int((time.monotonic() - start) / period) + 1) * period
    time.sleep(max(0.0, next_t - time.monotonic()))
