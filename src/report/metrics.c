// SPDX-License-Identifier: GPL-2.0
/*
 * metrics.c - the metric list and its extraction from a report object
 *
 * One table (built once from the percentile and finding-kind lists, so a
 * new kind is a new metric without touching this file) drives extraction,
 * name checking and --list-metrics.
 */
#include <cJSON.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "schedlint/findings.h"
#include "schedlint/hist.h"
#include "util/util.h"

enum metric_src {
	SRC_LATENCY,		/* wakeup_latency.<field>; needs samples, but count */
	SRC_REMOTE_SHARE,	/* wakeup_latency.remote.count / count */
	SRC_SUMMARY,		/* summary.<kind>.<field> */
	SRC_SUMMARY_RATE,	/* summary.<kind>.<field>, per second */
	SRC_SYNC_SHARE,		/* sync-wake-<field>.count / (local + remote) */
	SRC_RATE_SWITCHES,	/* sum of cpus[].switches + implied_switches, per second */
	SRC_RATE_MIGRATIONS,	/* sum of tasks[].migrations, per second */
	SRC_RATE_IPIS,		/* ipi.sent, per second */
	SRC_ACCOUNTING,		/* accounting.<hist>.<field>; absent in older reports: invalid */
	SRC_RATE_MOVES,		/* accounting.cpu_moves, per second */
	SRC_PATH,		/* the number at a dotted path; absent (an older report): no value */
	SRC_WHATIF,		/* whatif.kinds.<kind> (or whatif.all): if_fixed.<field> or <field> */
};

struct metric_def {
	char name[64];
	enum sl_metric_unit unit;
	enum metric_src src;
	const char *field;	/* the JSON field it comes from */
	const char *hist;	/* SRC_ACCOUNTING: the histogram under accounting */
	int kind;		/* SRC_SUMMARY, SRC_WHATIF: enum sl_kind (SRC_WHATIF: -1 all) */
	int worse;		/* sl_metric_worse() */
	char what[128];
};

#define MAX_DEFS (64 + 5 * SL_KIND__COUNT + 3 * (SL_KIND__COUNT + 1))
static struct metric_def defs[MAX_DEFS];
static size_t nr_defs;

static struct metric_def *add_def(const char *name, enum sl_metric_unit unit,
				  enum metric_src src, const char *field, const char *what)
{
	struct metric_def *d;

	if (nr_defs >= MAX_DEFS) {	/* a programming error: MAX_DEFS too small */
		fputs("schedlint: metrics: MAX_DEFS too small\n", stderr);
		abort();
	}
	d = &defs[nr_defs++];

	snprintf(d->name, sizeof(d->name), "%s", name);
	d->unit = unit;
	d->src = src;
	d->field = field;
	snprintf(d->what, sizeof(d->what), "%s", what);
	return d;
}

static int def_worse(const struct metric_def *d);

static void build_defs(void)
{
	char name[64], what[128];

	if (nr_defs)
		return;
	add_def("wakeup.count", SL_UNIT_COUNT, SRC_LATENCY, "count",
		"wakeup-latency samples (wakeups of blocked tasks that ran)");
	add_def("wakeup.mean", SL_UNIT_NS, SRC_LATENCY, "mean_ns", "mean wakeup latency");
	for (int i = 0; i < SL_NR_PCTS; i++) {
		/* "p99_9_ns" -> "wakeup.p99_9" */
		snprintf(name, sizeof(name), "wakeup.%.*s", (int)strlen(sl_pct_json[i]) - 3,
			 sl_pct_json[i]);
		snprintf(what, sizeof(what), "wakeup latency %s (nearest rank)", sl_pct_names[i]);
		add_def(name, SL_UNIT_NS, SRC_LATENCY, sl_pct_json[i], what);
	}
	add_def("wakeup.max", SL_UNIT_NS, SRC_LATENCY, "max_ns", "longest wakeup latency");
	add_def("wakeup.remote_share", SL_UNIT_PERCENT, SRC_REMOTE_SHARE, "remote",
		"% of wakeup-latency samples that ran on another CPU than the waker's");
	add_def("wakeup.inferred", SL_UNIT_COUNT, SRC_PATH, "wakeup_latency.inferred",
		"wakeup-latency samples ending at an inferred switch (lower bounds)");
	for (int k = 0; k < SL_KIND__COUNT; k++) {
		struct metric_def *d;
		const char *what_kind = sl_kinds[k].listed ? "findings" : "occurrences";

		snprintf(name, sizeof(name), "%s.count", sl_kinds[k].name);
		snprintf(what, sizeof(what), "%s %s", sl_kinds[k].name, what_kind);
		d = add_def(name, SL_UNIT_COUNT, SRC_SUMMARY, "count", what);
		d->kind = k;
		snprintf(name, sizeof(name), "%s.cost", sl_kinds[k].name);
		snprintf(what, sizeof(what), "total cost of the %s %s", sl_kinds[k].name, what_kind);
		d = add_def(name, SL_UNIT_NS, SRC_SUMMARY, "cost_ns", what);
		d->kind = k;
		snprintf(name, sizeof(name), "%s.max_cost", sl_kinds[k].name);
		snprintf(what, sizeof(what), "cost of the worst %s", sl_kinds[k].name);
		d = add_def(name, SL_UNIT_NS, SRC_SUMMARY, "max_cost_ns", what);
		d->kind = k;
		/* per unit of work: a longer run has more of everything */
		snprintf(name, sizeof(name), "%s.per_s", sl_kinds[k].name);
		snprintf(what, sizeof(what), "%s %s per second", sl_kinds[k].name, what_kind);
		d = add_def(name, SL_UNIT_PER_S, SRC_SUMMARY_RATE, "count", what);
		d->kind = k;
		snprintf(name, sizeof(name), "%s.cost_per_s", sl_kinds[k].name);
		snprintf(what, sizeof(what), "cost of the %s %s per second", sl_kinds[k].name,
			 what_kind);
		d = add_def(name, SL_UNIT_NS_PER_S, SRC_SUMMARY_RATE, "cost_ns", what);
		d->kind = k;
	}
	add_def("sync-wake.local_share", SL_UNIT_PERCENT, SRC_SYNC_SHARE, "local",
		"% of synchronous wakeups kept on the waker's CPU");
	add_def("sync-wake.remote_share", SL_UNIT_PERCENT, SRC_SYNC_SHARE, "remote",
		"% of synchronous wakeups placed on another CPU");
	add_def("switches.per_s", SL_UNIT_PER_S, SRC_RATE_SWITCHES, "switches",
		"context switches per second (traced and inferred)");
	add_def("migrations.per_s", SL_UNIT_PER_S, SRC_RATE_MIGRATIONS, "migrations",
		"task migrations (sched_migrate_task) per second");
	add_def("ipis.per_s", SL_UNIT_PER_S, SRC_RATE_IPIS, "sent", "IPIs sent per second");
	static const struct { const char *name, *hist, *field, *what; } acct[] = {
		{ "run.p50", "run_length", "p50_ns", "run length p50 (switch-in to switch-out)" },
		{ "run.p99", "run_length", "p99_ns", "run length p99 (switch-in to switch-out)" },
		{ "run.max", "run_length", "max_ns", "longest run (switch-in to switch-out)" },
		{ "idle.p50", "idle_period", "p50_ns", "idle period p50 (a run of the idle task)" },
		{ "idle.p99", "idle_period", "p99_ns", "idle period p99 (a run of the idle task)" },
		{ "idle.max", "idle_period", "max_ns", "longest idle period" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(acct); i++)
		add_def(acct[i].name, SL_UNIT_NS, SRC_ACCOUNTING, acct[i].field,
			acct[i].what)->hist = acct[i].hist;
	add_def("cpu_moves.per_s", SL_UNIT_PER_S, SRC_RATE_MOVES, "cpu_moves",
		"runs on another CPU than the task's run before, per second");
	add_def("idle-time.total", SL_UNIT_NS, SRC_PATH, "idle_time.total_ns",
		"idle CPU time while a migratable task waited in the LLC, each idle period once");
	add_def("idle-time.gaps", SL_UNIT_COUNT, SRC_PATH, "idle_time.gaps",
		"idle periods with such time (the gaps of idle-time.total)");
	add_def("late-preemption.tick", SL_UNIT_COUNT, SRC_PATH, "late_preemption.tick_classes.tick",
		"late runs switched at the first tick after the expected switch");
	add_def("late-preemption.late_tick", SL_UNIT_COUNT, SRC_PATH,
		"late_preemption.tick_classes.late-tick",
		"late runs through more ticks without a switch");
	add_def("contended-run.p50", SL_UNIT_NS, SRC_PATH, "late_preemption.contended_run.p50_ns",
		"median run of a fair task while another waited on its CPU");
	add_def("contended-run.p99", SL_UNIT_NS, SRC_PATH, "late_preemption.contended_run.p99_ns",
		"p99 of the contended runs");
	add_def("preempted-wait.p50", SL_UNIT_NS, SRC_PATH,
		"late_preemption.wait_after_preemption.p50_ns",
		"median wait of a preempted fair task until it ran again");
	add_def("preempted-wait.p99", SL_UNIT_NS, SRC_PATH,
		"late_preemption.wait_after_preemption.p99_ns", "p99 of the waits after a preemption");
	/* issue 29: the other waits, and the wakeup latency by class */
	add_def("fork.p50", SL_UNIT_NS, SRC_PATH, "fork_delay.p50_ns",
		"median delay of a new task from sched_wakeup_new to its first run");
	add_def("fork.p99", SL_UNIT_NS, SRC_PATH, "fork_delay.p99_ns", "p99 of the fork delays");
	add_def("fork.max", SL_UNIT_NS, SRC_PATH, "fork_delay.max_ns", "longest fork delay");
	add_def("wait.max", SL_UNIT_NS, SRC_PATH, "runnable_wait.max.wait_ns",
		"longest runnable wait of any kind (perf sched latency's max delay)");
	/* the JSON's latency_by_class (analyze's sched_class.c names them) */
	static const struct { const char *name, *path, *what; } cls[] = {
		{ "wakeup.rt.p99", "latency_by_class.rt.p99_ns", "real-time" },
		{ "wakeup.fair.p99", "latency_by_class.fair.p99_ns", "fair" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cls); i++) {
		snprintf(what, sizeof(what), "wakeup latency p99 of the %s tasks (class from the prio)",
			 cls[i].what);
		add_def(cls[i].name, SL_UNIT_NS, SRC_PATH, cls[i].path, what);
	}
	/* the what-if (man schedlint-analyze, WHAT IF): per listed kind, and all together */
	for (int k = -1; k < SL_KIND__COUNT; k++) {
		static const char *const fields[] = { "p50_ns", "p99_ns", "wait_saved_ns" };
		const char *kind = k < 0 ? "all" : sl_kinds[k].name;
		char whose[64];

		/* late-preemption-at-tick's row: what HRTICK would have saved */
		if (k >= 0 && !sl_kinds[k].listed)
			continue;
		snprintf(whose, sizeof(whose), k < 0 ? "every finding" : "the %s findings",
			 k < 0 ? "" : sl_kinds[k].name);
		for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
			struct metric_def *d;

			snprintf(name, sizeof(name), "whatif.%s.%s", kind,
				 i == 0 ? "p50" : i == 1 ? "p99" : "saved");
			if (i < 2)
				snprintf(what, sizeof(what), "wakeup latency %s with %s fixed "
					 "(estimated)", i == 0 ? "p50" : "p99", whose);
			else
				snprintf(what, sizeof(what), "wait %s cost (estimated)", whose);
			d = add_def(name, SL_UNIT_NS, SRC_WHATIF, fields[i], what);
			d->kind = k;
		}
	}
	for (size_t i = 0; i < nr_defs; i++)
		defs[i].worse = def_worse(&defs[i]);
}

/* Which way each metric gets worse (sl_metric_worse()), by its name. */
static int def_worse(const struct metric_def *d)
{
	static const char *const higher[] = {
		"wakeup.mean", "wakeup.p*", "wakeup.max", "sync-wake.remote_share",
		"idle-time.*", "late-preemption.tick", "late-preemption.late_tick",
		"contended-run.*", "preempted-wait.*",
	};
	static const char *const lower[] = { "sync-wake.local_share", "switches.per_s" };

	/* a finding kind's count and cost: a bad decision more often, or dearer */
	if (d->src == SRC_SUMMARY || d->src == SRC_SUMMARY_RATE)
		return sl_kinds[d->kind].listed ? 1 : 0;
	for (size_t i = 0; i < ARRAY_SIZE(higher); i++)
		if (!fnmatch(higher[i], d->name, 0))
			return 1;
	for (size_t i = 0; i < ARRAY_SIZE(lower); i++)
		if (!fnmatch(lower[i], d->name, 0))
			return -1;
	return 0;
}

/* --- reading the report --- */

struct extract {
	const cJSON *root;
	char *err;
	size_t errlen;
};

/* Integers are written as raw digits (sl_json_add_u64): both kinds count. */
static bool json_number(const cJSON *item, double *out)
{
	char *end;

	if (cJSON_IsNumber(item)) {
		*out = item->valuedouble;
		return true;
	}
	if (cJSON_IsRaw(item) && item->valuestring) {
		*out = strtod(item->valuestring, &end);
		return end != item->valuestring && !*end;
	}
	return false;
}

static const cJSON *member(const cJSON *obj, const char *name)
{
	return cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, name) : NULL;
}

/*
 * A required number at obj.name; the error names path.  Every number the
 * metrics read is a count or a time: a negative one, or one beyond 2^64
 * (what a u64 field can hold), comes from a hand-edited file, and would
 * pass or fail a gate for no reason.
 */
static int need_number(struct extract *x, const cJSON *obj, const char *path,
		       const char *name, double *out)
{
	if (!json_number(member(obj, name), out)) {
		snprintf(x->err, x->errlen, "a schedlint.report/1 without the number %s%s%s",
			 path, *path ? "." : "", name);
		return -1;
	}
	if (!isfinite(*out) || *out < 0 || *out > 18446744073709551616.0) {
		snprintf(x->err, x->errlen, "a schedlint.report/1 with %s%s%s = %.6g: %s", path,
			 *path ? "." : "", name, *out,
			 *out < 0 ? "counts and times are never negative" :
			 "beyond what any trace gives (2^64)");
		return -1;
	}
	return 0;
}

static const cJSON *need_object(struct extract *x, const cJSON *obj, const char *path,
				const char *name)
{
	const cJSON *o = member(obj, name);

	if (cJSON_IsObject(o))
		return o;
	snprintf(x->err, x->errlen, "a schedlint.report/1 without the object %s%s%s",
		 path, *path ? "." : "", name);
	return NULL;
}

static const cJSON *need_array(struct extract *x, const cJSON *obj, const char *name)
{
	const cJSON *a = member(obj, name);

	if (cJSON_IsArray(a))
		return a;
	snprintf(x->err, x->errlen, "a schedlint.report/1 without the array %s", name);
	return NULL;
}

static int sum_field(struct extract *x, const char *array, const char *field,
		     bool required, double *sum)
{
	const cJSON *arr = need_array(x, x->root, array), *item;
	char path[64];
	double v;

	if (!arr)
		return -1;
	snprintf(path, sizeof(path), "%s[]", array);
	cJSON_ArrayForEach(item, arr) {
		if (!required && !member(item, field))
			continue;
		if (need_number(x, item, path, field, &v))
			return -1;
		*sum += v;
	}
	return 0;
}

/* The analyzed time in seconds: the trace span, within --from/--to. */
static int window_s(struct extract *x, double *secs)
{
	const cJSON *trace = need_object(x, x->root, "", "trace");
	const cJSON *config = member(x->root, "config");
	double duration, first, last, from, to;
	bool have_from, have_to;

	if (!trace || need_number(x, trace, "trace", "duration_ns", &duration))
		return -1;
	have_from = member(config, "from_ns") &&
		    !cJSON_IsNull(member(config, "from_ns"));
	have_to = member(config, "to_ns") && !cJSON_IsNull(member(config, "to_ns"));
	if ((have_from && need_number(x, config, "config", "from_ns", &from)) ||
	    (have_to && need_number(x, config, "config", "to_ns", &to)))
		return -1;
	if (have_from || have_to) {
		if (need_number(x, trace, "trace", "first_ns", &first) ||
		    need_number(x, trace, "trace", "last_ns", &last))
			return -1;
		if (have_from && from > first)
			first = from;
		if (have_to && to < last)
			last = to;
		duration = last > first ? last - first : 0;
	}
	*secs = duration / 1e9;
	return 0;
}

unsigned long sl_metrics_compares;

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void index_insert(struct sl_metrics *ms, size_t i)
{
	size_t mask = ms->index_slots - 1, slot = name_hash(ms->v[i].name) & mask;

	while (ms->index[slot])
		slot = (slot + 1) & mask;
	ms->index[slot] = (uint32_t)i + 1;
}

/* Keep the index at most half full. */
static void index_grow(struct sl_metrics *ms)
{
	if (2 * ms->nr <= ms->index_slots)
		return;
	free(ms->index);
	ms->index_slots = ms->index_slots ? 2 * ms->index_slots : 64;
	ms->index = xcalloc(ms->index_slots, sizeof(*ms->index));
	for (size_t i = 0; i < ms->nr; i++)
		index_insert(ms, i);
}

static struct sl_metric_value *push(struct sl_metrics *ms, const char *name,
				    enum sl_metric_unit unit, const char *unmeasured, double value)
{
	struct sl_metric_value *v;

	GROW(ms->v, ms->alloc, ms->nr + 1);
	v = &ms->v[ms->nr++];
	v->name = xstrdup(name);
	v->unit = unit;
	v->valid = !unmeasured && isfinite(value);
	v->value = v->valid ? value : 0;
	v->samples = 0;
	v->unmeasured = v->valid ? NULL : unmeasured ? unmeasured : "not a finite number";
	index_grow(ms);
	index_insert(ms, ms->nr - 1);
	return v;
}

static int extract_def(struct extract *x, const struct metric_def *d, struct sl_metrics *ms)
{
	const cJSON *lat, *summary, *ko, *ipi;
	double count, a, b, secs, sum = 0;
	const char *unmeasured = NULL;
	bool absent = false;
	double value = 0;

	switch (d->src) {
	case SRC_LATENCY:
		lat = need_object(x, x->root, "", "wakeup_latency");
		if (!lat || need_number(x, lat, "wakeup_latency", "count", &count) ||
		    need_number(x, lat, "wakeup_latency", d->field, &value))
			return -1;
		/* an empty histogram has no percentiles (the report writes 0) */
		if (strcmp(d->field, "count") && !count)
			unmeasured = "no wakeup-latency samples";
		break;
	case SRC_REMOTE_SHARE:
		lat = need_object(x, x->root, "", "wakeup_latency");
		if (!lat || need_number(x, lat, "wakeup_latency", "count", &count))
			return -1;
		ko = need_object(x, lat, "wakeup_latency", "remote");
		if (!ko || need_number(x, ko, "wakeup_latency.remote", "count", &a))
			return -1;
		if (!count)
			unmeasured = "no wakeup-latency samples";
		else
			value = 100.0 * a / count;
		break;
	case SRC_SUMMARY:
	case SRC_SUMMARY_RATE:
		summary = need_object(x, x->root, "", "summary");
		if (!summary)
			return -1;
		if (d->kind == SL_KIND_LATE_PREEMPTION_AT_TICK &&
		    !member(summary, sl_kinds[d->kind].name)) {
			/* issue 29 split it from late-preemption: a report from before has none */
			unmeasured = "not in the report (made before late-preemption-at-tick was split out)";
			absent = true;
			break;
		}
		ko = need_object(x, summary, "summary", sl_kinds[d->kind].name);
		if (!ko)
			return -1;
		{
			char path[64];

			snprintf(path, sizeof(path), "summary.%s", sl_kinds[d->kind].name);
			if (need_number(x, ko, path, d->field, &value))
				return -1;
		}
		if (d->src == SRC_SUMMARY_RATE) {
			if (window_s(x, &secs))
				return -1;
			if (secs > 0)
				value /= secs;
			else
				unmeasured = "no analyzed time (an empty window)";
		}
		break;
	case SRC_SYNC_SHARE:
		summary = need_object(x, x->root, "", "summary");
		if (!summary)
			return -1;
		ko = need_object(x, summary, "summary", "sync-wake-local");
		if (!ko || need_number(x, ko, "summary.sync-wake-local", "count", &a))
			return -1;
		ko = need_object(x, summary, "summary", "sync-wake-remote");
		if (!ko || need_number(x, ko, "summary.sync-wake-remote", "count", &b))
			return -1;
		if (a + b > 0)
			value = 100.0 * (!strcmp(d->field, "local") ? a : b) / (a + b);
		else
			unmeasured = "no synchronous wakeups";
		break;
	case SRC_ACCOUNTING: {
		/* added in issue 24: a report from before has none, and is not wrong */
		const cJSON *acct = member(x->root, "accounting"), *h;
		char path[64];

		if (!acct) {
			unmeasured = "a report without run/idle accounting (older schedlint)";
			absent = true;
			break;
		}
		snprintf(path, sizeof(path), "accounting.%s", d->hist);
		h = need_object(x, acct, "accounting", d->hist);
		if (!h || need_number(x, h, path, "count", &count) ||
		    need_number(x, h, path, d->field, &value))
			return -1;
		if (!count)
			unmeasured = !strcmp(d->hist, "run_length") ? "no runs measured" :
				     "no idle periods measured";
		break;
	}
	case SRC_RATE_MOVES: {
		const cJSON *acct = member(x->root, "accounting");

		if (!acct) {
			unmeasured = "a report without run/idle accounting (older schedlint)";
			absent = true;
			break;
		}
		if (window_s(x, &secs) || need_number(x, acct, "accounting", "cpu_moves", &sum))
			return -1;
		if (secs > 0)
			value = sum / secs;
		else
			unmeasured = "no analyzed time (an empty window)";
		break;
	}
	case SRC_PATH: {
		const cJSON *o = x->root, *parent = NULL;
		char path[96], *save = NULL, *k;

		snprintf(path, sizeof(path), "%s", d->field);
		for (k = strtok_r(path, ".", &save); k && o; k = strtok_r(NULL, ".", &save)) {
			parent = o;
			o = member(o, k);
		}
		if (!json_number(o, &value)) {
			unmeasured = "not in this report (made by an older schedlint)";
			absent = true;
		} else if (json_number(member(parent, "count"), &count) && !count &&
			 strcmp(d->field + strlen(d->field) - 6, ".count"))
			unmeasured = "no samples";	/* an empty histogram's percentiles */
		break;
	}
	case SRC_RATE_SWITCHES:
	case SRC_RATE_MIGRATIONS:
	case SRC_RATE_IPIS:
		if (window_s(x, &secs))
			return -1;
		if (d->src == SRC_RATE_SWITCHES) {
			if (sum_field(x, "cpus", "switches", true, &sum) ||
			    sum_field(x, "cpus", "implied_switches", false, &sum))
				return -1;
		} else if (d->src == SRC_RATE_MIGRATIONS) {
			const cJSON *folded = member(member(x->root, "tasks_folded"), "by_comm"), *c;
			double v;

			if (sum_field(x, "tasks", "migrations", true, &sum))
				return -1;
			/* and the dead tasks folded past --keep-tasks, summed by comm */
			if (!cJSON_IsArray(folded))
				folded = NULL;
			cJSON_ArrayForEach(c, folded)
				if (json_number(member(c, "migrations"), &v))
					sum += v;
		} else {
			ipi = need_object(x, x->root, "", "ipi");
			if (!ipi || need_number(x, ipi, "ipi", "sent", &sum))
				return -1;
		}
		if (secs > 0)
			value = sum / secs;
		else
			unmeasured = "no analyzed time (an empty window)";
		break;
	case SRC_WHATIF: {
		/* optional: reports made before the what-if have none */
		const cJSON *w = member(x->root, "whatif"), *ko, *from;
		bool saved = !strcmp(d->field, "wait_saved_ns");

		ko = d->kind < 0 ? member(w, "all") : member(member(w, "kinds"), sl_kinds[d->kind].name);
		from = saved ? ko : member(ko, "if_fixed");
		if (!json_number(member(from, d->field), &value)) {
			unmeasured = "no what-if in the report (made before schedlint had one)";
			absent = true;
		} else if (!saved && (!json_number(member(from, "count"), &count) || !count))
			unmeasured = "no wakeup-latency samples";
		break;
	}
	}
	push(ms, d->name, d->unit, unmeasured, value)->absent = absent;
	return 0;
}

/* Per-comm p99, for the comms with wakeup-latency samples (optional in a report). */
static int extract_comms(struct extract *x, struct sl_metrics *ms)
{
	const cJSON *comms = member(x->root, "comms"), *item;
	char name[256];

	if (!comms)
		return 0;
	if (!cJSON_IsArray(comms)) {
		snprintf(x->err, x->errlen, "a schedlint.report/1 whose comms is not an array");
		return -1;
	}
	cJSON_ArrayForEach(item, comms) {
		const cJSON *comm = member(item, "comm");
		const cJSON *lat = member(item, "wakeup_latency");
		double count, p99;

		if (!cJSON_IsString(comm) || need_number(x, lat, "comms[].wakeup_latency", "count", &count) ||
		    need_number(x, lat, "comms[].wakeup_latency", "p99_ns", &p99)) {
			if (!cJSON_IsString(comm))
				snprintf(x->err, x->errlen, "a schedlint.report/1 with a comms[] entry without comm");
			return -1;
		}
		if (count <= 0)
			continue;
		snprintf(name, sizeof(name), SL_METRIC_COMM_PREFIX "%s" SL_METRIC_COMM_SUFFIX,
			 comm->valuestring);
		if (!sl_metrics_get(ms, name))
			push(ms, name, SL_UNIT_NS, NULL, p99)->samples = count;
	}
	return 0;
}

static char *settings_line(const cJSON *root)
{
	static const char *const fields[] = {
		"slice_model", "base_slice_ns", "tolerance_ns", "sync_window_ns",
		"min_cost_ns", "idle_threshold_ns", "assume_migratable",
	};
	const cJSON *config = member(root, "config");
	char buf[512];
	size_t len = 0;

	buf[0] = 0;
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		const cJSON *f = member(config, fields[i]);
		char *val;

		if (!f)
			continue;
		val = cJSON_PrintUnformatted(f);
		len += snprintf(buf + len, sizeof(buf) - MIN(len, sizeof(buf)), "%s%s=%s",
				len ? " " : "", fields[i], val ? val : "?");
		free(val);
		if (len >= sizeof(buf))
			break;
	}
	/* the --cpus/--pid/--comm filters, only those given (older reports have none) */
	const cJSON *filters = member(config, "filters");

	for (const cJSON *f = cJSON_IsObject(filters) ? filters->child : NULL; f; f = f->next) {
		char *val;

		if (cJSON_IsNull(f) || len >= sizeof(buf))
			continue;
		val = cJSON_PrintUnformatted(f);
		/* a settings line splits at spaces: a comm's spaces are written as \u0020 */
		len += snprintf(buf + len, sizeof(buf) - MIN(len, sizeof(buf)), "%sfilter_%s=",
				len ? " " : "", f->string);
		for (const char *c = val ? val : "?"; *c && len < sizeof(buf); c++)
			len += snprintf(buf + len, sizeof(buf) - MIN(len, sizeof(buf)),
					*c == ' ' ? "\\u0020" : "%c", *c);
		free(val);
	}
	return xstrdup(buf);
}

int sl_metrics_from_report(const cJSON *root, struct sl_metrics *out, char *err, size_t errlen)
{
	struct extract x = { .root = root, .err = err, .errlen = errlen };
	const cJSON *schema = member(root, "schema");

	memset(out, 0, sizeof(*out));
	build_defs();
	if (!cJSON_IsObject(root)) {
		snprintf(err, errlen, "a JSON value that is not an object, not a schedlint report "
			 "(make one with schedlint analyze --json)");
		return -1;
	}
	if (!cJSON_IsString(schema)) {
		snprintf(err, errlen, "a JSON object without a \"schema\", not a schedlint report "
			 "(make one with schedlint analyze --json)");
		return -1;
	}
	if (strcmp(schema->valuestring, "schedlint.report/1")) {
		snprintf(err, errlen, "a JSON file of schema '%.80s', not a schedlint report "
			 "(schedlint.report/1, made by schedlint analyze --json)", schema->valuestring);
		return -1;
	}
	for (size_t i = 0; i < nr_defs; i++)
		if (extract_def(&x, &defs[i], out))
			goto bad;
	out->nr_static = out->nr;
	if (extract_comms(&x, out))
		goto bad;
	out->settings = settings_line(root);
	out->exclude_inferred = cJSON_IsTrue(member(member(root, "config"), "exclude_inferred"));
	return 0;
bad:
	sl_metrics_free(out);
	return -1;
}

void sl_metrics_free(struct sl_metrics *ms)
{
	for (size_t i = 0; i < ms->nr; i++)
		free(ms->v[i].name);
	free(ms->v);
	free(ms->settings);
	free(ms->index);
	memset(ms, 0, sizeof(*ms));
}

const struct sl_metric_value *sl_metrics_get(const struct sl_metrics *ms, const char *name)
{
	size_t mask = ms->index_slots - 1;

	if (!ms->index_slots)
		return NULL;
	for (size_t slot = name_hash(name) & mask; ms->index[slot]; slot = (slot + 1) & mask) {
		const struct sl_metric_value *v = &ms->v[ms->index[slot] - 1];

		sl_metrics_compares++;
		if (!strcmp(v->name, name))
			return v;
	}
	return NULL;
}

/* --- names --- */

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

int sl_metric_family(const char *pattern, enum sl_metric_unit *unit, bool *mixed,
		     char *err, size_t errlen)
{
	size_t n = 0;

	build_defs();
	*mixed = false;
	for (size_t i = 0; i < nr_defs; i++) {
		if (fnmatch(pattern, defs[i].name, 0))
			continue;
		if (n++ && defs[i].unit != *unit)
			*mixed = true;
		*unit = defs[i].unit;
	}
	/* a per-comm p99 is ns, and which comms there are only the runs say */
	if (!fnmatch(pattern, SL_METRIC_COMM_PREFIX "x" SL_METRIC_COMM_SUFFIX, 0) ||
	    sl_metric_is_comm(pattern)) {
		if (n && *unit != SL_UNIT_NS)
			*mixed = true;
		*unit = SL_UNIT_NS;
		n++;
	}
	if (!n) {
		snprintf(err, errlen, "no metric matches the family '%s' (schedlint diff "
			 "--list-metrics lists them)", pattern);
		return -1;
	}
	return 0;
}

int sl_metric_worse(const char *canonical)
{
	build_defs();
	if (sl_metric_is_comm(canonical))
		return 1;	/* a comm's wakeup-latency p99 */
	for (size_t i = 0; i < nr_defs; i++)
		if (!strcmp(defs[i].name, canonical))
			return defs[i].worse;
	return 0;
}

bool sl_metric_is_comm(const char *canonical)
{
	return !strncmp(canonical, SL_METRIC_COMM_PREFIX, strlen(SL_METRIC_COMM_PREFIX));
}

char *sl_metric_canonical(const char *name, enum sl_metric_unit *unit, char *err, size_t errlen)
{
	size_t len = strlen(name);
	char *s = xmalloc(len + 8);
	bool had_ns = false;

	build_defs();
	memcpy(s, name, len + 1);
	if (ends_with(s, "_ns")) {
		s[len - 3] = 0;
		len -= 3;
		had_ns = true;
	}
	if (sl_metric_is_comm(s)) {
		size_t plen = strlen(SL_METRIC_COMM_PREFIX), slen = strlen(SL_METRIC_COMM_SUFFIX);

		if (len > plen + slen && ends_with(s, SL_METRIC_COMM_SUFFIX)) {
			*unit = SL_UNIT_NS;
			return s;
		}
		snprintf(err, errlen, "unknown metric '%s': per-comm metrics are comm.COMM.p99", name);
		free(s);
		return NULL;
	}
	/* "p99.9" as the reports print it, "p99_9" as the JSON names it */
	if (ends_with(s, ".p99.9") || ends_with(s, ".p99.5"))
		s[len - 2] = '_';
	for (size_t i = 0; i < nr_defs; i++) {
		if (strcmp(defs[i].name, s) || (had_ns && defs[i].unit != SL_UNIT_NS))
			continue;
		*unit = defs[i].unit;
		return s;
	}
	{
		const char *names[MAX_DEFS], *best;

		for (size_t i = 0; i < nr_defs; i++)
			names[i] = defs[i].name;
		best = sl_closest(s, names, nr_defs);
		snprintf(err, errlen, "unknown metric '%s'%s%s%s (schedlint diff --list-metrics "
			 "lists them)", name, best ? "; did you mean '" : "", best ? best : "",
			 best ? "'?" : "");
	}
	free(s);
	return NULL;
}

/* One metric of the list, its description wrapped to fit 80 columns (the
 * continuation lines start with spaces only, so `awk '/^  [a-z]/'` still
 * finds one name per metric). */
static void list_metric(FILE *f, const char *name, const char *unit, const char *what)
{
	enum { INDENT = 40, WIDTH = 80 };
	int col = fprintf(f, "  %-32s %-4s", name, unit);
	const char *p = what;

	while (*p) {
		size_t word = strcspn(p, " ");

		if (col > INDENT && col + 1 + (int)word > WIDTH)
			col = fprintf(f, "\n%*s", INDENT - 1, "") - 1;
		col += fprintf(f, " %.*s", (int)word, p);
		p += word;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

void sl_metrics_list(FILE *f)
{
	static const char *const unit_names[] = {
		[SL_UNIT_COUNT] = "", [SL_UNIT_NS] = "ns", [SL_UNIT_PER_S] = "/s",
		[SL_UNIT_PERCENT] = "%", [SL_UNIT_NS_PER_S] = "ns/s",
	};

	build_defs();
	fprintf(f, "Metrics (time metrics are ns and also take the JSON field's _ns suffix,\n"
		   "e.g. wakeup.p99_ns; p99.9 may be written p99_9):\n");
	for (size_t i = 0; i < nr_defs; i++)
		list_metric(f, defs[i].name, unit_names[defs[i].unit], defs[i].what);
	list_metric(f, "comm.COMM.p99", "ns",
		    "wakeup latency p99 of the tasks named COMM (comms with samples on both sides)");
}

/* --- formatting --- */

static const char *fmt_ns(char *buf, size_t len, const char *sign, double ns)
{
	if (ns >= 1e15)		/* 11 days: only a hand-made number, shown short */
		snprintf(buf, len, "%s%.3g s", sign, ns / 1e9);
	else if (ns < 1000)
		snprintf(buf, len, "%s%.0f ns", sign, ns);
	else if (ns < 10000)
		snprintf(buf, len, "%s%.2f us", sign, ns / 1e3);
	else if (ns < 1e6)
		snprintf(buf, len, "%s%.1f us", sign, ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%s%.2f ms", sign, ns / 1e6);
	else
		snprintf(buf, len, "%s%.2f s", sign, ns / 1e9);
	return buf;
}

static const char *fmt_plain(char *buf, size_t len, const char *sign, double v, const char *unit)
{
	if (v >= 1e15)		/* never as hundreds of digits */
		snprintf(buf, len, "%s%.3g%s", sign, v, unit);
	else if (v == floor(v))
		snprintf(buf, len, "%s%.0f%s", sign, v, unit);
	else if (v < 100)
		snprintf(buf, len, "%s%.2f%s", sign, v, unit);
	else
		snprintf(buf, len, "%s%.1f%s", sign, v, unit);
	return buf;
}

const char *sl_metric_fmt(char *buf, size_t len, enum sl_metric_unit unit, double v)
{
	switch (unit) {
	case SL_UNIT_NS:
		return fmt_ns(buf, len, "", v);
	case SL_UNIT_PER_S:
		return fmt_plain(buf, len, "", v < 100 ? v : round(v), "/s");
	case SL_UNIT_NS_PER_S:
		fmt_ns(buf, len, "", v);
		strncat(buf, "/s", len - strlen(buf) - 1);
		return buf;
	case SL_UNIT_PERCENT:
		snprintf(buf, len, "%.1f%%", v);
		return buf;
	case SL_UNIT_COUNT:
	default:
		return fmt_plain(buf, len, "", v, "");
	}
}

const char *sl_metric_fmt_delta(char *buf, size_t len, enum sl_metric_unit unit, double d)
{
	const char *sign = d > 0 ? "+" : d < 0 ? "-" : "";
	double a = fabs(d);

	if (d == 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	switch (unit) {
	case SL_UNIT_NS:
		return fmt_ns(buf, len, sign, a);
	case SL_UNIT_PER_S:
		return fmt_plain(buf, len, sign, a < 100 ? a : round(a), "/s");
	case SL_UNIT_NS_PER_S:
		fmt_ns(buf, len, sign, a);
		strncat(buf, "/s", len - strlen(buf) - 1);
		return buf;
	case SL_UNIT_PERCENT:
		snprintf(buf, len, "%s%.1f pp", sign, a);
		return buf;
	case SL_UNIT_COUNT:
	default:
		return fmt_plain(buf, len, sign, a, "");
	}
}
