// SPDX-License-Identifier: GPL-2.0
/*
 * report_json.c - the "schedlint.report/1" JSON object (SPEC "Output")
 *
 * Names are stable (diff and users' scripts read them); times are integer
 * ns.  Fields beyond the SPEC's are additions, never renames.
 */
#include <cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/slice.h"
#include "report.h"
#include "schedlint/context.h"
#include "schedlint/analyzer.h"
#include "schedlint/findings.h"
#include "util/util.h"

/* The events the model uses, always listed (0 when absent) in this order. */
static const char *const known_events[] = {
	"sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
	"sched_migrate_task", "sched_process_fork", "sched_process_exit",
	"sched_wake_idle_without_ipi", "ipi_send_cpu", "ipi_send_cpumask",
	"ipi_raise", "ipi_entry", "reschedule_entry", "call_function_entry",
	"call_function_single_entry", "local_timer_entry", "csd_queue_cpu",
	"csd_function_entry",
};

/* schedlint record itself, which wrote the trace (its markers name it); null when none. */
static void recorder_json(const struct sl_model *m, cJSON *t)
{
	uint64_t span = sl_dur(m->first_ts, m->last_ts);
	cJSON *o;

	if (m->recorder_pid <= 0) {
		cJSON_AddNullToObject(t, "recorder");
		return;
	}
	o = cJSON_AddObjectToObject(t, "recorder");
	sl_json_add_i64(o, "pid", m->recorder_pid);
	sl_json_add_u64(o, "run_ns", m->recorder_run_ns);
	sl_json_add_u64(o, "runs", m->recorder_runs);
	sl_json_add_u64(o, "preempted_runs", m->recorder_preempted);
	sl_json_add_u64(o, "longest_run_ns", m->recorder_longest_ns);
	sl_json_add_u64(o, "longest_run_ts_ns", m->recorder_longest_ts);
	cJSON_AddNumberToObject(o, "cpu_share", span ? (double)m->recorder_run_ns / (double)span : 0.0);
	cJSON_AddNumberToObject(o, "ns_per_event",
				m->nr_events ? (double)m->recorder_run_ns / (double)m->nr_events : 0.0);
}

static cJSON *trace_json(struct sl_model *m, const char *path)
{
	const struct sl_trace_info *info = m->info;
	cJSON *t = cJSON_CreateObject();

	cJSON_AddStringToObject(t, "path", path);
	cJSON_AddStringToObject(t, "format", sl_format_name(info->format));
	sl_json_add_i64(t, "cpus", info->ncpus > m->nr_cpus ? info->ncpus : m->nr_cpus);
	sl_json_add_str_or_null(t, "kernel", info->kernel);
	sl_json_add_str_or_null(t, "clock", info->clock);
	sl_json_add_u64(t, "first_ns", m->first_ts);
	sl_json_add_u64(t, "last_ns", m->last_ts);
	sl_json_add_u64(t, "duration_ns", sl_dur(m->first_ts, m->last_ts));
	sl_json_add_u64(t, "events", m->nr_events);
	sl_json_add_u64(t, "lost_events", m->lost_events);
	/* additions */
	sl_json_add_u64(t, "lost_gaps", m->lost_gaps);
	{
		/* gaps of no count: lost_events is a floor, unless the input gave the total */
		bool floor;

		sl_json_add_u64(t, "lost_uncounted_gaps", sl_model_lost_uncounted(m, &floor));
		cJSON_AddBoolToObject(t, "lost_events_floor", floor);
	}
	sl_json_add_str_or_null(t, "compression", info->compression);
	sl_json_add_u64(t, "clock_inversions", m->clock_inversions);
	sl_json_add_u64(t, "max_clock_inversion_ns", m->max_inversion_ns);
	sl_json_add_u64(t, "bad_lines", info->bad_lines);
	sl_json_add_u64_or_null(t, "cut_last_line", info->cut_last_line, info->cut_last_line);
	sl_json_add_u64_or_null(t, "header_cpus", info->header_ncpus > 0,
				(uint64_t)(info->header_ncpus > 0 ? info->header_ncpus : 0));
	sl_json_add_u64(t, "bad_cpu_refs", m->bad_cpu_refs);
	sl_json_add_u64(t, "samples_dropped_at_gaps", m->samples_dropped_gap);
	sl_json_add_u64(t, "implied_switches", m->implied_switches);
	sl_json_add_u64(t, "lost_unplaced", info->lost_unplaced);
	sl_json_add_u64(t, "formats_ignored", info->formats_ignored);
	cJSON_AddBoolToObject(t, "has_sched_waking", m->seen_waking);
	cJSON_AddBoolToObject(t, "has_sched_wakeup", m->seen_wakeup);
	recorder_json(m, t);
	return t;
}

static void fact_json(cJSON *o, const char *name, const struct sl_kernel_fact *f)
{
	cJSON *x = cJSON_AddObjectToObject(o, name);

	if (f->value[0]) {
		cJSON_AddStringToObject(x, "value", f->value);
		cJSON_AddStringToObject(x, "from", f->from);
	} else {
		cJSON_AddNullToObject(x, "value");
		cJSON_AddStringToObject(x, "from", "unknown");
	}
}

/*
 * "context": the kernel's settings with their sources, the groups the
 * trace defines, and how many tasks' policies and groups were recorded
 * (else inferred from prio, else unknown).
 */
static void context_json(const struct sl_model *m, cJSON *root)
{
	static const struct sl_kernel_fact none;
	const struct sl_context *c = m->ctx;
	cJSON *o = cJSON_AddObjectToObject(root, "context");
	cJSON *groups;
	uint64_t n[3], recorded, inferred, unknown;

	sl_class_sources(m, n);
	recorded = n[SL_CLASS_FROM_POLICY];
	inferred = n[SL_CLASS_FROM_PRIO];
	unknown = n[SL_CLASS_FROM_NONE];
	cJSON_AddBoolToObject(o, "recorded", c && c->recorded);
	fact_json(o, "hz", c ? &c->hz : &none);
	fact_json(o, "hrtick", c ? &c->hrtick : &none);
	fact_json(o, "preempt", c ? &c->preempt : &none);
	fact_json(o, "base_slice", c ? &c->base_slice : &none);
	sl_json_add_u64(o, "tasks_recorded", recorded);
	sl_json_add_u64(o, "tasks_class_from_prio", inferred);
	sl_json_add_u64(o, "tasks_unknown", unknown);
	cJSON_AddStringToObject(o, "groups_source", c && c->recorded ? "recorded" : "unknown");
	groups = cJSON_AddArrayToObject(o, "groups");
	for (uint32_t g = 0; g < sl_model_nr_groups(m); g++) {
		const struct sl_group *gr = sl_model_group(m, g);
		cJSON *x;

		if (!gr)
			continue;
		x = cJSON_CreateObject();
		sl_json_add_u64(x, "id", g);
		sl_json_add_u64(x, "parent", gr->parent);
		cJSON_AddStringToObject(x, "kind", sl_group_kind_name(gr->kind));
		cJSON_AddStringToObject(x, "name", gr->name);
		sl_json_add_u64(x, "weight", gr->weight);
		cJSON_AddItemToArray(groups, x);
	}
}

static bool is_known_event(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(known_events); i++)
		if (!strcmp(known_events[i], name))
			return true;
	return false;
}

struct named_count {
	const char *name;
	uint64_t n;
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct named_count *)a)->name, ((const struct named_count *)b)->name);
}

static void events_json(struct sl_model *m, cJSON *root)
{
	cJSON *ev = cJSON_AddObjectToObject(root, "events");
	cJSON *other_by_name = cJSON_CreateObject();
	struct named_count *others = NULL;
	size_t nr_others = 0;
	uint64_t other = 0;

	for (size_t i = 0; i < ARRAY_SIZE(known_events); i++) {
		uint32_t id = sl_strtab_find(m->strtab, known_events[i], strlen(known_events[i]));
		uint64_t n = id && id < m->event_counts_alloc ? m->event_counts[id] : 0;

		sl_json_add_u64(ev, known_events[i], n);
	}
	for (size_t id = 1; id < m->event_counts_alloc; id++) {
		const char *name = sl_str(m->strtab, (uint32_t)id);

		if (!m->event_counts[id] || is_known_event(name))
			continue;
		other += m->event_counts[id];
		others = xrealloc(others, (nr_others + 1) * sizeof(*others));
		others[nr_others++] = (struct named_count){ name, m->event_counts[id] };
	}
	/*
	 * by name: the ids follow the order a reader met the formats in
	 * (flyrecord and libtracecmd wrote the same counts in two orders)
	 */
	if (nr_others)
		qsort(others, nr_others, sizeof(*others), cmp_name);
	for (size_t i = 0; i < nr_others; i++)
		sl_json_add_u64(other_by_name, others[i].name, others[i].n);
	free(others);
	sl_json_add_u64(ev, "other", other);
	cJSON_AddItemToObject(root, "other_events", other_by_name);
}

/* --cpus, --pid, --comm: null when not given (a diff of two reports can tell) */
static void filters_json(const struct sl_config *cfg, cJSON *c)
{
	cJSON *f = cJSON_AddObjectToObject(c, "filters"), *a;

	a = sl_json_add_array_or_null(f, "cpus", cfg->cpus.nr_words);
	for (uint32_t cpu = 0; a && cpu < cfg->cpus.nr_words * 64; cpu++)
		if (sl_cpuset_test(&cfg->cpus, (int)cpu))
			cJSON_AddItemToArray(a, cJSON_CreateNumber(cpu));
	a = sl_json_add_array_or_null(f, "pids", cfg->nr_pids);
	for (size_t i = 0; a && i < cfg->nr_pids; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(cfg->pids[i]));
	a = sl_json_add_array_or_null(f, "comms", cfg->nr_comms);
	for (size_t i = 0; a && i < cfg->nr_comms; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(cfg->comms[i]));
	if (cfg->workload_active)	/* the workload the trace names, not --system */
		cJSON_AddTrueToObject(f, "workload");
	else
		cJSON_AddNullToObject(f, "workload");
}

/* The workload the trace names (schedlint record -- CMD), null when none. */
static void workload_json(const struct sl_model *m, cJSON *root)
{
	cJSON *w;

	if (!m->workload_pid) {
		cJSON_AddNullToObject(root, "workload");
		return;
	}
	w = cJSON_AddObjectToObject(root, "workload");
	sl_json_add_i64(w, "pid", m->workload_pid);
	cJSON_AddStringToObject(w, "command", m->workload_cmd);
	sl_json_add_u64(w, "tasks", m->nr_workload_tasks);
	cJSON_AddBoolToObject(w, "filtered", m->cfg->workload_active);
}

static void config_json(struct sl_model *m, cJSON *root)
{
	const struct sl_config *cfg = m->cfg;
	cJSON *c = cJSON_AddObjectToObject(root, "config");
	cJSON *llc = cJSON_CreateArray();

	cJSON_AddStringToObject(c, "slice_model",
				sl_slice_model(m) == SL_SLICE_CFS ? "cfs" : "eevdf");
	sl_json_add_u64(c, "base_slice_ns", sl_base_slice(m));
	sl_json_add_u64(c, "tolerance_ns", cfg->tolerance_ns);
	sl_json_add_u64(c, "sync_window_ns", cfg->sync_window_ns);
	sl_json_add_u64(c, "min_cost_ns", cfg->min_cost_ns);
	sl_json_add_u64(c, "idle_threshold_ns", cfg->idle_threshold_ns);
	if (!m->nr_llc_cpus) {
		cJSON *dom = cJSON_CreateArray();

		for (int cpu = 0; cpu < m->nr_cpus; cpu++)
			cJSON_AddItemToArray(dom, cJSON_CreateNumber(cpu));
		cJSON_AddItemToArray(llc, dom);
	} else {
		int nr_dom = 0;

		for (int cpu = 0; cpu < m->nr_llc_cpus; cpu++)
			if (m->llc_of[cpu] + 1 > nr_dom)
				nr_dom = m->llc_of[cpu] + 1;
		for (int d = 0; d < nr_dom; d++) {
			cJSON *dom = cJSON_CreateArray();

			for (int cpu = 0; cpu < m->nr_llc_cpus; cpu++)
				if (m->llc_of[cpu] == d)
					cJSON_AddItemToArray(dom, cJSON_CreateNumber(cpu));
			cJSON_AddItemToArray(llc, dom);
		}
	}
	cJSON_AddItemToObject(c, "llc", llc);
	cJSON_AddStringToObject(c, "llc_source", m->llc_source);
	sl_json_add_u64_or_null(c, "hz", sl_hz(m) > 0, (uint64_t)sl_hz(m));
	cJSON_AddBoolToObject(c, "assume_migratable", cfg->assume_migratable);
	cJSON_AddBoolToObject(c, "exclude_inferred", cfg->exclude_inferred);
	sl_json_add_u64(c, "max_findings", cfg->max_findings);
	/* the --from/--to window (resolved to trace time): rates divide by it */
	sl_json_add_u64_or_null(c, "from_ns", cfg->from_set, cfg->from_ns);
	sl_json_add_u64_or_null(c, "to_ns", cfg->to_set, cfg->to_ns);
	filters_json(cfg, c);
	workload_json(m, root);
}

/* The moment of a worst wakeup (perf sched latency's max start/end), null without samples. */
static cJSON *moment_json(struct sl_model *m, const struct sl_hist *h, const struct sl_wakeup_moment *w,
			  bool with_task)
{
	cJSON *o;

	if (!h->count)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	sl_json_add_u64(o, "latency_ns", w->latency);
	sl_json_add_u64(o, "waking_ns", w->wake_ts);
	sl_json_add_u64(o, "run_ns", w->run_ts);
	sl_json_add_i64(o, "cpu", w->cpu);
	sl_json_add_i64(o, "waker_cpu", w->waker_cpu);
	cJSON_AddBoolToObject(o, "inferred", w->inferred);
	if (with_task) {
		sl_json_add_i64(o, "pid", w->pid);
		cJSON_AddStringToObject(o, "comm", sl_str(m->strtab, w->comm));
	}
	return o;
}

/* One runnable wait of any kind (perf sched latency's max delay and its start/end). */
static cJSON *wait_moment_json(struct sl_model *m, const struct sl_wait_moment *w, bool with_task)
{
	cJSON *o;

	if (!w->to)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	sl_json_add_u64(o, "wait_ns", w->wait);
	sl_json_add_u64(o, "from_ns", w->from);
	sl_json_add_u64(o, "to_ns", w->to);
	cJSON_AddStringToObject(o, "after", sl_wait_kind_names[w->kind]);
	sl_json_add_i64(o, "cpu", w->cpu);
	cJSON_AddBoolToObject(o, "inferred", w->inferred);
	if (with_task) {
		/* named as perf sched latency names it: the task's last comm */
		sl_json_add_i64(o, "pid", w->pid);
		cJSON_AddStringToObject(o, "comm", sl_str(m->strtab, sl_wait_comm(m, w)));
	}
	cJSON_AddStringToObject(o, "comm_then", sl_str(m->strtab, w->comm));
	return o;
}

/*
 * Every runnable wait, after a wakeup, a preemption or a fork: the longest (perf sched latency's max); the new tasks' fork-to-
 * first-run delays, apart from the wakeup latency.
 */
static void waits_json(struct sl_model *m, cJSON *root)
{
	cJSON *o = cJSON_AddObjectToObject(root, "runnable_wait");

	cJSON *by = cJSON_CreateObject();

	cJSON_AddItemToObject(o, "max", wait_moment_json(m, &m->wait_worst, true));
	for (int k = 0; k < SL_WAIT__NR; k++)
		cJSON_AddItemToObject(by, sl_wait_kind_names[k],
				      wait_moment_json(m, &m->wait_worst_by[k], true));
	cJSON_AddItemToObject(o, "max_after", by);
	cJSON_AddItemToObject(o, "max_as_perf_6_1", wait_moment_json(m, &m->wait_worst_perf61, true));
	cJSON_AddItemToObject(root, "fork_delay", sl_hist_json(&m->fork_delay));
}

/* Where a class row's tasks' classes came from: "prio" (inferred), "policy" (recorded), "mixed". */
static const char *class_source(const struct sl_model *m, int k)
{
	const uint64_t *n = m->class_tasks[k];

	if (n[SL_CLASS_FROM_POLICY] && n[SL_CLASS_FROM_PRIO])
		return "mixed";
	return n[SL_CLASS_FROM_POLICY] ? "policy" : n[SL_CLASS_FROM_PRIO] ? "prio" : NULL;
}

/* Wakeup latency by scheduling class (sched_class.c): a row per class, with its tasks and source. */
static void class_json(struct sl_model *m, cJSON *root)
{
	cJSON *o = cJSON_AddObjectToObject(root, "latency_by_class");

	for (int k = 0; k < SL_CLASS__NR; k++) {
		cJSON *h = sl_hist_json(&m->latency_class[k]);
		const char *src = class_source(m, k);

		sl_json_add_u64(h, "tasks", m->class_tasks[k][0] + m->class_tasks[k][1] +
			       m->class_tasks[k][2]);
		sl_json_add_str_or_null(h, "source", src);
		cJSON_AddItemToObject(o, sl_sched_class_names[k], h);
	}
}

/*
 * The CPUs t may run on at the end of the trace as recorded ("0-3,8"),
 * null when the trace recorded none for it; its moves by a migration/N
 * stopper.
 */
static void affinity_json(const struct sl_model *m, const struct sl_task *t, cJSON *o)
{
	const struct sl_cpuset *s = sl_task_allowed_at(m, t, m->last_ts);
	char buf[512];
	size_t n = 0;

	sl_json_add_u64(o, "stopper_moves", t->stopper_moves);
	sl_json_add_u64(o, "execs", t->execs);
	if (!s || !s->nr_words) {	/* none recorded, or changed unseen (affinity.c) */
		cJSON_AddNullToObject(o, "cpus_allowed");
		return;
	}
	buf[0] = '\0';
	for (int cpu = 0; cpu < 64 * (int)s->nr_words && n < sizeof(buf) - 24; cpu++) {
		int last = cpu;

		if (!sl_cpuset_test(s, cpu))
			continue;
		while (sl_cpuset_test(s, last + 1))
			last++;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, last > cpu ? "%s%d-%d" : "%s%d",
				      n ? "," : "", cpu, last);
		cpu = last;
	}
	cJSON_AddStringToObject(o, "cpus_allowed", buf);
}

/* a list's place in the model's tasks, comms or findings */
struct list_at {
	struct sl_model *m;
	size_t i, nr;
};

static void list_at_free(void *ctx)
{
	free(ctx);
}

static cJSON *task_next(void *ctx)
{
	struct list_at *at = ctx;
	struct sl_model *m = at->m;

	for (; at->i < m->nr_tasks; at->i++) {
		const struct sl_task *t = sl_kept_task(m, at->i);

		if (!sl_task_active(t) || !sl_filter_task(m->cfg, m->strtab, t))
			continue;
		at->i++;
		cJSON *o = cJSON_CreateObject();

		sl_json_add_i64(o, "pid", t->pid);
		cJSON_AddStringToObject(o, "comm", sl_task_comm(m, t));
		sl_json_add_u64(o, "wakeups", t->wakeups);
		cJSON *lat = sl_hist_json(&t->latency);

		sl_json_add_u64(lat, "inferred", t->latency_inferred);
		cJSON_AddItemToObject(o, "wakeup_latency", lat);
		cJSON_AddItemToObject(o, "worst_wakeup", moment_json(m, &t->latency, &t->worst, false));
		sl_json_add_u64(o, "run_ns", t->run_ns);
		sl_json_add_u64(o, "wait_ns", t->wait_ns);
		sl_json_add_u64(o, "switches", t->switches);
		sl_json_add_u64(o, "preemptions", t->preemptions);
		sl_json_add_u64(o, "migrations", t->migrations);
		sl_json_add_i64(o, "prio", t->prio);
		cJSON_AddItemToObject(o, "max_wait", wait_moment_json(m, &t->wait_worst, false));
		sl_json_add_u64_or_null(o, "fork_delay_ns", t->fork_delay_seen, t->fork_delay);
		affinity_json(m, t, o);
		return o;
	}
	return NULL;
}

static void tasks_json(struct sl_model *m, cJSON *root)
{
	struct list_at *at = xcalloc(1, sizeof(*at));

	at->m = m;
	sl_json_add_list(m, root, "tasks", &(struct sl_json_list){
		.next = task_next, .free = list_at_free, .ctx = at });
}

/*
 * The dead tasks folded past the cap (SL_KEEP_DEAD_TASKS), by comm, with
 * the numbers of a task row summed; only when some were.
 */
static void folded_json(struct sl_model *m, cJSON *root)
{
	cJSON *o, *list;

	if (!m->tasks_folded) {
		cJSON_AddNullToObject(root, "tasks_folded");
		return;
	}
	o = cJSON_AddObjectToObject(root, "tasks_folded");
	sl_json_add_u64(o, "count", m->tasks_folded);
	sl_json_add_u64(o, "cap", m->cfg->keep_tasks ? m->cfg->keep_tasks : SL_KEEP_DEAD_TASKS);
	list = cJSON_AddArrayToObject(o, "by_comm");
	for (uint32_t i = 0; i < m->nr_folded; i++) {
		const struct sl_folded_comm *f = &m->folded[i];
		cJSON *c, *lat;

		if (!f->tasks)
			continue;
		c = cJSON_CreateObject();
		lat = sl_hist_json(&f->latency);

		cJSON_AddStringToObject(c, "comm", sl_str(m->strtab, f->comm));
		sl_json_add_u64(c, "tasks", f->tasks);
		sl_json_add_u64(c, "wakeups", f->wakeups);
		sl_json_add_u64(lat, "inferred", f->latency_inferred);
		cJSON_AddItemToObject(c, "wakeup_latency", lat);
		cJSON_AddItemToObject(c, "worst_wakeup", moment_json(m, &f->latency, &f->worst, true));
		sl_json_add_u64(c, "run_ns", f->run_ns);
		sl_json_add_u64(c, "wait_ns", f->wait_ns);
		sl_json_add_u64(c, "switches", f->switches);
		sl_json_add_u64(c, "preemptions", f->preemptions);
		sl_json_add_u64(c, "migrations", f->migrations);
		cJSON_AddItemToArray(list, c);
	}
}

/*
 * Per-comm latency: the tasks' histograms merged (a comm is a program),
 * by comm id.  The listed tasks and the folded rows are put in comm
 * order first, so that each comm's histograms are merged when its row
 * is made, and not every comm's at once.
 */
struct comms_at {
	struct sl_model *m;
	uint32_t *tasks, *folded;	/* indices, by (comm, index) */
	size_t nr_tasks, nr_folded, t, f;
};

static const struct sl_model *sort_model;	/* for the comparisons (qsort has no context) */

static int task_by_comm(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	/* a frozen task has its comm too (sl_kept_task()) */
	uint32_t ca = sort_model->tasks[a]->comm, cb = sort_model->tasks[b]->comm;

	return ca != cb ? (ca < cb ? -1 : 1) : (a > b) - (a < b);
}

static int folded_by_comm(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	uint32_t ca = sort_model->folded[a].comm, cb = sort_model->folded[b].comm;

	return ca != cb ? (ca < cb ? -1 : 1) : (a > b) - (a < b);
}

static cJSON *comm_next(void *ctx)
{
	struct comms_at *at = ctx;
	struct sl_model *m = at->m;

	while (at->t < at->nr_tasks || at->f < at->nr_folded) {
		uint32_t ct = at->t < at->nr_tasks ? m->tasks[at->tasks[at->t]]->comm : UINT32_MAX;
		uint32_t cf = at->f < at->nr_folded ? m->folded[at->folded[at->f]].comm : UINT32_MAX;
		uint32_t id = MIN(ct, cf);
		uint64_t ntasks = 0;
		struct sl_hist h;

		sl_hist_init(&h);
		for (; at->t < at->nr_tasks && m->tasks[at->tasks[at->t]]->comm == id; at->t++) {
			sl_hist_merge(&h, &sl_kept_task(m, at->tasks[at->t])->latency);
			ntasks++;
		}
		for (; at->f < at->nr_folded && m->folded[at->folded[at->f]].comm == id; at->f++) {
			sl_hist_merge(&h, &m->folded[at->folded[at->f]].latency);
			ntasks += m->folded[at->folded[at->f]].tasks;
		}
		if (!ntasks) {
			sl_hist_free(&h);
			continue;
		}
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "comm", sl_str(m->strtab, id));
		sl_json_add_u64(o, "tasks", ntasks);
		cJSON_AddItemToObject(o, "wakeup_latency", sl_hist_json(&h));
		sl_hist_free(&h);
		return o;
	}
	return NULL;
}

static void comms_free(void *ctx)
{
	struct comms_at *at = ctx;

	free(at->tasks);
	free(at->folded);
	free(at);
}

static void comms_json(struct sl_model *m, cJSON *root)
{
	struct comms_at *at = xcalloc(1, sizeof(*at));

	at->m = m;
	at->tasks = xmalloc(((size_t)m->nr_tasks + 1) * sizeof(*at->tasks));
	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		const struct sl_task *t = sl_kept_task(m, i);

		if (sl_task_active(t) && sl_filter_task(m->cfg, m->strtab, t))
			at->tasks[at->nr_tasks++] = i;
	}
	at->folded = xmalloc(((size_t)m->nr_folded + 1) * sizeof(*at->folded));
	for (uint32_t i = 0; i < m->nr_folded; i++)
		at->folded[at->nr_folded++] = i;
	sort_model = m;
	qsort(at->tasks, at->nr_tasks, sizeof(*at->tasks), task_by_comm);
	qsort(at->folded, at->nr_folded, sizeof(*at->folded), folded_by_comm);
	sort_model = NULL;
	sl_json_add_list(m, root, "comms", &(struct sl_json_list){
		.next = comm_next, .free = comms_free, .ctx = at });
}

static void cpus_json(struct sl_model *m, cJSON *root)
{
	cJSON *cpus = cJSON_AddArrayToObject(root, "cpus");

	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct sl_cpu *c = &m->cpus[cpu];

		if (!sl_filter_cpu(m->cfg, cpu))
			continue;
		cJSON *o = cJSON_CreateObject();

		sl_json_add_i64(o, "cpu", cpu);
		sl_json_add_u64(o, "busy_ns", c->busy_ns);
		sl_json_add_u64(o, "idle_ns", c->idle_ns);
		sl_json_add_u64(o, "switches", c->switches);
		sl_json_add_u64(o, "wakeups", c->wakeups);
		sl_json_add_u64(o, "max_queue", c->max_queue);
		cJSON_AddNumberToObject(o, "mean_queue",
					c->queue_known_ns ?
					(double)c->queue_area / (double)c->queue_known_ns : 0.0);
		sl_json_add_u64(o, "lost_events", c->lost_events);
		sl_json_add_u64(o, "lost_gaps", c->lost_gaps);
		sl_json_add_u64(o, "lost_uncounted_gaps", c->lost_uncounted);
		sl_json_add_u64(o, "implied_switches", c->implied_switches);
		cJSON *lat = sl_hist_json(&c->latency);

		sl_json_add_u64(lat, "inferred", c->latency_inferred);
		cJSON_AddItemToObject(o, "wakeup_latency", lat);
		cJSON_AddItemToArray(cpus, o);
	}
}

static void summary_json(struct sl_model *m, cJSON *root)
{
	cJSON *s = cJSON_AddObjectToObject(root, "summary");

	for (int k = 0; k < SL_KIND__COUNT; k++) {
		const struct sl_kind_summary *ks = &m->findings->summary[k];
		cJSON *o = cJSON_AddObjectToObject(s, sl_kinds[k].name);

		sl_json_add_u64(o, "count", ks->count);
		sl_json_add_u64(o, "cost_ns", ks->cost);
		sl_json_add_u64(o, "max_cost_ns", ks->max_cost);
	}
}

void sl_finding_fields(const struct sl_model *m, const struct sl_finding *f, struct sl_fields *o)
{
	char msg[512];

	sl_fields_str(o, "kind", sl_kinds[f->kind].name);
	sl_fields_u64(o, "ts_ns", f->ts);
	sl_fields_i64(o, "cpu", f->cpu);
	sl_fields_i64(o, "pid", f->pid);
	sl_fields_str(o, "comm", sl_str(m->strtab, f->comm));
	/* is its task schedlint record itself: null when the trace names no recorder */
	if (m->recorder_pid > 0)
		sl_fields_bool(o, "recorder", *sl_recorder_note(m, f->pid) != 0);
	else
		sl_fields_null(o, "recorder");
	sl_fields_u64(o, "cost_ns", f->cost);
	sl_finding_message(f, m, msg, sizeof(msg));
	sl_fields_str(o, "message", msg);
	if (f->ops && f->ops->fields)
		f->ops->fields(f, m, o);
	if (f->whatif.est) {
		sl_fields_object(o, "whatif");
		sl_fields_i64(o, "pid", f->whatif.pid);
		sl_fields_i64(o, "cpu", f->whatif.cpu);
		sl_fields_u64(o, "now_ns", f->whatif.now);
		sl_fields_u64(o, "if_fixed_ns", f->whatif.est);
		sl_fields_u64(o, "low_ns", f->whatif.lo);
		sl_fields_u64(o, "high_ns", f->whatif.hi);
		sl_fields_u64(o, "basis", f->whatif.basis);
		sl_fields_bool(o, "weak", f->whatif.weak);
		sl_fields_end(o);
	} else {
		sl_fields_null(o, "whatif");	/* no estimate of its own */
	}
}

cJSON *sl_finding_json(const struct sl_model *m, const struct sl_finding *f)
{
	cJSON *o = cJSON_CreateObject();
	struct sl_fields_tree t;

	sl_fields_tree_init(&t, o);
	sl_finding_fields(m, f, &t.base);
	return o;
}

static cJSON *finding_next(void *ctx)
{
	struct list_at *at = ctx;
	struct sl_model *m = at->m;
	size_t nr;
	const struct sl_finding *f = sl_findings_sorted(m->findings, &nr);

	if (at->i >= nr)
		return NULL;
	return sl_finding_json(m, f + at->i++);
}

static void findings_json(struct sl_model *m, cJSON *root)
{
	struct list_at *at = xcalloc(1, sizeof(*at));

	at->m = m;
	sl_json_add_list(m, root, "findings", &(struct sl_json_list){
		.next = finding_next, .free = list_at_free, .ctx = at });
	cJSON_AddBoolToObject(root, "findings_truncated", m->findings->dropped > 0);
}

/*
 * "latency_over_time": the windows of the wakeup-latency series
 * (series.h), each {start_ns, count, p50_ns, p99_ns, max_ns}, and the
 * worst of them (peak, its index; null without samples).
 */
static cJSON *series_json(const struct sl_model *m)
{
	const struct sl_series *s = &m->latency_series;
	cJSON *o = cJSON_CreateObject();
	cJSON *arr;
	int peak = sl_series_peak(s);

	sl_json_add_u64(o, "window_ns", s->window_ns);
	sl_json_add_u64_or_null(o, "window_requested_ns", s->requested_ns, s->requested_ns);
	sl_json_add_u64(o, "start_ns", s->origin);
	arr = cJSON_AddArrayToObject(o, "windows");
	for (uint32_t i = 0; i < s->nr; i++) {
		const struct sl_series_window *w = &s->w[i];
		cJSON *wo = cJSON_CreateObject();

		sl_json_add_u64(wo, "start_ns", s->origin + i * s->window_ns);
		sl_json_add_u64(wo, "count", w->count);
		sl_json_add_u64(wo, "p50_ns", sl_series_percentile(s, i, 50));
		sl_json_add_u64(wo, "p99_ns", sl_series_percentile(s, i, 99));
		sl_json_add_u64(wo, "max_ns", w->max);
		cJSON_AddItemToArray(arr, wo);
	}
	if (peak < 0)
		cJSON_AddNullToObject(o, "peak");
	else
		cJSON_AddNumberToObject(o, "peak", peak);
	return o;
}

/* The report, its long lists placeholders (sl_json_add_list()) */
static cJSON *report_json(struct sl_model *m, const char *path)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *tool;
	cJSON *lat;

	cJSON_AddStringToObject(root, "schema", "schedlint.report/1");
	tool = cJSON_AddObjectToObject(root, "tool");
	cJSON_AddStringToObject(tool, "name", "schedlint");
	cJSON_AddStringToObject(tool, "version", SCHEDLINT_VERSION);
	cJSON_AddItemToObject(root, "trace", trace_json(m, path));
	events_json(m, root);
	config_json(m, root);
	context_json(m, root);

	lat = sl_hist_json(&m->latency);
	sl_json_add_u64(lat, "inferred", m->latency_inferred.count);
	cJSON_AddItemToObject(lat, "local", sl_hist_json(&m->latency_local));
	cJSON_AddItemToObject(lat, "remote", sl_hist_json(&m->latency_remote));
	cJSON_AddItemToObject(lat, "remote_ipi", sl_hist_json(&m->latency_ipi));
	cJSON_AddItemToObject(lat, "remote_no_ipi", sl_hist_json(&m->latency_noipi));
	cJSON_AddItemToObject(lat, "worst", moment_json(m, &m->latency, &m->latency_worst, true));
	cJSON_AddItemToObject(root, "wakeup_latency", lat);
	waits_json(m, root);
	class_json(m, root);
	cJSON_AddItemToObject(root, "latency_over_time", series_json(m));

	tasks_json(m, root);
	folded_json(m, root);
	comms_json(m, root);
	cpus_json(m, root);
	for (int i = 0; i < m->nr_analyzers; i++) {
		struct sl_analyzer *a = m->analyzers[i];

		if (a->ops->report_json)
			a->ops->report_json(a, m, root);
	}
	if (!cJSON_GetObjectItem(root, "ipi")) {
		cJSON *ipi = cJSON_AddObjectToObject(root, "ipi");

		sl_json_add_u64(ipi, "sent", 0);
		cJSON_AddObjectToObject(ipi, "by_callsite");
		sl_json_add_u64(ipi, "wakelist_wakeups", 0);
		sl_json_add_u64(ipi, "direct_remote_wakeups", 0);
	}
	summary_json(m, root);
	findings_json(m, root);
	sl_json_utf8(root);
	return root;
}

cJSON *sl_report_json(struct sl_model *m, const char *path)
{
	cJSON *root = report_json(m, path);

	sl_json_lists_fill(m, root);
	return root;
}

bool sl_report_json_write(struct sl_model *m, const char *path, FILE *out)
{
	cJSON *root = report_json(m, path);
	bool ok = sl_json_print_streamed(m, root, out);

	cJSON_Delete(root);
	sl_json_lists_free(m);
	return ok;
}
