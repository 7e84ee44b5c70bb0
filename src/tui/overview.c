// SPDX-License-Identifier: GPL-2.0
/*
 * overview.c - the first screen: the trace, its findings by kind, wakeup
 * latency and its histogram, and how busy each CPU was
 *
 * The finding kinds come first: they are what the user opened explore
 * for.  The page is a list of lines built from the model and scrolled;
 * with many CPUs the utilization becomes one digit per CPU.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlint/report.h"
#include "tui.h"
#include "util/util.h"

#define OV_TEXT 256

struct ov_line {
	attr_t attr;
	char text[OV_TEXT];
	bool bar;			/* a bar after the text's first bar_col columns */
	int bar_col, bar_w;
	double frac;
	attr_t bar_attr;
	char after[64];			/* text after the bar */
	int hist_row;			/* Enter: this histogram row's samples; -1 */
	int kind;			/* Enter: the findings of this kind; -1 */
};

struct overview {
	struct ov_line *lines;
	size_t nr, alloc;
	int top;
	int sel;			/* the selected line (Enter acts on it) */
	int width;			/* what the lines were built for */
};

static struct ov_line *add_line(struct overview *ov, attr_t attr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static struct ov_line *add_line(struct overview *ov, attr_t attr, const char *fmt, ...)
{
	struct ov_line *l;
	va_list ap;

	GROW(ov->lines, ov->alloc, ov->nr + 1);
	l = &ov->lines[ov->nr++];
	memset(l, 0, sizeof(*l));
	l->attr = attr;
	l->hist_row = l->kind = -1;
	va_start(ap, fmt);
	vsnprintf(l->text, sizeof(l->text), fmt, ap);
	va_end(ap);
	return l;
}

/*
 * A line of the trace's facts (" note     ..."), wrapped at spaces to the
 * width, its next lines under its value
 * (10 columns in): the end of a note is not cut off a narrow screen.
 */
static void add_wrapped(struct overview *ov, attr_t attr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add_wrapped(struct overview *ov, attr_t attr, const char *fmt, ...)
{
	const int hang = 10, room = MAX(ov->width, hang + 20);
	char text[1024], *p = text;
	bool first = true;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	while (*p) {
		int lead = first ? 0 : hang, avail = room - lead, len = sl_display_width(p), cut;

		if (len > avail) {
			/* the last space that leaves the line within avail columns */
			int bytes = (int)sl_bytes_for_cols(p, strlen(p), avail);

			for (cut = bytes; cut > 0 && p[cut] != ' '; cut--)
				;
			if (cut <= 0)
				cut = bytes;	/* one word wider than the line: cut */
		} else {
			cut = (int)strlen(p);
		}
		add_line(ov, attr, "%*s%.*s", lead, "", cut, p);
		p += cut;
		while (*p == ' ')
			p++;
		first = false;
	}
}

static void trace_lines(struct xp *x, struct overview *ov)
{
	const struct sl_model *m = x->m;
	const struct sl_trace_info *info = &x->an->info;
	char a[32], b[32], d[32], more[160] = "";

	if (info->kernel[0])
		snprintf(more + strlen(more), sizeof(more) - strlen(more), ", kernel %s", info->kernel);
	if (info->clock[0])
		snprintf(more + strlen(more), sizeof(more) - strlen(more), ", clock %s", info->clock);
	add_wrapped(ov, A_NORMAL, " trace    %s%s%s%s, %d CPUs%s", sl_format_name(info->format),
		 info->compression[0] && strcmp(info->compression, "none") ? " (" : "",
		 info->compression[0] && strcmp(info->compression, "none") ? info->compression : "",
		 info->compression[0] && strcmp(info->compression, "none") ? ")" : "",
		 x->nr_cpus, more);
	add_wrapped(ov, A_NORMAL, " span     %s .. %s (%s), %" PRIu64 " events",
		 fmt_ts(a, sizeof(a), m->first_ts), fmt_ts(b, sizeof(b), m->last_ts),
		 xp_dur(d, sizeof(d), sl_dur(m->first_ts, m->last_ts)), m->nr_events);
	if (m->lost_gaps) {
		bool floor;

		sl_model_lost_uncounted(m, &floor);
		add_wrapped(ov, x->attrs[XP_A_WARN], " lost     %s%" PRIu64 " events in %" PRIu64
			 " gap%s: no latency or finding is computed across a gap", floor ? "at least " : "",
			 m->lost_events, m->lost_gaps, m->lost_gaps == 1 ? "" : "s");
	}
	if (m->implied_switches)
		add_wrapped(ov, x->attrs[XP_A_DIM], " note     %" PRIu64 " context switch%s missing from"
			 " the trace, inferred from the events' tasks", m->implied_switches,
			 m->implied_switches == 1 ? "" : "es");
	if (!m->seen_waking && !m->seen_wakeup)
		add_wrapped(ov, x->attrs[XP_A_WARN], " note     no wakeup events: wakeup latency cannot"
			 " be measured");
	if (info->bad_lines > !!info->cut_last_line)
		add_wrapped(ov, x->attrs[XP_A_WARN], " note     %" PRIu64 " %s not event%s (first:"
			 " line %" PRIu64 ")", info->bad_lines - !!info->cut_last_line,
			 info->bad_lines - !!info->cut_last_line == 1 ? "line was" : "lines were",
			 info->bad_lines - !!info->cut_last_line == 1 ? "" : "s", info->first_bad_line);
	if (info->cut_last_line)
		add_wrapped(ov, x->attrs[XP_A_WARN], " note     the last line (%" PRIu64 ") ends without a"
			 " newline (a cut file?): left out", info->cut_last_line);
}

/*
 * `what` cut to `room` columns at a word, with "..." when cut: a narrow
 * terminal gets the start of the sentence, not half a word.
 */
static const char *fit_words(char *buf, size_t len, const char *what, int room)
{
	size_t n = strlen(what), cut;

	if (room <= 0)
		return "";
	if (n <= (size_t)room)
		return what;
	if (room < 8)
		return "";
	cut = (size_t)room - 3;
	while (cut > 0 && what[cut] != ' ')
		cut--;
	while (cut > 0 && (what[cut - 1] == ' ' || what[cut - 1] == ',' || what[cut - 1] == ';'))
		cut--;
	snprintf(buf, len, "%.*s...", (int)cut, what);
	return buf;
}

static void findings_lines(struct xp *x, struct overview *ov)
{
	const struct sl_findings *fs = x->m->findings;
	char a[32], b[32], what[256];
	/* the columns before "what": 1 + 24 + 1 + 7 + 1 + 11 + 1 + 11 + 3 */
	int room = ov->width - 60;

	add_line(ov, A_NORMAL, "%s", "");
	add_line(ov, x->attrs[XP_A_HEAD], " %-24s %7s %11s %11s   %s", "Findings", "count", "total cost",
		 "worst", "what");
	for (int k = 0; k < SL_KIND__COUNT; k++) {
		const struct sl_kind_summary *s = &fs->summary[k];
		/* a configuration finding (late-preemption-at-tick) is the kernel's design: not red */
		bool bad = s->count && sl_kinds[k].listed && !sl_kinds[k].configuration;

		/* sync-wake-local is a measurement: its "what" says so */
		struct ov_line *l = add_line(ov, bad ? x->attrs[XP_A_BAD] : A_NORMAL,
					     " %-24s %7" PRIu64 " %11s %11s   %s",
					     sl_kinds[k].name, s->count, s->count ? xp_dur(a, sizeof(a), s->cost) : "-",
					     s->count ? xp_dur(b, sizeof(b), s->max_cost) : "-",
					     fit_words(what, sizeof(what), sl_kinds[k].what, room));

		if (s->count)
			l->kind = k;
	}
	if (fs->dropped)
		add_line(ov, x->attrs[XP_A_DIM], " the lists keep the %zu most costly of each kind;"
			 " these counts are of all", fs->max);
}

/*
 * The latency table's value columns (the percentiles, then max) that fit
 * the width, a bit each: " %-13s %8s" and " %9s" a column, the last
 * screen column left empty.  Those analyze drops first when its terminal
 * is narrow go first (sl_latency_pct_drop); max stays.
 */
static unsigned latency_shown(int width)
{
	/* label and count (they stay), the percentiles, max: analyze's fitting (sl_cols_fit) */
	struct sl_col cols[2 + SL_NR_PCTS + 1] = {
		{ "", 13, 0, true }, { "count", 8, 0, false },
		[2 + SL_NR_PCTS] = { "max", 9, 0, false },
	};

	for (int i = 0; i < SL_NR_PCTS; i++)
		cols[2 + i] = (struct sl_col){ sl_pct_names[i], 9, sl_latency_pct_drop(sl_pcts[i]), false };
	return (unsigned)(sl_cols_fit_width(width - 1, 1, cols, 3 + SL_NR_PCTS) >> 2);
}

/* " %-13s %8s" of label and count, then " %9s" of each shown value */
static void latency_line(struct overview *ov, attr_t attr, unsigned shown, const char *label,
			 const char *count, const char v[][32])
{
	char text[OV_TEXT];
	int n = snprintf(text, sizeof(text), " %-13s %8s", label, count);

	for (int i = 0; i <= SL_NR_PCTS && n < (int)sizeof(text); i++)
		if (shown >> i & 1)
			n += snprintf(text + n, sizeof(text) - (size_t)n, " %9s", v[i]);
	add_line(ov, attr, "%s", text);
}

static void latency_row(struct xp *x, struct overview *ov, unsigned shown, const char *label,
			const struct sl_hist *h)
{
	char v[SL_NR_PCTS + 1][32], n[32];

	for (int i = 0; i < SL_NR_PCTS; i++)
		xp_dur(v[i], sizeof(v[i]), sl_hist_percentile(h, sl_pcts[i]));
	xp_dur(v[SL_NR_PCTS], sizeof(v[0]), h->max);
	snprintf(n, sizeof(n), "%" PRIu64, h->count);
	latency_line(ov, A_NORMAL, shown, label, n, v);
}

static void latency_lines(struct xp *x, struct overview *ov)
{
	const struct sl_model *m = x->m;
	unsigned shown = latency_shown(ov->width);
	char head[SL_NR_PCTS + 1][32];

	add_line(ov, A_NORMAL, "%s", "");
	if (!m->latency.count) {
		add_line(ov, x->attrs[XP_A_HEAD], " Wakeup latency");
		add_line(ov, A_NORMAL, " no wakeup-latency samples");
		return;
	}
	for (int i = 0; i < SL_NR_PCTS; i++)
		snprintf(head[i], sizeof(head[i]), "%s", sl_pct_names[i]);
	snprintf(head[SL_NR_PCTS], sizeof(head[0]), "max");
	latency_line(ov, x->attrs[XP_A_HEAD], shown, "Wakeup latency", "count", head);
	latency_row(x, ov, shown, "all", &m->latency);
	if (m->latency_local.count)
		latency_row(x, ov, shown, "local", &m->latency_local);
	if (m->latency_remote.count)
		latency_row(x, ov, shown, "remote", &m->latency_remote);
}

/*
 * The latency over time (series.h) as a strip: one column per window, or
 * the worst of the windows a column covers when there are more windows
 * than columns; the p99's height on a log scale from the lowest to the
 * highest window's, in nine steps (' ' no sample, '.' the lowest, '@' the
 * peak).  Bursts and phases show at a glance; the heading names the peak.
 */
#define XP_STRIP_LEVELS ".:-=+*#%@"

static void strip_lines(struct xp *x, struct overview *ov)
{
	const struct sl_series *s = &x->m->latency_series;
	int peak = sl_series_peak(s);
	/* room for " |", "| ", and "12.3 us..45.6 ms" */
	int cols = MIN(OV_TEXT - 40, MAX(10, ov->width - 24));
	uint64_t lo = UINT64_MAX, hi = 0;
	char strip[OV_TEXT], a[32], b[32], d[32], e[32], w[32];
	int n;

	if (peak < 0 || !s->nr)
		return;
	for (uint32_t i = 0; i < s->nr; i++) {
		uint64_t v;

		if (!s->w[i].count)
			continue;
		v = sl_series_percentile(s, i, 99);
		lo = MIN(lo, v);
		hi = MAX(hi, v);
	}
	n = (int)MIN((uint32_t)cols, s->nr);
	for (int c = 0; c < n; c++) {
		uint32_t first = (uint32_t)((uint64_t)c * s->nr / (uint32_t)n);
		uint32_t last = (uint32_t)((uint64_t)(c + 1) * s->nr / (uint32_t)n);
		uint64_t v = 0;
		bool any = false;

		for (uint32_t i = first; i < last; i++)
			if (s->w[i].count) {
				v = MAX(v, sl_series_percentile(s, i, 99));
				any = true;
			}
		if (!any) {
			strip[c] = ' ';
		} else if (hi <= lo || v <= lo) {
			strip[c] = XP_STRIP_LEVELS[0];
		} else {
			double f = log((double)v / (double)lo) / log((double)hi / (double)lo);
			int level = (int)(f * (sizeof(XP_STRIP_LEVELS) - 2) + 0.5);

			strip[c] = XP_STRIP_LEVELS[MAX(0, MIN((int)sizeof(XP_STRIP_LEVELS) - 2, level))];
		}
	}
	strip[n] = '\0';
	add_line(ov, A_NORMAL, "%s", "");
	add_line(ov, x->attrs[XP_A_HEAD], " Latency over time, p99 per %s: peak %s at %s",
		 xp_dur(w, sizeof(w), s->window_ns),
		 xp_dur(d, sizeof(d), sl_series_percentile(s, (uint32_t)peak, 99)),
		 fmt_ts(a, sizeof(a), s->origin + (uint64_t)peak * s->window_ns));
	add_line(ov, A_NORMAL, " |%s| %s..%s", strip, xp_dur(b, sizeof(b), lo), xp_dur(e, sizeof(e), hi));
}

/* "200ns", "1us", "20ms": a 1-2-5 boundary as a short label */
static const char *short_ns(char *buf, size_t len, uint64_t ns)
{
	static const struct { uint64_t div; const char *unit; } units[] = {
		{ 1000000000, "s" }, { 1000000, "ms" }, { 1000, "us" }, { 1, "ns" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (ns >= units[i].div) {
			snprintf(buf, len, "%" PRIu64 "%s", ns / units[i].div, units[i].unit);
			return buf;
		}
	snprintf(buf, len, "0");
	return buf;
}

/* 1-2-5 rows, as in the text report; Enter on one lists its samples */
static void histogram_lines(struct xp *x, struct overview *ov)
{
	uint64_t rows[XP_HIST_ROWS] = { 0 }, maxc = 0, lo, hi, c;
	struct sl_hist_iter it = { 0 };
	int first = -1, last = -1;
	const struct sl_hist *h = &x->m->latency;

	if (!h->count)
		return;
	while (sl_hist_next(h, &it, &lo, &hi, &c))
		rows[xp_hist_row(lo)] += c;
	for (int i = 0; i < XP_HIST_ROWS; i++)
		if (rows[i]) {
			if (first < 0)
				first = i;
			last = i;
			maxc = MAX(maxc, rows[i]);
		}
	add_line(ov, A_NORMAL, "%s", "");
	add_line(ov, x->attrs[XP_A_HEAD], " Latency histogram (Enter on a row: its samples)");
	for (int i = first; i <= last; i++) {
		char a[32];
		struct ov_line *l = add_line(ov, A_NORMAL, " %9s .. ", short_ns(a, sizeof(a), xp_hist_row_lo(i)));

		l->bar = true;
		l->bar_col = 14;
		l->bar_w = MIN(40, MAX(10, ov->width - 30));
		l->frac = (double)rows[i] / (double)maxc;
		l->bar_attr = x->attrs[XP_A_BAR];
		l->hist_row = i;
		snprintf(l->after, sizeof(l->after), " %" PRIu64, rows[i]);
	}
}

static double cpu_util(const struct sl_cpu *c)
{
	uint64_t known = c->busy_ns + c->idle_ns;

	return known ? (double)c->busy_ns / (double)known : 0;
}

static void cpu_lines(struct xp *x, struct overview *ov)
{
	const struct sl_model *m = x->m;

	add_line(ov, A_NORMAL, "%s", "");
	if (m->nr_cpus > 32) {
		/* one digit per CPU: tenths of busy time (9 = 90% or more) */
		add_line(ov, x->attrs[XP_A_HEAD], " CPU utilization, one digit per CPU: 0 idle .. 9 busy"
			 " 90%% or more, - unknown");
		for (int base = 0; base < m->nr_cpus; base += 64) {
			char digits[65];
			int n = 0;

			for (int cpu = base; cpu < m->nr_cpus && cpu < base + 64; cpu++) {
				const struct sl_cpu *c = &m->cpus[cpu];

				digits[n++] = c->busy_ns + c->idle_ns ?
					(char)('0' + MIN(9, (int)(cpu_util(c) * 10))) : '-';
			}
			digits[n] = '\0';
			add_line(ov, A_NORMAL, " %4d-%-4d %s", base, base + n - 1, digits);
		}
		return;
	}
	add_line(ov, x->attrs[XP_A_HEAD], " %-8s %-26s %6s %9s %8s %5s", "CPUs", "utilization", "busy",
		 "switches", "wakeups", "maxq");
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct sl_cpu *c = &m->cpus[cpu];
		double u = cpu_util(c);
		struct ov_line *l = add_line(ov, A_NORMAL, " cpu %-4d ", cpu);

		l->bar = true;
		l->bar_col = 10;
		l->bar_w = 26;
		l->frac = u;
		l->bar_attr = u > 0.9 ? x->attrs[XP_A_BAD] : x->attrs[XP_A_GOOD];
		snprintf(l->after, sizeof(l->after), " %5.1f%% %9" PRIu64 " %8" PRIu64 " %5u", u * 100,
			 c->switches, c->wakeups, c->max_queue);
	}
}

static void build(struct xp *x, struct overview *ov, int width)
{
	ov->nr = 0;
	ov->width = width;
	trace_lines(x, ov);
	findings_lines(x, ov);
	latency_lines(x, ov);
	strip_lines(x, ov);
	histogram_lines(x, ov);
	cpu_lines(x, ov);
}

static void ov_init(struct xp *x, struct xp_panel *p)
{
	p->priv = xcalloc(1, sizeof(struct overview));
}

static void ov_destroy(struct xp *x, struct xp_panel *p)
{
	struct overview *ov = p->priv;

	free(ov->lines);
	free(ov);
}

static void ov_draw(struct xp *x, struct xp_panel *p, const struct xp_rect *r)
{
	struct overview *ov = p->priv;

	if (ov->width != r->w || !ov->nr)
		build(x, ov, r->w);
	ov->sel = MAX(0, MIN(ov->sel, (int)ov->nr - 1));
	if (ov->top > (int)ov->nr - r->h)
		ov->top = MAX(0, (int)ov->nr - r->h);
	if (ov->sel < ov->top)
		ov->top = ov->sel;
	if (ov->sel >= ov->top + r->h)
		ov->top = ov->sel - r->h + 1;
	for (int row = 0; row < r->h; row++) {
		size_t i = (size_t)(ov->top + row);
		const struct ov_line *l;

		if (i >= ov->nr) {
			xp_put(r->y + row, r->x, r->w, A_NORMAL, "");
			continue;
		}
		l = &ov->lines[i];
		if (!l->bar) {
			xp_put(r->y + row, r->x, r->w, (int)i == ov->sel ? x->attrs[XP_A_SELECT] : l->attr, l->text);
			continue;
		}
		xp_put(r->y + row, r->x, l->bar_col, (int)i == ov->sel ? x->attrs[XP_A_SELECT] : l->attr, l->text);
		if (l->bar_col + l->bar_w < r->w) {
			xp_bar(x, r->y + row, r->x + l->bar_col, l->bar_w, l->frac, l->bar_attr);
			xp_put(r->y + row, r->x + l->bar_col + l->bar_w, r->w - l->bar_col - l->bar_w,
			       A_NORMAL, l->after);
		} else {
			xp_put(r->y + row, r->x + l->bar_col, r->w - l->bar_col, A_NORMAL, l->after);
		}
	}
}

static bool ov_key(struct xp *x, struct xp_panel *p, int ch)
{
	struct overview *ov = p->priv;
	int page = MAX(1, p->last.h - 1);
	const struct ov_line *l;

	switch (ch) {
	case KEY_DOWN:
	case 'j':
		ov->sel++;
		break;
	case KEY_UP:
	case 'k':
		ov->sel--;
		break;
	case KEY_NPAGE:
	case ' ':
		ov->sel += page;
		ov->top += page;
		break;
	case KEY_PPAGE:
		ov->sel -= page;
		ov->top -= page;
		break;
	case KEY_HOME:
	case 'g':
		ov->sel = ov->top = 0;
		break;
	case KEY_END:
	case 'G':
		ov->sel = ov->top = (int)ov->nr;
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		l = ov->sel >= 0 && (size_t)ov->sel < ov->nr ? &ov->lines[ov->sel] : NULL;
		if (l && l->hist_row >= 0)
			xp_samples_open(x, l->hist_row);
		else if (l && l->kind >= 0)
			xp_findings_show_kind(x, l->kind);
		else
			xp_show(x, XP_FINDINGS);
		return true;
	default:
		return false;
	}
	ov->sel = MAX(0, MIN(ov->sel, (int)ov->nr - 1));
	ov->top = MAX(0, ov->top);
	return true;
}

static const struct xp_key_help ov_keys[] = {
	{ "Up/Down j/k", "select a line (the page scrolls)" },
	{ "PgUp/PgDn Space", "a page" },
	{ "Home/End g/G", "top / bottom" },
	{ "Enter", "a kind's findings, a histogram row's samples," },
	{ "", "else the findings list" },
	{ NULL, NULL },
};

const struct xp_panel_ops xp_overview_ops = {
	.name = "Overview",
	.init = ov_init,
	.destroy = ov_destroy,
	.draw = ov_draw,
	.key = ov_key,
	.hints = "j/k select  Enter findings or samples  3 timeline  4 tasks  ?:help  q:quit",
	.keys = ov_keys,
};
