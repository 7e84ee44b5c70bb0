// SPDX-License-Identifier: GPL-2.0
/*
 * rules.c - parse and evaluate --fail-on rules (semantics in rules.h)
 */
#include <cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "schedlint/findings.h"
#include "util/util.h"

static char *trimmed(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	char *out = xmalloc(len + 1);

	memcpy(out, s, len);
	out[len] = 0;
	return out;
}

/* A number in the metric's unit; durations for time metrics. */
static int parse_amount(const char *s, enum sl_metric_unit unit, double *out)
{
	char *end;

	if (!*s || isspace((unsigned char)*s))
		return -EINVAL;
	if (unit == SL_UNIT_NS || unit == SL_UNIT_NS_PER_S) {
		char dur[64];
		size_t n = strlen(s);
		uint64_t ns;

		/* a cost rate reads as a duration per second: "2ms/s" or "2ms" */
		if (unit == SL_UNIT_NS_PER_S && n > 2 && !strcmp(s + n - 2, "/s"))
			n -= 2;
		if (n >= sizeof(dur))
			return -EINVAL;
		memcpy(dur, s, n);
		dur[n] = 0;
		if (parse_duration(dur, &ns))
			return -EINVAL;
		*out = (double)ns;
		return 0;
	}
	*out = strtod(s, &end);
	if (end == s || !isfinite(*out) || *out < 0)
		return -EINVAL;
	if (unit == SL_UNIT_PER_S && !strcmp(end, "/s"))
		end += 2;
	return *end ? -EINVAL : 0;
}

int sl_rule_parse(const char *text, struct sl_rule *r, char *err, size_t errlen)
{
	const char *op = NULL;
	char *value = NULL;
	const char *num;
	char *floor;
	size_t vlen;
	bool sign, pct, mixed_units = false;

	memset(r, 0, sizeof(*r));
	/* the operator is the last '<' or '>': comm names may hold anything */
	for (const char *p = text; *p; p++)
		if (*p == '<' || *p == '>')
			op = p;
	if (!op) {
		snprintf(err, errlen, "--fail-on '%s': no '>' or '<' (e.g. 'wakeup.p99>+10%%')", text);
		return -1;
	}
	r->text = xstrdup(text);
	r->op = *op;
	{
		char *metric = trimmed(text, (size_t)(op - text));
		char merr[200];

		if (!*metric) {
			snprintf(err, errlen, "--fail-on '%s': no metric before '%c'", text, r->op);
			free(metric);
			goto bad;
		}
		if (strpbrk(metric, "*?[")) {
			bool mixed;

			r->family = true;
			r->metric = metric;
			if (sl_metric_family(metric, &r->unit, &mixed, merr, sizeof(merr))) {
				snprintf(err, errlen, "--fail-on '%s': %s", text, merr);
				goto bad;
			}
			if (mixed)
				r->unit = SL_UNIT_COUNT;
			mixed_units = mixed;
		} else {
			r->metric = sl_metric_canonical(metric, &r->unit, merr, sizeof(merr));
			free(metric);
			if (!r->metric) {
				snprintf(err, errlen, "--fail-on '%s': %s", text, merr);
				goto bad;
			}
		}
	}
	value = trimmed(op + 1, strlen(op + 1));
	/* "+20%&+250ns": a relative threshold and a floor */
	floor = strchr(value, '&');
	if (floor) {
		char *f = floor + 1;

		*floor = 0;
		while (isspace((unsigned char)*f))
			f++;
		if (mixed_units) {
			snprintf(err, errlen, "--fail-on '%s': the family '%s' has metrics of "
				 "different units: a relative threshold only, without a floor "
				 "('%s%c+10%%')", text, r->metric, r->metric, r->op);
			goto bad;
		}
		if ((*f != '+' && *f != '-') || parse_amount(f + 1, r->unit, &r->floor)) {
			snprintf(err, errlen, "--fail-on '%s': '%s' is not a floor (a signed change "
				 "in the metric's unit after '&': '%c+20%%&+250ns')", text, f, r->op);
			goto bad;
		}
		if (*f == '-')
			r->floor = -r->floor;
		r->has_floor = true;
		{
			char *end = floor;	/* the relative part, trimmed */

			while (end > value && isspace((unsigned char)end[-1]))
				*--end = 0;
		}
	}
	vlen = strlen(value);
	sign = value[0] == '+' || value[0] == '-';
	pct = vlen && value[vlen - 1] == '%';
	num = value + sign;
	if (pct)
		value[vlen - 1] = 0;
	if (mixed_units && !(sign && pct)) {
		snprintf(err, errlen, "--fail-on '%s': the family '%s' has metrics of different "
			 "units: a relative threshold only ('%s%c+10%%')", text, r->metric,
			 r->metric, r->op);
		goto bad;
	}
	if (sign && pct) {
		char *end;

		r->form = SL_RULE_PERCENT;
		r->threshold = strtod(num, &end);
		if (end == num || *end || !isfinite(r->threshold) || r->threshold < 0 ||
		    isspace((unsigned char)*num))
			goto bad_value;
	} else if (sign) {
		r->form = SL_RULE_DELTA;
		if (parse_amount(num, r->unit, &r->threshold))
			goto bad_value;
	} else if (pct && r->unit != SL_UNIT_PERCENT) {
		snprintf(err, errlen, "--fail-on '%s': a relative threshold takes a sign: "
			 "'%c+%s%%' (or '%c-%s%%')", text, r->op, value, r->op, value);
		goto bad;
	} else {
		r->form = SL_RULE_ABSOLUTE;
		if (parse_amount(num, r->unit, &r->threshold))
			goto bad_value;
	}
	if (value[0] == '-')
		r->threshold = -r->threshold;
	if (r->has_floor && r->form != SL_RULE_PERCENT) {
		snprintf(err, errlen, "--fail-on '%s': a floor ('&...') goes with a relative "
			 "threshold ('%c+20%%&+250ns')", text, r->op);
		goto bad;
	}
	if (mixed_units && (r->form != SL_RULE_PERCENT || r->has_floor)) {
		snprintf(err, errlen, "--fail-on '%s': the family '%s' has metrics of different "
			 "units: a relative threshold only ('%s%c+10%%')", text, r->metric,
			 r->metric, r->op);
		goto bad;
	}
	free(value);
	return 0;

bad_value:
	snprintf(err, errlen, "--fail-on '%s': '%s' is not a threshold for %s (%s)", text,
		 op + 1, r->metric,
		 r->unit == SL_UNIT_NS ? "a duration: 500us, +10%, +1ms" :
		 r->unit == SL_UNIT_NS_PER_S ? "a duration per second: 2ms/s, +10%, +1ms" :
		 r->unit == SL_UNIT_PERCENT ? "a share: 50%, +5, +10%" : "a number: 100, +0, +10%");
bad:
	free(value);
	sl_rule_free(r);
	return -1;
}

const char *const *sl_default_rules(void)
{
	static char kinds[SL_KIND__COUNT][96];
	static const char *rules[SL_KIND__COUNT + 3];
	size_t n = 0;

	if (rules[0])
		return rules;
	/*
	 * p50 .. p99.9: wherever the distribution moves.  35%: on a loaded
	 * 2-CPU VM the p50 of runs a minute apart drifted by a third (README,
	 * "A/A across"); 250 ns: well above a histogram bucket's width at 1 us.
	 */
	rules[n++] = "wakeup.p*>+35%&+250ns";
	for (int k = 0; k < SL_KIND__COUNT; k++) {
		if (!sl_kinds[k].listed)
			continue;
		/* 1 ms/s: a thousandth of a CPU, so 0 -> one finding is not a regression */
		snprintf(kinds[k], sizeof(kinds[k]), "%s.cost_per_s>+20%%&+1ms/s", sl_kinds[k].name);
		rules[n++] = kinds[k];
	}
	/* the workload switches less often: it gets less done */
	rules[n++] = "switches.per_s<-20%";
	rules[n] = NULL;
	return rules;
}

void sl_rule_free(struct sl_rule *r)
{
	free(r->text);
	free(r->metric);
	memset(r, 0, sizeof(*r));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void sl_range_of(struct sl_range *r, const double *values, const bool *valid, size_t n)
{
	double *v = xcalloc(n ? n : 1, sizeof(*v));
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!valid || valid[i])
			v[k++] = values[i];
	memset(r, 0, sizeof(*r));
	r->n = k;
	r->valid = k > 0;
	r->unmeasured = k ? NULL : "no value";
	if (k) {
		qsort(v, k, sizeof(*v), cmp_double);
		r->min = v[0];
		r->max = v[k - 1];
		r->median = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	}
	free(v);
}

double sl_pct_change(double base, double new)
{
	if (base == 0)
		return new == 0 ? 0 : new > 0 ? INFINITY : -INFINITY;
	return (new - base) / fabs(base) * 100.0;
}

const char *sl_verdict_name(enum sl_verdict v)
{
	switch (v) {
	case SL_VERDICT_FAIL:
		return "fail";
	case SL_VERDICT_NOISE:
		return "noise";
	case SL_VERDICT_SKIP:
		return "skip";
	case SL_VERDICT_UNMEASURED:
		return "unmeasured";
	case SL_VERDICT_PASS:
	default:
		return "pass";
	}
}

static const char *fmt_pct(char *buf, size_t len, double pct)
{
	if (isinf(pct))
		snprintf(buf, len, "%sinf%% (from 0)", pct > 0 ? "+" : "-");
	else
		snprintf(buf, len, "%+.1f%%", pct);
	return buf;
}

static const char *fmt_threshold(char *buf, size_t len, const struct sl_rule *r)
{
	switch (r->form) {
	case SL_RULE_PERCENT:
		snprintf(buf, len, "%+g%%", r->threshold);
		return buf;
	case SL_RULE_DELTA:
		if (r->threshold == 0) {
			snprintf(buf, len, "+0");
			return buf;
		}
		return sl_metric_fmt_delta(buf, len, r->unit, r->threshold);
	case SL_RULE_ABSOLUTE:
	default:
		return sl_metric_fmt(buf, len, r->unit, r->threshold);
	}
}

/* "p = 0.008 < 0.05" */
static const char *fmt_p(char *buf, size_t len, double p)
{
	if (p < 0.001)
		snprintf(buf, len, "p < 0.001");
	else
		snprintf(buf, len, "p = %.3f", p);
	return buf;
}

void sl_rule_eval(const struct sl_rule *r, const struct sl_compare *c,
		  struct sl_rule_result *res)
{
	const struct sl_range *base = c->base, *new = c->new;
	char obs[160], thr[64], b[48], n[48], pbuf[32];
	double observed, alpha = 1 - c->confidence;
	const char *cmp;
	bool crossed, compared;
	int len;

	memset(res, 0, sizeof(*res));
	res->p = NAN;
	fmt_threshold(thr, sizeof(thr), r);
	if (!new->valid || (sl_rule_needs_base(r) && (!base || !base->valid))) {
		const struct sl_range *missing = !new->valid ? new : base;

		res->verdict = c->allow_unmeasured ? SL_VERDICT_SKIP : SL_VERDICT_UNMEASURED;
		snprintf(res->why, sizeof(res->why), "not measured in %s: %s; %s",
			 !new->valid ? (base ? "new" : "the trace") : "base",
			 missing && missing->unmeasured ? missing->unmeasured : "no value",
			 c->allow_unmeasured ? "skipped (--allow-unmeasured)" :
			 "a rule that cannot be evaluated fails (--allow-unmeasured lets it pass)");
		return;
	}
	sl_metric_fmt(n, sizeof(n), r->unit, new->median);
	if (r->form == SL_RULE_ABSOLUTE) {
		observed = new->median;
		snprintf(obs, sizeof(obs), "%s", n);
	} else {
		sl_metric_fmt(b, sizeof(b), r->unit, base->median);
		if (r->form == SL_RULE_DELTA) {
			observed = new->median - base->median;
			sl_metric_fmt_delta(obs, sizeof(obs), r->unit, observed);
		} else {
			observed = sl_pct_change(base->median, new->median);
			fmt_pct(obs, sizeof(obs), observed);
		}
	}
	crossed = r->op == '>' ? observed > r->threshold : observed < r->threshold;
	cmp = crossed ? (r->op == '>' ? ">" : "<") : (r->op == '>' ? "<=" : ">=");
	if (r->has_floor) {
		/* the change in the metric's unit must be beyond the floor too */
		double delta = new->median - base->median;
		bool beyond = r->op == '>' ? delta > r->floor : delta < r->floor;
		char dl[48], fl[48];

		sl_metric_fmt_delta(dl, sizeof(dl), r->unit, delta);
		sl_metric_fmt_delta(fl, sizeof(fl), r->unit, r->floor);
		size_t used = strlen(obs);
		int k;

		/* "+55.0% > +20%, +290 ns > +250 ns" or "..., +120 ns <= +250 ns (the floor)" */
		if (crossed)
			k = snprintf(obs + used, sizeof(obs) - used, " %s %s, %s %s %s%s", cmp, thr, dl,
				     beyond ? (r->op == '>' ? ">" : "<") : (r->op == '>' ? "<=" : ">="),
				     fl, beyond ? "" : " (the floor)");
		else
			k = snprintf(obs + used, sizeof(obs) - used, " %s %s", cmp, thr);
		if (k < 0)
			obs[used] = 0;
		crossed = crossed && beyond;
		cmp = NULL;	/* said in obs */
	}
	res->crossed = crossed;
	res->observed = observed;
	compared = r->form != SL_RULE_ABSOLUTE && c->multi && c->tested;
	if (compared)
		res->p = c->p;
	if (!crossed)
		res->verdict = SL_VERDICT_PASS;
	else if (!compared)
		res->verdict = SL_VERDICT_FAIL;	/* no test: the threshold alone decides */
	else
		res->verdict = c->p < alpha ? SL_VERDICT_FAIL : SL_VERDICT_NOISE;

	if (r->form == SL_RULE_ABSOLUTE) {
		snprintf(res->why, sizeof(res->why), "%s%s %s %s", c->multi ? "median " : "",
			 obs, cmp, thr);
		return;
	}
	if (cmp)
		len = snprintf(res->why, sizeof(res->why), "%s %s %s (%s%s -> %s)", obs, cmp, thr,
			       c->multi ? "medians " : "", b, n);
	else
		len = snprintf(res->why, sizeof(res->why), "%s (%s%s -> %s)", obs,
			       c->multi ? "medians " : "", b, n);
	if (!crossed || len < 0 || (size_t)len >= sizeof(res->why))
		return;
	if (!compared) {
		if (c->multi)
			snprintf(res->why + len, sizeof(res->why) - (size_t)len,
				 "; too few runs to judge the noise at %g%% confidence: the "
				 "threshold alone decides", c->confidence * 100);
		return;
	}
	fmt_p(pbuf, sizeof(pbuf), c->p);
	snprintf(res->why + len, sizeof(res->why) - (size_t)len,
		 res->verdict == SL_VERDICT_NOISE ?
		 "; not significant: %s >= %g (Mann-Whitney U, %zu vs %zu runs): noise, "
		 "not a regression" :
		 "; significant: %s < %g (Mann-Whitney U, %zu vs %zu runs)",
		 pbuf, alpha, base->n, new->n);
}

cJSON *sl_rule_json(const struct sl_rule *r, const struct sl_rule_result *res)
{
	static const char *const forms[] = {
		[SL_RULE_ABSOLUTE] = "absolute", [SL_RULE_DELTA] = "delta",
		[SL_RULE_PERCENT] = "percent",
	};
	cJSON *o = cJSON_CreateObject();
	char op[2] = { r->op, 0 };

	cJSON_AddStringToObject(o, "rule", r->text);
	cJSON_AddStringToObject(o, "metric", r->metric);
	cJSON_AddStringToObject(o, "op", op);
	cJSON_AddStringToObject(o, "form", forms[r->form]);
	cJSON_AddNumberToObject(o, "threshold", r->threshold);
	if (r->has_floor)
		cJSON_AddNumberToObject(o, "floor", r->floor);
	else
		cJSON_AddNullToObject(o, "floor");
	cJSON_AddBoolToObject(o, "family", r->family);
	cJSON_AddStringToObject(o, "verdict", sl_verdict_name(res->verdict));
	cJSON_AddBoolToObject(o, "failed", sl_verdict_failed(res->verdict));
	cJSON_AddBoolToObject(o, "crossed", res->crossed);
	if (res->verdict == SL_VERDICT_SKIP || res->verdict == SL_VERDICT_UNMEASURED ||
	    !isfinite(res->observed))
		cJSON_AddNullToObject(o, "observed");
	else
		cJSON_AddNumberToObject(o, "observed", res->observed);
	if (isnan(res->p))
		cJSON_AddNullToObject(o, "p");
	else
		cJSON_AddNumberToObject(o, "p", res->p);
	cJSON_AddStringToObject(o, "message", res->why);
	return o;
}
