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

static const char *delta_cell(char *buf, size_t len, const struct sl_diff_row *row)
{
	if (!row->compared)
		return snprintf(buf, len, "-"), buf;
	return sl_metric_fmt_delta(buf, len, row->unit, row->delta);
}

static const char *pct_cell(char *buf, size_t len, const struct sl_diff_row *row)
{
	if (!row->compared)
		snprintf(buf, len, "-");
	else if (isinf(row->pct))
		snprintf(buf, len, "%sinf", row->pct > 0 ? "+" : "-");
	else if (fabs(row->pct) < 0.05)
		snprintf(buf, len, "0.0%%");
	else
		snprintf(buf, len, "%+.1f%%", row->pct);
	return buf;
}

static const char *verdict_word(int v)
{
	switch (v) {
	case SL_VERDICT_FAIL:
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

static void print_runs(FILE *f, const char *label, const struct sl_diff_side *s)
{
	fprintf(f, "  %-5s", label);
	if (s->nr > 1)
		fprintf(f, " %zu runs:", s->nr);
	for (size_t i = 0; i < s->nr; i++)
		fprintf(f, " %s%s", s->runs[i].path, s->runs[i].saved ? " (report)" : "");
	fputc('\n', f);
}

static void summary_line(const struct sl_diff *d, char *buf, size_t len)
{
	size_t noise = 0, skip = 0;

	for (size_t i = 0; i < d->nr_rules; i++) {
		noise += d->rules[i].result.verdict == SL_VERDICT_NOISE;
		skip += d->rules[i].result.verdict == SL_VERDICT_SKIP;
	}
	if (!d->nr_rules)
		snprintf(buf, len, "no --fail-on rules: nothing can fail");
	else if (d->nr_failed)
		snprintf(buf, len, "%zu of %zu rule%s failed", d->nr_failed, d->nr_rules,
			 d->nr_rules == 1 ? "" : "s");
	else
		snprintf(buf, len, "%s%zu rule%s passed%s%s%s%s%s",
			 d->nr_rules == 1 ? "" : "all ", d->nr_rules, d->nr_rules == 1 ? "" : "s",
			 noise || skip ? " (" : "",
			 noise ? "some changes within the noise" : "",
			 noise && skip ? ", " : "", skip ? "some not measured" : "",
			 noise || skip ? ")" : "");
}

void sl_diff_print_text(const struct sl_diff *d, FILE *f, bool color)
{
	struct sl_report r = { .out = f, .color = color };
	char (*cells)[4][CELL] = xcalloc(d->nr_rows ? d->nr_rows : 1, sizeof(*cells));
	int w[5] = { 6, 4, 3, 5, 1 };
	char line[256];
	const char *hb = d->multi ? "base median (min–max)" : "base";
	const char *hn = d->multi ? "new median (min–max)" : "new";

	w[1] = columns(hb);
	w[2] = columns(hn);
	for (size_t i = 0; i < d->nr_rows; i++) {
		const struct sl_diff_row *row = &d->rows[i];

		if (!row->shown)
			continue;
		side_cell(cells[i][0], CELL, row->unit, &row->base);
		side_cell(cells[i][1], CELL, row->unit, &row->new);
		delta_cell(cells[i][2], CELL, row);
		pct_cell(cells[i][3], CELL, row);
		w[0] = MAX(w[0], MIN(columns(row->name), 48));
		for (int c = 0; c < 4; c++)
			w[c + 1] = MAX(w[c + 1], columns(cells[i][c]));
	}

	fprintf(f, "%sschedlint diff%s\n", sl_color(&r, SL_C_BOLD), sl_color(&r, SL_C_RESET));
	print_runs(f, "base", &d->base);
	print_runs(f, "new", &d->new);
	fputc('\n', f);
	fputs(sl_color(&r, SL_C_DIM), f);
	pad_right(f, "metric", w[0]);
	fputs("  ", f);
	pad_left(f, hb, w[1]);
	fputs("  ", f);
	pad_left(f, hn, w[2]);
	fputs("  ", f);
	pad_left(f, "delta", w[3]);
	fputs("  ", f);
	pad_left(f, "%", w[4]);
	fprintf(f, "%s\n", sl_color(&r, SL_C_RESET));
	for (size_t i = 0; i < d->nr_rows; i++) {
		const struct sl_diff_row *row = &d->rows[i];

		if (!row->shown)
			continue;
		if (row->verdict == SL_VERDICT_FAIL)
			fputs(sl_color(&r, SL_C_BOLD), f);
		pad_right(f, row->name, w[0]);
		for (int c = 0; c < 4; c++) {
			fputs("  ", f);
			pad_left(f, cells[i][c], w[c + 1]);
		}
		if (row->verdict >= 0)
			fprintf(f, "  %s%s%s", sl_color(&r, verdict_color(row->verdict)),
				row->verdict == SL_VERDICT_FAIL ? "<< FAIL" : verdict_word(row->verdict),
				sl_color(&r, SL_C_RESET));
		fprintf(f, "%s\n", sl_color(&r, SL_C_RESET));
	}
	if (d->comms_hidden)
		fprintf(f, "%s(%zu more comms on both sides: --top=N shows more, --json lists all)%s\n",
			sl_color(&r, SL_C_DIM), d->comms_hidden, sl_color(&r, SL_C_RESET));
	free(cells);

	if (d->nr_rules) {
		int rw = 4;

		for (size_t i = 0; i < d->nr_rules; i++)
			rw = MAX(rw, MIN(columns(d->rules[i].rule.text), 48));
		fprintf(f, "\n%sRules%s\n", sl_color(&r, SL_C_BOLD), sl_color(&r, SL_C_RESET));
		for (size_t i = 0; i < d->nr_rules; i++) {
			const struct sl_diff_rule *dr = &d->rules[i];
			int v = (int)dr->result.verdict;

			fprintf(f, "  %s%-5s%s  ", sl_color(&r, verdict_color(v)), verdict_word(v),
				sl_color(&r, SL_C_RESET));
			pad_right(f, dr->rule.text, rw);
			fprintf(f, "  %s\n", dr->result.why);
		}
	}
	for (size_t i = 0; i < d->nr_notes; i++)
		fprintf(f, "%snote:%s %s\n", sl_color(&r, SL_C_YELLOW), sl_color(&r, SL_C_RESET),
			d->notes[i]);
	summary_line(d, line, sizeof(line));
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

static void md_runs(FILE *f, const char *label, const struct sl_diff_side *s)
{
	fprintf(f, "**%s:**", label);
	for (size_t i = 0; i < s->nr; i++) {
		fputs(i ? ", " : " ", f);
		md_text(f, s->runs[i].path);
	}
	fputs("  \n", f);
}

void sl_diff_print_markdown(const struct sl_diff *d, FILE *f)
{
	char line[256], a[CELL], b[CELL];

	summary_line(d, line, sizeof(line));
	fprintf(f, "### schedlint diff: %s ", d->nr_failed ? "❌" : "✅");
	md_text(f, line);
	fputs("\n\n", f);
	md_runs(f, "base", &d->base);
	md_runs(f, "new", &d->new);
	fputc('\n', f);

	if (d->nr_rules) {
		fputs("| rule | result | detail |\n|:---|:---|:---|\n", f);
		for (size_t i = 0; i < d->nr_rules; i++) {
			fputs("| ", f);
			md_name(f, d->rules[i].rule.text);
			fprintf(f, " | %s | ", md_verdict((int)d->rules[i].result.verdict));
			md_text(f, d->rules[i].result.why);
			fputs(" |\n", f);
		}
		fputc('\n', f);
	}

	fprintf(f, "| metric | %s | %s | delta | %% | |\n",
		d->multi ? "base median (min–max)" : "base", d->multi ? "new median (min–max)" : "new");
	fputs("|:---|---:|---:|---:|---:|:---|\n", f);
	for (size_t i = 0; i < d->nr_rows; i++) {
		const struct sl_diff_row *row = &d->rows[i];

		if (!row->shown)
			continue;
		fputs("| ", f);
		md_name(f, row->name);
		fprintf(f, " | %s", side_cell(a, sizeof(a), row->unit, &row->base));
		fprintf(f, " | %s", side_cell(a, sizeof(a), row->unit, &row->new));
		fprintf(f, " | %s | %s | %s |\n", delta_cell(a, sizeof(a), row),
			pct_cell(b, sizeof(b), row), md_verdict(row->verdict));
	}
	if (d->comms_hidden)
		fprintf(f, "\n%zu more comms on both sides are not shown.\n", d->comms_hidden);
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

static cJSON *side_json(const struct sl_diff_side *s)
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

cJSON *sl_diff_json(const struct sl_diff *d)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *tool, *metrics, *rules, *notes;
	char line[256];

	cJSON_AddStringToObject(root, "schema", "schedlint.diff/1");
	tool = cJSON_AddObjectToObject(root, "tool");
	cJSON_AddStringToObject(tool, "name", "schedlint");
	cJSON_AddStringToObject(tool, "version", SCHEDLINT_VERSION);
	cJSON_AddItemToObject(root, "base", side_json(&d->base));
	cJSON_AddItemToObject(root, "new", side_json(&d->new));
	metrics = cJSON_AddArrayToObject(root, "metrics");
	for (size_t i = 0; i < d->nr_rows; i++) {
		const struct sl_diff_row *row = &d->rows[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "name", row->name);
		cJSON_AddStringToObject(o, "unit", unit_json(row->unit));
		cJSON_AddItemToObject(o, "base", range_json(&row->base, row->base_values,
							    row->base_valid, d->base.nr));
		cJSON_AddItemToObject(o, "new", range_json(&row->new, row->new_values,
							   row->new_valid, d->new.nr));
		if (row->compared) {
			cJSON_AddNumberToObject(o, "delta", row->delta);
			if (isinf(row->pct))
				cJSON_AddNullToObject(o, "pct");
			else
				cJSON_AddNumberToObject(o, "pct", row->pct);
			/* a +inf change: the base was 0 */
			cJSON_AddBoolToObject(o, "from_zero", row->base.median == 0 && row->new.median != 0);
		} else {
			cJSON_AddNullToObject(o, "delta");
			cJSON_AddNullToObject(o, "pct");
			cJSON_AddBoolToObject(o, "from_zero", false);
		}
		cJSON_AddBoolToObject(o, "shown", row->shown);
		if (row->verdict >= 0)
			cJSON_AddStringToObject(o, "verdict", sl_verdict_name(row->verdict));
		cJSON_AddItemToArray(metrics, o);
	}
	rules = cJSON_AddArrayToObject(root, "rules");
	for (size_t i = 0; i < d->nr_rules; i++)
		cJSON_AddItemToArray(rules, sl_rule_json(&d->rules[i].rule, &d->rules[i].result));
	notes = cJSON_AddArrayToObject(root, "notes");
	for (size_t i = 0; i < d->nr_notes; i++)
		cJSON_AddItemToArray(notes, cJSON_CreateString(d->notes[i]));
	sl_json_add_u64(root, "failed", d->nr_failed);
	cJSON_AddBoolToObject(root, "passed", d->nr_failed == 0);
	summary_line(d, line, sizeof(line));
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

static void junit_properties(FILE *f, const char *label, const struct sl_diff_side *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		fprintf(f, "      <property name=\"%s\" value=\"", label);
		xml_text(f, s->runs[i].path);
		fputs("\"/>\n", f);
	}
}

int sl_diff_write_junit(const struct sl_diff *d, const char *path, char *err, size_t errlen)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	size_t skipped = 0;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < d->nr_rules; i++)
		skipped += d->rules[i].result.verdict == SL_VERDICT_SKIP;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites name=\"schedlint diff\" tests=\"%zu\" failures=\"%zu\" "
		"errors=\"0\" skipped=\"%zu\">\n", d->nr_rules, d->nr_failed, skipped);
	fprintf(f, "  <testsuite name=\"schedlint diff\" tests=\"%zu\" failures=\"%zu\" "
		"errors=\"0\" skipped=\"%zu\">\n", d->nr_rules, d->nr_failed, skipped);
	fputs("    <properties>\n", f);
	junit_properties(f, "base", &d->base);
	junit_properties(f, "new", &d->new);
	fputs("    </properties>\n", f);
	for (size_t i = 0; i < d->nr_rules; i++) {
		const struct sl_diff_rule *dr = &d->rules[i];

		fputs("    <testcase classname=\"schedlint.diff\" name=\"", f);
		xml_text(f, dr->rule.text);
		fputs("\" time=\"0\">\n", f);
		switch (dr->result.verdict) {
		case SL_VERDICT_FAIL:
			fputs("      <failure type=\"regression\" message=\"", f);
			xml_text(f, dr->result.why);
			fputs("\">", f);
			xml_text(f, dr->rule.metric);
			fputs(": ", f);
			xml_text(f, dr->result.why);
			fputs("</failure>\n", f);
			break;
		case SL_VERDICT_SKIP:
			fputs("      <skipped message=\"", f);
			xml_text(f, dr->result.why);
			fputs("\"/>\n", f);
			break;
		default:
			fputs("      <system-out>", f);
			xml_text(f, dr->result.why);
			fputs("</system-out>\n", f);
		}
		fputs("    </testcase>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
	if (f == stdout)
		return fflush(f) || ferror(f) ? (snprintf(err, errlen, "%s: write error", path), -1) : 0;
	if (ferror(f) | fclose(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}
