#!/usr/bin/env python3
"""whatif_twins.py - does the what-if of a bad run predict its fixed twin?

    python3 tests/whatif_twins.py NAME.expect.json BAD.json FIXED.json

BAD.json and FIXED.json are `schedlint analyze --json ARGS` of the two
scenarios of a twin (tests/whatif_twins_gen.py writes them and
NAME.expect.json, the numbers written down from the timelines before
schedlint ran).  Checked, p50 and p99 each:

  measured   the bad run's wakeup latency is expect's bad_now, the fixed
             run's is expect's fixed (within 1%: schedlint's histograms
             are within 0.4%), and the bad run has expect's findings of
             the kind (all listed kinds for "all")
  predicted  the bad run's whatif.kinds[KIND].if_fixed (whatif.all for
             "all") is expect's predicted (within 1%)
  twin       that prediction meets the fixed run's measured latency
             within 20% or 5 us: issue 21's acceptance

Prints one line per check, "ok ..." or "not ok ...: why"; exits 1 if any
failed, 2 on unusable input.
"""
import json
import sys

REL = 0.01
TWIN_REL, TWIN_ABS = 0.20, 5000


def close(got, want, rel=REL, abs_ns=0):
    return abs(got - want) <= max(rel * abs(want), abs_ns)


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        expect, bad, fixed = (json.load(open(p)) for p in sys.argv[1:])
    except (OSError, ValueError) as e:
        print("unusable input: %s" % e, file=sys.stderr)
        return 2
    kind = expect["kind"]
    failed = 0

    def check(name, ok, why):
        nonlocal failed
        if ok:
            print("ok %s" % name)
        else:
            failed += 1
            print("not ok %s: %s" % (name, why))

    w = bad.get("whatif")
    if not isinstance(w, dict):
        print("not ok the bad run has a whatif object")
        return 1
    pred = w["all"] if kind == "all" else w["kinds"][kind]
    if kind == "all":
        found = w["all"]["findings"]
    else:
        found = bad["summary"][kind]["count"]
    check("findings", found == expect["findings"],
          "%s: %d findings, expected %d" % (kind, found, expect["findings"]))
    for p in ("p50_ns", "p99_ns"):
        got = bad["wakeup_latency"][p]
        check("bad %s" % p, close(got, expect["bad_now"][p]),
              "measured %d, expected %d" % (got, expect["bad_now"][p]))
        got = fixed["wakeup_latency"][p]
        check("fixed %s" % p, close(got, expect["fixed"][p]),
              "measured %d, expected %d" % (got, expect["fixed"][p]))
        got = pred["if_fixed"][p]
        check("predicted %s" % p, close(got, expect["predicted"][p]),
              "what-if %d, expected %d" % (got, expect["predicted"][p]))
        meas = fixed["wakeup_latency"][p]
        check("twin %s" % p, close(got, meas, TWIN_REL, TWIN_ABS),
              "what-if %d vs the fixed run's %d: more than 20%% and 5 us apart" % (got, meas))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
