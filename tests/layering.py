#!/usr/bin/env python3
"""layering.py - schedlint's stages, in order, and the check that the code keeps it

The pipeline is reader -> normalized event -> model -> analyzers ->
report, driven by one command per subcommand.  The source folders are
its stages; a file may include or call files of its own folder and of the
folders BELOW it, never above it or beside it (src/report and src/tui
are side by side: neither knows the other).  This list is the one place
the order is written down; tests/e2e/layering.sh runs the checks.

  layering.py includes ROOT
      every #include under ROOT's src/, analyzers/ and include/schedlint/
      runs down the order, and no include circle joins two folders
  layering.py calls BUILD ROOT
      the same for calls and data references, from the symbols (nm) of
      the objects under BUILD whose source is in ROOT (stale objects of
      moved files are left out), and no call circle inside a folder but
      src/tui

Prints one line per violation and exits 1, or exits 0 silently.
"""
import os
import re
import subprocess
import sys

# The order, bottom first.  Folders on one line share a layer and may not
# include each other.
LAYERS = [
    ["src/util"],                # helpers every stage uses (xmalloc, strtab, parsing)
    ["src/read"],                # readers: trace bytes -> struct sl_event
    ["src/model"],               # state model, findings, the analyzers' shared helpers
    ["analyzers"],               # one file per finding kind or measurement
    ["src/report", "src/tui"],   # the report, JSON, metrics, diff; explore's panels
    ["src/cmd"],                 # main and one cmd_*.c per subcommand
]

# include/schedlint/ is the public interface of the stages; each header
# belongs to the stage that implements it.
HEADERS = {
    "include/schedlint/strtab.h": "src/util",
    "include/schedlint/event.h": "src/read",
    "include/schedlint/reader.h": "src/read",
    "include/schedlint/analysis.h": "src/model",
    "include/schedlint/analyzer.h": "src/model",
    "include/schedlint/config.h": "src/model",
    "include/schedlint/context.h": "src/model",
    "include/schedlint/findings.h": "src/model",
    "include/schedlint/held.h": "src/model",
    "include/schedlint/hist.h": "src/model",
    "include/schedlint/model.h": "src/model",
    "include/schedlint/picture.h": "src/model",
    "include/schedlint/report.h": "src/model",
    "include/schedlint/series.h": "src/model",
}

# Folders whose files may call each other in a circle (explore's panels
# open one another: findings -> detail -> timeline -> detail).
INSIDE_CIRCLES_ALLOWED = {"src/tui"}

LAYER_OF = {folder: i for i, row in enumerate(LAYERS) for folder in row}
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def folder_of(path, problems):
    """The stage folder of a file (relative to the root), or None with a problem noted."""
    if path.startswith("include/schedlint/"):
        if path not in HEADERS:
            problems.append(f"{path}: a header without a stage: give it one in tests/layering.py HEADERS")
            return None
        return HEADERS[path]
    parts = path.split("/")
    if parts[0] == "analyzers" and len(parts) == 2:
        return "analyzers"
    if parts[0] == "src":
        if len(parts) != 3:
            problems.append(f"{path}: not in a stage folder: src/ holds only the folders of tests/layering.py LAYERS")
            return None
        folder = "src/" + parts[1]
        if folder not in LAYER_OF:
            problems.append(f"{path}: {folder} is no stage: add it to tests/layering.py LAYERS")
            return None
        return folder
    problems.append(f"{path}: not in a stage folder")
    return None


def allowed(src, dst):
    return src == dst or LAYER_OF[dst] < LAYER_OF[src]


def circles(edges):
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    nodes = sorted(set(edges) | {d for ds in edges.values() for d in ds})
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    n = stack.pop()
                    on_stack.discard(n)
                    comp.append(n)
                    if n == node:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def check_edges(edges, folder, what, problems, inside_too):
    for src in sorted(edges):
        for dst in sorted(edges[src]):
            fs, fd = folder[src], folder[dst]
            if not allowed(fs, fd):
                problems.append(f"{src} {what} {dst}: runs up the layers ({fs} may not reach {fd})")
    for comp in circles(edges):
        folders = sorted({folder[n] for n in comp})
        if len(folders) > 1:
            problems.append(f"{what} circle across folders {', '.join(folders)}: {' '.join(comp)}")
        elif inside_too and folders[0] not in INSIDE_CIRCLES_ALLOWED:
            problems.append(f"{what} circle inside {folders[0]}: {' '.join(comp)}")


def tree_files(root):
    out = []
    for top in ("src", "analyzers", "include/schedlint"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for n in names:
                if n.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(dirpath, n), root))
    return sorted(out)


def resolve(root, path, quote, name):
    """The file an #include names, relative to root, or None when it is not ours."""
    cands = [os.path.join(os.path.dirname(path), name)] if quote == '"' else []
    cands += [os.path.join("include", name), os.path.join("src", name)]
    for c in cands:
        c = os.path.normpath(c)
        if os.path.isfile(os.path.join(root, c)):
            return c
    return None


def check_includes(root):
    problems = []
    files = tree_files(root)
    if not files:
        return [f"{root}: no sources under src/, analyzers/, include/schedlint/"]
    folder = {f: folder_of(f, problems) for f in files}
    edges = {}
    for f in files:
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for quote, name in INCLUDE_RE.findall(text):
            target = resolve(root, f, quote, name)
            if target is None:
                if quote == '"':
                    problems.append(f"{f}: #include \"{name}\" names no file of the tree")
                continue
            if target not in folder:
                problems.append(f"{f}: #include \"{name}\" reaches {target}, outside the stages")
                continue
            if folder[f] and folder[target]:
                edges.setdefault(f, set()).add(target)
    check_edges(edges, folder, "includes", problems, inside_too=False)
    return problems


def nm(args, obj):
    res = subprocess.run(["nm"] + args + [obj], capture_output=True, text=True)
    if res.returncode:
        raise RuntimeError(f"nm {obj}: {res.stderr.strip()}")
    return res.stdout.splitlines()


def check_calls(build, root):
    problems = []
    objs = []
    for top in ("src", "analyzers"):
        for dirpath, _, names in os.walk(os.path.join(build, top)):
            objs += [os.path.join(dirpath, n) for n in names if n.endswith(".o")]
    source = {o: os.path.relpath(o, build)[:-2] + ".c" for o in objs}
    objs = [o for o in objs if os.path.isfile(os.path.join(root, source[o]))]
    if not objs:
        return [f"{build}: no objects of {root}'s src/ or analyzers/ (build first)"]
    folder = {source[o]: folder_of(source[o], problems) for o in objs}
    defined, uses = {}, {}
    for o in sorted(objs):
        for line in nm(["-g", "--defined-only"], o):
            defined[line.split()[-1]] = source[o]
        uses[source[o]] = {line.split()[-1] for line in nm(["-u"], o)}
    edges = {}
    for src, syms in uses.items():
        for s in syms:
            dst = defined.get(s)
            if dst and dst != src and folder[src] and folder[dst]:
                edges.setdefault(src, set()).add(dst)
    check_edges(edges, folder, "calls", problems, inside_too=True)
    return problems


def main(argv):
    if argv[1:2] == ["includes"] and len(argv) == 3:
        problems = check_includes(argv[2])
    elif argv[1:2] == ["calls"] and len(argv) == 4:
        problems = check_calls(argv[2], argv[3])
    else:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for p in problems:
        print("layering: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
