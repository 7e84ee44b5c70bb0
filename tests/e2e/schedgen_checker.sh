#!/bin/sh
# schedgen_checker.sh - the scenario expectation checker (tests/check_expect.py)
# keeps its contract, on hand-made reports: schedlint's own JSON is not
# needed for this.
exec python3 tests/check_expect_test.py
