/* SPDX-License-Identifier: GPL-2.0 */
/*
 * metrics.h - the numbers diff compares and --fail-on rules name
 *
 * Metrics are read from a "schedlint.report/1" JSON object, never from the
 * model: diff analyzes a trace into that object in memory and parses a
 * saved `analyze --json` file into the same object, so a trace and its
 * saved report give identical metrics.
 *
 * Names are what users type in rules: "wakeup.p99", "late-preemption.count",
 * "comm.sched-pipe.p99".  Time metrics are in ns and also accept the "_ns"
 * suffix of the JSON field ("wakeup.p99_ns"); "p99.9" is "p99_9".
 */
#ifndef SCHEDLINT_METRICS_H
#define SCHEDLINT_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cJSON;

enum sl_metric_unit {
	SL_UNIT_COUNT,		/* events, findings, samples */
	SL_UNIT_NS,		/* a duration */
	SL_UNIT_PER_S,		/* a rate over the analyzed time */
	SL_UNIT_PERCENT,	/* a share, 0..100 */
	SL_UNIT_NS_PER_S,	/* time per second of the analyzed time: a cost rate */
};

struct sl_metric_value {
	char *name;			/* canonical, e.g. "wakeup.p99" */
	enum sl_metric_unit unit;
	bool valid;			/* false: nothing to measure (no samples, no time) */
	double value;
	double samples;			/* per-comm: its wakeup-latency samples (to rank) */
	const char *unmeasured;		/* !valid: why ("no wakeup-latency samples") */
	bool absent;			/* !valid because the report predates the metric */
};

/* The metrics of one run (one report), static ones first, then per comm. */
struct sl_metrics {
	struct sl_metric_value *v;
	size_t nr, alloc;
	size_t nr_static;		/* v[0 .. nr_static) are the fixed list, in its order */
	bool exclude_inferred;		/* made with --exclude-inferred: the lower bounds
					 * counted (wakeup.inferred), in no percentile */
	char *settings;			/* the report's thresholds and slice model, one
					 * line: runs made with different ones are
					 * not comparable finding for finding */
	uint32_t *index;		/* open-addressing hash of v[] by name: 1 + i, 0 empty */
	size_t index_slots;		/* a power of two, at least twice nr */
};

/*
 * Name comparisons made by sl_metrics_get() and extraction so far: a test
 * counts them to prove a lookup costs O(1), not a scan (40,000 comms made
 * diff quadratic).
 */
extern unsigned long sl_metrics_compares;

#define SL_METRIC_COMM_PREFIX "comm."
#define SL_METRIC_COMM_SUFFIX ".p99"

/*
 * Extract the metrics of a report.  0 on success; -1 with err filled (one
 * line, without the file name) when root is not a schedlint.report/1
 * object, lacks a field the metrics need, or holds a number no trace can
 * give (negative, not finite, or beyond 2^64: a hand-edited baseline).
 */
int sl_metrics_from_report(const struct cJSON *root, struct sl_metrics *out,
			   char *err, size_t errlen);
void sl_metrics_free(struct sl_metrics *ms);
const struct sl_metric_value *sl_metrics_get(const struct sl_metrics *ms, const char *name);

/*
 * The canonical name of a metric as a user wrote it ("wakeup.p99_ns" ->
 * "wakeup.p99"), newly allocated; NULL with err filled when no such metric
 * exists.  Per-comm names are accepted for any comm: whether it was seen is
 * only known once the traces are read.
 */
char *sl_metric_canonical(const char *name, enum sl_metric_unit *unit, char *err, size_t errlen);
bool sl_metric_is_comm(const char *canonical);
/*
 * A family's pattern (fnmatch, as --metric): 0 with *unit the members'
 * unit and *mixed set when they differ; -1 with err filled when it can
 * match no metric (a comm pattern, "comm.*.p99", is checked against the
 * runs later).
 */
int sl_metric_family(const char *pattern, enum sl_metric_unit *unit, bool *mixed,
		     char *err, size_t errlen);

/*
 * Which way a metric gets worse: +1 higher is worse (a latency, a cost, a
 * count of bad decisions), -1 lower is worse (switches per second: the
 * workload's throughput), 0 neither (a count of samples, migrations: a
 * change says something moved, not that it got worse).
 */
int sl_metric_worse(const char *canonical);

/* The documented list, for --list-metrics (and the man page). */
void sl_metrics_list(FILE *f);

/* A value in its unit: "94.5 us", "4073", "28.7k/s", "97.2%" */
const char *sl_metric_fmt(char *buf, size_t len, enum sl_metric_unit unit, double v);
/* A signed difference in its unit: "+58.5 us", "+1695", "-3.1 pp" */
const char *sl_metric_fmt_delta(char *buf, size_t len, enum sl_metric_unit unit, double d);

#endif /* SCHEDLINT_METRICS_H */
