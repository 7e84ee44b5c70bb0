/* SPDX-License-Identifier: GPL-2.0 */
/*
 * diff.h - two sides of runs, their metrics side by side, the rules' verdicts
 *
 * cmd_diff.c loads the runs (traces or saved reports) into metrics; diff.c
 * lines them up into rows (one per metric: each side's median and range)
 * and evaluates the rules; diff_output.c writes the table as text,
 * Markdown, JSON and JUnit XML.
 */
#ifndef SCHEDLINT_DIFF_H
#define SCHEDLINT_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "metrics.h"
#include "rules.h"

struct cJSON;

struct sl_diff_run {
	char *path;
	bool saved;			/* a saved analyze --json report, not a trace */
	struct sl_metrics metrics;
};

struct sl_diff_side {
	const char *name;		/* "base" or "new" */
	struct sl_diff_run *runs;
	size_t nr;
};

struct sl_diff_row {
	char *name;			/* canonical metric name */
	enum sl_metric_unit unit;
	bool comm;			/* a per-comm row */
	bool shown;			/* in the tables (per-comm: the busiest --top) */
	double *base_values, *new_values;	/* per run */
	bool *base_valid, *new_valid;
	struct sl_range base, new;
	bool compared;			/* both sides measured it: delta and pct hold */
	double delta;			/* new median - base median */
	double pct;			/* sl_pct_change(): may be +-INFINITY */
	int verdict;			/* worst verdict of the rules naming it, -1 none */
	double rank;			/* per-comm: base samples, to pick the busiest */
};

struct sl_diff_rule {
	struct sl_rule rule;
	struct sl_rule_result result;
	size_t row;			/* index in rows */
};

struct sl_diff {
	struct sl_diff_side base, new;
	bool multi;			/* a side has several runs: ranges matter */
	struct sl_diff_row *rows;
	size_t nr_rows;
	size_t comms_hidden;		/* per-comm rows not shown (--top) */
	struct sl_diff_rule *rules;
	size_t nr_rules;
	size_t nr_failed;
	char **notes;			/* said with the table: settings differ, ... */
	size_t nr_notes;
};

/*
 * Line up the runs of both sides (already loaded into d->base / d->new):
 * the fixed metrics, then per-comm p99 for the comms every run has; show
 * the top_comms busiest comms in the tables.
 */
void sl_diff_build(struct sl_diff *d, int top_comms);
/*
 * Attach rules (parsed; ownership moves to d) and evaluate them.  0, or -1
 * with err filled when a rule names a comm some run does not have.
 */
int sl_diff_add_rule(struct sl_diff *d, struct sl_rule *r, char *err, size_t errlen);
void sl_diff_note(struct sl_diff *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sl_diff_free(struct sl_diff *d);

/* Outputs (diff_output.c); a write error shows in ferror(f). */
void sl_diff_print_text(const struct sl_diff *d, FILE *f, bool color);
void sl_diff_print_markdown(const struct sl_diff *d, FILE *f);
struct cJSON *sl_diff_json(const struct sl_diff *d);
/* JUnit XML, one test case per rule; 0 or -1 with err filled. */
int sl_diff_write_junit(const struct sl_diff *d, const char *path, char *err, size_t errlen);

#endif /* SCHEDLINT_DIFF_H */
