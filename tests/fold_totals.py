#!/usr/bin/env python3
# fold_totals.py A.json B.json - are two analyze --json reports the same
# but for the per-task lists?  Folding dead tasks (--keep-tasks) may only
# shorten those (tasks, accounting.tasks, late_preemption.tasks,
# whatif.tasks) and fill tasks_folded.  Prints "same", or each difference.
import json
import sys

PER_TASK = {("tasks",), ("tasks_folded",), ("accounting", "tasks"),
            ("late_preemption", "tasks"), ("whatif", "tasks")}


def walk(x, y, path, out):
    if tuple(path) in PER_TASK:
        return
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            if k not in x or k not in y:
                if tuple(path + [k]) not in PER_TASK:
                    out.append("only in one: %s" % "/".join(map(str, path + [k])))
                continue
            walk(x[k], y[k], path + [k], out)
    elif isinstance(x, list) and isinstance(y, list):
        if len(x) != len(y):
            out.append("%s: %d items, %d" % ("/".join(map(str, path)), len(x), len(y)))
            return
        for i, (p, q) in enumerate(zip(x, y)):
            walk(p, q, path + [i], out)
    elif x != y:
        out.append("%s: %r, %r" % ("/".join(map(str, path)), x, y))


a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
diffs = []
walk(a, b, [], diffs)
print("\n".join(diffs[:20]) if diffs else "same")
