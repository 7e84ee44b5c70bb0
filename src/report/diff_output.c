// SPDX-License-Identifier: GPL-2.0
/*
 * diff_output.c - the diff table as text, Markdown, JSON and JUnit XML
 *
 * Every format says the same: the metrics side by side (each side's median
 * and, with several runs, its min-max), then each rule's verdict with the
 * numbers behind it, then the notes.  Cells are formatted once, here, so
 * the terminal and the pull-request comment cannot disagree.
 */
#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "schedlint/report.h"
#include "util/util.h"

#define CELL 128

static const char *unit_json(enum sl_metric_unit u)
{
	switch (u) {
	case SL_UNIT_NS:
		return "ns";
	case SL_UNIT_PER_S:
		return "per_s";
	case SL_UNIT_NS_PER_S:
		return "ns_per_s";
	case SL_UNIT_PERCENT:
		return "percent";
	case SL_UNIT_COUNT:
	default:
		return "count";
	}
}

/* The unit at the end of a formatted value: " us", "/s", "%", "" */
static size_t unit_suffix(const char *s)
{
	size_t n = strlen(s), i = n;

	while (i && !(s[i - 1] >= '0' && s[i - 1] <= '9'))
		i--;
	return n - i;
}

/*
 * One side: "94.5 us", or with several runs "94.5 us (90.1–97.0 us)";
 * runs that all agree show their value alone.
 */
static const char *side_cell(char *buf, size_t len, enum sl_metric_unit unit,
			     const struct sl_range *r)
{
	char med[40], lo[40], hi[40];
	size_t lo_unit, hi_unit;

	if (!r->valid)
		return snprintf(buf, len, "-"), buf;
	sl_metric_fmt(med, sizeof(med), unit, r->median);
	sl_metric_fmt(lo, sizeof(lo), unit, r->min);
	sl_metric_fmt(hi, sizeof(hi), unit, r->max);
	if (r->n < 2 || !strcmp(lo, hi))
		return snprintf(buf, len, "%s", med), buf;
	lo_unit = unit_suffix(lo);
	hi_unit = unit_suffix(hi);
	if (lo_unit == hi_unit && !strcmp(lo + strlen(lo) - lo_unit, hi + strlen(hi) - hi_unit))
		lo[strlen(lo) - lo_unit] = 0;
	snprintf(buf, len, "%s (%s–%s)", med, lo, hi);
	return buf;
}

static const char *delta_cell(char *buf, size_t len, enum sl_metric_unit unit,
			      const struct sl_diff_cell *c)
{
	if (!c->compared)
		return snprintf(buf, len, "-"), buf;
	return sl_metric_fmt_delta(buf, len, unit, c->delta);
}

const char *sl_diff_pct_cell(char *buf, size_t len, const struct sl_diff_cell *c)
{
	if (!c->compared)
		snprintf(buf, len, "-");
	else if (isinf(c->pct))
		snprintf(buf, len, "%sinf", c->pct > 0 ? "+" : "-");
	else if (fabs(c->pct) < 0.05)
		snprintf(buf, len, "0.0%%");
	else
		snprintf(buf, len, "%+.1f%%", c->pct);
	return buf;
}

const char *sl_diff_p_cell(char *buf, size_t len, const struct sl_diff_cell *c)
{
	if (!c->compared || !c->tested)
		snprintf(buf, len, "-");
	else if (c->p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", c->p);
	return buf;
}

static bool significant(const struct sl_diff *d, const struct sl_diff_cell *c)
{
	return sl_diff_significant(d, c);
}

/* The % cell of two sides, "+82.4%*" when the change is significant. */
static const char *pct_cell_marked(char *buf, size_t len, const struct sl_diff *d,
				   const struct sl_diff_cell *c)
{
	sl_diff_pct_cell(buf, len, c);
	if (significant(d, c) && strlen(buf) + 1 < len)
		strcat(buf, "*");
	return buf;
}

/*
 * A variant's cell: "36.0 us (-61.9%)", "*" when the change is
 * significant; a share changes in points: "99.9% (+99.4 pp)".
 */
static const char *variant_cell(char *buf, size_t len, const struct sl_diff *d,
				const struct sl_diff_row *row, size_t s)
{
	const struct sl_diff_cell *c = &row->cells[s];
	char med[48], pct[32];

	if (!c->range.valid)
		return snprintf(buf, len, "-"), buf;
	sl_metric_fmt(med, sizeof(med), row->unit, c->range.median);
	if (!s || !c->compared)
		return snprintf(buf, len, "%s", med), buf;
	if (row->unit == SL_UNIT_PERCENT && c->delta == 0)
		snprintf(pct, sizeof(pct), "0.0 pp");
	else if (row->unit == SL_UNIT_PERCENT)
		sl_metric_fmt_delta(pct, sizeof(pct), row->unit, c->delta);
	else
		sl_diff_pct_cell(pct, sizeof(pct), c);
	snprintf(buf, len, "%s (%s)%s", med, pct, significant(d, c) ? "*" : "");
	return buf;
}

const char *sl_diff_verdict_word(int v)
{
	switch (v) {
	case SL_VERDICT_FAIL:
	case SL_VERDICT_UNMEASURED:
		return "FAIL";
	case SL_VERDICT_NOISE:
		return "noise";
	case SL_VERDICT_PASS:
		return "ok";
	case SL_VERDICT_SKIP:
		return "skip";
	default:
		return "";
	}
}

static enum sl_color verdict_color(int v)
{
	switch (v) {
	case SL_VERDICT_FAIL:
	case SL_VERDICT_UNMEASURED:
		return SL_C_RED;
	case SL_VERDICT_NOISE:
		return SL_C_YELLOW;
	case SL_VERDICT_PASS:
		return SL_C_GREEN;
	default:
		return SL_C_DIM;
	}
}

/* Terminal columns of a UTF-8 string (each code point one column). */
static int columns(const char *s)
{
	int n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

static void pad_left(FILE *f, const char *s, int width)
{
	for (int i = columns(s); i < width; i++)
		fputc(' ', f);
	fputs(s, f);
}

static void pad_right(FILE *f, const char *s, int width)
{
	fputs(s, f);
	for (int i = columns(s); i < width; i++)
		fputc(' ', f);
}

static bool two_sides(const struct sl_diff *d)
{
	return d->nr_sides == 2 && !d->opts.variants;
}

/* "p: the two-sided Mann-Whitney U test ..." under a table, when it was run */
static void test_legend(const struct sl_diff *d, char *buf, size_t len)
{
	double conf = d->opts.confidence * 100;

	buf[0] = 0;
	if (!d->multi || !d->tested)
		return;
	if (two_sides(d))
		snprintf(buf, len, "p: two-sided Mann-Whitney U test of the per-run values "
			 "(%zu vs %zu runs); a change is significant at %g%% confidence when "
			 "p < %g, marked *", d->sides[0].nr, d->sides[1].nr, conf,
			 1 - d->opts.confidence);
	else
		snprintf(buf, len, "*: differs from %s at %g%% confidence (two-sided Mann-Whitney "
			 "U test of the per-run values, p < %g)", d->sides[0].name, conf,
			 1 - d->opts.confidence);
}

static void print_runs(FILE *f, const char *label, int width, const struct sl_diff_side *s)
{
	fputs("  ", f);
	pad_right(f, label, width);
	if (s->nr > 1)
		fprintf(f, " %zu runs:", s->nr);
	for (size_t i = 0; i < s->nr; i++)
		fprintf(f, " %s%s", s->runs[i].path, s->runs[i].saved ? " (report)" : "");
	fputc('\n', f);
}

/* The rule's label for one compared side: "wakeup.p99>+10%", or with variants "... [patch]" */
static void rule_label(const struct sl_diff *d, const struct sl_diff_rule *dr, size_t s,
		       char *buf, size_t len)
{
	if (two_sides(d))
		snprintf(buf, len, "%s", dr->rule.text);
	else
		snprintf(buf, len, "%s [%s]", dr->rule.text, d->sides[s].name);
}

/* Under a family's line, each member that did not simply pass, with its numbers. */
static void text_members(const struct sl_diff *d, const struct sl_diff_rule *dr, size_t s,
			 FILE *f, const struct sl_report *r)
{
	int nw = 4;

	if (!dr->rule.family)
		return;
	for (size_t m = 0; m < dr->nr_members; m++)
		nw = MAX(nw, MIN(columns(d->rows[dr->members[m]].name), 48));
	for (size_t m = 0; m < dr->nr_members; m++) {
		const struct sl_rule_result *res = &dr->member_results[m * d->nr_sides + s];
		int v = (int)res->verdict;

		if (v == SL_VERDICT_PASS)
			continue;
		fprintf(f, "         %s%-5s%s  ", sl_color(r, verdict_color(v)), sl_diff_verdict_word(v),
			sl_color(r, SL_C_RESET));
		pad_right(f, d->rows[dr->members[m]].name, nw);
		fprintf(f, "  %s\n", res->why);
	}
}

static void text_rules(const struct sl_diff *d, FILE *f, const struct sl_report *r)
{
	int rw = 4;
	char label[512];

	if (!d->nr_rules)
		return;
	for (size_t i = 0; i < d->nr_rules; i++) {
		for (size_t s = 1; s < d->nr_sides; s++) {
			rule_label(d, &d->rules[i], s, label, sizeof(label));
			rw = MAX(rw, MIN(columns(label), 56));
		}
	}
	fprintf(f, "\n%sRules%s\n", sl_color(r, SL_C_BOLD), sl_color(r, SL_C_RESET));
	for (size_t i = 0; i < d->nr_rules; i++) {
		for (size_t s = 1; s < d->nr_sides; s++) {
			const struct sl_rule_result *res = &d->rules[i].results[s];
			int v = (int)res->verdict;

			rule_label(d, &d->rules[i], s, label, sizeof(label));
			fprintf(f, "  %s%-5s%s  ", sl_color(r, verdict_color(v)), sl_diff_verdict_word(v),
				sl_color(r, SL_C_RESET));
			pad_right(f, label, rw);
			fprintf(f, "  %s\n", res->why);
			text_members(d, &d->rules[i], s, f, r);
		}
	}
}

/* The table of two sides: metric, base, new, delta, %, and p with several runs. */
static void text_two_sides(const struct sl_diff *d, FILE *f, const struct sl_report *r)
{
	char (*cells)[5][CELL] = xcalloc(d->nr_rows ? d->nr_rows : 1, sizeof(*cells));
	int ncol = d->multi ? 5 : 4;
	int w[6] = { 6, 4, 3, 5, 1, 1 };
	const char *head[6] = {
		"metric", d->multi ? "base median (min–max)" : "base",
		d->multi ? "new median (min–max)" : "new", "delta", "%", "p",
	};

	for (int c = 0; c <= ncol; c++)
		w[c] = columns(head[c]);
	for (size_t i = 0; i < d->nr_rows; i++) {
		const struct sl_diff_row *row = &d->rows[i];

		if (!row->shown)
			continue;
		side_cell(cells[i][0], CELL, row->unit, &row->cells[0].range);
		side_cell(cells[i][1], CELL, row->unit, &row->cells[1].range);
		delta_cell(cells[i][2], CELL, row->unit, &row->cells[1]);
		pct_cell_marked(cells[i][3], CELL, d, &row->cells[1]);
		sl_diff_p_cell(cells[i][4], CELL, &row->cells[1]);
		w[0] = MAX(w[0], MIN(columns(row->name), 48));
		for (int c = 0; c < ncol; c++)
			w[c + 1] = MAX(w[c + 1], columns(cells[i][c]));
	}
	fputs(sl_color(r, SL_C_DIM), f);
	pad_right(f, head[0], w[0]);
	for (int c = 1; c <= ncol; c++) {
		fputs("  ", f);
		pad_left(f, head[c], w[c]);
	}
	fprintf(f, "%s\n", sl_color(r, SL_C_RESET));
	for (size_t i = 0; i < d->nr_rows; i++) {
		const struct sl_diff_row *row = &d->rows[i];

		if (!row->shown)
			continue;
		if (sl_verdict_failed(row->verdict))
			fputs(sl_color(r, SL_C_BOLD), f);
		pad_right(f, row->name, w[0]);
		for (int c = 0; c < ncol; c++) {
			fputs("  ", f);
			pad_left(f, cells[i][c], w[c + 1]);
		}
		if (row->verdict >= 0)
			fprintf(f, "  %s%s%s", sl_color(r, verdict_color(row->verdict)),
				sl_verdict_failed(row->verdict) ? "<< FAIL" : sl_diff_verdict_word(row->verdict),
				sl_color(r, SL_C_RESET));
		fprintf(f, "%s\n", sl_color(r, SL_C_RESET));
	}
	free(cells);
}

/* Metric rows by variant columns, each with its change against the first. */
static void text_variants(const struct sl_diff *d, FILE *f, const struct sl_report *r)
{
	size_t ns = d->nr_sides;
	char *cells = xcalloc((d->nr_rows ? d->nr_rows : 1) * ns, CELL);
	int *w = xcalloc(ns + 1, sizeof(*w));

	w[0] = columns("metric");
	for (size_t s = 0; s < ns; s++)
		w[s + 1] = columns(d->sides[s].name);
	for (size_t i = 0; i < d->nr_rows; i++) {
		if (!d->rows[i].shown)
			continue;
		w[0] = MAX(w[0], MIN(columns(d->rows[i].name), 48));
		for (size_t s = 0; s < ns; s++) {
			char *cell = cells + (i * ns + s) * CELL;

			variant_cell(cell, CELL, d, &d->rows[i], s);
			w[s + 1] = MAX(w[s + 1], columns(cell));
		}
	}
	fputs(sl_color(r, SL_C_DIM), f);
	pad_right(f, "metric", w[0]);
	for (size_t s = 0; s < ns; s++) {
		fputs("  ", f);
		pad_left(f, d->sides[s].name, w[s + 1]);
	}
	fprintf(f, "%s\n", sl_color(r, SL_C_RESET));
	for (size_t i = 0; i < d->nr_rows; i++) {
		const struct sl_diff_row *row = &d->rows[i];

		if (!row->shown)
			continue;
		if (sl_verdict_failed(row->verdict))
			fputs(sl_color(r, SL_C_BOLD), f);
		pad_right(f, row->name, w[0]);
		for (size_t s = 0; s < ns; s++) {
			fputs("  ", f);
			pad_left(f, cells + (i * ns + s) * CELL, w[s + 1]);
		}
		if (row->verdict >= 0)
			fprintf(f, "  %s%s%s", sl_color(r, verdict_color(row->verdict)),
				sl_verdict_failed(row->verdict) ? "<< FAIL" : sl_diff_verdict_word(row->verdict),
				sl_color(r, SL_C_RESET));
		fprintf(f, "%s\n", sl_color(r, SL_C_RESET));
	}
	free(cells);
	free(w);
}

void sl_diff_print_text(const struct sl_diff *d, FILE *f, bool color)
{
	struct sl_report r = { .out = f, .color = color };
	char line[512];
	int lw = 4;

	fprintf(f, "%sschedlint diff%s", sl_color(&r, SL_C_BOLD), sl_color(&r, SL_C_RESET));
	if (!two_sides(d))
		fprintf(f, ": %zu variants, each against %s%s", d->nr_sides, d->sides[0].name,
			d->multi ? " (medians of the runs)" : "");
	fputc('\n', f);
	for (size_t s = 0; s < d->nr_sides; s++)
		lw = MAX(lw, columns(d->sides[s].name));
	for (size_t s = 0; s < d->nr_sides; s++)
		print_runs(f, d->sides[s].name, lw, &d->sides[s]);
	fputc('\n', f);
	if (two_sides(d))
		text_two_sides(d, f, &r);
	else
		text_variants(d, f, &r);
	if (d->comms_hidden)
		fprintf(f, "%s(%zu more comms on every side: --top=N shows more, --json lists all)%s\n",
			sl_color(&r, SL_C_DIM), d->comms_hidden, sl_color(&r, SL_C_RESET));
	if (d->zero_hidden)
		fprintf(f, "%s(%zu metrics 0 or not measured in every run not shown: --all shows them)%s\n",
			sl_color(&r, SL_C_DIM), d->zero_hidden, sl_color(&r, SL_C_RESET));
	test_legend(d, line, sizeof(line));
	if (line[0])
		fprintf(f, "%s%s%s\n", sl_color(&r, SL_C_DIM), line, sl_color(&r, SL_C_RESET));

	text_rules(d, f, &r);
	for (size_t i = 0; i < d->nr_notes; i++)
		fprintf(f, "%snote:%s %s\n", sl_color(&r, SL_C_YELLOW), sl_color(&r, SL_C_RESET),
			d->notes[i]);
	sl_diff_summary(d, line, sizeof(line));
	fprintf(f, "\n%s%s%s\n", sl_color(&r, d->nr_failed ? SL_C_RED : SL_C_GREEN), line,
		sl_color(&r, SL_C_RESET));
}

/* --- Markdown (GitHub / GitLab flavoured) --- */

/* Text inside a table cell: nothing may end the cell or become markup. */
static void md_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '|':
			fputs("\\|", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '\\': case '*': case '_': case '`': case '[': case ']': case '#': case '~':
			fputc('\\', f);
			fputc(*s, f);
			break;
		case '\n': case '\r': case '\t':
			fputc(' ', f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

/* A metric or rule name: as code when it can be, so it reads as typed. */
static void md_name(FILE *f, const char *s)
{
	if (strchr(s, '`') || strpbrk(s, "\n\r")) {
		md_text(f, s);
		return;
	}
	fputc('`', f);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);	/* GFM splits cells before it parses code spans */
		fputc(*s, f);
	}
	fputc('`', f);
}

static const char *md_verdict(int v)
{
	switch (v) {
	case SL_VERDICT_FAIL:
		return "❌ fail";
	case SL_VERDICT_UNMEASURED:
		return "❌ not measured";
	case SL_VERDICT_NOISE:
		return "〰️ noise";
	case SL_VERDICT_PASS:
		return "✅ pass";
	case SL_VERDICT_SKIP:
		return "➖ skip";
	default:
		return "";
	}
}

static void md_runs(FILE *f, const struct sl_diff_side *s)
{
	fputs("**", f);
	md_text(f, s->name);
	fputs(":**", f);
	for (size_t i = 0; i < s->nr; i++) {
		fputs(i ? ", " : " ", f);
		md_text(f, s->runs[i].path);
	}
	fputs("  \n", f);
}

static void md_cell_text(FILE *f, const char *s)
{
	fputs(" | ", f);
	md_text(f, s);
}

void sl_diff_print_markdown(const struct sl_diff *d, FILE *f)
{
	char line[512], a[CELL];

	sl_diff_summary(d, line, sizeof(line));
	fprintf(f, "### schedlint diff: %s ", d->nr_failed ? "❌" : "✅");
	md_text(f, line);
	fputs("\n\n", f);
	for (size_t s = 0; s < d->nr_sides; s++)
		md_runs(f, &d->sides[s]);
	fputc('\n', f);

	if (d->nr_rules) {
		fputs(two_sides(d) ? "| rule | result | detail |\n|:---|:---|:---|\n" :
		      "| rule | variant | result | detail |\n|:---|:---|:---|:---|\n", f);
		for (size_t i = 0; i < d->nr_rules; i++) {
			for (size_t s = 1; s < d->nr_sides; s++) {
				const struct sl_rule_result *res = &d->rules[i].results[s];

				fputs("| ", f);
				md_name(f, d->rules[i].rule.text);
				if (!two_sides(d))
					md_cell_text(f, d->sides[s].name);
				fprintf(f, " | %s", md_verdict((int)res->verdict));
				md_cell_text(f, res->why);
				fputs(" |\n", f);
			}
		}
		fputc('\n', f);
	}

	if (two_sides(d)) {
		fprintf(f, "| metric | %s | %s | delta | %%%s | |\n",
			d->multi ? "base median (min–max)" : "base",
			d->multi ? "new median (min–max)" : "new", d->multi ? " | p" : "");
		fprintf(f, "|:---|---:|---:|---:|---:|%s:---|\n", d->multi ? "---:|" : "");
	} else {
		fputs("| metric", f);
		for (size_t s = 0; s < d->nr_sides; s++)
			md_cell_text(f, d->sides[s].name);
		fputs(" | |\n|:---|", f);
		for (size_t s = 0; s < d->nr_sides; s++)
			fputs("---:|", f);
		fputs(":---|\n", f);
	}
	for (size_t i = 0; i < d->nr_rows; i++) {
		const struct sl_diff_row *row = &d->rows[i];

		if (!row->shown)
			continue;
		fputs("| ", f);
		md_name(f, row->name);
		if (two_sides(d)) {
			md_cell_text(f, side_cell(a, sizeof(a), row->unit, &row->cells[0].range));
			md_cell_text(f, side_cell(a, sizeof(a), row->unit, &row->cells[1].range));
			md_cell_text(f, delta_cell(a, sizeof(a), row->unit, &row->cells[1]));
			md_cell_text(f, pct_cell_marked(a, sizeof(a), d, &row->cells[1]));
			if (d->multi)
				md_cell_text(f, sl_diff_p_cell(a, sizeof(a), &row->cells[1]));
		} else {
			for (size_t s = 0; s < d->nr_sides; s++)
				md_cell_text(f, variant_cell(a, sizeof(a), d, row, s));
		}
		fprintf(f, " | %s |\n", md_verdict(row->verdict));
	}
	if (d->comms_hidden)
		fprintf(f, "\n%zu more comms on every side are not shown.\n", d->comms_hidden);
	if (d->zero_hidden)
		fprintf(f, "\n%zu metrics 0 or not measured in every run are not shown (--all shows them).\n",
			d->zero_hidden);
	test_legend(d, line, sizeof(line));
	if (line[0]) {
		fputc('\n', f);
		md_text(f, line);
		fputc('\n', f);
	}
	if (d->nr_notes) {
		fputc('\n', f);
		for (size_t i = 0; i < d->nr_notes; i++) {
			fputs("- note: ", f);
			md_text(f, d->notes[i]);
			fputc('\n', f);
		}
	}
}

/* --- JSON: schema schedlint.diff/1 --- */

static cJSON *range_json(const struct sl_range *r, const double *values, const bool *valid,
			 size_t n)
{
	cJSON *o, *runs;

	if (!r->valid)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "median", r->median);
	cJSON_AddNumberToObject(o, "min", r->min);
	cJSON_AddNumberToObject(o, "max", r->max);
	runs = cJSON_AddArrayToObject(o, "runs");
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(runs, valid[i] ? cJSON_CreateNumber(values[i]) : cJSON_CreateNull());
	return o;
}

static cJSON *runs_json(const struct sl_diff_side *s)
{
	cJSON *arr = cJSON_CreateArray();

	for (size_t i = 0; i < s->nr; i++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "path", s->runs[i].path);
		cJSON_AddStringToObject(o, "input", s->runs[i].saved ? "report" : "trace");
		cJSON_AddStringToObject(o, "settings", s->runs[i].metrics.settings);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

/* The change of a cell against side 0: delta, pct, from_zero, p. */
static void change_json(cJSON *o, const struct sl_diff *d, const struct sl_diff_cell *c,
			const struct sl_diff_cell *ref)
{
	if (c->compared) {
		cJSON_AddNumberToObject(o, "delta", c->delta);
		if (isinf(c->pct))
			cJSON_AddNullToObject(o, "pct");
		else
			cJSON_AddNumberToObject(o, "pct", c->pct);
		/* a +inf change: the base was 0 */
		cJSON_AddBoolToObject(o, "from_zero", ref->range.median == 0 && c->range.median != 0);
	} else {
		cJSON_AddNullToObject(o, "delta");
		cJSON_AddNullToObject(o, "pct");
		cJSON_AddBoolToObject(o, "from_zero", false);
	}
	if (c->compared && c->tested)
		cJSON_AddNumberToObject(o, "p", c->p);
	else
		cJSON_AddNullToObject(o, "p");
	cJSON_AddBoolToObject(o, "significant", significant(d, c));
}

cJSON *sl_diff_json(const struct sl_diff *d)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *tool, *metrics, *rules, *notes, *variants, *test;
	char line[512];

	cJSON_AddStringToObject(root, "schema", "schedlint.diff/1");
	tool = cJSON_AddObjectToObject(root, "tool");
	cJSON_AddStringToObject(tool, "name", "schedlint");
	cJSON_AddStringToObject(tool, "version", SCHEDLINT_VERSION);
	if (two_sides(d)) {
		cJSON_AddItemToObject(root, "base", runs_json(&d->sides[0]));
		cJSON_AddItemToObject(root, "new", runs_json(&d->sides[1]));
	}
	variants = cJSON_AddArrayToObject(root, "variants");
	for (size_t s = 0; s < d->nr_sides; s++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "name", d->sides[s].name);
		cJSON_AddItemToObject(o, "runs", runs_json(&d->sides[s]));
		cJSON_AddItemToArray(variants, o);
	}
	test = cJSON_AddObjectToObject(root, "test");
	cJSON_AddStringToObject(test, "name", "mann-whitney-u");
	cJSON_AddStringToObject(test, "sided", "two");
	cJSON_AddNumberToObject(test, "confidence", d->opts.confidence);
	cJSON_AddBoolToObject(test, "tested", d->multi && d->tested);
	metrics = cJSON_AddArrayToObject(root, "metrics");
	for (size_t i = 0; i < d->nr_rows; i++) {
		const struct sl_diff_row *row = &d->rows[i];
		cJSON *o = cJSON_CreateObject(), *vs;

		cJSON_AddStringToObject(o, "name", row->name);
		cJSON_AddStringToObject(o, "unit", unit_json(row->unit));
		if (two_sides(d)) {
			cJSON_AddItemToObject(o, "base", range_json(&row->cells[0].range,
				row->cells[0].values, row->cells[0].valid, d->sides[0].nr));
			cJSON_AddItemToObject(o, "new", range_json(&row->cells[1].range,
				row->cells[1].values, row->cells[1].valid, d->sides[1].nr));
			change_json(o, d, &row->cells[1], &row->cells[0]);
		}
		vs = cJSON_AddArrayToObject(o, "variants");
		for (size_t s = 0; s < d->nr_sides; s++) {
			const struct sl_diff_cell *c = &row->cells[s];
			cJSON *v = cJSON_CreateObject();

			cJSON_AddStringToObject(v, "name", d->sides[s].name);
			cJSON_AddItemToObject(v, "value", range_json(&c->range, c->values, c->valid,
								     d->sides[s].nr));
			if (s)
				change_json(v, d, c, &row->cells[0]);
			if (c->verdict >= 0)
				cJSON_AddStringToObject(v, "verdict", sl_verdict_name(c->verdict));
			cJSON_AddItemToArray(vs, v);
		}
		cJSON_AddBoolToObject(o, "shown", row->shown);
		if (row->verdict >= 0)
			cJSON_AddStringToObject(o, "verdict", sl_verdict_name(row->verdict));
		cJSON_AddItemToArray(metrics, o);
	}
	rules = cJSON_AddArrayToObject(root, "rules");
	for (size_t i = 0; i < d->nr_rules; i++) {
		for (size_t s = 1; s < d->nr_sides; s++) {
			const struct sl_diff_rule *dr = &d->rules[i];
			cJSON *o = sl_rule_json(&dr->rule, &dr->results[s]), *members;

			cJSON_AddStringToObject(o, "variant", d->sides[s].name);
			/* every metric the rule covers, with its own verdict */
			members = cJSON_AddArrayToObject(o, "members");
			for (size_t m = 0; m < dr->nr_members; m++) {
				const struct sl_rule_result *res = &dr->member_results[m * d->nr_sides + s];
				cJSON *mo = cJSON_CreateObject();

				cJSON_AddStringToObject(mo, "metric", d->rows[dr->members[m]].name);
				cJSON_AddStringToObject(mo, "verdict", sl_verdict_name(res->verdict));
				cJSON_AddBoolToObject(mo, "failed", sl_verdict_failed(res->verdict));
				if (res->verdict == SL_VERDICT_SKIP || res->verdict == SL_VERDICT_UNMEASURED ||
				    !isfinite(res->observed))
					cJSON_AddNullToObject(mo, "observed");
				else
					cJSON_AddNumberToObject(mo, "observed", res->observed);
				if (isnan(res->p))
					cJSON_AddNullToObject(mo, "p");
				else
					cJSON_AddNumberToObject(mo, "p", res->p);
				cJSON_AddStringToObject(mo, "message", res->why);
				cJSON_AddItemToArray(members, mo);
			}
			cJSON_AddItemToArray(rules, o);
		}
	}
	notes = cJSON_AddArrayToObject(root, "notes");
	for (size_t i = 0; i < d->nr_notes; i++)
		cJSON_AddItemToArray(notes, cJSON_CreateString(d->notes[i]));
	{
		struct sl_diff_uncovered u;
		cJSON *o = cJSON_AddObjectToObject(root, "uncovered");

		sl_diff_uncovered(d, &u);
		sl_json_add_u64(o, "regressions", u.worse);
		sl_json_add_u64(o, "improvements", u.better);
		sl_json_add_u64(o, "other", u.other);
		cJSON_AddBoolToObject(o, "judged", d->multi && d->tested);
	}
	sl_json_add_u64(root, "failed", d->nr_failed);
	cJSON_AddBoolToObject(root, "passed", d->nr_failed == 0);
	sl_diff_summary(d, line, sizeof(line));
	cJSON_AddStringToObject(root, "summary", line);
	return root;
}

/* --- JUnit XML --- */

/*
 * Text in an XML attribute or element: the five entities, and nothing XML
 * 1.0 forbids (control characters, invalid UTF-8 from a comm name) - a
 * CI server that cannot parse the file reports no tests at all.
 */
static void xml_text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		unsigned char c = *p;
		int n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 :
			(c & 0xf8) == 0xf0 ? 4 : 0;
		bool ok = n > 0;

		for (int i = 1; ok && i < n; i++)
			ok = (p[i] & 0xc0) == 0x80;
		if (ok && n == 2 && c < 0xc2)
			ok = false;	/* overlong */
		if (ok && n == 3 && ((c == 0xe0 && p[1] < 0xa0) ||	/* overlong */
				     (c == 0xed && p[1] >= 0xa0) ||	/* surrogates */
				     (c == 0xef && p[1] == 0xbf && p[2] >= 0xbe)))	/* U+FFFE/F */
			ok = false;
		if (ok && n == 4 && ((c == 0xf0 && p[1] < 0x90) || c > 0xf4 ||
				     (c == 0xf4 && p[1] >= 0x90)))
			ok = false;
		if (!ok) {
			fputc('?', f);
			p++;
			continue;
		}
		if (n > 1) {
			fwrite(p, 1, (size_t)n, f);
			p += n;
			continue;
		}
		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		case '\t': case '\n': case '\r': fputc(c, f); break;
		default:
			fputc(c < 0x20 || c == 0x7f ? '?' : c, f);
		}
		p++;
	}
}

static void junit_properties(FILE *f, const struct sl_diff_side *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		fputs("      <property name=\"", f);
		xml_text(f, s->name);
		fputs("\" value=\"", f);
		xml_text(f, s->runs[i].path);
		fputs("\"/>\n", f);
	}
}

static FILE *junit_open(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");

	if (!f)
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	return f;
}

static int junit_close(FILE *f, const char *path, char *err, size_t errlen)
{
	if (ferror(f) | fclose(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

/*
 * The notes printed under the table ("note: ..." a line each: sides that
 * differ in inferred samples, too few runs, ...), after lead when there
 * are any
 */
static void junit_notes(FILE *f, const struct sl_diff *d, const char *lead)
{
	for (size_t i = 0; i < d->nr_notes; i++) {
		fputs(i ? "\n" : lead, f);
		fputs("note: ", f);
		xml_text(f, d->notes[i]);
	}
}

/*
 * The attributes GitLab and Jenkins read (tests/junit.xsd): counts on
 * both elements; "skipped" on <testsuite> only, as the schema has it.
 * The notes go into each failure's text (what GitLab shows of a failed
 * test) and the suite's <system-out>.
 */
int sl_diff_write_junit(const struct sl_diff *d, const char *path, char *err, size_t errlen)
{
	FILE *f = junit_open(path, err, errlen);
	size_t skipped = 0;
	char label[512];

	if (!f)
		return -1;
	for (size_t i = 0; i < d->nr_rules; i++)
		for (size_t s = 1; s < d->nr_sides; s++)
			skipped += d->rules[i].results[s].verdict == SL_VERDICT_SKIP;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites name=\"schedlint diff\" tests=\"%zu\" failures=\"%zu\" "
		"errors=\"0\" time=\"0\">\n", d->nr_checks, d->nr_failed);
	fprintf(f, "  <testsuite name=\"schedlint diff\" tests=\"%zu\" failures=\"%zu\" "
		"errors=\"0\" skipped=\"%zu\" time=\"0\">\n", d->nr_checks, d->nr_failed, skipped);
	fputs("    <properties>\n", f);
	for (size_t s = 0; s < d->nr_sides; s++)
		junit_properties(f, &d->sides[s]);
	fputs("    </properties>\n", f);
	for (size_t i = 0; i < d->nr_rules; i++) {
		const struct sl_diff_rule *dr = &d->rules[i];

		for (size_t s = 1; s < d->nr_sides; s++) {
			const struct sl_rule_result *res = &dr->results[s];

			rule_label(d, dr, s, label, sizeof(label));
			fputs("    <testcase classname=\"schedlint.diff\" name=\"", f);
			xml_text(f, label);
			fputs("\" time=\"0\">\n", f);
			switch (res->verdict) {
			case SL_VERDICT_FAIL:
			case SL_VERDICT_UNMEASURED:
				fprintf(f, "      <failure type=\"%s\" message=\"",
					res->verdict == SL_VERDICT_FAIL ? "regression" : "unmeasured");
				xml_text(f, res->why);
				fputs("\">", f);
				xml_text(f, dr->rule.metric);
				fputs(": ", f);
				xml_text(f, res->why);
				/* what a merge request shows of the gate: the notes too */
				junit_notes(f, d, "\n\n");
				fputs("</failure>\n", f);
				break;
			case SL_VERDICT_SKIP:
				fputs("      <skipped message=\"", f);
				xml_text(f, res->why);
				fputs("\"/>\n", f);
				break;
			default:
				fputs("      <system-out>", f);
				xml_text(f, res->why);
				fputs("</system-out>\n", f);
			}
			fputs("    </testcase>\n", f);
		}
	}
	if (d->nr_notes) {
		fputs("    <system-out>", f);
		junit_notes(f, d, "");
		fputs("</system-out>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
	return junit_close(f, path, err, errlen);
}

void sl_diff_print_markdown_error(FILE *f, const char *message)
{
	fputs("### schedlint diff: ⚠️ could not compare (exit status 2)\n\n", f);
	md_text(f, message);
	fputs("\n\nNo rule was evaluated: the gate did not run.  The line above is the error "
	      "schedlint diff printed on standard error.\n", f);
}

int sl_diff_write_junit_error(const char *path, const char *message, char *err, size_t errlen)
{
	FILE *f = junit_open(path, err, errlen);

	if (!f)
		return -1;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fputs("<testsuites name=\"schedlint diff\" tests=\"1\" failures=\"0\" errors=\"1\" "
	      "time=\"0\">\n", f);
	fputs("  <testsuite name=\"schedlint diff\" tests=\"1\" failures=\"0\" errors=\"1\" "
	      "skipped=\"0\" time=\"0\">\n", f);
	fputs("    <testcase classname=\"schedlint.diff\" name=\"schedlint diff\" time=\"0\">\n", f);
	fputs("      <error type=\"input\" message=\"", f);
	xml_text(f, message);
	fputs("\">", f);
	xml_text(f, message);
	fputs("</error>\n    </testcase>\n  </testsuite>\n</testsuites>\n", f);
	return junit_close(f, path, err, errlen);
}
