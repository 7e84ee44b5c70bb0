#!/usr/bin/env python3
"""whatif_twins_gen.py - write the what-if twin scenarios and their expectations

    python3 tests/whatif_twins_gen.py [OUTDIR]     (default testdata/whatif)

Each twin is two schedgen scenarios of one workload: NAME-bad.scn with
the bad decisions, NAME-fixed.scn with them made the other way (stacked
wakees placed on the idle CPU, synchronous wakees kept on the waker's
CPU, runs switched at the slice, waiters pulled by the CPU that went
idle).  The latencies of both are written down here, from the timelines,
before schedlint runs: NAME.expect.json holds

  args          the analyze options both runs use (--comm: the victims)
  kind          the what-if distribution of the bad run to compare
                (a finding kind, or "all")
  bad_now       p50/p99 of the bad run's wakeup latency, as measured
  predicted     p50/p99 the what-if rule gives for the bad run, computed
                here from the rule of man/schedlint-analyze.1 "WHAT IF"
  fixed         p50/p99 of the fixed run, as measured

tests/whatif_twins.py checks the three against schedlint's output and
that the prediction meets the fixed run within 20% (or 5 us).  Times in
the scenarios are whole microseconds, so the text form (rounded to the
microsecond) gives the same numbers.
"""
import json
import math
import os
import sys

US = 1000
MS = 1000000


def pct(values, p):
    """nearest rank, as schedlint's histograms (exact below 256 ns, within 0.4% above)"""
    v = sorted(values)
    rank = max(1, math.ceil(p / 100.0 * len(v)))
    return v[min(rank, len(v)) - 1]


def stats(values):
    return {"p50_ns": pct(values, 50), "p99_ns": pct(values, 99), "count": len(values)}


def us(t):
    """a scenario time in whole microseconds"""
    assert t % US == 0, t
    return "%dus" % (t // US)


class Scn:
    def __init__(self, header):
        self.lines = ["# " + l if l else "#" for l in header.strip("\n").split("\n")]
        self.lines.append("")

    def add(self, line=""):
        self.lines.append(line)

    def at(self, t, step):
        self.lines.append("@%-10s %s" % (us(t), step))

    def text(self):
        return "\n".join(self.lines) + "\n"


ROUNDS = 24


def sync_twin():
    """sync-wake-remote: a pipe across two idle CPUs vs on one"""
    s = [2, 4, 6, 8, 10, 15, 20, 30]           # ping sleeps s us after waking pong
    s2 = s[4:] + s[:4]                          # pong sleeps s2 us after waking ping
    ipi = 40                                    # us from ipi_send_cpu to the handler
    head = """%s - synchronous wakeups placed %s (what-if twin)

ping and pong wake each other %d times each; each waker sleeps s us after
its waking (s cycles %s for ping, %s for pong),
leaving its CPU idle.  lw and lx, on cpu 2, hand over to each other
locally 48 times: each wakes the other and sleeps 3 us later, and the
wakee runs at that switch (a local handoff: 3 us, 0 us from the waker's
switch-out to the wakee's switch-in).

bad:   the wakee goes to the other CPU through the wakelist, an IPI of
       %d us: waking t, ipi_send t+1, handler t+%d, sched_wakeup t+%d,
       switch-in t+%d: latency %d us, whatever s.
fixed: the wakee is queued on the waker's CPU and runs when the waker
       sleeps: latency s.
what-if rule (sync-wake-remote): s + the trace's median handoff cost
(0 us over 48 block handoffs) = s: the fixed run exactly."""
    out = {}
    for variant in ("bad", "fixed"):
        remote = variant == "bad"
        sc = Scn(head % ("whatif-sync-" + variant,
                         "across CPUs" if remote else "on the waker's CPU",
                         ROUNDS, s, s2, ipi, ipi + 1, ipi + 2, ipi + 3, ipi + 3))
        sc.add("cpus 4")
        sc.add("task 100 ping cpu 0 running")
        sc.add("task 200 pong cpu %d" % (1 if remote else 0))
        sc.add("task 300 lw cpu 2 running")
        sc.add("task 301 lx cpu 2")
        sc.add()
        for i in range(ROUNDS):
            t = 1 * MS + i * MS
            extra = " ipi-delay %dus" % ipi if remote else ""
            sc.at(t, "wake pong from ping" + extra)
            sc.at(t + s[i % 8] * US, "sleep ping")
            sc.at(t + 400 * US, "wake ping from pong" + extra)
            sc.at(t + 400 * US + s2[i % 8] * US, "sleep pong")
            sc.at(t + 700 * US, "wake lx from lw")
            sc.at(t + 703 * US, "sleep lw")
            sc.at(t + 800 * US, "wake lw from lx")
            sc.at(t + 803 * US, "sleep lx")
        out[variant] = sc.text()
    bad = [(ipi + 3) * US] * (2 * ROUNDS)
    fixed = [s[i % 8] * US for i in range(ROUNDS)] + [s2[i % 8] * US for i in range(ROUNDS)]
    predicted = fixed[:]                         # s + 0
    expect = {"args": ["--comm", "ping", "--comm", "pong"], "kind": "sync-wake-remote",
              "findings": 2 * ROUNDS, "bad_now": stats(bad), "predicted": stats(predicted),
              "fixed": stats(fixed)}
    return out, expect


def sync_preempt_twin():
    """sync-wake-remote where this machine's local wakees preempt their waker"""
    s = [10, 15, 20, 25, 30, 35, 40, 50]       # the client sleeps s us after waking the server
    ipi = 40
    head = """%s - requests to a server %s (what-if twin)

Each round the client (cpu 0) wakes the server and sleeps s us later (s
cycles %s); the server runs 5 us and sleeps; an
interrupt wakes the client 400 us later.  On cpu 2 lw wakes lx, which
preempts it at once (wakeup preemption, 2 us after the waking); lx runs 8 us
and sleeps, lw blocks 3 us after: %d local handoffs, all by preemption.

bad:   the server is woken on cpu 1 through the wakelist, an IPI of %d us:
       latency %d us.
fixed: the server is woken on the client's CPU and preempts it, as lx does
       lw: latency 2 us.
what-if rule (sync-wake-remote): most of this trace's local handoffs were
the wakee preempting its waker, after 2 us (median): min(s + 0, 2 us)."""
    out = {}
    for variant in ("bad", "fixed"):
        remote = variant == "bad"
        sc = Scn(head % ("whatif-syncp-" + variant,
                         "on another CPU" if remote else "kept on the client's CPU",
                         s, ROUNDS, ipi, ipi + 3))
        sc.add("cpus 4")
        sc.add("task 100 client cpu 0 running")
        sc.add("task 200 server cpu %d" % (1 if remote else 0))
        sc.add("task 300 lw cpu 2 running")
        sc.add("task 301 lx cpu 2")
        sc.add()
        for i in range(ROUNDS):
            t = 1 * MS + i * MS
            si = s[i % 8] * US
            if remote:   # the server runs at t + 43 us, 5 us
                steps = [(t, "wake server from client ipi-delay %dus" % ipi),
                         (t + (ipi + 8) * US, "sleep server"), (t + si, "sleep client")]
            else:        # the server preempts the client at t + 2 us, runs 5 us
                steps = [(t, "wake server from client preempt"), (t + 7 * US, "sleep server"),
                         (t + si, "sleep client")]
            for when, step in sorted(steps):
                sc.at(when, step)
            sc.at(t + 400 * US, "wake client on cpu 0")
            sc.at(t + 700 * US, "wake lx from lw preempt")
            sc.at(t + 710 * US, "sleep lx")
            sc.at(t + 713 * US, "sleep lw")
            sc.at(t + 800 * US, "wake lw on cpu 2")
        out[variant] = sc.text()
    bad = [(ipi + 3) * US] * ROUNDS
    fixed = [2 * US] * ROUNDS
    expect = {"args": ["--comm", "server"], "kind": "sync-wake-remote", "findings": ROUNDS,
              "bad_now": stats(bad), "predicted": stats(fixed), "fixed": stats(fixed)}
    return out, expect


def stacking_twin():
    """wakee-stacking: a wakee stacked behind a hog vs placed on an idle CPU"""
    w = [100, 200, 300, 400, 500, 600, 700, 800]     # us the stacked wakee waits
    d = [10, 12, 14, 16, 18, 20, 25, 30]             # us of IPI delay, per round
    head = """%s - wakeups %s (what-if twin)

4 CPUs, one LLC.  hog runs on cpu 0, waker on cpu 1; cpus 2 and 3 idle.
Each round the waker wakes wk, then, 1 ms later, b on the idle cpu 3
through the wakelist with an IPI of d us (d cycles %s):
b's latency is d + 3 us (waking t, ipi_send t+1, handler t+1+d,
sched_wakeup t+2+d, switch-in t+3+d): the trace's idle placements,
remote with an IPI, %d of them.  wk ran on cpus 3 and 2 first (migratable).

bad:   wk is placed on cpu 0 behind the hog and runs when the hog is
       preempted w us later (w cycles %s): latency w.
fixed: wk is placed on the idle cpu 2 through the wakelist, with the
       round's IPI delay: latency d + 3 us.
what-if rule (wakee-stacking): the latency of this trace's wakeups placed
on an idle CPU by the same path (remote, IPI): b's d + 3 us; each stacked
wakeup gets one of their quantiles in turn."""
    out = {}
    for variant in ("bad", "fixed"):
        bad = variant == "bad"
        sc = Scn(head % ("whatif-stacking-" + variant,
                         "stacked on a busy CPU" if bad else "placed on an idle CPU",
                         d, ROUNDS, w))
        sc.add("cpus 4")
        sc.add("task 100 hog cpu 0")
        sc.add("task 101 waker cpu 1 running")
        sc.add("task 200 wk cpu 3")
        sc.add("task 300 b cpu 3")
        sc.add()
        sc.at(0, "run hog on cpu 0")
        sc.at(10 * US, "run wk on cpu 3 for 20us")
        sc.at(50 * US, "run wk on cpu 2 for 20us")
        for i in range(ROUNDS):
            t = 1 * MS + i * 2 * MS
            if bad:
                sc.at(t, "wake wk from waker to cpu 0")
                sc.at(t + w[i % 8] * US, "preempt cpu 0")
                sc.at(t + w[i % 8] * US + 20 * US, "sleep wk")
            else:
                sc.at(t, "wake wk from waker to cpu 2 ipi-delay %dus" % d[i % 8])
                sc.at(t + 200 * US, "sleep wk")
            sc.at(t + 1 * MS, "wake b from waker to cpu 3 ipi-delay %dus" % d[i % 8])
            sc.at(t + 1100 * US, "sleep b")
        out[variant] = sc.text()
    basis = [(d[i % 8] + 3) * US for i in range(ROUNDS)]
    bad = [w[i % 8] * US for i in range(ROUNDS)]
    fixed = [(d[i % 8] + 3) * US for i in range(ROUNDS)]
    # quantile (i + 0.5) / n of the basis for the i-th of n stacked wakeups
    n = len(bad)
    predicted = [pct(basis, 100.0 * (i + 0.5) / n) for i in range(n)]
    warm = [2 * US, 3 * US]     # wk's warm-up runs: a timer interrupt wakes it (+1 us migrating)
    expect = {"args": ["--comm", "wk"], "kind": "wakee-stacking", "findings": ROUNDS,
              "bad_now": stats(warm + bad), "predicted": stats(warm + predicted),
              "fixed": stats(warm + fixed)}
    return out, expect


def late_twin():
    """late-preemption: waiters behind a run past its slice vs switched at the slice"""
    o = [300, 400, 500, 600, 700, 800]     # us after the previous tick X is woken
    head = """%s - waiters behind a fair run, %s (what-if twin)

2 CPUs.  hog1 runs on cpu 0.  Each round X, then Y 200 us later, are woken
by an interrupt on cpu 0 and queued behind hog1 (X is woken o us after the
previous round, o cycles %s).  On cpu 1 ha and hb take
turns every 1.520 ms: each run is contended from its start and switched
20 us after the expected time (EEVDF, 2 CPUs: base slice 1.5 ms), on time:
this trace's switches at the slice come 20 us late (the range's top).

bad:   hog1 is switched out only at the 4 ms tick T: X runs at T, Y 50 us
       later: X waited 4 ms - o, Y 3.85 ms - o.  hog1's run should have
       ended at te = X's enqueue (waking + 1 us) + 1.5 ms.
fixed: hog1 is switched at te: X waits 1501 us, Y 1351 us.
what-if rule (late-preemption): the waiters that ran one after another from
the late switch until hog1 ran again start T - te earlier, each at most
back to its own enqueue: X 1501 us, Y 1351 us."""
    out = {}
    for variant in ("bad", "fixed"):
        bad = variant == "bad"
        sc = Scn(head % ("whatif-late-" + variant,
                         "switched at the tick" if bad else "switched at the slice", o))
        sc.add("cpus 2")
        sc.add("task 100 hog1 cpu 0")
        sc.add("task 200 X cpu 0")
        sc.add("task 201 Y cpu 0")
        sc.add("task 300 ha cpu 1 running")
        sc.add("task 301 hb cpu 1 runnable")
        sc.add()
        sc.at(0, "run hog1 on cpu 0")
        sc.at(0, "hogs ha hb on cpu 1 slice 1520us for %dms" % (4 * ROUNDS + 12))
        for k in range(ROUNDS):
            T = 4 * MS * (k + 2)
            wx = T - 4 * MS + o[k % 6] * US
            sc.at(wx, "wake X on cpu 0")
            sc.at(wx + 200 * US, "wake Y on cpu 0")
            sw = T if bad else wx + 1501 * US
            sc.at(sw, "preempt cpu 0")
            sc.at(sw + 50 * US, "sleep X")
            sc.at(sw + 100 * US, "sleep Y")
        out[variant] = sc.text()
    bad, fixed = [], []
    for k in range(ROUNDS):
        bad += [4 * MS - o[k % 6] * US, 3850 * US - o[k % 6] * US]
        fixed += [1501 * US, 1351 * US]
    # no --comm: a late-preemption finding is hog1's, and only X and Y wake
    warm = [2 * US]             # hog1's start: a timer interrupt wakes it on the idle cpu 0
    expect = {"args": [], "kind": "late-preemption",
              "findings": ROUNDS, "bad_now": stats(warm + bad), "predicted": stats(warm + fixed),
              "fixed": stats(warm + fixed)}
    return out, expect


def idle_twin():
    """idle-while-runnable: a waiter next to an idle CPU vs pulled by it"""
    m = [5, 8, 10, 12, 15, 20]      # us from a pull's sched_migrate_task to the switch-in
    head = """%s - a waiter next to a CPU that %s (what-if twin)

4 CPUs in two LLCs (0-1, 2-3, from the schedlint: llc= marker).  hog runs
on cpu 0, b1 on cpu 1.  Each round b1 wakes T onto cpu 0 (busy, and so is
cpu 1: not stacking); 300 us later b1 sleeps and cpu 1 idles until b1 is
woken there at 3 ms.  On cpus 2-3 the same shape pulls P: woken behind hog2
on cpu 2, pulled by cpu 3 when b2 sleeps there; the pull's switch-in comes
m us after its sched_migrate_task (m cycles %s): this
trace's cost of a migration-and-run, %d pulls.

bad:   T waits on cpu 0 until hog is preempted at 2 ms (not late: the
       slice on 4 CPUs is 2.25 ms): latency 2000 us, of which 1700 us
       overlap cpu 1's idle period.
fixed: cpu 1 pulls T when it goes idle: sched_migrate_task at 301 us,
       switch-in m us later: latency 301 us + m.
what-if rule (idle-while-runnable): the wait shrinks by the overlap less
the trace's median migration-and-run (10 us over the pulls):
2000 - (1700 - 10) = 310 us."""
    out = {}
    for variant in ("bad", "fixed"):
        bad = variant == "bad"
        sc = Scn(head % ("whatif-idle-" + variant,
                         "idles" if bad else "pulls it", m, ROUNDS))
        sc.add("cpus 4")
        sc.add("task 100 hog cpu 0 running")
        sc.add("task 101 b1 cpu 1 running")
        sc.add("task 102 hog2 cpu 2 running")
        sc.add("task 103 b2 cpu 3 running")
        sc.add("task 200 T cpu 0")
        sc.add("task 300 P cpu 3")
        sc.add()
        sc.at(0, "mark schedlint: llc=0-1,2-3")
        sc.at(10 * US, "run T on cpu 1 for 20us")
        sc.at(50 * US, "run T on cpu 0 for 20us")
        for i in range(ROUNDS):
            t = 1 * MS + i * 5 * MS
            mi = m[i % 6]
            sc.at(t, "wake T from b1 to cpu 0")
            sc.at(t + 300 * US, "sleep b1")
            if bad:
                sc.at(t + 2 * MS, "preempt cpu 0")
                sc.at(t + 2050 * US, "sleep T")
            else:
                sc.add("gap %dus" % mi)
                sc.at(t + 301 * US, "migrate T to cpu 1")
                sc.add("gap 1us")
                sc.at(t + 400 * US, "sleep T")
            sc.at(t + 3 * MS, "wake b1 on cpu 1")
            # the pull the trace measures, on the other LLC
            sc.at(t + 3500 * US, "wake P from hog2 to cpu 2")
            sc.at(t + 3700 * US, "sleep b2")
            sc.add("gap %dus" % mi)
            sc.at(t + 3701 * US, "migrate P to cpu 3")
            sc.add("gap 1us")
            sc.at(t + 3800 * US, "sleep P")
            sc.at(t + 4 * MS, "wake b2 on cpu 3")
        out[variant] = sc.text()
    bad = [2000 * US] * ROUNDS
    fixed = [(301 + m[i % 6]) * US for i in range(ROUNDS)]
    pulls = [m[i % 6] * US for i in range(ROUNDS)]
    predicted = [2000 * US - (1700 * US - pct(pulls, 50))] * ROUNDS
    warm = [3 * US, 3 * US]     # T's warm-up runs, each with a migrate
    expect = {"args": ["--comm", "T"], "kind": "idle-while-runnable", "findings": ROUNDS,
              "bad_now": stats(warm + bad), "predicted": stats(warm + predicted),
              "fixed": stats(warm + fixed)}
    return out, expect


def mixed_twin():
    """every kind in one trace: the what-if of all kinds together"""
    d = [10, 12, 14, 16, 18, 20, 25, 30]
    s = [2, 4, 6, 8, 10, 15, 20, 30]
    s2 = s[4:] + s[:4]
    head = """%s - every kind of decision in one workload, %s (what-if twin)

4 CPUs, one LLC: hog on cpu 0, waker on cpu 1, cpus 2 and 3 mostly idle.
Every 8 ms:
  0 us     the waker wakes wk (migratable)
  1500 us  the waker wakes b on the idle cpu 3, IPI of d us (d cycles
           %s): latency d + 3
  2000 us  an interrupt wakes ping on the idle cpu 2 (latency 2 us); ping
           wakes pong at 2010 us and sleeps s us later (s cycles
           %s); pong wakes ping at 2300 us and sleeps s2 us later
  2500 us  the waker and lx hand over to each other on cpu 1 (3 us each)
  2700 us  an interrupt wakes X on cpu 0, queued behind hog (contended from
           2701 us: expected switch 2701 + 2250 us = 4951 us on 4 CPUs)
bad:
  wk is stacked on cpu 0 and runs at 1200 us when hog is preempted
  (wakee-stacking, and idle-while-runnable: cpus 2-3 idle all along);
  pong and ping go to the other idle CPU with an IPI of d us (latency
  d + 3: sync-wake-remote, and idle placements of the same path as b);
  hog runs on until 7000 us: X waits 4300 us (late-preemption).
fixed:
  wk goes to the idle cpu 2 with the round's IPI delay: d + 3; pong and
  ping stay on cpu 2 and run when the waker sleeps: s, s2; hog is switched
  at 4951 us (the trace has no switches at the slice to take a delay
  from): X waits 2251 us.
what-if rule, all kinds: a wakeup hit by a placement kind gets the
placement's estimate (wk: stacking, not idle-while-runnable: placed on
the idle CPU it never waits behind hog); wk gets the quantiles of the 72
remote idle placements (b, pong, ping: d + 3, each d 9 times)."""
    out = {}
    for variant in ("bad", "fixed"):
        bad = variant == "bad"
        sc = Scn(head % ("whatif-mixed-" + variant,
                         "decided badly" if bad else "decided well", d, s))
        sc.add("cpus 4")
        sc.add("task 100 hog cpu 0")
        sc.add("task 101 waker cpu 1 running")
        sc.add("task 200 wk cpu 3")
        sc.add("task 300 b cpu 3")
        sc.add("task 400 ping cpu 2")
        sc.add("task 401 pong cpu %d" % (3 if bad else 2))
        sc.add("task 500 lx cpu 1")
        sc.add("task 600 X cpu 0")
        sc.add()
        sc.at(0, "run hog on cpu 0")
        sc.at(10 * US, "run wk on cpu 3 for 20us")
        sc.at(50 * US, "run wk on cpu 2 for 20us")
        for k in range(ROUNDS):
            t = 1 * MS + k * 8 * MS
            dk, dk3 = d[k % 8], d[(k + 3) % 8]
            if bad:
                sc.at(t, "wake wk from waker to cpu 0")
                sc.at(t + 1200 * US, "preempt cpu 0")
                sc.at(t + 1250 * US, "sleep wk")
            else:
                sc.at(t, "wake wk from waker to cpu 2 ipi-delay %dus" % dk)
                sc.at(t + 200 * US, "sleep wk")
            sc.at(t + 1500 * US, "wake b from waker to cpu 3 ipi-delay %dus" % dk)
            sc.at(t + 1600 * US, "sleep b")
            sc.at(t + 2000 * US, "wake ping on cpu 2")
            sc.at(t + 2010 * US, "wake pong from ping" + (" ipi-delay %dus" % dk if bad else ""))
            sc.at(t + 2010 * US + s[k % 8] * US, "sleep ping")
            sc.at(t + 2300 * US, "wake ping from pong" + (" ipi-delay %dus" % dk3 if bad else ""))
            sc.at(t + 2300 * US + s2[k % 8] * US, "sleep pong")
            sc.at(t + 2400 * US, "sleep ping")
            sc.at(t + 2500 * US, "wake lx from waker")
            sc.at(t + 2503 * US, "sleep waker")
            sc.at(t + 2600 * US, "wake waker from lx")
            sc.at(t + 2603 * US, "sleep lx")
            sc.at(t + 2700 * US, "wake X on cpu 0")
            sw = t + (7000 if bad else 4951) * US
            sc.at(sw, "preempt cpu 0")
            sc.at(sw + 50 * US, "sleep X")
        out[variant] = sc.text()
    # hog's start, wk's two warm-up runs
    common, bad, fixed, predicted = [2 * US, 2 * US, 3 * US], [], [], []
    basis = []
    for k in range(ROUNDS):
        dk, dk3 = d[k % 8], d[(k + 3) % 8]
        common += [(dk + 3) * US, 2 * US, 3 * US, 3 * US]      # b, ping by irq, two handoffs
        basis += [(dk + 3) * US, (dk + 3) * US, (dk3 + 3) * US]  # b, pong, ping (bad run)
        bad += [1200 * US, (dk + 3) * US, (dk3 + 3) * US, 4300 * US]
        fixed += [(dk + 3) * US, s[k % 8] * US, s2[k % 8] * US, 2251 * US]
    n = ROUNDS
    wk_pred = [pct(basis, 100.0 * (i + 0.5) / n) for i in range(n)]
    for k in range(ROUNDS):
        predicted += [wk_pred[k], s[k % 8] * US, s2[k % 8] * US, 2251 * US]
    expect = {"args": [], "kind": "all", "findings": 5 * ROUNDS,    # sync: two a round
              "bad_now": stats(common + bad), "predicted": stats(common + predicted),
              "fixed": stats(common + fixed)}
    return out, expect


TWINS = {"sync": sync_twin, "syncp": sync_preempt_twin, "stacking": stacking_twin, "late": late_twin,
         "idle": idle_twin, "mixed": mixed_twin}


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else "testdata/whatif"
    os.makedirs(outdir, exist_ok=True)
    for name, fn in TWINS.items():
        scns, expect = fn()
        for variant, text in scns.items():
            with open(os.path.join(outdir, "whatif-%s-%s.scn" % (name, variant)), "w") as f:
                f.write(text)
        with open(os.path.join(outdir, "whatif-%s.expect.json" % name), "w") as f:
            json.dump(expect, f, indent=1, sort_keys=True)
            f.write("\n")
        print("%-9s bad p50/p99 %s/%s  predicted %s/%s  fixed %s/%s (ns)" % (
            name, expect["bad_now"]["p50_ns"], expect["bad_now"]["p99_ns"],
            expect["predicted"]["p50_ns"], expect["predicted"]["p99_ns"],
            expect["fixed"]["p50_ns"], expect["fixed"]["p99_ns"]))


if __name__ == "__main__":
    main()
