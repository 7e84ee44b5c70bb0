// SPDX-License-Identifier: GPL-2.0
/*
 * diff.c - line up the runs' metrics, test the changes, evaluate the rules
 *
 * Every side is compared with side 0 (base, or the first --variant): the
 * change of the medians, and whether it is more than the runs' noise (the
 * Mann-Whitney U test of the per-run values, stats.h).  Metrics are found
 * by name through each run's hash index: 40,000 comms must cost no more
 * than 40,000 lookups per run.
 */
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "stats.h"
#include "util/util.h"

struct sl_diff_side *sl_diff_add_side(struct sl_diff *d, const char *name, size_t nr)
{
	struct sl_diff_side *side;

	d->sides = xrealloc(d->sides, (d->nr_sides + 1) * sizeof(*d->sides));
	side = &d->sides[d->nr_sides++];
	side->name = xstrdup(name);
	side->runs = xcalloc(nr ? nr : 1, sizeof(*side->runs));
	side->nr = nr;
	return side;
}

/* Does every run of the side have the metric? */
static bool side_has(const struct sl_diff_side *s, const char *name, const char **missing)
{
	for (size_t i = 0; i < s->nr; i++) {
		if (!sl_metrics_get(&s->runs[i].metrics, name)) {
			if (missing)
				*missing = s->runs[i].path;
			return false;
		}
	}
	return true;
}

static void fill_cell(const struct sl_diff_side *s, const char *name, struct sl_diff_cell *c,
		      double *samples)
{
	const char *unmeasured = NULL;

	c->values = xcalloc(s->nr, sizeof(*c->values));
	c->valid = xcalloc(s->nr, sizeof(*c->valid));
	c->verdict = -1;
	*samples = 0;
	for (size_t i = 0; i < s->nr; i++) {
		const struct sl_metric_value *v = sl_metrics_get(&s->runs[i].metrics, name);

		c->values[i] = v->value;
		c->valid[i] = v->valid;
		if (v->absent && !c->absent)
			c->absent = s->runs[i].path;
		*samples += v->samples;
		if (!v->valid && !unmeasured)
			unmeasured = v->unmeasured;
	}
	sl_range_of(&c->range, c->values, c->valid, s->nr);
	if (!c->range.valid && unmeasured)
		c->range.unmeasured = unmeasured;
}

/* The valid values of a cell, for the test. */
static size_t valid_values(const struct sl_diff_cell *c, size_t nr, double *out)
{
	size_t k = 0;

	for (size_t i = 0; i < nr; i++)
		if (c->valid[i])
			out[k++] = c->values[i];
	return k;
}

static void compare_cell(const struct sl_diff *d, const struct sl_diff_cell *ref,
			 const struct sl_diff_side *ref_side, struct sl_diff_cell *c,
			 const struct sl_diff_side *side)
{
	double *a, *b;
	size_t na, nb;

	c->compared = ref->range.valid && c->range.valid;
	if (!c->compared)
		return;
	c->delta = c->range.median - ref->range.median;
	c->pct = sl_pct_change(ref->range.median, c->range.median);
	a = xcalloc(ref_side->nr, sizeof(*a));
	b = xcalloc(side->nr, sizeof(*b));
	na = valid_values(ref, ref_side->nr, a);
	nb = valid_values(c, side->nr, b);
	c->tested = sl_mann_whitney_min_p(na, nb) < 1 - d->opts.confidence;
	c->p = c->tested ? sl_mann_whitney_p(a, na, b, nb) : NAN;
	free(a);
	free(b);
}

static struct sl_diff_row *add_row(struct sl_diff *d, const struct sl_metric_value *mv)
{
	struct sl_diff_row *row;
	double samples;

	d->rows = xrealloc(d->rows, (d->nr_rows + 1) * sizeof(*d->rows));
	row = &d->rows[d->nr_rows++];
	memset(row, 0, sizeof(*row));
	row->name = xstrdup(mv->name);
	row->unit = mv->unit;
	row->comm = sl_metric_is_comm(mv->name);
	row->worse = sl_metric_worse(mv->name);
	row->shown = true;
	row->verdict = -1;
	row->cells = xcalloc(d->nr_sides, sizeof(*row->cells));
	row->zero = true;
	for (size_t s = 0; s < d->nr_sides; s++) {
		const struct sl_diff_cell *c = &row->cells[s];

		fill_cell(&d->sides[s], mv->name, &row->cells[s], &samples);
		if (!s)
			row->rank = samples / (double)d->sides[0].nr;
		for (size_t i = 0; i < d->sides[s].nr; i++)
			row->zero &= !c->valid[i] || c->values[i] == 0;
	}
	for (size_t s = 1; s < d->nr_sides; s++)
		compare_cell(d, &row->cells[0], &d->sides[0], &row->cells[s], &d->sides[s]);
	return row;
}

/* The value of name in a settings line "name=value name=value ...", its length in *len. */
static const char *setting(const char *line, const char *name, size_t nlen, size_t *len)
{
	for (const char *p = line; p && *p; p = strchr(p, ' '), p = p ? p + 1 : NULL) {
		if (!strncmp(p, name, nlen) && p[nlen] == '=') {
			*len = strcspn(p + nlen + 1, " ");
			return p + nlen + 1;
		}
	}
	return NULL;
}

/* The settings b has differently from a, as "name=b (not a)". */
static bool settings_differ(const char *a, const char *b, char *out, size_t len)
{
	size_t used = 0;

	out[0] = 0;
	for (const char *p = b; p && *p; p = strchr(p, ' '), p = p ? p + 1 : NULL) {
		size_t nlen = strcspn(p, "= "), blen, alen;
		const char *bval = setting(b, p, nlen, &blen);
		const char *aval = setting(a, p, nlen, &alen);

		if (!bval || (aval && alen == blen && !strncmp(aval, bval, blen)))
			continue;
		if (used < len)
			used += snprintf(out + used, len - used, "%s%.*s=%.*s (not %.*s)",
					 used ? ", " : "", (int)nlen, p, (int)blen, bval,
					 aval ? (int)alen : 1, aval ? aval : "-");
	}
	/* and those only a has (a filter b was not given) */
	for (const char *p = a; p && *p; p = strchr(p, ' '), p = p ? p + 1 : NULL) {
		size_t nlen = strcspn(p, "= "), alen, blen;
		const char *aval = setting(a, p, nlen, &alen);

		if (!aval || setting(b, p, nlen, &blen))
			continue;
		if (used < len)
			used += snprintf(out + used, len - used, "%s%.*s=- (not %.*s)",
					 used ? ", " : "", (int)nlen, p, (int)alen, aval);
	}
	return out[0] != 0;
}

static int by_rank(const void *a, const void *b)
{
	const struct sl_diff_row *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? 1 : -1;
	return strcmp(x->name, y->name);
}

/*
 * A side's share of wakeup-latency samples that are lower bounds (they end
 * at an inferred switch, analyze DESCRIPTION), in percent: the median over
 * its runs; -1 when no run has samples.
 */
static double inferred_share(const struct sl_diff_side *side)
{
	double *share = xcalloc(side->nr, sizeof(*share));
	bool *valid = xcalloc(side->nr, sizeof(*valid));
	struct sl_range r;

	for (size_t i = 0; i < side->nr; i++) {
		const struct sl_metrics *ms = &side->runs[i].metrics;
		const struct sl_metric_value *inf = sl_metrics_get(ms, "wakeup.inferred");
		const struct sl_metric_value *count = sl_metrics_get(ms, "wakeup.count");

		if (!inf || !count || !inf->valid || !count->valid || count->value <= 0)
			continue;
		/* left out of the percentiles (--exclude-inferred): none of them is a bound */
		share[i] = ms->exclude_inferred ? 0 : 100.0 * MIN(inf->value, count->value) / count->value;
		valid[i] = true;
	}
	sl_range_of(&r, share, valid, side->nr);
	free(share);
	free(valid);
	return r.valid ? r.median : -1;
}

/*
 * The sides differ much in their share of lower bounds: a recorder that
 * drops the switch from idle on one CPU (a VM's) makes one side's
 * latencies read shorter, and the percentiles then compare the recorders.
 */
static void note_inferred(struct sl_diff *d)
{
	double ref = inferred_share(&d->sides[0]);

	for (size_t s = 1; s < d->nr_sides && ref >= 0; s++) {
		double share = inferred_share(&d->sides[s]);
		size_t saved = 0, runs = d->sides[0].nr + d->sides[s].nr;
		const char *fix;

		if (share < 0 || fabs(share - ref) < SL_DIFF_INFERRED_PP)
			continue;
		/* diff's --exclude-inferred reaches the traces; a saved report keeps its samples */
		for (size_t i = 0; i < d->sides[0].nr; i++)
			saved += d->sides[0].runs[i].saved;
		for (size_t i = 0; i < d->sides[s].nr; i++)
			saved += d->sides[s].runs[i].saved;
		fix = !saved ? "--exclude-inferred leaves them out of both" :
		      saved == runs ? "analyze --json --exclude-inferred makes reports without them" :
		      "--exclude-inferred leaves them out of the traces, and analyze --json "
		      "--exclude-inferred makes reports without them";
		sl_diff_note(d, "%s has %.1f%% of its wakeup-latency samples inferred (lower "
			     "bounds: they end at a switch the trace does not show), %s %.1f%% "
			     "(medians of the runs): the side with more reads faster than it is, "
			     "and its latencies do not compare like for like with the other's; "
			     "%s (a recorder that logs every switch has none)", d->sides[0].name, ref,
			     d->sides[s].name, share, fix);
	}
}

/* Said with every table: whether the noise was judged, and how to judge it. */
static void note_noise(struct sl_diff *d)
{
	double alpha = 1 - d->opts.confidence;
	size_t need = sl_mann_whitney_least_runs(d->opts.confidence);

	if (!d->multi) {
		if (d->opts.variants)
			sl_diff_note(d, "one run per variant: the run-to-run noise cannot be "
				     "judged, and a rule's threshold alone decides; record at least %zu "
				     "runs of each (--variant NAME R1 ... R%zu), the least that can "
				     "test a change at %g%% confidence", need, need,
				     d->opts.confidence * 100);
		else
			sl_diff_note(d, "one run per side: the run-to-run noise cannot be judged, "
				     "and a rule's threshold alone decides; record at least %zu runs per "
				     "side (--base A1 ... A%zu --new B1 ... B%zu), the least that can "
				     "test a change at %g%% confidence", need, need, need,
				     d->opts.confidence * 100);
		return;
	}
	if (!d->tested)
		sl_diff_note(d, "%zu run%s on a side: too few, no change can be significant at "
			     "%g%% confidence (the Mann-Whitney U test needs p < %g; the least %zu "
			     "against %zu runs give is %.3f), so a rule's threshold alone decides; "
			     "record at least %zu runs per side (%zu against %zu give %.3f)",
			     d->min_runs, d->min_runs == 1 ? "" : "s",
			     d->opts.confidence * 100, alpha, d->sides[0].nr,
			     d->sides[d->nr_sides - 1].nr,
			     sl_mann_whitney_min_p(d->sides[0].nr, d->sides[d->nr_sides - 1].nr),
			     need, need, need, sl_mann_whitney_min_p(need, need));
}

/* --metric: is the row asked for?  A name without wildcards shows even a comm beyond --top. */
static bool row_wanted(const struct sl_diff_opts *opts, const struct sl_diff_row *row,
		       bool *exact, size_t *matched)
{
	bool any = false;

	*exact = false;
	for (size_t i = 0; i < opts->nr_metrics; i++) {
		if (fnmatch(opts->metrics[i], row->name, 0))
			continue;
		any = true;
		matched[i]++;
		*exact |= !strpbrk(opts->metrics[i], "*?[");
	}
	return any;
}

/* The row name nearest a mistyped one ("wakup.p99", "comm.sched_pipe.p99"), or NULL. */
static const char *closest_row(const struct sl_diff *d, const char *word)
{
	const char **names = xcalloc(d->nr_rows + 1, sizeof(*names));
	const char *best;

	for (size_t i = 0; i < d->nr_rows; i++)
		names[i] = d->rows[i].name;
	best = sl_closest(word, names, d->nr_rows);
	free(names);
	return best;
}

/* " (did you mean 'NAME'?)" after an unknown name, or "" */
static const char *did_you_mean(char *buf, size_t len, const char *best)
{
	if (!best)
		return "";
	snprintf(buf, len, "; did you mean '%s'?", best);
	return buf;
}

int sl_diff_build(struct sl_diff *d, const struct sl_diff_opts *opts, char *err, size_t errlen)
{
	size_t *matched = xcalloc(opts->nr_metrics + 1, sizeof(*matched));
	const struct sl_metrics *first = &d->sides[0].runs[0].metrics;
	size_t first_comm;

	d->opts = *opts;
	d->min_runs = SIZE_MAX;
	d->tested = true;
	for (size_t s = 0; s < d->nr_sides; s++) {
		d->multi |= d->sides[s].nr > 1;
		d->min_runs = MIN(d->min_runs, d->sides[s].nr);
		if (s && sl_mann_whitney_min_p(d->sides[0].nr, d->sides[s].nr) >= 1 - opts->confidence)
			d->tested = false;
	}
	/* every report has the fixed metrics, in the same order */
	for (size_t i = 0; i < first->nr_static; i++)
		add_row(d, &first->v[i]);
	first_comm = d->nr_rows;
	for (size_t i = first->nr_static; i < first->nr; i++) {
		bool everywhere = true;

		for (size_t s = 0; s < d->nr_sides && everywhere; s++)
			everywhere = side_has(&d->sides[s], first->v[i].name, NULL);
		if (everywhere)
			add_row(d, &first->v[i]);
	}
	/* the busiest comms first: a p99 of three samples says little */
	qsort(d->rows + first_comm, d->nr_rows - first_comm, sizeof(*d->rows), by_rank);
	for (size_t i = first_comm; i < d->nr_rows; i++) {
		if (opts->top_comms >= 0 && i - first_comm >= (size_t)opts->top_comms) {
			d->rows[i].shown = false;
			d->comms_hidden++;
		}
	}
	if (opts->nr_metrics) {
		d->comms_hidden = 0;	/* now: comms asked for that --top hides */
		for (size_t i = 0; i < d->nr_rows; i++) {
			struct sl_diff_row *row = &d->rows[i];
			bool exact, wanted = row_wanted(opts, row, &exact, matched);

			if (!wanted)
				row->shown = false;
			else if (exact)
				row->shown = true;
			else if (!row->shown)
				d->comms_hidden++;
		}
		for (size_t i = 0; i < opts->nr_metrics; i++) {
			if (!matched[i]) {
				char dym[160];

				snprintf(err, errlen, "--metric '%s': no metric of this name in the "
					 "runs%s (schedlint diff --list-metrics lists them)",
					 opts->metrics[i], did_you_mean(dym, sizeof(dym),
					 closest_row(d, opts->metrics[i])));
				free(matched);
				return -1;
			}
		}
	}
	free(matched);
	/*
	 * 0 -> 0 says nothing: a kind that did not happen on either side, a
	 * percentile of no samples.  Shown with --all, or when asked by name.
	 */
	for (size_t i = 0; i < d->nr_rows && !opts->all; i++) {
		struct sl_diff_row *row = &d->rows[i];
		bool exact = false;

		if (!row->zero || !row->shown)
			continue;
		for (size_t m = 0; m < opts->nr_metrics && !exact; m++)
			exact = !strpbrk(opts->metrics[m], "*?[") && !fnmatch(opts->metrics[m], row->name, 0);
		if (exact)
			continue;
		row->shown = false;
		row->zero_hidden = true;
		d->zero_hidden++;
	}

	/* the same settings on every side, or counts of findings do not compare */
	for (size_t s = 0; s < d->nr_sides; s++) {
		const struct sl_diff_side *side = &d->sides[s];

		for (size_t i = 0; i < side->nr; i++) {
			char what[512];

			if (settings_differ(d->sides[0].runs[0].metrics.settings,
					    side->runs[i].metrics.settings, what, sizeof(what)))
				sl_diff_note(d, "%s was analyzed with other settings than %s (%s): "
					     "finding counts may not compare", side->runs[i].path,
					     d->sides[0].runs[0].path, what);
		}
	}
	note_noise(d);
	note_inferred(d);
	return 0;
}

static int verdict_rank(int v)
{
	switch (v) {
	case SL_VERDICT_UNMEASURED:
		return 5;
	case SL_VERDICT_FAIL:
		return 4;
	case SL_VERDICT_NOISE:
		return 3;
	case SL_VERDICT_PASS:
		return 2;
	case SL_VERDICT_SKIP:
		return 1;
	default:
		return 0;
	}
}

/* Evaluate rule r on one row, every side against side 0, into res[side]. */
static void eval_on_row(struct sl_diff *d, const struct sl_rule *r, struct sl_diff_row *row,
			struct sl_rule_result *res)
{
	struct sl_rule member = *r;

	member.unit = row->unit;	/* a family of mixed units: relative, each its own */
	for (size_t s = 1; s < d->nr_sides; s++) {
		struct sl_diff_cell *cell = &row->cells[s];
		struct sl_compare c = {
			.base = &row->cells[0].range, .new = &cell->range, .multi = d->multi,
			.tested = cell->tested, .p = cell->p, .confidence = d->opts.confidence,
			.allow_unmeasured = d->opts.allow_unmeasured,
		};
		const char *absent = row->cells[0].absent ? row->cells[0].absent : cell->absent;
		int v;

		if (r->from_default && absent) {
			/*
			 * The default gate was not asked for by name: a metric a
			 * saved report predates (a kind split out since) passes it
			 * by, said so, rather than failing every old baseline.
			 */
			memset(&res[s], 0, sizeof(res[s]));
			res[s].verdict = SL_VERDICT_SKIP;
			res[s].p = NAN;
			snprintf(res[s].why, sizeof(res[s].why), "not in %s (a report made before "
				 "schedlint had %s): the default gate skips it", absent, row->name);
		} else {
			sl_rule_eval(&member, &c, &res[s]);
		}
		v = (int)res[s].verdict;
		if (verdict_rank(v) > verdict_rank(cell->verdict))
			cell->verdict = v;
		if (verdict_rank(v) > verdict_rank(row->verdict))
			row->verdict = v;
	}
	/* a row a rule names is always in the table, a comm beyond --top or a 0 -> 0 */
	row->covered = true;
	/* a family's member, or a default rule's row, when it did more than pass */
	if (!(r->family || r->from_default) ||
	    (row->verdict >= 0 && row->verdict != SL_VERDICT_PASS)) {
		row->shown = true;
		if (row->zero_hidden) {
			row->zero_hidden = false;
			d->zero_hidden--;
		}
	}
}

/* "wakeup.p50 (+64.0%, +340 ns, p = 0.008)": a family member in a line */
static size_t member_brief(char *buf, size_t len, const struct sl_diff_row *row, size_t s,
			   const struct sl_rule_result *res)
{
	const struct sl_diff_cell *c = &row->cells[s];
	char pct[32], delta[48], p[32] = "";

	if (res->verdict == SL_VERDICT_UNMEASURED || res->verdict == SL_VERDICT_SKIP)
		return (size_t)snprintf(buf, len, "%s (not measured)", row->name);
	if (isinf(c->pct))
		snprintf(pct, sizeof(pct), "%sinf%%", c->pct > 0 ? "+" : "-");
	else
		snprintf(pct, sizeof(pct), "%+.1f%%", c->pct);
	sl_metric_fmt_delta(delta, sizeof(delta), row->unit, c->delta);
	if (!isnan(res->p))
		snprintf(p, sizeof(p), res->p < 0.001 ? ", p < 0.001" : ", p = %.3f", res->p);
	return (size_t)snprintf(buf, len, "%s (%s, %s%s)", row->name, pct, delta, p);
}

/* A family's result on side s: the worst member's verdict, the members that made it. */
static void family_result(const struct sl_diff *d, const struct sl_diff_rule *dr, size_t s,
			  struct sl_rule_result *out)
{
	int worst = SL_VERDICT_PASS;
	size_t n = 0, used, shown = 0;
	const char *what;

	memset(out, 0, sizeof(*out));
	out->p = NAN;
	for (size_t m = 0; m < dr->nr_members; m++) {
		const struct sl_rule_result *res = &dr->member_results[m * d->nr_sides + s];

		out->crossed |= res->crossed;
		if (verdict_rank((int)res->verdict) > verdict_rank(worst)) {
			worst = (int)res->verdict;
			out->observed = res->observed;
			out->p = res->p;
		}
	}
	out->verdict = (enum sl_verdict)worst;
	for (size_t m = 0; m < dr->nr_members; m++)
		n += (int)dr->member_results[m * d->nr_sides + s].verdict == worst;
	switch (worst) {
	case SL_VERDICT_FAIL:
		what = "failed";
		break;
	case SL_VERDICT_UNMEASURED:
		what = "not measured (a rule that cannot be evaluated fails)";
		break;
	case SL_VERDICT_NOISE:
		what = "crossed, within the noise";
		break;
	case SL_VERDICT_SKIP:
		what = "not measured, allowed";
		break;
	default:
		snprintf(out->why, sizeof(out->why), "%zu metric%s, none crossed", dr->nr_members,
			 dr->nr_members == 1 ? "" : "s");
		return;
	}
	used = (size_t)snprintf(out->why, sizeof(out->why), "%zu of %zu metric%s %s:", n,
				dr->nr_members, dr->nr_members == 1 ? "" : "s", what);
	for (size_t m = 0; m < dr->nr_members && used < sizeof(out->why); m++) {
		const struct sl_rule_result *res = &dr->member_results[m * d->nr_sides + s];
		char brief[160];

		if ((int)res->verdict != worst)
			continue;
		member_brief(brief, sizeof(brief), &d->rows[dr->members[m]], s, res);
		/* room for ", and N more" */
		if (used + strlen(brief) + 2 > sizeof(out->why) - 16) {
			snprintf(out->why + used, sizeof(out->why) - used, ", and %zu more", n - shown);
			return;
		}
		used += (size_t)snprintf(out->why + used, sizeof(out->why) - used, "%s %s",
					 shown ? "," : "", brief);
		shown++;
	}
}

int sl_diff_add_rule(struct sl_diff *d, struct sl_rule *r, char *err, size_t errlen)
{
	struct sl_diff_rule *dr;
	size_t *members = xcalloc(d->nr_rows + 1, sizeof(*members)), nr = 0;
	const char *missing = NULL;

	/* a comm may have '*' or '[' in its name: a row of that very name is no family */
	for (size_t i = 0; i < d->nr_rows && r->family; i++)
		if (!strcmp(d->rows[i].name, r->metric))
			r->family = false;
	for (size_t i = 0; i < d->nr_rows; i++)
		if (r->family ? !fnmatch(r->metric, d->rows[i].name, 0) : !strcmp(d->rows[i].name, r->metric))
			members[nr++] = i;
	if (!nr && r->family) {
		snprintf(err, errlen, "--fail-on '%s': no metric of the runs matches '%s' (a comm's "
			 "p99 is there when every run has the comm)", r->text, r->metric);
		free(members);
		return -1;
	}
	if (!nr) {
		/* only a per-comm metric can be missing: every report has the rest */
		for (size_t s = 0; s < d->nr_sides && !missing; s++)
			side_has(&d->sides[s], r->metric, &missing);
		char dym[300];

		snprintf(err, errlen, "--fail-on '%s': no task named '%.*s' with wakeup-latency "
			 "samples in %s%s", r->text,
			 (int)(strlen(r->metric) - strlen(SL_METRIC_COMM_PREFIX) -
			       strlen(SL_METRIC_COMM_SUFFIX)),
			 r->metric + strlen(SL_METRIC_COMM_PREFIX), missing ? missing : "every run",
			 did_you_mean(dym, sizeof(dym), closest_row(d, r->metric)));
		free(members);
		return -1;
	}
	d->rules = xrealloc(d->rules, (d->nr_rules + 1) * sizeof(*d->rules));
	dr = &d->rules[d->nr_rules++];
	memset(dr, 0, sizeof(*dr));
	dr->rule = *r;
	memset(r, 0, sizeof(*r));
	dr->row = members[0];
	dr->members = members;
	dr->nr_members = nr;
	dr->results = xcalloc(d->nr_sides, sizeof(*dr->results));
	dr->member_results = xcalloc(nr * d->nr_sides, sizeof(*dr->member_results));
	for (size_t m = 0; m < nr; m++)
		eval_on_row(d, &dr->rule, &d->rows[members[m]], &dr->member_results[m * d->nr_sides]);
	for (size_t s = 1; s < d->nr_sides; s++) {
		if (dr->rule.family)
			family_result(d, dr, s, &dr->results[s]);
		else
			dr->results[s] = dr->member_results[s];
		d->nr_checks++;
		if (sl_verdict_failed((int)dr->results[s].verdict))
			d->nr_failed++;
	}
	return 0;
}

static void verdict_line(const struct sl_diff *d, char *buf, size_t len);

bool sl_diff_significant(const struct sl_diff *d, const struct sl_diff_cell *c)
{
	return c->compared && c->tested && c->p < 1 - d->opts.confidence;
}

void sl_diff_uncovered(const struct sl_diff *d, struct sl_diff_uncovered *u)
{
	memset(u, 0, sizeof(*u));
	for (size_t i = 0; i < d->nr_rows; i++) {
		const struct sl_diff_row *row = &d->rows[i];

		for (size_t s = 1; s < d->nr_sides && !row->covered; s++) {
			const struct sl_diff_cell *c = &row->cells[s];
			int dir = c->delta > 0 ? 1 : c->delta < 0 ? -1 : 0;

			if (!sl_diff_significant(d, c))
				continue;
			if (!row->worse || !dir)
				u->other++;
			else if (dir == row->worse)
				u->worse++;
			else
				u->better++;
		}
	}
}

/* "; not covered by a rule, significant: 3 regressions, 1 improvement, 2 changes of no direction" */
static void summary_uncovered(const struct sl_diff *d, char *buf, size_t len)
{
	struct sl_diff_uncovered u;
	const char *sep = "; not covered by a rule, significant:";
	size_t used = 0;

	buf[0] = 0;
	sl_diff_uncovered(d, &u);
	if (u.worse && used < len) {
		used += (size_t)snprintf(buf + used, len - used, "%s %zu regression%s", sep, u.worse,
					 u.worse == 1 ? "" : "s");
		sep = ",";
	}
	if (u.better && used < len) {
		used += (size_t)snprintf(buf + used, len - used, "%s %zu improvement%s", sep, u.better,
					 u.better == 1 ? "" : "s");
		sep = ",";
	}
	if (u.other && used < len)
		snprintf(buf + used, len - used, "%s %zu change%s of no direction", sep, u.other,
			 u.other == 1 ? "" : "s");
}

void sl_diff_summary(const struct sl_diff *d, char *buf, size_t len)
{
	char extra[200];
	size_t used;

	verdict_line(d, buf, len);
	summary_uncovered(d, extra, sizeof(extra));
	used = strlen(buf);
	if (used < len)
		snprintf(buf + used, len - used, "%s", extra);
}

static void verdict_line(const struct sl_diff *d, char *buf, size_t len)
{
	size_t noise = 0, skip = 0, unmeasured = 0;
	const char *what = d->nr_sides > 2 ? " checks" : " rules";

	for (size_t i = 0; i < d->nr_rules; i++) {
		for (size_t s = 1; s < d->nr_sides; s++) {
			noise += d->rules[i].results[s].verdict == SL_VERDICT_NOISE;
			skip += d->rules[i].results[s].verdict == SL_VERDICT_SKIP;
			unmeasured += d->rules[i].results[s].verdict == SL_VERDICT_UNMEASURED;
		}
	}
	if (d->nr_checks == 1)
		what = d->nr_sides > 2 ? " check" : " rule";
	if (!d->nr_rules)
		snprintf(buf, len, "--fail-on none: nothing can fail");
	else if (d->nr_failed)
		snprintf(buf, len, "%zu of %zu%s failed%s", d->nr_failed, d->nr_checks, what,
			 unmeasured ? " (some not measured)" : "");
	else
		snprintf(buf, len, "%s%zu%s passed%s%s%s%s%s", d->nr_checks == 1 ? "" : "all ",
			 d->nr_checks, what, noise || skip ? " (" : "",
			 noise ? "some changes within the noise" : "",
			 noise && skip ? ", " : "", skip ? "some not measured, allowed" : "",
			 noise || skip ? ")" : "");
}

void sl_diff_note(struct sl_diff *d, const char *fmt, ...)
{
	va_list ap;
	char buf[1024];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < d->nr_notes; i++)
		if (!strcmp(d->notes[i], buf))
			return;
	d->notes = xrealloc(d->notes, (d->nr_notes + 1) * sizeof(*d->notes));
	d->notes[d->nr_notes++] = xstrdup(buf);
}

static void free_side(struct sl_diff_side *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		free(s->runs[i].path);
		sl_metrics_free(&s->runs[i].metrics);
	}
	free(s->runs);
	free(s->name);
}

void sl_diff_free(struct sl_diff *d)
{
	for (size_t s = 0; s < d->nr_sides; s++)
		free_side(&d->sides[s]);
	free(d->sides);
	for (size_t i = 0; i < d->nr_rows; i++) {
		struct sl_diff_row *row = &d->rows[i];

		for (size_t s = 0; s < d->nr_sides; s++) {
			free(row->cells[s].values);
			free(row->cells[s].valid);
		}
		free(row->cells);
		free(row->name);
	}
	free(d->rows);
	for (size_t i = 0; i < d->nr_rules; i++) {
		sl_rule_free(&d->rules[i].rule);
		free(d->rules[i].results);
		free(d->rules[i].members);
		free(d->rules[i].member_results);
	}
	free(d->rules);
	for (size_t i = 0; i < d->nr_notes; i++)
		free(d->notes[i]);
	free(d->notes);
	memset(d, 0, sizeof(*d));
}
