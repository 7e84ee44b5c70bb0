#!/usr/bin/env python3
"""sync_wake_match.py - hold analyze's sync-wake-remote findings against the oracle's list.

usage: sync_wake_match.py ANALYZE_JSON ORACLE_LIST MODE
  ANALYZE_JSON  analyze --json --max-findings=N output (every finding listed)
  ORACLE_LIST   sync_wake_oracle.py --list output of the same trace
  MODE          exact: the two name the same wakeups;
                subset: every finding is one of the oracle's patterns, and
                the findings are at least 80% of them (the oracle ignores
                the analyzer's finer conditions) or at most 5 short.
A finding and a pattern are the same wakeup when waker, wakee, both CPUs
agree and the waking times are within 1 us (report prints microseconds).
Prints one line saying how they compare; exits 1 when they do not.
"""
import json, sys

d = json.load(open(sys.argv[1]))
mode = sys.argv[3]
found = [f for f in d['findings'] if f['kind'] == 'sync-wake-remote']
if d['summary']['sync-wake-remote']['count'] != len(found):
    sys.exit('the findings list is capped: use --max-findings')
oracle = {}
for line in open(sys.argv[2]):
    ts, a, w, t, b = line.split()
    s, us = ts.split('.')
    key = (int(a), int(w), int(t), int(b))
    oracle.setdefault(key, []).append(int(s) * 1000000 + int(us))
extra = []
for f in found:
    us = (f['ts_ns'] + 500) // 1000
    cands = oracle.get((f['waker_cpu'], f['waker_pid'], f['pid'], f['cpu']), [])
    hit = next((i for i, o in enumerate(cands) if abs(o - us) <= 1), None)
    if hit is None:
        extra.append(f)
    else:
        cands.pop(hit)
missed = sum(len(v) for v in oracle.values())
n_oracle = len(found) - len(extra) + missed
msg = (f"analyze {len(found)}, trace-cmd report {n_oracle}: {len(extra)} only in analyze, "
       f"{missed} only in the report")
ok = not extra
if mode == 'exact':
    ok = ok and not missed
else:
    ok = ok and (len(found) * 10 >= n_oracle * 8 or missed <= 5)
for f in extra[:3]:
    msg += "; only in analyze: waking %.6f cpu%d %d -> %d on cpu%d" % (
        f['ts_ns'] / 1e9, f['waker_cpu'], f['waker_pid'], f['pid'], f['cpu'])
print(msg)
sys.exit(0 if ok else 1)
