// SPDX-License-Identifier: GPL-2.0
/*
 * section_text.c - what an analyzer's terminal section is written with
 *
 * Colors, headings and schbench-style latency rows, shared by the
 * analyzers' sections and the report around them (report/report_text.c),
 * so every section looks like the rest.  Below the analyzers: they call
 * these, these call no analyzer.
 */
#include <inttypes.h>
#include <stdio.h>

#include "schedlint/report.h"

const char *sl_color(const struct sl_report *r, enum sl_color c)
{
	static const char *const codes[] = {
		[SL_C_RESET] = "\033[0m", [SL_C_BOLD] = "\033[1m", [SL_C_DIM] = "\033[2m",
		[SL_C_RED] = "\033[31m", [SL_C_YELLOW] = "\033[33m", [SL_C_GREEN] = "\033[32m",
		[SL_C_CYAN] = "\033[36m",
	};
	return r->color ? codes[c] : "";
}

void sl_report_section(struct sl_report *r, const char *title)
{
	fprintf(r->out, "\n%s%s%s\n", sl_color(r, SL_C_BOLD), title, sl_color(r, SL_C_RESET));
}

const char *sl_report_cell(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%5" PRIu64 "ns", ns);
	else if (ns < 100000)
		snprintf(buf, len, "%5.1fus", ns / 1e3);
	else if (ns < 1000000)
		snprintf(buf, len, "%5.0fus", ns / 1e3);
	else if (ns < 100000000)
		snprintf(buf, len, "%5.2fms", ns / 1e6);
	else if (ns < 10000000000ULL)
		snprintf(buf, len, "%5.0fms", ns / 1e6);
	else
		snprintf(buf, len, "%6.1fs", ns / 1e9);
	return buf;
}

void sl_report_latency_header(struct sl_report *r, int w)
{
	fprintf(r->out, "  %s%-*s %8s %8s", sl_color(r, SL_C_DIM), w, "", "count", "min");
	for (int i = 0; i < SL_NR_PCTS; i++)
		fprintf(r->out, " %8s", sl_pct_names[i]);
	fprintf(r->out, " %8s %8s%s\n", "max", "mean", sl_color(r, SL_C_RESET));
}

void sl_report_latency_row(struct sl_report *r, int w, const char *label, const struct sl_hist *h)
{
	char b[32];

	fprintf(r->out, "  %-*.*s %8" PRIu64, w, w, label, h->count);
	if (!h->count) {
		fputc('\n', r->out);
		return;
	}
	fprintf(r->out, " %8s", sl_report_cell(b, sizeof(b), h->min));
	for (int i = 0; i < SL_NR_PCTS; i++)
		fprintf(r->out, " %8s", sl_report_cell(b, sizeof(b), sl_hist_percentile(h, sl_pcts[i])));
	fprintf(r->out, " %8s", sl_report_cell(b, sizeof(b), h->max));
	fprintf(r->out, " %8s\n", sl_report_cell(b, sizeof(b), sl_hist_mean(h)));
}
