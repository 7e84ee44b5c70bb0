#!/usr/bin/env python3
"""html_check.py - hold an analyze --html page against the JSON report of the same trace

  html_check.py PAGE DOM REPORT.json [NETLOG.json]
  html_check.py --diff PAGE DOM DIFF.json [NETLOG.json]

PAGE is the file schedlint wrote, DOM what headless Chromium made of it
(--dump-dom: the page as rendered), REPORT the same analysis as JSON.
Prints one line per problem and exits 1, or prints a summary and exits 0:

- the sections the page promises are in the DOM (summary, latency, CPUs
  over time, one per listed finding kind, details, trace facts), and at
  least three SVG plots;
- the histogram's bars (their titles give each bar's count) add up to the
  report's wakeup count; the time axes' labels are round steps (+0, +100
  ms); the CDF ends at 100%; its percentile labels do
  not overlap nor run past the plot's edges (each label's box from its x,
  y, anchor and length, at the page's 11px: at least 5 px a character,
  10 px high);
- one mark per kept finding (the report's findings list), each kind's
  table links to marks that exist;
- nothing outside the page is referred to: no src, no href but to a
  fragment of the page, no url() or @import in a style, no script, link,
  img, iframe, object or embed element -- in the file and in the DOM;
- (--diff, a schedlint diff --html page against diff --json) the verdict,
  rules, distributions and table sections; the latency axis's decades
  named 1 us, 10 us, 100 us; a line per run of each side
  and one per side's medians; a table row per metric the JSON has, its
  failing rows marked; the verdict line names the failed checks;
- with a Chromium net log, no request but for the page itself (Chromium's
  own services, which run with any page, are told apart by host).
"""
import json
import re
import sys
from html.parser import HTMLParser

LOADING_TAGS = {"script", "link", "img", "iframe", "object", "embed", "audio", "video", "source",
                "track", "frame", "base", "meta-refresh"}
URL_ATTRS = {"src", "href", "xlink:href", "srcset", "poster", "data", "action", "formaction",
             "background", "manifest", "ping"}
# what the browser itself asks for whatever page it shows
BROWSER_HOSTS = re.compile(r"^https?://([a-z0-9-]+\.)*(google\.com|googleapis\.com|gvt1\.com|"
                           r"gstatic\.com)(/|:|$)")


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.polylines = []
        self.rows = 0
        self.fail_rows = 0
        self.in_table = None
        self.text = []
        self.ids = set()
        self.plots = 0
        self.bar_counts = []
        self.marks = set()
        self.links = []
        self.outside = []
        self.in_bar = False
        self.cdf_points = None
        self.style = []
        self.in_style = False
        self.svg_id = None
        self.cdf_width = 0.0
        self.cdf_labels = []    # [x, y, anchor, text] of the CDF's percentile labels
        self.dist_texts = []    # [x, y, anchor, text] of diff's distributions plot
        self.ticks = []         # the time axes' labels ("+100 ms")
        self.in_tick = False
        self.in_cdf_text = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        cls = (a.get("class") or "").split()
        if tag == "svg" and "plot" in cls:
            self.plots += 1
        if tag == "svg":
            self.svg_id = a.get("id")
            if self.svg_id == "cdf":
                self.cdf_width = float(a.get("width", 0))
        if tag == "text" and "tick" in cls:
            self.in_tick = True
        if tag == "text" and self.svg_id in ("cdf", "distributions-plot"):
            self.in_cdf_text = [float(a.get("x", 0)), float(a.get("y", 0)),
                                a.get("text-anchor", "start"), "", self.svg_id]
        if tag == "rect" and "bar" in cls:
            self.in_bar = True
        if "mk" in cls and (a.get("id") or "").startswith("f-"):
            self.marks.add(a["id"])
        if tag == "polyline" and "cdf" in cls:
            self.cdf_points = a.get("points", "")
        if tag == "polyline":
            self.polylines.append(cls)
        if tag == "section":
            self.in_table = a.get("id")
        if tag == "tr" and self.in_table == "table":
            self.rows += 1
            if "fail" in cls:
                self.fail_rows += 1
        if tag in LOADING_TAGS:
            self.outside.append(f"<{tag}> element")
        if tag == "meta" and (a.get("http-equiv") or "").lower() == "refresh":
            self.outside.append("<meta http-equiv=refresh>")
        if tag == "style":
            self.in_style = True
        for k, v in attrs:
            if k in URL_ATTRS and v is not None:
                if k == "href" and v.startswith("#"):
                    if tag == "a":
                        self.links.append(v[1:])
                    continue
                self.outside.append(f"{tag} {k}={v!r}")
            if k == "style" and v and ("url(" in v or "@import" in v):
                self.outside.append(f"{tag} style={v!r}")

    def handle_endtag(self, tag):
        if tag == "rect":
            self.in_bar = False
        if tag == "svg":
            self.svg_id = None
        if tag == "text" and self.in_cdf_text is not None:
            lab = self.in_cdf_text[:4]
            if self.in_cdf_text[4] == "distributions-plot":
                self.dist_texts.append(lab)
            elif re.match(r"p\d", lab[3]):
                self.cdf_labels.append(lab)
            self.in_cdf_text = None
        if tag == "style":
            self.in_style = False

    def handle_data(self, data):
        self.text.append(data)
        if self.in_tick:
            self.ticks.append(data)
            self.in_tick = False
        if self.in_cdf_text is not None:
            self.in_cdf_text[3] += data
        if self.in_bar:
            m = re.search(r":\s*(\d+)\s*$", data)
            if m:
                self.bar_counts.append(int(m.group(1)))
        if self.in_style:
            self.style.append(data)


def parse(text):
    p = Page()
    p.feed(text)
    p.close()
    return p


def label_box(label):
    """x0, x1, y0, y1 of an SVG text at 11px, at least 5 px a character"""
    x, y, anchor, text = label
    w = 5.0 * len(text)
    x0 = {"start": x, "middle": x - w / 2, "end": x - w}.get(anchor, x)
    return x0, x0 + w, y - 8, y + 2


def overlapping_labels(labels):
    out = []
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            ax0, ax1, ay0, ay1 = label_box(a)
            bx0, bx1, by0, by1 = label_box(b)
            if ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1:
                out.append(f"CDF: the labels '{a[3]}' and '{b[3]}' overlap "
                           f"(at {a[0]:.0f},{a[1]:.0f} and {b[0]:.0f},{b[1]:.0f})")
    return out


def outside_problems(page, dom):
    problems = []
    for name, p in (("file", page), ("DOM", dom)):
        for o in p.outside:
            problems.append(f"{name}: refers outside the page: {o}")
        css = "".join(p.style)
        if "url(" in css or "@import" in css:
            problems.append(f"{name}: the style sheet loads something (url() or @import)")
    return problems


def netlog_problems(netlog):
    problems = []
    with open(netlog, encoding="utf-8", errors="replace") as f:
        text = f.read()
    for url in sorted(set(re.findall(r'"url":"([^"]*)"', text))):
        if url.startswith(("file:", "data:", "about:", "chrome:")) or BROWSER_HOSTS.match(url):
            continue
        problems.append(f"net log: the page asked for {url}")
    return problems


def check_diff(page_path, dom_path, diff_path, netlog):
    with open(page_path, encoding="utf-8") as f:
        page = parse(f.read())
    with open(dom_path, encoding="utf-8") as f:
        dom = parse(f.read())
    with open(diff_path, encoding="utf-8") as f:
        d = json.load(f)
    problems = outside_problems(page, dom)
    for i in ("verdict", "rules", "distributions", "table"):
        if i not in dom.ids:
            problems.append(f"DOM: no section id={i}")
    sides = d["variants"]
    for si, side in enumerate(sides):
        runs = sum(1 for c in dom.polylines if "run" in c and f"side-{si}" in c)
        medians = sum(1 for c in dom.polylines if "median" in c and f"side-{si}" in c)
        if runs != len(side["runs"]) or medians != 1:
            problems.append(f"distributions: side {side['name']} has {runs} run lines and "
                            f"{medians} median lines, {len(side['runs'])} and 1 expected")
    # the latency axis: decades named as analyze's page names them (1 us, 10 us,
    # 100 us, 1 ms), not 1.00 us, 10.0 us, 100.0 us, 10.00 ms
    for lab in dom.dist_texts:
        t = lab[3]
        if re.match(r"^(p\d.*|max)$", t) or t.startswith("wakeup latency"):
            continue
        if not re.match(r"^(1|10|100) (ns|us|ms)$|^\d+ s$", t):
            problems.append(f"distributions: the axis label '{t}' is not a decade "
                            "as 1 us, 10 us, 100 us")
    rows = sum(1 for m in d["metrics"] if m["shown"])
    if dom.rows - 1 != rows:
        problems.append(f"table: {dom.rows - 1} rows, diff --json shows {rows} metrics")
    # a row fails when a rule on it (or on its family) failed there
    failed = sum(1 for m in d["metrics"] if m["shown"] and
                 m.get("verdict") not in (None, "pass", "skip", "noise"))
    if dom.fail_rows != failed:
        problems.append(f"table: {dom.fail_rows} rows marked failed, {failed} expected")
    text = " ".join(dom.text)
    if d["rules"] and d["failed"] and "FAILED" not in text:
        problems.append("verdict: the page does not say FAILED")
    if netlog:
        problems += netlog_problems(netlog)
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"{len(sides)} sides, {len(dom.polylines)} lines, {rows} rows, {failed} failed")
    return 0


def main():
    if sys.argv[1] == "--diff":
        return check_diff(sys.argv[2], sys.argv[3], sys.argv[4],
                          sys.argv[5] if len(sys.argv) > 5 else None)
    page_path, dom_path, report_path = sys.argv[1:4]
    netlog = sys.argv[4] if len(sys.argv) > 4 else None
    with open(page_path, encoding="utf-8") as f:
        page = parse(f.read())
    with open(dom_path, encoding="utf-8") as f:
        dom = parse(f.read())
    with open(report_path, encoding="utf-8") as f:
        rep = json.load(f)
    problems = outside_problems(page, dom)

    want = ["summary", "latency", "cpus", "findings", "details", "facts"]
    # every kind with a listed finding has its section (a measurement, never listed, none)
    listed = {f["kind"] for f in rep.get("findings", [])}
    for k in sorted(listed):
        want.append("kind-" + k)
    for i in want:
        if i not in dom.ids:
            problems.append(f"DOM: no section id={i}")
    if dom.plots < 3 and rep["wakeup_latency"]["count"]:
        problems.append(f"DOM: {dom.plots} SVG plots, 3 at least expected")

    count = rep["wakeup_latency"]["count"]
    if count:
        if sum(dom.bar_counts) != count:
            problems.append(f"histogram: bars add up to {sum(dom.bar_counts)}, the report has "
                            f"{count} wakeups")
        pts = (dom.cdf_points or "").split()
        if not pts:
            problems.append("CDF: no points")
        else:
            ys = [float(p.split(",")[1]) for p in pts]
            if min(ys) != ys[-1]:
                problems.append("CDF: its last point is not its highest (not 100%)")
            # SVG y grows downwards: a CDF going down would be a y growing
            if any(b > a for a, b in zip(ys, ys[1:])):
                problems.append("CDF: goes down")
        if len(dom.cdf_labels) != 3:
            problems.append(f"CDF: {len(dom.cdf_labels)} percentile labels, 3 expected "
                            "(p50, p99, p99.9)")
        problems += overlapping_labels(dom.cdf_labels)
        for lab in dom.cdf_labels:
            x0, x1, _, _ = label_box(lab)
            if x0 < 0 or x1 > dom.cdf_width:
                problems.append(f"CDF: the label '{lab[3]}' runs past the plot's edge "
                                f"({x0:.0f}..{x1:.0f} of {dom.cdf_width:.0f})")
    # the time axes: round steps from the start, named as such (+0, +100 ms,
    # +1.5 s), not "+0.00 us", "+100.00 ms"
    for t in dom.ticks:
        if not re.match(r"^\+(0|[1-9]\d*(\.\d*[1-9])? (ns|us|ms|s)|0\.\d*[1-9] s)$", t):
            problems.append(f"time axis: the label '{t}' is not a round step as +0, +100 ms")
    if count and not dom.ticks:
        problems.append("time axis: no labels (class tick)")
    kept = len(rep.get("findings", []))
    if len(dom.marks) != kept:
        problems.append(f"marks: {len(dom.marks)} on the CPU map, the report keeps {kept} findings")
    for link in dom.links:
        if link not in dom.ids:
            problems.append(f"link to #{link}: no element has that id")

    if netlog:
        problems += netlog_problems(netlog)

    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"{len(want)} sections, {dom.plots} plots, {len(dom.bar_counts)} bars = {count} "
          f"wakeups, {len(dom.marks)} marks, {len(dom.links)} links")
    return 0


if __name__ == "__main__":
    sys.exit(main())
