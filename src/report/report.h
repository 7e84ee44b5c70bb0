/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - the report stage: what an analysis turns into for people
 * and for CI
 *
 * src/report/ writes a finished model: the terminal report
 * (report_text.c) and the "schedlint.report/1" JSON object
 * (report_json.c), each calling every analyzer's own section; the metrics
 * read back from that JSON (metrics.c), --fail-on rules (rules.c), and
 * the comparison of runs (diff.c, diff_output.c).  It may include
 * src/util, src/read, src/model and include/schedlint; never src/tui or
 * src/cmd (tests/layering.py holds the order).  The section helpers the
 * analyzers share are below them, in schedlint/report.h.
 */
#ifndef SCHEDLINT_REPORT_REPORT_H
#define SCHEDLINT_REPORT_REPORT_H

#include <stdio.h>

#include "schedlint/report.h"

struct cJSON;

/* The whole terminal report / JSON object of an analysis. */
void sl_report_text(struct sl_report *r, struct sl_model *m);
struct cJSON *sl_report_json(struct sl_model *m, const char *path);
/* Parts of the terminal report, for the HTML page: the detail sections
 * but the findings' lists, and the trace facts (unwrapped). */
void sl_report_text_details(struct sl_report *r, struct sl_model *m);
void sl_report_text_facts(struct sl_report *r, struct sl_model *m);
/* The report as one self-contained HTML page (report_html.c); the time
 * plots need sl_timeline_analyzer among the model's analyzers. */
void sl_report_html(FILE *out, struct sl_model *m, const char *path);
/* s as HTML text or attribute value: the entities, colour codes dropped. */
void sl_html_text(FILE *out, const char *s);
/* An axis label of the pages' plots: "1 us", "250 ns", "10 ms" (%g of the largest unit). */
const char *sl_html_axis_ns(char *buf, size_t len, uint64_t ns);
/*
 * The same report written to out as cJSON_Print() prints it, without a
 * tree of the whole of it: the tasks, comms and findings (and an
 * analyzer's list of tasks) are made one at a time (sl_json_add_list());
 * false when out was not written.
 */
bool sl_report_json_write(struct sl_model *m, const char *path, FILE *out);
/*
 * One finding's fields as the report's findings[] has them, written to o
 * (schedlint/report.h): export's rows and slices take them from here
 * without a tree; sl_finding_json() makes them a cJSON object.
 */
struct sl_finding;
struct sl_fields;
void sl_finding_fields(const struct sl_model *m, const struct sl_finding *f, struct sl_fields *o);
struct cJSON *sl_finding_json(const struct sl_model *m, const struct sl_finding *f);

#endif /* SCHEDLINT_REPORT_REPORT_H */
