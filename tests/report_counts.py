#!/usr/bin/env python3
"""report_counts.py - count events per name in `trace-cmd report` output.

An independent count to hold schedlint's against: trace-cmd parses the
file with its own code, we only read the event-name column of its lines.
Prints a JSON object {name: count}.
"""
import json
import re
import sys

EVENT = re.compile(r'\[\d+\]\s+(?:\S+\s+)?\d+\.\d+:\s+([A-Za-z0-9_]+):')
counts = {}
for line in sys.stdin:
    m = EVENT.search(line)
    if m:
        counts[m.group(1)] = counts.get(m.group(1), 0) + 1
json.dump(counts, sys.stdout, sort_keys=True)
