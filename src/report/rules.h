/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rules.h - --fail-on rules: parse once, evaluate on one run or two sides
 *
 *   METRIC > VALUE     absolute: the (new) value is above VALUE
 *   METRIC > +VALUE    the change new - base is above +VALUE
 *   METRIC > +N%       the relative change is above +N%
 *   METRIC > +N%&+VALUE  both: the relative change above +N% and the
 *                      change above +VALUE (a floor: 1 us -> 2 us is
 *                      +100% but may be too little to matter)
 *   and the same with '<' (and usually '-') for metrics where lower is
 *   worse, e.g. 'switches.per_s<-10%'.
 *
 * METRIC may be a family: a shell pattern over the metric names
 * ('wakeup.p*', '*.cost_per_s', 'comm.*.p99'); the rule is evaluated on
 * every member and fails when any member fails (diff.c).  A family of
 * mixed units takes relative thresholds only.
 *
 * VALUE is in the metric's unit; time metrics take durations (500us,
 * 1.5ms; a bare number is ns); a share takes '%' in its absolute form.
 *
 * A relative change from a base of 0: 0 -> 0 is no change; 0 -> anything
 * more is an infinite increase, which crosses every '>' threshold (a kind
 * of finding that appears is a regression whatever the percentage).
 *
 * Several runs per side: the medians are compared, and a rule that
 * compares the sides fails only when the threshold is crossed AND the
 * change is significant: the two-sided Mann-Whitney U test of the per-run
 * values gives p < 1 - confidence (stats.h).  Crossed but not significant
 * is reported as noise and passes.  When the sides have too few runs for
 * any result to be significant (one each, or 3 against 3 at 95%), the
 * threshold alone decides, and the diff says the noise was not judged.
 * An absolute rule looks at the new side's median only.
 *
 * A rule on a metric a side did not measure (a percentile of no samples,
 * a share of no synchronous wakeups) cannot be evaluated: it fails, as
 * "unmeasured", unless unmeasured rules are allowed (then: skip).
 */
#ifndef SCHEDLINT_RULES_H
#define SCHEDLINT_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "metrics.h"

struct cJSON;

enum sl_rule_form {
	SL_RULE_ABSOLUTE,	/* wakeup.p99>500us */
	SL_RULE_DELTA,		/* late-preemption.count>+0 */
	SL_RULE_PERCENT,	/* wakeup.p99>+10% */
};

struct sl_rule {
	char *text;			/* as the user wrote it */
	char *metric;			/* canonical name, or a family's pattern */
	bool family;			/* metric is a shell pattern ("wakeup.p*") */
	bool from_default;		/* one of the default gate's (sl_default_rules()) */
	enum sl_metric_unit unit;	/* a family of mixed units: relative only */
	char op;			/* '>' or '<' */
	enum sl_rule_form form;
	double threshold;		/* value, signed delta, or signed percent */
	bool has_floor;			/* SL_RULE_PERCENT "&+250ns": the change must */
	double floor;			/* also be beyond this signed delta */
};

/*
 * The default gate (--fail-on default, or no --fail-on): every wakeup
 * percentile p50..p99.9 relative with a floor, each listed finding kind's
 * cost per second, the workload's switches per second.  The rules' texts,
 * in order; NULL-terminated, static.
 */
const char *const *sl_default_rules(void);

/* 0, or -1 with err filled (one line naming the rule). */
int sl_rule_parse(const char *text, struct sl_rule *r, char *err, size_t errlen);
void sl_rule_free(struct sl_rule *r);
static inline bool sl_rule_needs_base(const struct sl_rule *r)
{
	return r->form != SL_RULE_ABSOLUTE;
}

/* One side of a comparison: a metric over that side's runs. */
struct sl_range {
	bool valid;			/* at least one run measured it */
	size_t n;			/* runs that measured it */
	double median, min, max;
	const char *unmeasured;		/* !valid: why ("no wakeup-latency samples") */
};
/* The range of values[0..n) whose valid[i] is set (valid may be NULL). */
void sl_range_of(struct sl_range *r, const double *values, const bool *valid, size_t n);

/*
 * (new - base) / base in percent; +INFINITY when base is 0 and new is
 * more (see above), 0 when both are 0.
 */
double sl_pct_change(double base, double new);

enum sl_verdict {
	SL_VERDICT_PASS,
	SL_VERDICT_FAIL,
	SL_VERDICT_NOISE,	/* threshold crossed, not significant: a pass */
	SL_VERDICT_SKIP,	/* not measured, and allowed to be: a pass, said so */
	SL_VERDICT_UNMEASURED,	/* not measured: a failure (fail closed) */
};

static inline bool sl_verdict_failed(int v)
{
	return v == SL_VERDICT_FAIL || v == SL_VERDICT_UNMEASURED;
}

struct sl_rule_result {
	enum sl_verdict verdict;
	bool crossed;
	double observed;		/* value, delta or percent the threshold met */
	double p;			/* the test's p-value, NAN when not tested */
	char why[400];			/* one line: "+162.6% > +10% (36.0 us -> 94.5 us)" */
};

/* What a rule is evaluated on. */
struct sl_compare {
	const struct sl_range *base;	/* NULL: one report (analyze): absolute rules only */
	const struct sl_range *new;
	bool multi;			/* a side has several runs: medians */
	bool tested;			/* runs enough to reach the confidence: p holds */
	double p;			/* two-sided Mann-Whitney U p-value */
	double confidence;		/* e.g. 0.95 */
	bool allow_unmeasured;		/* unmeasured: skip, not fail */
};

void sl_rule_eval(const struct sl_rule *r, const struct sl_compare *c,
		  struct sl_rule_result *res);
const char *sl_verdict_name(enum sl_verdict v);

/*
 * {"rule", "metric", "op", "form", "threshold", "verdict", "failed",
 *  "crossed", "observed", "p", "message"}
 */
struct cJSON *sl_rule_json(const struct sl_rule *r, const struct sl_rule_result *res);

#endif /* SCHEDLINT_RULES_H */
