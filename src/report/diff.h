/* SPDX-License-Identifier: GPL-2.0 */
/*
 * diff.h - sides of runs, their metrics side by side, the rules' verdicts
 *
 * A diff has two or more sides, each one or more runs: "base" and "new",
 * or the named variants of --variant (base, revert, patch, ...).  Side 0
 * is the reference every other side is compared with.  cmd_diff.c loads
 * the runs (traces or saved reports) into metrics; diff.c lines them up
 * into rows (one per metric: each side's median and range, and for each
 * other side the change and the Mann-Whitney p-value against side 0) and
 * evaluates the rules; diff_output.c writes the table as text, Markdown,
 * JSON and JUnit XML.
 */
#ifndef SCHEDLINT_DIFF_H
#define SCHEDLINT_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "metrics.h"
#include "rules.h"

struct cJSON;

/* Sides whose shares of inferred latency samples differ by this many points are noted. */
#define SL_DIFF_INFERRED_PP 5.0

struct sl_diff_run {
	char *path;
	bool saved;			/* a saved analyze --json report, not a trace */
	struct sl_metrics metrics;
};

struct sl_diff_side {
	char *name;			/* "base", "new", or a --variant name */
	struct sl_diff_run *runs;
	size_t nr;
};

/* One metric on one side. */
struct sl_diff_cell {
	double *values;			/* per run */
	bool *valid;
	const char *absent;		/* a run whose report predates the metric, or NULL */
	struct sl_range range;
	/* against side 0 (side 0's own cell: unused) */
	bool compared;			/* both sides measured it: delta and pct hold */
	double delta;			/* this side's median - side 0's */
	double pct;			/* sl_pct_change(): may be +-INFINITY */
	bool tested;			/* runs enough for the test at the confidence: p holds */
	double p;			/* two-sided Mann-Whitney U p-value */
	int verdict;			/* worst verdict of the rules on this cell, -1 none */
};

struct sl_diff_row {
	char *name;			/* canonical metric name */
	enum sl_metric_unit unit;
	bool comm;			/* a per-comm row */
	bool shown;			/* in the tables (per-comm: the busiest --top) */
	int worse;			/* sl_metric_worse(): +1 higher is worse, -1 lower, 0 neither */
	bool covered;			/* a rule names it (or its family) */
	bool zero;			/* every run of every side 0 or not measured */
	bool zero_hidden;		/* not shown for that alone (no --all) */
	struct sl_diff_cell *cells;	/* one per side */
	int verdict;			/* worst verdict over the cells, -1 none */
	double rank;			/* per-comm: side 0's samples, to pick the busiest */
};

/* A rule, evaluated on each side against side 0. */
struct sl_diff_rule {
	struct sl_rule rule;
	size_t row;			/* index in rows (a family: its first member) */
	size_t *members;		/* the rows it covers: one, or a family's */
	size_t nr_members;
	struct sl_rule_result *results;	/* per side; [0] unused (a family: the worst member) */
	struct sl_rule_result *member_results;	/* [member * nr_sides + side] */
};

struct sl_diff_opts {
	int top_comms;			/* per-comm rows shown, busiest first; < 0 all */
	double confidence;		/* of the test, e.g. 0.95 */
	bool allow_unmeasured;		/* an unmeasured rule passes (skip) instead of failing */
	bool variants;			/* the sides were named with --variant: columns */
	bool all;			/* --all: also the rows 0 or unmeasured on every side */
	const char *const *metrics;	/* --metric: rows shown (fnmatch patterns), NULL all */
	size_t nr_metrics;
};

struct sl_diff {
	struct sl_diff_side *sides;
	size_t nr_sides;
	struct sl_diff_opts opts;
	bool multi;			/* a side has several runs */
	size_t min_runs;		/* the fewest runs of any side */
	bool tested;			/* every side has runs enough for the test */
	struct sl_diff_row *rows;
	size_t nr_rows;
	size_t comms_hidden;		/* per-comm rows not shown (--top) */
	size_t zero_hidden;		/* rows 0 or unmeasured on every side, not shown */
	struct sl_diff_rule *rules;
	size_t nr_rules;
	size_t nr_checks;		/* rules x compared sides */
	size_t nr_failed;		/* checks that failed (unmeasured included) */
	char **notes;			/* said with the table: settings differ, ... */
	size_t nr_notes;
};

/* Add a side named name (copied) with nr runs to load; the runs, zeroed. */
struct sl_diff_side *sl_diff_add_side(struct sl_diff *d, const char *name, size_t nr);
/*
 * Line up the runs of every side (already loaded): the fixed metrics, then
 * per-comm p99 for the comms every run has; test each side against side 0.
 * 0, or -1 with err filled when a --metric pattern matches no metric.
 */
int sl_diff_build(struct sl_diff *d, const struct sl_diff_opts *opts, char *err, size_t errlen);
/*
 * Attach a rule (parsed; ownership moves to d) and evaluate it on every
 * side.  0, or -1 with err filled when it names a comm some run lacks.
 */
int sl_diff_add_rule(struct sl_diff *d, struct sl_rule *r, char *err, size_t errlen);
void sl_diff_note(struct sl_diff *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sl_diff_free(struct sl_diff *d);
/* The cells every form of the table shares: "+82.4%", "0.008", "FAIL"/"ok"/... */
const char *sl_diff_pct_cell(char *buf, size_t len, const struct sl_diff_cell *c);
const char *sl_diff_p_cell(char *buf, size_t len, const struct sl_diff_cell *c);
const char *sl_diff_verdict_word(int v);
/* The comparison as one self-contained HTML page (diff_html.c), and the page of an error. */
void sl_diff_print_html(const struct sl_diff *d, FILE *out);
void sl_diff_print_html_error(FILE *out, const char *message);

/* A significant change of a cell against side 0 (at the diff's confidence). */
bool sl_diff_significant(const struct sl_diff *d, const struct sl_diff_cell *c);
/*
 * The significant changes no rule covers, over every row and compared
 * side: worse (a regression), better, and of no direction (a metric that
 * is neither better nor worse higher).
 */
struct sl_diff_uncovered {
	size_t worse, better, other;
};
void sl_diff_uncovered(const struct sl_diff *d, struct sl_diff_uncovered *u);

/*
 * The one line under the table: "all 3 rules passed", "1 of 3 rules
 * failed", and the significant changes no rule covers.
 */
void sl_diff_summary(const struct sl_diff *d, char *buf, size_t len);

/* Outputs (diff_output.c); a write error shows in ferror(f). */
void sl_diff_print_text(const struct sl_diff *d, FILE *f, bool color);
void sl_diff_print_markdown(const struct sl_diff *d, FILE *f);
/* The Markdown comment of a diff that could not run (exit 2): why, in one line. */
void sl_diff_print_markdown_error(FILE *f, const char *message);
struct cJSON *sl_diff_json(const struct sl_diff *d);
/* JUnit XML, one test case per rule and compared side; 0 or -1 with err filled. */
int sl_diff_write_junit(const struct sl_diff *d, const char *path, char *err, size_t errlen);
/*
 * JUnit XML for a diff that could not run (exit 2): one test case with an
 * <error> carrying message, so the CI page says why instead of "no tests".
 */
int sl_diff_write_junit_error(const char *path, const char *message, char *err, size_t errlen);

#endif /* SCHEDLINT_DIFF_H */
