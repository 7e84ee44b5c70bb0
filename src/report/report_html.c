// SPDX-License-Identifier: GPL-2.0
/*
 * report_html.c - the report as one self-contained HTML page with plots
 *
 * analyze --html writes it: the text report's order (summary, wakeup
 * latency, latency over time, the CPUs over time, each finding kind's most
 * costly findings, the detail sections, the trace facts) with inline SVG
 * plots.  One file that refers to nothing outside itself: no script, no
 * style sheet, font or image from anywhere, no link the browser loads;
 * readable without JavaScript (there is none) and printable.  Colours are
 * the Okabe-Ito palette (told apart by colour-blind readers), and every
 * finding kind also has its own marker shape, so a grey print keeps them
 * apart.  Its size is bounded whatever the trace: the time plots have at
 * most SL_TIMELINE_WINDOWS columns (analyzers/timeline.c), the
 * histogram one bar per 1-2-5 row, the marks one per kept finding.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analyzers/timeline.h"
#include "report.h"
#include "schedlint/model.h"
#include "schedlint/report.h"
#include "schedlint/series.h"
#include "util/util.h"

#define PLOT_W		960	/* SVG width of every plot */
#define MARGIN_L	70
#define MARGIN_R	20
#define FINDINGS_LISTED	20	/* per kind, in its table (all kept ones are marked) */
#define MAX_RECTS	60000	/* the CPU map's rectangles at most */

/* Okabe-Ito, and a marker shape per finding kind */
static const char *const kind_color[] = { "#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00",
					  "#56B4E9", "#000000" };
#define NR_KIND_COLORS (sizeof(kind_color) / sizeof(kind_color[0]))

void sl_html_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\033':	/* a colour code: none is asked for, none is kept */
			while (s[1] && s[1] != 'm')
				s++;
			if (s[1])
				s++;
			break;
		default: fputc(*s, out);
		}
	}
}

/* An axis label: "500 ns", "2 us", "10 ms" (fmt_duration's "0.00 us" says nothing at 1 ns). */
const char *sl_html_axis_ns(char *buf, size_t len, uint64_t ns)
{
	static const struct { uint64_t div; const char *unit; } u[] = {
		{ 1000000000, "s" }, { 1000000, "ms" }, { 1000, "us" }, { 1, "ns" },
	};

	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (ns >= u[i].div || u[i].div == 1) {
			snprintf(buf, len, "%g %s", (double)ns / (double)u[i].div, u[i].unit);
			break;
		}
	return buf;
}

static const char *color_of(int kind)
{
	return kind_color[(size_t)kind % NR_KIND_COLORS];
}

/* The kind's marker centred on (x, y), id and tooltip given by the caller. */
static void marker(FILE *out, int kind, double x, double y, const char *id)
{
	const char *c = color_of(kind);

	switch (kind % 5) {
	case 0:
		fprintf(out, "<circle id=\"%s\" class=\"mk\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\">",
			id, x, y, c);
		break;
	case 1:
		fprintf(out, "<rect id=\"%s\" class=\"mk\" x=\"%.1f\" y=\"%.1f\" width=\"7\" height=\"7\" "
			"fill=\"%s\">", id, x - 3.5, y - 3.5, c);
		break;
	case 2:
		fprintf(out, "<path id=\"%s\" class=\"mk\" d=\"M%.1f %.1fl4 7h-8z\" fill=\"%s\">",
			id, x, y - 4, c);
		break;
	case 3:
		fprintf(out, "<path id=\"%s\" class=\"mk\" d=\"M%.1f %.1fl4 4l-4 4l-4 -4z\" fill=\"%s\">",
			id, x, y - 4, c);
		break;
	default:
		fprintf(out, "<path id=\"%s\" class=\"mk\" d=\"M%.1f %.1fl8 8m0 -8l-8 8\" stroke=\"%s\" "
			"stroke-width=\"2.5\" fill=\"none\">", id, x - 4, y - 4, c);
		break;
	}
}

static const char *marker_end(int kind)
{
	switch (kind % 5) {
	case 0: return "</circle>";
	case 1: return "</rect>";
	default: return "</path>";
	}
}

static const char css[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:1em auto;max-width:1000px;color:#111;"
	"background:#fff}\n"
	"h1{font-size:1.4em}h2{font-size:1.15em;border-bottom:1px solid #999;margin-top:1.6em}\n"
	"table{border-collapse:collapse;margin:.5em 0}td,th{padding:2px 8px;text-align:right;"
	"border-bottom:1px solid #ddd;white-space:nowrap}th{background:#f2f2f2}\n"
	"td.l,th.l{text-align:left}td.w{white-space:normal}\n"
	"pre{background:#f7f7f7;padding:.6em;overflow-x:auto;font-size:12px}\n"
	"code{font-size:12px}svg{display:block;margin:.4em 0}svg text{font:11px sans-serif}\n"
	".mk:target{stroke:#000;stroke-width:3}.note{color:#555}\n"
	"nav a{margin-right:1em}\n"
	"@media print{nav{display:none}pre{white-space:pre-wrap}}\n";

struct page {
	FILE *out;
	struct sl_model *m;
	const char *path;
	const struct sl_timeline *tl;
	uint64_t t0, t1;		/* the time plots' span */
};

static double x_of_ts(const struct page *p, uint64_t ts)
{
	double span = p->t1 > p->t0 ? (double)(p->t1 - p->t0) : 1;

	if (ts < p->t0)
		ts = p->t0;
	if (ts > p->t1)
		ts = p->t1;
	return MARGIN_L + (PLOT_W - MARGIN_L - MARGIN_R) * ((double)(ts - p->t0) / span);
}

/* The time axis under a plot at y: ticks in seconds from the span's start. */
static void time_axis(const struct page *p, double y)
{
	double span = (double)(p->t1 - p->t0) / 1e9, step = 1e-6;
	char a[32];

	while (span / step > 10)
		step *= span / step > 50 ? 10 : span / step > 20 ? 5 : 2;
	fprintf(p->out, "<line x1=\"%d\" y1=\"%.0f\" x2=\"%d\" y2=\"%.0f\" stroke=\"#333\"/>",
		MARGIN_L, y, PLOT_W - MARGIN_R, y);
	for (double t = 0; t <= span + step / 1e6; t += step) {
		double x = x_of_ts(p, p->t0 + (uint64_t)(t * 1e9));

		fprintf(p->out, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#333\"/>"
			"<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\" class=\"tick\">+%s</text>",
			x, y, x, y + 4, x, y + 16,
			/* round steps named as such: +0, +100 ms, +1.5 s (not +0.00 us, +100.00 ms) */
			t > 0 ? sl_html_axis_ns(a, sizeof(a), (uint64_t)(t * 1e9 + 0.5)) : "0");
	}
	fmt_ts(a, sizeof(a), p->t0);
	fprintf(p->out, "<text x=\"%d\" y=\"%.0f\">time from %s</text>", MARGIN_L, y + 30, a);
}

static void summary(struct page *p)
{
	FILE *out = p->out;
	struct sl_model *m = p->m;
	char a[32], b[32], c[32];
	double secs = (double)sl_dur(m->first_ts, m->last_ts) / 1e9;

	fputs("<section id=\"summary\"><h2>Summary</h2>\n", out);
	if (m->workload_pid) {
		fprintf(out, "<p>Workload: <code>");
		sl_html_text(out, m->workload_cmd);
		fprintf(out, "</code> (pid %d, %" PRIu32 " tasks)</p>\n", m->workload_pid,
			m->nr_workload_tasks);
	}
	fputs("<table><tr><th class=\"l\">finding</th><th>count</th><th>cost</th><th>cost/s</th>"
	      "<th>worst</th><th class=\"l\">worst at</th></tr>\n", out);
	for (int k = 0; k < SL_KIND__COUNT; k++) {
		const struct sl_kind_summary *s = &m->findings->summary[k];
		size_t nr;
		const struct sl_finding *f = sl_findings_of_kind(m->findings, k, &nr);

		fprintf(out, "<tr><td class=\"l\">%s%s</td><td>%" PRIu64 "</td>", sl_kinds[k].name,
			sl_kinds[k].listed ? "" : " <span class=\"note\">(a measurement)</span>", s->count);
		if (s->count)
			fprintf(out, "<td>%s</td><td>%s</td><td>%s</td>", fmt_duration(a, sizeof(a), s->cost),
				secs > 0 ? fmt_duration(b, sizeof(b), (uint64_t)(s->cost / secs)) : "",
				fmt_duration(c, sizeof(c), s->max_cost));
		else
			fputs("<td></td><td></td><td></td>", out);
		if (s->count && sl_kinds[k].listed && nr && f->cost == s->max_cost)
			fprintf(out, "<td class=\"l\"><a href=\"#f-%d-0\">%s cpu%d %s:%d</a></td>", k,
				fmt_ts(a, sizeof(a), f->ts), f->cpu, sl_str(m->strtab, f->comm), f->pid);
		else
			fputs("<td></td>", out);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	if (m->latency.count)
		fprintf(out, "<p>Wakeup latency: %" PRIu64 " wakeups, p50 %s, p99 %s, max %s.</p>\n",
			m->latency.count, fmt_duration(a, sizeof(a), sl_hist_percentile(&m->latency, 50)),
			fmt_duration(b, sizeof(b), sl_hist_percentile(&m->latency, 99)),
			fmt_duration(c, sizeof(c), m->latency.max));
	else
		fputs("<p>Wakeup latency: no samples.</p>\n", out);
	fputs("</section>\n", out);
}

/* The worst moments: the most costly kept findings of every kind, with the command to look. */
static void worst_moments(struct page *p)
{
	FILE *out = p->out, *mem;
	struct sl_model *m = p->m;
	struct sl_report r = { 0 };
	char *text = NULL, msg[512], a[32], ts[32];
	size_t size = 0;
	int shown = 0;

	for (size_t i = 0; i < m->findings->nr && shown < 5; i++) {
		const struct sl_finding *f = &m->findings->sorted[i];

		if (!m->findings->sorted)
			break;
		if (!shown)
			fputs("<section id=\"worst\"><h2>Worst moments</h2><ol>\n", out);
		shown++;
		sl_finding_message(f, m, msg, sizeof(msg));
		fprintf(out, "<li><b>%s</b> %s cpu%d, cost %s: ", sl_kinds[f->kind].name,
			fmt_ts(ts, sizeof(ts), f->ts), f->cpu, fmt_duration(a, sizeof(a), f->cost));
		sl_html_text(out, msg);
		mem = open_memstream(&text, &size);
		if (mem) {
			r.out = mem;
			r.path = p->path;
			r.width = 400;
			sl_report_look_at(&r, m, 0, f, false);
			fclose(mem);
			fputs("<br><code>", out);
			sl_html_text(out, text);
			fputs("</code>", out);
			free(text);
			text = NULL;
		}
		fputs("</li>\n", out);
	}
	if (shown)
		fputs("</ol></section>\n", out);
}

/* The wakeup-latency histogram: a bar per 1-2-5 row, log time axis. */
static void histogram(struct page *p, const struct sl_hist *h)
{
	FILE *out = p->out;
	uint64_t rows[SL_HIST_ROWS] = { 0 }, lo, hi, n, top = 0;
	struct sl_hist_iter it = { 0 };
	int first = SL_HIST_ROWS, last = -1, nr, H = 220;
	double bw;
	char a[32];

	while (sl_hist_next(h, &it, &lo, &hi, &n)) {
		int row = sl_hist_row_of_bucket(lo);

		rows[row] += n;
		first = MIN(first, row);
		last = MAX(last, row);
	}
	if (last < 0)
		return;
	for (int i = first; i <= last; i++)
		top = MAX(top, rows[i]);
	nr = last - first + 1;
	bw = (double)(PLOT_W - MARGIN_L - MARGIN_R) / nr;
	fprintf(out, "<svg class=\"plot\" id=\"histogram\" width=\"%d\" height=\"%d\" role=\"img\" "
		"aria-label=\"wakeup latency histogram\">", PLOT_W, H + 50);
	fprintf(out, "<text x=\"4\" y=\"14\">wakeups</text><text x=\"4\" y=\"28\">%" PRIu64 "</text>",
		top);
	for (int i = first; i <= last; i++) {
		double bh = top ? (double)rows[i] / (double)top * H : 0, x = MARGIN_L + (i - first) * bw;

		fprintf(out, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"#0072B2\"><title>%s..: %" PRIu64 "</title></rect>", x + 1,
			20 + H - bh, bw - 2, bh, sl_html_axis_ns(a, sizeof(a), sl_hist_row_lo(i)), rows[i]);
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", x + bw / 2,
			H + 36, sl_html_axis_ns(a, sizeof(a), sl_hist_row_lo(i)));
	}
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/></svg>\n",
		MARGIN_L, H + 20, PLOT_W - MARGIN_R, H + 20);
}

/* One CDF line: a point per bucket, x on [l0, l1] decades. */
static void cdf_line(FILE *out, const struct sl_hist *h, double l0, double l1, double H,
		     const char *cls, const char *color, const char *dash, double width)
{
	struct sl_hist_iter it = { 0 };
	uint64_t lo, hi, n, seen = 0;
	double pw = PLOT_W - MARGIN_L - MARGIN_R;

	fprintf(out, "<polyline class=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" "
		"stroke-dasharray=\"%s\" points=\"", cls, color, width, dash);
	while (sl_hist_next(h, &it, &lo, &hi, &n)) {
		double x = MARGIN_L + pw * (log10((double)MAX(MIN(hi, h->max), 1)) - l0) / (l1 - l0);

		seen += n;
		fprintf(out, "%.1f,%.1f ", MAX(x, (double)MARGIN_L),
			10 + H - H * (double)seen / (double)h->count);
	}
	fputs("\"/>", out);
}

/* The CDF over a log time axis: a point per bucket; a line per class when there are several. */
static void cdf(struct page *p, const struct sl_hist *h)
{
	FILE *out = p->out;
	double l0, l1, H = 200, pw = PLOT_W - MARGIN_L - MARGIN_R;
	char a[32];

	if (!h->count)
		return;
	l0 = log10((double)MAX(h->min, 1));
	l1 = log10((double)MAX(h->max, 2));
	if (l1 - l0 < 1) {
		l0 = floor(l0);
		l1 = l0 + 1;
	}
	fprintf(out, "<svg class=\"plot\" id=\"cdf\" width=\"%d\" height=\"%.0f\" role=\"img\" "
		"aria-label=\"wakeup latency CDF\">", PLOT_W, H + 50);
	for (int q = 0; q <= 4; q++)
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d%%</text>", MARGIN_L,
			10 + H - H * q / 4, PLOT_W - MARGIN_R, 10 + H - H * q / 4, MARGIN_L - 4,
			14 + H - H * q / 4, q * 25);
	for (double d = ceil(l0); d <= l1; d++) {
		double x = MARGIN_L + pw * (d - l0) / (l1 - l0);

		fprintf(out, "<line x1=\"%.1f\" y1=\"10\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#ddd\"/>"
			"<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>", x, x, 10 + H, x,
			H + 26, sl_html_axis_ns(a, sizeof(a), (uint64_t)(pow(10, d) + 0.5)));
	}
	cdf_line(out, h, l0, l1, H, "cdf", "#D55E00", "", 2);
	{
		/* each class's own, when the report has more than one */
		static const char *const colors[] = { "#0072B2", "#009E73", "#CC79A7", "#E69F00", "#000000" };
		static const char *const dashes[] = { "6 3", "2 2", "8 3 2 3", "1 3", "10 2" };
		int classes = 0, y = 0;

		for (int c = 0; c < SL_CLASS__NR; c++)
			classes += p->m->latency_class[c].count > 0;
		for (int c = 0; classes > 1 && c < SL_CLASS__NR; c++) {
			const struct sl_hist *ch = &p->m->latency_class[c];

			if (!ch->count)
				continue;
			cdf_line(out, ch, l0, l1, H, "cdf-class", colors[c % 5], dashes[c % 5], 1.5);
			fprintf(out, "<text x=\"%d\" y=\"%.0f\" fill=\"%s\">%s (%" PRIu64 ")</text>",
				PLOT_W - MARGIN_R - 130, 10 + H - 50 + 13.0 * y++, colors[c % 5],
				sl_sched_class_names[c], ch->count);
		}
	}
	for (int i = 0, row = 0; i < SL_NR_PCTS; i++) {
		uint64_t v = sl_hist_percentile(h, sl_pcts[i]);
		double x = MARGIN_L + pw * (log10((double)MAX(v, 1)) - l0) / (l1 - l0);

		if (sl_pcts[i] != 50 && sl_pcts[i] != 99 && sl_pcts[i] != 99.9)
			continue;
		/*
		 * a row of its own (14 px, the text 11 px): p99 and p99.9 are often
		 * a few pixels apart, and their labels overlapped on rows 8 px
		 * apart; right of its line, left of it only when it would not fit
		 * (at most 6.5 px a character)
		 */
		char label[64];
		int len = snprintf(label, sizeof(label), "%s %s", sl_pct_names[i],
				   fmt_duration(a, sizeof(a), v));
		bool left = x + 3 + 6.5 * len > PLOT_W;

		fprintf(out, "<line x1=\"%.1f\" y1=\"10\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#555\" "
			"stroke-dasharray=\"3 3\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"%s\">%s"
			"</text>", x, x, 10 + H, left ? x - 3 : x + 3, 22 + 14 * row++,
			left ? "end" : "start", label);
	}
	fprintf(out, "<text x=\"%d\" y=\"%.0f\">wakeup latency (log scale); share of wakeups at or "
		"below (solid: all; dashed: by scheduling class, when there are several)</text></svg>\n",
		MARGIN_L, H + 44);
}

static void pct_row(FILE *out, const char *label, const struct sl_hist *h)
{
	char a[32];

	fprintf(out, "<tr><td class=\"l\">%s</td><td>%" PRIu64 "</td>", label, h->count);
	for (int i = 0; i < SL_NR_PCTS; i++)
		fprintf(out, "<td>%s</td>", h->count ?
			fmt_duration(a, sizeof(a), sl_hist_percentile(h, sl_pcts[i])) : "");
	fprintf(out, "<td>%s</td></tr>\n", h->count ? fmt_duration(a, sizeof(a), h->max) : "");
}

static void latency(struct page *p)
{
	FILE *out = p->out;
	struct sl_model *m = p->m;

	fputs("<section id=\"latency\"><h2>Wakeup latency</h2>\n", out);
	if (!m->latency.count) {
		fputs("<p>No wakeup-latency samples in this trace.</p></section>\n", out);
		return;
	}
	fputs("<table><tr><th class=\"l\"></th><th>count</th>", out);
	for (int i = 0; i < SL_NR_PCTS; i++)
		fprintf(out, "<th>%s</th>", sl_pct_names[i]);
	fputs("<th>max</th></tr>\n", out);
	pct_row(out, "all", &m->latency);
	pct_row(out, "local (on the waker's CPU)", &m->latency_local);
	pct_row(out, "remote", &m->latency_remote);
	for (int c = 0; c < SL_CLASS__NR; c++) {
		char label[48];

		if (!m->latency_class[c].count)
			continue;
		snprintf(label, sizeof(label), "class %s", sl_sched_class_names[c]);
		pct_row(out, label, &m->latency_class[c]);
	}
	if (m->fork_delay.count)
		pct_row(out, "new tasks: fork to first run (not wakeups)", &m->fork_delay);
	for (int c = 0; c < m->nr_cpus; c++) {
		char label[32];

		if (!m->cpus[c].latency.count)
			continue;
		snprintf(label, sizeof(label), "on cpu%d", c);
		pct_row(out, label, &m->cpus[c].latency);
	}
	fputs("</table>\n", out);
	histogram(p, &m->latency);
	cdf(p, &m->latency);
	fputs("</section>\n", out);
}

/* p50, p99 and max per window of the model's series (log scale), and the findings' times. */
static void latency_time(struct page *p)
{
	FILE *out = p->out;
	struct sl_model *m = p->m;
	const struct sl_series *s = &m->latency_series;
	double H = 200, l0, l1;
	uint64_t lo = UINT64_MAX, hi = 0, top = 1;
	static const struct { double pct; const char *name, *color, *dash; } lines[] = {
		{ 50, "p50", "#0072B2", "" }, { 99, "p99", "#D55E00", "" },
		{ 0, "max", "#999999", "2 2" },
	};
	char a[32];
	int peak;

	fputs("<section id=\"latency-time\"><h2>Wakeup latency over time</h2>\n", out);
	if (!s->finished || !s->nr || !m->latency.count) {
		fputs("<p>No wakeup-latency samples in this trace.</p></section>\n", out);
		return;
	}
	for (uint32_t i = 0; i < s->nr; i++) {
		if (!s->w[i].count)
			continue;
		lo = MIN(lo, sl_series_percentile(s, i, 50));
		hi = MAX(hi, s->w[i].max);
		top = MAX(top, s->w[i].count);
	}
	l0 = floor(log10((double)MAX(lo, 1)));
	l1 = ceil(log10((double)MAX(hi, 2)));
	if (l1 <= l0)
		l1 = l0 + 1;
	peak = sl_series_peak(s);
	fprintf(out, "<p class=\"note\">Per window of %s: p50, p99 and the longest wakeup "
		"latency (log scale), the wakeups in each window (bars, below)", fmt_duration(a,
		sizeof(a), s->window_ns));
	if (peak >= 0)
		fprintf(out, "; the worst window (highest p99) starts at +%s",
			fmt_duration(a, sizeof(a), (uint64_t)peak * s->window_ns));
	fputs(". Findings are ticked on top, one colour per kind.</p>\n", out);
	fprintf(out, "<svg class=\"plot\" id=\"latency-over-time\" width=\"%d\" height=\"%.0f\" "
		"role=\"img\" aria-label=\"wakeup latency over time\">", PLOT_W, H + 120);
	for (double d = l0; d <= l1; d++) {
		double y = 20 + H - H * (d - l0) / (l1 - l0);

		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>", MARGIN_L, y,
			PLOT_W - MARGIN_R, y, MARGIN_L - 4, y + 4,
			sl_html_axis_ns(a, sizeof(a), (uint64_t)(pow(10, d) + 0.5)));
	}
	if (peak >= 0)
		fprintf(out, "<rect x=\"%.1f\" y=\"20\" width=\"%.1f\" height=\"%.0f\" fill=\"#F0E442\" "
			"fill-opacity=\"0.5\"><title>the worst window</title></rect>",
			x_of_ts(p, s->origin + (uint64_t)peak * s->window_ns),
			MAX(1.0, x_of_ts(p, s->origin + (uint64_t)(peak + 1) * s->window_ns) -
				 x_of_ts(p, s->origin + (uint64_t)peak * s->window_ns)), H);
	for (size_t l = 0; l < sizeof(lines) / sizeof(lines[0]); l++) {
		bool open = false;

		for (uint32_t i = 0; i < s->nr; i++) {
			uint64_t v;
			double x, y;

			if (!s->w[i].count) {
				if (open)
					fputs("\"/>", out);
				open = false;
				continue;
			}
			v = lines[l].pct ? sl_series_percentile(s, i, lines[l].pct) : s->w[i].max;
			x = x_of_ts(p, s->origin + (uint64_t)i * s->window_ns);
			y = 20 + H - H * (log10((double)MAX(v, 1)) - l0) / (l1 - l0);
			y = MIN(MAX(y, 20.0), 20 + H);
			if (!open)
				fprintf(out, "<polyline class=\"series %s\" fill=\"none\" stroke=\"%s\" "
					"stroke-width=\"1.5\" stroke-dasharray=\"%s\" points=\"", lines[l].name,
					lines[l].color, lines[l].dash);
			open = true;
			/* a step per window: a lone window still shows */
			fprintf(out, "%.1f,%.1f %.1f,%.1f ", x, y,
				MAX(x_of_ts(p, s->origin + (uint64_t)(i + 1) * s->window_ns), x + 2), y);
		}
		if (open)
			fputs("\"/>", out);
		fprintf(out, "<text x=\"%d\" y=\"%zu\" fill=\"%s\">%s</text>", PLOT_W - MARGIN_R - 40,
			32 + 13 * l, lines[l].color, lines[l].name);
	}
	/* the wakeups per window, under the latency */
	for (uint32_t i = 0; i < s->nr; i++) {
		double x0 = x_of_ts(p, s->origin + (uint64_t)i * s->window_ns);
		double x1 = x_of_ts(p, s->origin + (uint64_t)(i + 1) * s->window_ns);
		double bh = 40.0 * (double)s->w[i].count / (double)top;

		if (s->w[i].count)
			fprintf(out, "<rect class=\"count\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"%.1f\" fill=\"#56B4E9\"><title>%" PRIu64 " wakeups</title></rect>",
				x0, 30 + H + 40 - bh, MAX(x1 - x0 - 0.5, 0.5), bh, s->w[i].count);
	}
	/* findings' times as ticks along the top */
	for (int k = 0; k < SL_KIND__COUNT; k++) {
		size_t nr;
		const struct sl_finding *f = sl_findings_of_kind(m->findings, k, &nr);

		if (!sl_kinds[k].listed)
			continue;
		for (size_t i = 0; i < nr; i++, f++) {
			double x = x_of_ts(p, f->ts);

			fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/>",
				x, 4 + 3 * (k % 5), x, 10 + 3 * (k % 5), color_of(k));
		}
	}
	time_axis(p, 34 + H + 40);
	fputs("</svg>\n</section>\n", out);
}

/* The findings' marks on a time plot: one per kept finding, at its time, on row y_of(cpu). */
static void marks(struct page *p, double y0, double row_h)
{
	struct sl_model *m = p->m;
	char id[48], ts[32], a[32], msg[512];

	for (int k = 0; k < SL_KIND__COUNT; k++) {
		size_t nr;
		const struct sl_finding *f = sl_findings_of_kind(m->findings, k, &nr);

		if (!sl_kinds[k].listed)
			continue;
		for (size_t i = 0; i < nr; i++, f++) {
			snprintf(id, sizeof(id), "f-%d-%zu", k, i);
			marker(p->out, k, x_of_ts(p, f->ts), y0 + row_h * (f->cpu + 0.5), id);
			sl_finding_message(f, m, msg, sizeof(msg));
			fprintf(p->out, "<title>%s %s cpu%d %s: ", sl_kinds[k].name,
				fmt_ts(ts, sizeof(ts), f->ts), f->cpu, fmt_duration(a, sizeof(a), f->cost));
			sl_html_text(p->out, msg);
			fprintf(p->out, "</title>%s", marker_end(k));
		}
	}
}

/* Each CPU's busy share per window, shaded; grey where its state was unknown. */
static void cpu_map(struct page *p)
{
	FILE *out = p->out;
	const struct sl_timeline *tl = p->tl;
	int ncpu = tl->nr_cpus, nw = tl->nr_windows, step = 1;
	double row_h = ncpu > 64 ? 4 : ncpu > 16 ? 8 : ncpu > 4 ? 18 : 28, y0 = 10;
	double H = row_h * ncpu;

	while ((size_t)ncpu * (size_t)(nw / step) > MAX_RECTS)
		step *= 2;
	fprintf(out, "<svg class=\"plot\" id=\"cpu-map\" width=\"%d\" height=\"%.0f\" role=\"img\" "
		"aria-label=\"busy share per CPU over time\">", PLOT_W, H + 60);
	for (int c = 0; c < ncpu; c++) {
		const struct sl_timeline_cpu *w = tl->cpus[c];
		double y = y0 + row_h * c;
		int prev_shade = -2;
		double run_x = 0;

		if (row_h >= 8)
			fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">cpu%d</text>",
				MARGIN_L - 4, y + row_h * 0.75, c);
		/* runs of one shade in one rectangle: the size follows the picture, not the trace */
		for (int i = 0; i <= nw; i += step) {
			int shade = -2;
			double x = x_of_ts(p, tl->origin + (uint64_t)i * tl->width);

			if (i < nw && w) {
				uint64_t known = 0, busy = 0;

				for (int j = i; j < MIN(i + step, nw); j++) {
					known += w->known[j];
					busy += w->busy[j];
				}
				shade = known ? (int)(10.0 * (double)busy / (double)known + 0.5) : -1;
			} else if (i < nw) {
				shade = -1;
			}
			if (shade == prev_shade)
				continue;
			if (prev_shade != -2 && prev_shade != 0 && x > run_x)
				fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
					"fill=\"%s\" fill-opacity=\"%.1f\"/>", run_x, y, x - run_x, row_h - 1,
					prev_shade < 0 ? "#999" : "#0072B2",
					prev_shade < 0 ? 0.35 : prev_shade / 10.0);
			prev_shade = shade;
			run_x = x;
		}
	}
	marks(p, y0, row_h);
	time_axis(p, y0 + H + 4);
	fputs("</svg>\n", out);
}

/* The tasks waiting in all runqueues (mean per window) and the deepest queue. */
static void depth_plot(struct page *p)
{
	FILE *out = p->out;
	const struct sl_timeline *tl = p->tl;
	double H = 120, top = 1, *mean = xcalloc((size_t)tl->nr_windows + 1, sizeof(double));
	uint32_t *deep = xcalloc((size_t)tl->nr_windows + 1, sizeof(uint32_t));

	for (int i = 0; i < tl->nr_windows; i++) {
		for (int c = 0; c < tl->nr_cpus; c++) {
			if (!tl->cpus[c])
				continue;
			mean[i] += (double)tl->cpus[c]->area[i] / (double)tl->width;
			deep[i] = MAX(deep[i], tl->cpus[c]->max_depth[i]);
		}
		top = MAX(top, (double)deep[i]);
	}
	fprintf(out, "<svg class=\"plot\" id=\"depth\" width=\"%d\" height=\"%.0f\" role=\"img\" "
		"aria-label=\"runqueue depth over time\">", PLOT_W, H + 60);
	fprintf(out, "<text x=\"%d\" y=\"18\" text-anchor=\"end\">%.0f</text>"
		"<text x=\"%d\" y=\"%.0f\" text-anchor=\"end\">0</text>", MARGIN_L - 4, top,
		MARGIN_L - 4, 10 + H);
	fputs("<polyline fill=\"none\" stroke=\"#E69F00\" stroke-width=\"1.5\" points=\"", out);
	for (int i = 0; i < tl->nr_windows; i++)
		fprintf(out, "%.1f,%.1f %.1f,%.1f ", x_of_ts(p, tl->origin + (uint64_t)i * tl->width),
			10 + H - H * deep[i] / top,
			x_of_ts(p, tl->origin + (uint64_t)(i + 1) * tl->width), 10 + H - H * deep[i] / top);
	fputs("\"/><polyline fill=\"none\" stroke=\"#0072B2\" stroke-width=\"2\" "
	      "stroke-dasharray=\"4 2\" points=\"", out);
	for (int i = 0; i < tl->nr_windows; i++)
		fprintf(out, "%.1f,%.1f ", x_of_ts(p, tl->origin + (uint64_t)i * tl->width +
						   tl->width / 2), 10 + H - H * MIN(mean[i], top) / top);
	fputs("\"/>", out);
	time_axis(p, 14 + H);
	fprintf(out, "</svg>\n<p class=\"note\">Solid: the deepest runqueue of any CPU in each "
		"window; dashed: the tasks waiting in all runqueues, on average over the window "
		"(the running ones not counted).</p>\n");
	free(mean);
	free(deep);
}

static void cpus(struct page *p)
{
	FILE *out = p->out;
	char a[32];

	fputs("<section id=\"cpus\"><h2>CPUs over time</h2>\n", out);
	if (!p->tl || !p->tl->nr_windows || !p->tl->nr_cpus) {
		fputs("<p>No CPU activity in this trace.</p></section>\n", out);
		return;
	}
	fprintf(out, "<p class=\"note\">Each CPU's busy share per window of %s (darker: busier; "
		"grey: its state unknown, before its first switch or after lost events). The "
		"marks are the findings, one shape and colour per kind:", fmt_duration(a, sizeof(a),
									p->tl->width));
	for (int k = 0; k < SL_KIND__COUNT; k++) {
		char id[16];

		if (!sl_kinds[k].listed)
			continue;
		snprintf(id, sizeof(id), "key-%d", k);
		fputs(" <svg width=\"12\" height=\"12\" style=\"display:inline;margin:0\">", out);
		marker(out, k, 6, 6, id);
		fprintf(out, "%s</svg> %s", marker_end(k), sl_kinds[k].name);
	}
	fputs(".</p>\n", out);
	cpu_map(p);
	depth_plot(p);
	fputs("</section>\n", out);
}

static void findings(struct page *p)
{
	FILE *out = p->out;
	struct sl_model *m = p->m;
	char a[32], ts[32], msg[512];

	for (int k = 0; k < SL_KIND__COUNT; k++) {
		const struct sl_kind_summary *s = &m->findings->summary[k];
		size_t nr;
		const struct sl_finding *f = sl_findings_of_kind(m->findings, k, &nr);

		if (!sl_kinds[k].listed)
			continue;
		fprintf(out, "<section id=\"kind-%s\" class=\"kind\"><h2>%s: %" PRIu64 " found</h2>\n",
			sl_kinds[k].name, sl_kinds[k].name, s->count);
		fputs("<p class=\"note\">", out);
		sl_html_text(out, sl_kinds[k].what);
		fputs("</p>\n", out);
		if (!nr) {
			fputs("<p>None.</p></section>\n", out);
			continue;
		}
		fprintf(out, "<table><tr><th></th><th class=\"l\">time</th><th>cpu</th><th>cost</th>"
			"<th class=\"l\">task</th><th class=\"l\">what happened</th></tr>\n");
		for (size_t i = 0; i < nr && i < FINDINGS_LISTED; i++, f++) {
			sl_finding_message(f, m, msg, sizeof(msg));
			fprintf(out, "<tr><td><a href=\"#f-%d-%zu\" title=\"its mark on the CPU map\">"
				"&#9673;</a></td><td class=\"l\">%s</td><td>%d</td><td>%s</td>"
				"<td class=\"l\">", k, i, fmt_ts(ts, sizeof(ts), f->ts), f->cpu,
				fmt_duration(a, sizeof(a), f->cost));
			sl_html_text(out, sl_str(m->strtab, f->comm));
			fprintf(out, ":%d</td><td class=\"l w\">", f->pid);
			sl_html_text(out, msg);
			fputs("</td></tr>\n", out);
		}
		fputs("</table>\n", out);
		if (nr > FINDINGS_LISTED || nr < s->count)
			fprintf(out, "<p class=\"note\">%zu listed of %zu kept, %" PRIu64 " found; every "
				"kept one is marked on the CPU map (schedlint analyze --full lists them "
				"all).</p>\n", MIN(nr, (size_t)FINDINGS_LISTED), nr, s->count);
		fputs("</section>\n", out);
	}
}

/* A part of the text report, as it is, in a <pre>. */
static void text_part(struct page *p, const char *id, const char *title,
		      void (*part)(struct sl_report *r, struct sl_model *m))
{
	struct sl_report r = { 0 };
	char *text = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&text, &size);

	if (!mem)
		return;
	r.out = mem;
	r.path = p->path;
	r.width = 120;
	r.top = 10;
	part(&r, p->m);
	fclose(mem);
	fprintf(p->out, "<section id=\"%s\"><h2>%s</h2><pre>", id, title);
	sl_html_text(p->out, text[0] == '\n' ? text + 1 : text);
	fputs("</pre></section>\n", p->out);
	free(text);
}

void sl_report_html(FILE *out, struct sl_model *m, const char *path)
{
	struct page p = { .out = out, .m = m, .path = path, .tl = sl_timeline_of(m) };

	p.t0 = p.tl && p.tl->width ? p.tl->origin : m->first_ts;
	p.t1 = MAX(m->last_ts, p.t0 + 1);
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n<title>schedlint: ", out);
	sl_html_text(out, path);
	fprintf(out, "</title>\n<style>\n%s</style></head><body>\n<h1>schedlint %s &mdash; ", css,
		SCHEDLINT_VERSION);
	sl_html_text(out, path);
	fputs("</h1>\n<nav><a href=\"#summary\">summary</a><a href=\"#latency\">latency</a>"
	      "<a href=\"#latency-time\">latency over time</a>"
	      "<a href=\"#cpus\">CPUs over time</a><a href=\"#findings\">findings</a>"
	      "<a href=\"#details\">details</a><a href=\"#facts\">trace facts</a></nav>\n", out);
	summary(&p);
	worst_moments(&p);
	latency(&p);
	latency_time(&p);
	cpus(&p);
	fputs("<div id=\"findings\">\n", out);
	findings(&p);
	fputs("</div>\n", out);
	text_part(&p, "details", "Details (as the text report gives them)", sl_report_text_details);
	text_part(&p, "facts", "Trace facts", sl_report_text_facts);
	fputs("</body></html>\n", out);
}
