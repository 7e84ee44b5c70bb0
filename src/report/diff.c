// SPDX-License-Identifier: GPL-2.0
/*
 * diff.c - line up the runs' metrics and evaluate the rules
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "util/util.h"

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

static void fill_side(const struct sl_diff_side *s, const char *name, double **values,
		      bool **valid, struct sl_range *range, double *samples)
{
	*values = xcalloc(s->nr, sizeof(**values));
	*valid = xcalloc(s->nr, sizeof(**valid));
	*samples = 0;
	for (size_t i = 0; i < s->nr; i++) {
		const struct sl_metric_value *v = sl_metrics_get(&s->runs[i].metrics, name);

		(*values)[i] = v->value;
		(*valid)[i] = v->valid;
		*samples += v->samples;
	}
	sl_range_of(range, *values, *valid, s->nr);
}

static struct sl_diff_row *add_row(struct sl_diff *d, const struct sl_metric_value *mv)
{
	struct sl_diff_row *row;
	double base_samples, new_samples;

	d->rows = xrealloc(d->rows, (d->nr_rows + 1) * sizeof(*d->rows));
	row = &d->rows[d->nr_rows++];
	memset(row, 0, sizeof(*row));
	row->name = xstrdup(mv->name);
	row->unit = mv->unit;
	row->comm = sl_metric_is_comm(mv->name);
	row->shown = true;
	row->verdict = -1;
	fill_side(&d->base, mv->name, &row->base_values, &row->base_valid, &row->base, &base_samples);
	fill_side(&d->new, mv->name, &row->new_values, &row->new_valid, &row->new, &new_samples);
	row->rank = base_samples / (double)d->base.nr;
	row->compared = row->base.valid && row->new.valid;
	if (row->compared) {
		row->delta = row->new.median - row->base.median;
		row->pct = sl_pct_change(row->base.median, row->new.median);
	}
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

void sl_diff_build(struct sl_diff *d, int top_comms)
{
	const struct sl_metrics *first = &d->base.runs[0].metrics;
	size_t first_comm;

	d->multi = d->base.nr > 1 || d->new.nr > 1;
	/* every report has the fixed metrics, in the same order */
	for (size_t i = 0; i < first->nr_static; i++)
		add_row(d, &first->v[i]);
	first_comm = d->nr_rows;
	for (size_t i = first->nr_static; i < first->nr; i++)
		if (side_has(&d->base, first->v[i].name, NULL) &&
		    side_has(&d->new, first->v[i].name, NULL))
			add_row(d, &first->v[i]);
	/* the busiest comms first: a p99 of three samples says little */
	qsort(d->rows + first_comm, d->nr_rows - first_comm, sizeof(*d->rows), by_rank);
	for (size_t i = first_comm; i < d->nr_rows; i++) {
		if (top_comms >= 0 && i - first_comm >= (size_t)top_comms) {
			d->rows[i].shown = false;
			d->comms_hidden++;
		}
	}

	/* the same settings on both sides, or counts of findings do not compare */
	for (int s = 0; s < 2; s++) {
		const struct sl_diff_side *side = s ? &d->new : &d->base;

		for (size_t i = 0; i < side->nr; i++) {
			char what[512];

			if (settings_differ(d->base.runs[0].metrics.settings,
					    side->runs[i].metrics.settings, what, sizeof(what)))
				sl_diff_note(d, "%s was analyzed with other settings than %s (%s): "
					     "finding counts may not compare", side->runs[i].path,
					     d->base.runs[0].path, what);
		}
	}
}

static int verdict_rank(int v)
{
	switch (v) {
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

int sl_diff_add_rule(struct sl_diff *d, struct sl_rule *r, char *err, size_t errlen)
{
	struct sl_diff_rule *dr;
	struct sl_diff_row *row = NULL;
	const char *missing = NULL;

	for (size_t i = 0; i < d->nr_rows; i++)
		if (!strcmp(d->rows[i].name, r->metric))
			row = &d->rows[i];
	if (!row) {
		/* only a per-comm metric can be missing: every report has the rest */
		if (side_has(&d->base, r->metric, &missing))
			side_has(&d->new, r->metric, &missing);
		snprintf(err, errlen, "--fail-on '%s': no task named '%.*s' with wakeup-latency "
			 "samples in %s", r->text,
			 (int)(strlen(r->metric) - strlen(SL_METRIC_COMM_PREFIX) -
			       strlen(SL_METRIC_COMM_SUFFIX)),
			 r->metric + strlen(SL_METRIC_COMM_PREFIX), missing ? missing : "every run");
		return -1;
	}
	d->rules = xrealloc(d->rules, (d->nr_rules + 1) * sizeof(*d->rules));
	dr = &d->rules[d->nr_rules++];
	dr->rule = *r;
	memset(r, 0, sizeof(*r));
	dr->row = (size_t)(row - d->rows);
	sl_rule_eval(&dr->rule, &row->base, &row->new, d->multi, &dr->result);
	if (dr->result.verdict == SL_VERDICT_FAIL)
		d->nr_failed++;
	if (verdict_rank((int)dr->result.verdict) > verdict_rank(row->verdict))
		row->verdict = (int)dr->result.verdict;
	row->shown = true;	/* a comm a rule names is always in the table */
	return 0;
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
	s->runs = NULL;
	s->nr = 0;
}

void sl_diff_free(struct sl_diff *d)
{
	free_side(&d->base);
	free_side(&d->new);
	for (size_t i = 0; i < d->nr_rows; i++) {
		struct sl_diff_row *row = &d->rows[i];

		free(row->name);
		free(row->base_values);
		free(row->new_values);
		free(row->base_valid);
		free(row->new_valid);
	}
	free(d->rows);
	for (size_t i = 0; i < d->nr_rules; i++)
		sl_rule_free(&d->rules[i].rule);
	free(d->rules);
	for (size_t i = 0; i < d->nr_notes; i++)
		free(d->notes[i]);
	free(d->notes);
	memset(d, 0, sizeof(*d));
}
