// SPDX-License-Identifier: GPL-2.0
/*
 * diff_html.c - schedlint diff --html: the comparison as one self-contained page
 *
 * The verdict and the rules, the wakeup-latency distributions of the
 * sides overlaid, and the table.  A diff knows each run by its metrics
 * (a saved report has no histogram), so a distribution is drawn as its
 * percentiles: p50 to p99.9 and the max, a thin line per run and a thick
 * one through the side's medians, latency on a log scale across, the
 * percentile up.  Same rules as analyze's page (report_html.c): inline SVG
 * and CSS, no script, nothing asked for outside the file, Okabe-Ito
 * colours, and a dash pattern per side for a grey print.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "diff.h"
#include "report.h"
#include "util/util.h"

#define PLOT_W		960
#define MARGIN_L	70
#define MARGIN_R	20

static const char *const side_color[] = { "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00",
					  "#56B4E9" };
static const char *const side_dash[] = { "", "6 3", "2 2", "8 3 2 3", "1 3", "10 2" };
#define NR_SIDE_STYLES (sizeof(side_color) / sizeof(side_color[0]))

/* The distribution's points, up the plot: the report's percentiles and the max. */
static const struct { const char *metric, *label; } points[] = {
	{ "wakeup.p50", "p50" }, { "wakeup.p75", "p75" }, { "wakeup.p90", "p90" },
	{ "wakeup.p95", "p95" }, { "wakeup.p99", "p99" }, { "wakeup.p99_5", "p99.5" },
	{ "wakeup.p99_9", "p99.9" }, { "wakeup.max", "max" },
};
#define NR_POINTS (sizeof(points) / sizeof(points[0]))

static const struct sl_diff_row *row_named(const struct sl_diff *d, const char *name)
{
	for (size_t i = 0; i < d->nr_rows; i++)
		if (!strcmp(d->rows[i].name, name))
			return &d->rows[i];
	return NULL;
}

static const char css[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:1em auto;max-width:1000px;color:#111;"
	"background:#fff}\n"
	"h1{font-size:1.4em}h2{font-size:1.15em;border-bottom:1px solid #999;margin-top:1.6em}\n"
	"table{border-collapse:collapse;margin:.5em 0}td,th{padding:2px 8px;text-align:right;"
	"border-bottom:1px solid #ddd;white-space:nowrap}th{background:#f2f2f2}\n"
	"td.l,th.l{text-align:left}td.w{white-space:normal}tr.fail td{font-weight:bold;"
	"background:#fbe3d6}\n"
	".sig{color:#D55E00}.note{color:#555}svg{display:block;margin:.4em 0}"
	"svg text{font:11px sans-serif}\n";

/* The sides' distributions overlaid: a line per run, a thick one per side's medians. */
static void distributions(const struct sl_diff *d, FILE *out)
{
	const struct sl_diff_row *rows[NR_POINTS];
	double lo = INFINITY, hi = 0, l0, l1, H = 240, pw = PLOT_W - MARGIN_L - MARGIN_R;
	char a[48];

	for (size_t k = 0; k < NR_POINTS; k++) {
		rows[k] = row_named(d, points[k].metric);
		for (size_t s = 0; rows[k] && s < d->nr_sides; s++)
			for (size_t r = 0; r < d->sides[s].nr; r++)
				if (rows[k]->cells[s].valid[r] && rows[k]->cells[s].values[r] > 0) {
					lo = MIN(lo, rows[k]->cells[s].values[r]);
					hi = MAX(hi, rows[k]->cells[s].values[r]);
				}
	}
	fputs("<section id=\"distributions\"><h2>Wakeup latency, the sides overlaid</h2>\n", out);
	if (!(hi > 0)) {
		fputs("<p>No run measured a wakeup latency.</p></section>\n", out);
		return;
	}
	l0 = floor(log10(lo));
	l1 = ceil(log10(hi));
	if (l1 <= l0)
		l1 = l0 + 1;
	fputs("<p class=\"note\">Each run's percentiles (thin) and each side's medians (thick), "
	      "latency on a log scale: a line further right is slower at that percentile.", out);
	for (size_t s = 0; s < d->nr_sides; s++)
		fprintf(out, " <svg width=\"30\" height=\"10\" style=\"display:inline;margin:0\">"
			"<line x1=\"0\" y1=\"5\" x2=\"30\" y2=\"5\" stroke=\"%s\" stroke-width=\"3\" "
			"stroke-dasharray=\"%s\"/></svg> %s (%zu run%s)", side_color[s % NR_SIDE_STYLES],
			side_dash[s % NR_SIDE_STYLES], d->sides[s].name, d->sides[s].nr,
			d->sides[s].nr == 1 ? "" : "s");
	fputs("</p>\n", out);
	fprintf(out, "<svg class=\"plot\" id=\"distributions-plot\" width=\"%d\" height=\"%.0f\" "
		"role=\"img\" aria-label=\"wakeup latency distributions\">", PLOT_W, H + 50);
	for (size_t k = 0; k < NR_POINTS; k++) {
		double y = 10 + H - H * (double)k / (NR_POINTS - 1);

		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>", MARGIN_L, y,
			PLOT_W - MARGIN_R, y, MARGIN_L - 4, y + 4, points[k].label);
	}
	for (double e = l0; e <= l1; e++) {
		double x = MARGIN_L + pw * (e - l0) / (l1 - l0);

		fprintf(out, "<line x1=\"%.1f\" y1=\"10\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#ddd\"/>"
			"<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"%s\">%s</text>", x, x, 10 + H, x,
			H + 26, e == l1 ? "end" : "middle", sl_html_axis_ns(a, sizeof(a), (uint64_t)(pow(10, e) + 0.5)));
	}
	for (size_t s = 0; s < d->nr_sides; s++) {
		/* r == nr: the medians */
		for (size_t r = 0; r <= d->sides[s].nr; r++) {
			bool thick = r == d->sides[s].nr, open = false;

			for (size_t k = 0; k < NR_POINTS; k++) {
				const struct sl_diff_cell *c = rows[k] ? &rows[k]->cells[s] : NULL;
				double v = !c ? 0 : thick ? (c->range.valid ? c->range.median : 0) :
					   c->valid[r] ? c->values[r] : 0;
				double x = MARGIN_L + pw * (log10(MAX(v, 1)) - l0) / (l1 - l0);

				if (!(v > 0))
					continue;
				if (!open)
					fprintf(out, "<polyline class=\"%s side-%zu\" fill=\"none\" "
						"stroke=\"%s\" stroke-width=\"%s\" stroke-opacity=\"%s\" "
						"stroke-dasharray=\"%s\" points=\"", thick ? "median" : "run", s,
						side_color[s % NR_SIDE_STYLES], thick ? "3" : "1",
						thick ? "1" : "0.45", side_dash[s % NR_SIDE_STYLES]);
				open = true;
				fprintf(out, "%.1f,%.1f ", MAX(x, (double)MARGIN_L),
					10 + H - H * (double)k / (NR_POINTS - 1));
			}
			if (open)
				fputs("\"/>", out);
		}
	}
	fprintf(out, "<text x=\"%d\" y=\"%.0f\">wakeup latency (log scale)</text></svg>\n</section>\n",
		MARGIN_L, H + 44);
}

static void cell_pct(FILE *out, const struct sl_diff *d, const struct sl_diff_cell *c)
{
	bool sig = sl_diff_significant(d, c);
	char b[32];

	fprintf(out, "<td%s>%s%s</td><td>", sig ? " class=\"sig\"" : "",
		sl_diff_pct_cell(b, sizeof(b), c), sig ? "*" : "");
	sl_html_text(out, sl_diff_p_cell(b, sizeof(b), c));
	fputs("</td>", out);
}

static void table(const struct sl_diff *d, FILE *out)
{
	char a[64];
	size_t shown = 0;

	fputs("<section id=\"table\"><h2>Metrics</h2>\n<table><tr><th class=\"l\">metric</th>", out);
	for (size_t s = 0; s < d->nr_sides; s++) {
		fprintf(out, "<th>%s%s</th>", d->sides[s].name, d->multi ? " (median)" : "");
		if (s)
			fputs("<th>change</th><th>p</th>", out);
	}
	fputs("<th class=\"l\">rule</th></tr>\n", out);
	for (size_t i = 0; i < d->nr_rows; i++) {
		const struct sl_diff_row *row = &d->rows[i];

		if (!row->shown)
			continue;
		shown++;
		fprintf(out, "<tr%s><td class=\"l\">", sl_verdict_failed(row->verdict) ?
			" class=\"fail\"" : "");
		sl_html_text(out, row->name);
		fputs("</td>", out);
		for (size_t s = 0; s < d->nr_sides; s++) {
			const struct sl_diff_cell *c = &row->cells[s];

			fprintf(out, "<td>%s</td>", c->range.valid ?
				sl_metric_fmt(a, sizeof(a), row->unit, c->range.median) : "-");
			if (s)
				cell_pct(out, d, c);
		}
		fprintf(out, "<td class=\"l\">%s</td></tr>\n", row->verdict >= 0 ?
			sl_diff_verdict_word(row->verdict) : "");
	}
	fputs("</table>\n", out);
	if (d->zero_hidden || d->comms_hidden)
		fprintf(out, "<p class=\"note\">%zu rows not shown: %zu zero or unmeasured on every "
			"side (--all shows them), %zu per-comm rows beyond --top.</p>\n",
			d->zero_hidden + d->comms_hidden, d->zero_hidden, d->comms_hidden);
	fprintf(out, "<p class=\"note\">* a significant change (two-sided Mann-Whitney U at %.0f%%"
		" confidence, when each side has runs enough). %zu rows shown.</p>\n</section>\n",
		d->opts.confidence * 100, shown);
}

static void rules(const struct sl_diff *d, FILE *out)
{
	fputs("<section id=\"rules\"><h2>Rules</h2>\n", out);
	if (!d->nr_rules) {
		fputs("<p>No --fail-on rules.</p></section>\n", out);
		return;
	}
	fputs("<table><tr><th class=\"l\">rule</th><th class=\"l\">side</th><th class=\"l\">verdict"
	      "</th><th class=\"l\">why</th></tr>\n", out);
	for (size_t i = 0; i < d->nr_rules; i++) {
		const struct sl_diff_rule *dr = &d->rules[i];

		for (size_t s = 1; s < d->nr_sides; s++) {
			int v = dr->results[s].verdict;

			fprintf(out, "<tr%s><td class=\"l\"><code>", sl_verdict_failed(v) ?
				" class=\"fail\"" : "");
			sl_html_text(out, dr->rule.text);
			fprintf(out, "</code></td><td class=\"l\">%s</td><td class=\"l\">%s</td>"
				"<td class=\"l w\">", d->sides[s].name, sl_diff_verdict_word(v));
			sl_html_text(out, dr->results[s].why);
			fputs("</td></tr>\n", out);
		}
	}
	fputs("</table></section>\n", out);
}

void sl_diff_print_html(const struct sl_diff *d, FILE *out)
{
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		"<title>schedlint diff</title>\n<style>\n%s</style></head><body>\n"
		"<h1>schedlint diff</h1>\n<section id=\"verdict\"><p><b>", css);
	if (!d->nr_rules) {
		fputs("No --fail-on rules: nothing can fail.", out);
	} else {
		char verdict[512];

		/* the text's and the Markdown's verdict ("1 of 7 rules failed; ..."), not a third wording */
		sl_diff_summary(d, verdict, sizeof(verdict));
		fputs(d->nr_failed ? "FAILED: " : "Passed: ", out);
		sl_html_text(out, verdict);
		fputc('.', out);
	}
	fputs("</b></p>\n<ul>", out);
	for (size_t s = 0; s < d->nr_sides; s++) {
		fprintf(out, "<li>%s: ", d->sides[s].name);
		for (size_t r = 0; r < d->sides[s].nr; r++) {
			fputs(r ? ", <code>" : "<code>", out);
			sl_html_text(out, d->sides[s].runs[r].path);
			fputs("</code>", out);
		}
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
	for (size_t i = 0; i < d->nr_notes; i++) {
		fputs("<p class=\"note\">", out);
		sl_html_text(out, d->notes[i]);
		fputs("</p>\n", out);
	}
	fputs("</section>\n", out);
	rules(d, out);
	distributions(d, out);
	table(d, out);
	fputs("</body></html>\n", out);
}

void sl_diff_print_html_error(FILE *out, const char *message)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<title>schedlint diff</title></head><body>\n<h1>schedlint diff</h1>\n"
	      "<section id=\"verdict\"><p><b>ERROR: the runs could not be compared.</b></p><pre>", out);
	sl_html_text(out, message && *message ? message : "see the job's standard error");
	fputs("</pre></section>\n</body></html>\n", out);
}
