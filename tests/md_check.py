#!/usr/bin/env python3
"""md_check.py FILE [--tables N] [--header CELL...]: is FILE the GitHub/GitLab
Markdown that schedlint diff --markdown means it to be?

Checks what a renderer would silently get wrong, line by line, without a
Markdown library (none is on a Debian CI machine by default):
  - the first line is a "### " heading;
  - every table (a run of lines starting with "|") has a header row, a
    delimiter row of ---, :---, ---: cells, and rows with as many cells as
    the header (cells split at pipes not escaped by a backslash, as GFM
    splits them before it parses code spans);
  - in every cell, code spans are closed (an even number of unescaped
    backticks), and outside code spans no raw HTML starts ("<" escaped as
    &lt;) and no emphasis can open ("*", "_" escaped), so a comm name or a
    path cannot break the table or turn into markup;
  - other lines are blank, "- " list items, "**name:** ..." run lines, or
    plain text, with the same escaping.
Prints the problems and exits 1, or prints a summary and exits 0.
"""
import re
import sys

UNESC_PIPE = re.compile(r"(?<!\\)\|")
DELIM = re.compile(r"\s*:?-{3,}:?\s*")


def cells(line):
    parts = UNESC_PIPE.split(line)
    return [p.strip() for p in parts[1:-1]]


def outside_code(text):
    """text with code spans removed; None when a span is left open."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text[i] == "\\" and i + 1 < n:
            out.append(text[i:i + 2])
            i += 2
        elif text[i] == "`":
            j = text.find("`", i + 1)
            if j < 0:
                return None
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def markup_problems(text, where, allow_bold_label=False):
    probs = []
    plain = outside_code(text)
    if plain is None:
        return [f"{where}: an unclosed code span: {text!r}"]
    if allow_bold_label:
        plain = re.sub(r"^\*\*[^*]+:\*\*", "", plain)
    unescaped = re.sub(r"\\.", "", plain)
    for ch, what in (("<", "raw HTML"), ("*", "emphasis"), ("_", "emphasis"), ("[", "a link")):
        if ch in unescaped:
            probs.append(f"{where}: an unescaped {ch!r} ({what}): {text!r}")
    return probs


def check(lines, want_tables=None, want_header=None):
    probs, tables, i = [], [], 0
    if not lines or not lines[0].startswith("### "):
        probs.append(f"line 1 is not a ### heading: {lines[0] if lines else ''!r}")
    while i < len(lines):
        line = lines[i]
        if line.startswith("|"):
            start = i
            while i < len(lines) and lines[i].startswith("|"):
                i += 1
            tables.append((start, lines[start:i]))
            continue
        if i > 0 and line.strip():
            text = line[2:] if line.startswith("- ") else line
            probs += markup_problems(text, f"line {i + 1}", allow_bold_label=True)
        i += 1
    for start, t in tables:
        where = f"table at line {start + 1}"
        if len(t) < 2:
            probs.append(f"{where}: no delimiter row")
            continue
        head, delim = cells(t[0]), cells(t[1])
        if not t[0].rstrip().endswith("|") or not t[1].rstrip().endswith("|"):
            probs.append(f"{where}: a row does not end with '|'")
        if len(delim) != len(head) or not all(DELIM.fullmatch(c) for c in delim):
            probs.append(f"{where}: bad delimiter row {t[1]!r} for {len(head)} columns")
        for k, row in enumerate(t[2:], start=start + 3):
            if not row.rstrip().endswith("|"):
                probs.append(f"line {k}: the row does not end with '|'")
            c = cells(row)
            if len(c) != len(head):
                probs.append(f"line {k}: {len(c)} cells, the header has {len(head)}: {row!r}")
            for cell in c:
                probs += markup_problems(cell, f"line {k}")
    if want_tables is not None and len(tables) != want_tables:
        probs.append(f"{len(tables)} tables, expected {want_tables}")
    if want_header is not None and tables:
        head = cells(tables[-1][1][0])
        if head[:len(want_header)] != want_header:
            probs.append(f"last table's header {head}, expected {want_header}")
    return probs, tables


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    path, want_tables, want_header = args[0], None, None
    if "--tables" in args:
        want_tables = int(args[args.index("--tables") + 1])
    if "--header" in args:
        # a cell with spaces is given with "_" for them: "base_median_(min–max)"
        want_header = [h.replace("_", " ") for h in args[args.index("--header") + 1:]]
    lines = open(path, encoding="utf-8").read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    probs, tables = check(lines, want_tables, want_header)
    if probs:
        print("\n".join(probs[:20]))
        sys.exit(1)
    print(f"{len(tables)} tables, {sum(len(t) - 2 for _, t in tables)} rows: well-formed")


if __name__ == "__main__":
    main()
