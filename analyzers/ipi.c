// SPDX-License-Identifier: GPL-2.0
/*
 * ipi.c - inter-processor interrupts and how remote wakeups reach their CPU
 *
 * What it measures (SPEC "Measurements": IPIs): IPIs sent, by callsite
 * (x86 and others since 6.6: ipi:ipi_send_cpu / ipi_send_cpumask, whose
 * callsite and callback name the reason; arm64: ipi:ipi_raise with its
 * reason string) and how many CPUs they targeted; IPIs received, by x86
 * vector (irq_vectors:reschedule_entry, call_function_entry,
 * call_function_single_entry; the only IPI evidence before 6.6) or arm64
 * reason (ipi:ipi_entry); smp_call_function work items (csd:csd_queue_cpu,
 * csd:csd_function_entry, 6.6+) by function.
 *
 * Remote wakeups (the wakee's destination is not the waker's CPU) by how
 * they were delivered: through the wakelist ("Reduce ttwu rq->lock
 * contention", today's ttwu_queue_wakelist: the waker queues the task on
 * the target CPU's wake list and kicks it with an IPI; sched_wakeup is then
 * logged on the target CPU, inside the IPI) or directly (the waker takes
 * the remote runqueue lock and logs sched_wakeup itself, then maybe sends
 * a reschedule IPI).  They are counted at their sched_wakeup; whether an
 * IPI went to the destination for them (the model ties an IPI sent by the
 * waker's CPU to its last wakee) is settled when the wakee runs, because
 * the direct path's reschedule IPI comes after sched_wakeup.  Also the
 * delay from the IPI send to the sched_wakeup it caused (wakelist), and
 * sched_wake_idle_without_ipi: an idle CPU polling its need-resched flag
 * is woken without an IPI.
 *
 * Blind spots: without ipi_send_* / ipi_raise events whether a wakeup had
 * an IPI is unknown (null in the JSON), and without any IPI events the
 * counts are 0 with events_present false.  On kernels without
 * sched_waking the waker is whoever logged sched_wakeup, so a wakelist
 * wakeup (logged on the target) looks local.  Traces without sched_wakeup
 * (perf sched record) cannot tell the wakelist from the direct path.
 */
#include <cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "schedlint/analyzer.h"
#include "schedlint/report.h"
#include "util/util.h"

#define IPI_TEXT_NAMES 6	/* callsites, vectors, functions shown per line */

/* counts by interned string (callsite, vector event, function) */
struct name_counts {
	uint64_t *n;
	size_t alloc;
};

struct ipi_priv {
	bool have_events;		/* any ipi:*, irq_vectors IPI entry or csd:* event */
	bool have_send_events;		/* ipi_send_cpu/_cpumask or ipi_raise: sends are known */

	uint64_t sent;			/* send events (one per event, not per target) */
	uint64_t sent_targets;		/* CPUs they were sent to */
	struct name_counts by_callsite;	/* sends by callsite, or arm64 reason */
	struct name_counts by_callback;	/* sends by callback function (when given) */
	uint64_t received;
	struct name_counts received_by;	/* by x86 vector event name or arm64 reason */
	uint64_t csd_queued, csd_run;
	struct name_counts csd_queued_by, csd_run_by;	/* by function */

	uint64_t remote_wakeups;
	uint64_t wakelist_wakeups;	/* sched_wakeup logged on the target CPU */
	uint64_t direct_remote_wakeups;	/* sched_wakeup logged on the waker's CPU */
	uint64_t with_ipi;		/* remote wakeups with an IPI to the destination */
	uint64_t wakelist_without_ipi;	/* wakelist wakeups whose CPU needed no IPI */
	uint64_t wake_idle_without_ipi;
	struct sl_hist send_to_wakeup;	/* IPI send -> sched_wakeup, wakelist wakeups */

	/*
	 * By task index (sl_task.index): a dense array, not a task slot.  A
	 * slot sits in each task's own 1.2 kB, a cache miss at nearly every
	 * sched_wakeup and switch-in on hackbench; the tasks alive share a
	 * few lines here.  A folded task's entry is cleared (ipi_fold_task())
	 * for the next task of its index; a frozen one keeps its entry.
	 */
	struct ipi_task *tasks;
	size_t alloc_tasks;
};

/* Per task: its last remote wakeup, waiting for the IPI verdict. */
struct ipi_task {
	uint64_t seq;			/* wake_seq of the last sched_wakeup looked at */
	bool awaiting;			/* counted; with or without IPI not settled yet */
	bool wakelist;
};

/* t's entry, NULL when it has none yet (all zero) */
static struct ipi_task *task_of(const struct ipi_priv *p, const struct sl_task *t)
{
	return t->index < p->alloc_tasks ? &p->tasks[t->index] : NULL;
}

static void count_name(struct name_counts *c, uint32_t id)
{
	GROW(c->n, c->alloc, (size_t)id + 1);
	c->n[id]++;
}

static uint64_t popcount_mask(const struct sl_cpumask_ref *m)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < m->nr_words; i++)
		n += (uint64_t)__builtin_popcountll(m->words[i]);
	return n;
}

/*
 * note_wakeup()'s count of t's sched_wakeup, it->seq not yet this wakeup's.
 * listed: --pid or --comm (a call to sl_filter_task_list()), else the
 * workload alone decides, inline.
 */
static inline void count_wakeup(struct ipi_priv *p, struct sl_model *m, const struct sl_event *ev,
				struct sl_task *t, struct ipi_task *it, bool listed)
{
	it->seq = t->wake_seq;
	it->awaiting = false;
	if (t->waker_cpu < 0 || t->cpu == t->waker_cpu)
		return;		/* local */
	if (!(listed ? sl_filter_task(m->cfg, m->strtab, t) :
		       !m->cfg->workload_active || t->in_workload) ||
	    !sl_filter_cpu(m->cfg, t->cpu) || !sl_filter_time(m->cfg, m->now))
		return;
	p->remote_wakeups++;
	it->awaiting = true;
	it->wakelist = ev->cpu != t->waker_cpu;
	if (!it->wakelist) {
		p->direct_remote_wakeups++;
		return;
	}
	p->wakelist_wakeups++;
	if (t->ipi_sent && t->wakeup_ts >= t->ipi_ts)
		sl_hist_add(&p->send_to_wakeup, t->wakeup_ts - t->ipi_ts);
}

/* note_wakeup() with its calls: t's entry to be made, or the tasks listed by --pid/--comm */
static __attribute__((noinline))
void note_wakeup_slow(struct ipi_priv *p, struct sl_model *m, const struct sl_event *ev,
		      struct sl_task *t)
{
	struct ipi_task *it;

	GROW(p->tasks, p->alloc_tasks, (size_t)t->index + 1);
	it = &p->tasks[t->index];
	if (it->seq == t->wake_seq)
		return;
	count_wakeup(p, m, ev, t, it, true);
}

/*
 * A sched_wakeup the model just applied: a remote wakeup to count?  The
 * wakeups that need a call (t's entry made, a task list) are
 * note_wakeup_slow()'s: the others save no register.
 */
static inline void note_wakeup(struct sl_analyzer *a, struct sl_model *m, const struct sl_event *ev)
{
	struct ipi_priv *p = a->priv;
	struct sl_task *t = m->wakeup_task;	/* ev->wake.pid's */
	struct ipi_task *it;

	/* only the wakeup of a blocked task enqueues it here and now (rule 4) */
	if (!t || t->state != SL_TASK_QUEUED || t->wakeup_cpu != ev->cpu || t->wakeup_ts != m->now)
		return;
	if (t->index >= p->alloc_tasks ||
	    !(m->cfg->no_task_list || (!m->cfg->nr_pids && !m->cfg->nr_comms))) {
		note_wakeup_slow(p, m, ev, t);
		return;
	}
	it = &p->tasks[t->index];
	if (it->seq == t->wake_seq)
		return;
	count_wakeup(p, m, ev, t, it, false);
}

/* The wakee runs (or the trace ends): was there an IPI for its wakeup? */
static void settle(struct ipi_priv *p, const struct sl_task *t)
{
	struct ipi_task *it = task_of(p, t);

	if (!it || !it->awaiting || it->seq != t->wake_seq)
		return;
	it->awaiting = false;
	if (t->ipi_sent)
		p->with_ipi++;
	else if (it->wakelist)
		p->wakelist_without_ipi++;
}

/* the IPI events (ipi_on_event() but a sched_wakeup): out of line, with their calls */
static __attribute__((noinline))
void ipi_other_event(struct sl_analyzer *a, struct sl_model *m, const struct sl_event *ev)
{
	struct ipi_priv *p = a->priv;
	bool in;

	in = sl_filter_cpu(m->cfg, ev->cpu) && sl_filter_time(m->cfg, ev->ts);
	switch (ev->type) {
	case SL_EV_IPI_SEND_CPU:
	case SL_EV_IPI_SEND_CPUMASK:
	case SL_EV_IPI_RAISE:
		p->have_events = p->have_send_events = true;
		if (!in)
			break;
		p->sent++;
		p->sent_targets += ev->ipi.target_cpu >= 0 ? 1 : popcount_mask(&ev->ipi.mask);
		count_name(&p->by_callsite, ev->ipi.callsite);
		if (ev->ipi.callback)
			count_name(&p->by_callback, ev->ipi.callback);
		break;
	case SL_EV_IPI_ENTRY:
	case SL_EV_IRQ_VECTOR:
		p->have_events = true;
		if (!in)
			break;
		p->received++;
		count_name(&p->received_by, ev->type == SL_EV_IPI_ENTRY ? ev->ipi.callsite : ev->name);
		break;
	case SL_EV_CSD_QUEUE:
		p->have_events = true;
		if (!in)
			break;
		p->csd_queued++;
		count_name(&p->csd_queued_by, ev->ipi.callback);
		break;
	case SL_EV_CSD_FUNC_ENTRY:
		p->have_events = true;
		if (!in)
			break;
		p->csd_run++;
		count_name(&p->csd_run_by, ev->ipi.callback);
		break;
	case SL_EV_WAKE_IDLE_NO_IPI:
		if (sl_filter_cpu(m->cfg, ev->idle_no_ipi.target_cpu) && sl_filter_time(m->cfg, ev->ts))
			p->wake_idle_without_ipi++;
		break;
	default:
		break;
	}
}

/**
 * ipi_on_event - count IPIs sent and received, csd work, remote wakeups
 */
static void ipi_on_event(struct sl_analyzer *a, struct sl_model *m, const struct sl_event *ev)
{
	if (ev->type == SL_EV_WAKEUP)	/* most of the calls: no filter of the event's own */
		note_wakeup(a, m, ev);
	else
		ipi_other_event(a, m, ev);
}

static void ipi_on_switch(struct sl_analyzer *a, struct sl_model *m, const struct sl_switch_info *sw)
{
	if (sw->next)
		settle(a->priv, sw->next);
}

static void ipi_finish(struct sl_analyzer *a, struct sl_model *m)
{
	for (uint32_t i = 0; i < m->nr_tasks; i++)	/* a frozen one awaits nothing: ipi_task_in_use() */
		if (!m->tasks[i]->frozen)
			settle(a->priv, m->tasks[i]);
}

/* --- report --- */

struct name_count {
	const char *name;
	uint64_t n;
};

static int by_count_desc(const void *x, const void *y)
{
	const struct name_count *a = x, *b = y;

	if (a->n != b->n)
		return a->n < b->n ? 1 : -1;
	return strcmp(a->name, b->name);
}

/* The non-zero counts, most first (allocated; *nr entries). */
static struct name_count *sorted_names(const struct sl_model *m, const struct name_counts *c, size_t *nr)
{
	struct name_count *v = xcalloc(c->alloc + 1, sizeof(*v));

	*nr = 0;
	for (size_t id = 0; id < c->alloc; id++)
		if (c->n[id])
			v[(*nr)++] = (struct name_count){ sl_str(m->strtab, (uint32_t)id), c->n[id] };
	qsort(v, *nr, sizeof(*v), by_count_desc);
	return v;
}

/* ": a 12, b 3, c 1 (+2 more)" */
static void print_names(struct sl_report *r, const struct sl_model *m, const struct name_counts *c)
{
	size_t nr;
	struct name_count *v = sorted_names(m, c, &nr);

	for (size_t i = 0; i < nr && i < IPI_TEXT_NAMES; i++)
		fprintf(r->out, "%s%s %" PRIu64, i ? ", " : ": ", v[i].name, v[i].n);
	if (nr > IPI_TEXT_NAMES)
		fprintf(r->out, " (+%zu more)", nr - IPI_TEXT_NAMES);
	free(v);
}

static void ipi_report_text(struct sl_analyzer *a, struct sl_model *m, struct sl_report *r)
{
	struct ipi_priv *p = a->priv;

	/*
	 * A heading only over something: IPI entries traced but none in
	 * --from/--to or --cpus, without send events, would leave it empty
	 * (sends, when traced, are listed even at 0: none were sent)
	 */
	if (!p->have_send_events && !p->received && !p->csd_queued && !p->csd_run &&
	    !p->remote_wakeups && !p->wake_idle_without_ipi && !p->send_to_wakeup.count)
		return;
	sl_report_section(r, "IPIs and remote wakeups");
	if (p->have_send_events) {
		fprintf(r->out, "  sent      %" PRIu64 " (to %" PRIu64 " CPUs)", p->sent, p->sent_targets);
		print_names(r, m, &p->by_callsite);
		fputc('\n', r->out);
	}
	if (p->received) {
		fprintf(r->out, "  received  %" PRIu64, p->received);
		print_names(r, m, &p->received_by);
		fputc('\n', r->out);
	}
	if (p->csd_queued || p->csd_run) {
		fprintf(r->out, "  csd       %" PRIu64 " queued", p->csd_queued);
		print_names(r, m, &p->csd_queued_by);
		fprintf(r->out, "; %" PRIu64 " run\n", p->csd_run);
	}
	if (p->remote_wakeups) {
		fprintf(r->out, "  remote wakeups %" PRIu64 ": %" PRIu64 " via the wakelist (sched_wakeup"
			" on the target), %" PRIu64 " direct", p->remote_wakeups, p->wakelist_wakeups,
			p->direct_remote_wakeups);
		if (p->have_send_events)
			fprintf(r->out, "; %" PRIu64 " with an IPI, %" PRIu64 " wakelist without",
				p->with_ipi, p->wakelist_without_ipi);
		fputc('\n', r->out);
	}
	if (p->wake_idle_without_ipi)
		fprintf(r->out, "  %" PRIu64 " wakeups of a polling idle CPU without an IPI"
			" (sched_wake_idle_without_ipi)\n", p->wake_idle_without_ipi);
	if (p->send_to_wakeup.count) {
		fputc('\n', r->out);
		sl_report_latency_header(r, 20);
		sl_report_latency_row(r, 20, "IPI -> sched_wakeup", &p->send_to_wakeup);
	}
}

static void names_json(const struct sl_model *m, cJSON *obj, const char *name,
		       const struct name_counts *c)
{
	cJSON *o = cJSON_AddObjectToObject(obj, name);
	size_t nr;
	struct name_count *v = sorted_names(m, c, &nr);

	for (size_t i = 0; i < nr; i++)
		sl_json_add_u64(o, v[i].name, v[i].n);
	free(v);
}

/* a count that is only known when the trace has IPI-send events */
static void known_u64(cJSON *obj, const char *name, bool known, uint64_t v)
{
	if (known)
		sl_json_add_u64(obj, name, v);
	else
		cJSON_AddNullToObject(obj, name);
}

static void ipi_report_json(struct sl_analyzer *a, struct sl_model *m, cJSON *root)
{
	struct ipi_priv *p = a->priv;
	cJSON *ipi = cJSON_AddObjectToObject(root, "ipi");
	cJSON *csd;

	cJSON_AddBoolToObject(ipi, "events_present", p->have_events);
	sl_json_add_u64(ipi, "sent", p->sent);
	sl_json_add_u64(ipi, "sent_targets", p->sent_targets);
	names_json(m, ipi, "by_callsite", &p->by_callsite);
	names_json(m, ipi, "by_callback", &p->by_callback);
	sl_json_add_u64(ipi, "received_total", p->received);
	names_json(m, ipi, "received", &p->received_by);
	sl_json_add_u64(ipi, "remote_wakeups", p->remote_wakeups);
	sl_json_add_u64(ipi, "wakelist_wakeups", p->wakelist_wakeups);
	sl_json_add_u64(ipi, "direct_remote_wakeups", p->direct_remote_wakeups);
	known_u64(ipi, "remote_wakeups_with_ipi", p->have_send_events, p->with_ipi);
	known_u64(ipi, "wakelist_without_ipi", p->have_send_events, p->wakelist_without_ipi);
	sl_json_add_u64(ipi, "wake_idle_without_ipi", p->wake_idle_without_ipi);
	cJSON_AddItemToObject(ipi, "send_to_wakeup", sl_hist_json(&p->send_to_wakeup));
	csd = cJSON_AddObjectToObject(ipi, "csd");
	sl_json_add_u64(csd, "queued", p->csd_queued);
	names_json(m, csd, "queued_by_func", &p->csd_queued_by);
	sl_json_add_u64(csd, "run", p->csd_run);
	names_json(m, csd, "run_by_func", &p->csd_run_by);
}

static int ipi_init(struct sl_analyzer *a, struct sl_model *m)
{
	struct ipi_priv *p = a->priv;

	sl_hist_init(&p->send_to_wakeup);
	return 0;
}

static void ipi_destroy(struct sl_analyzer *a, struct sl_model *m)
{
	struct ipi_priv *p = a->priv;
	struct name_counts *all[] = {
		&p->by_callsite, &p->by_callback, &p->received_by, &p->csd_queued_by, &p->csd_run_by,
	};

	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		free(all[i]->n);
	sl_hist_free(&p->send_to_wakeup);
	free(p->tasks);
}

/* A wakeup counted, with or without IPI not settled yet. */
static bool ipi_task_in_use(struct sl_analyzer *a, struct sl_model *m, const struct sl_task *t)
{
	const struct ipi_task *it = task_of(a->priv, t);

	return it && it->awaiting;
}

/* t is folded: its index goes to a new task, which starts with a zeroed entry. */
static void ipi_fold_task(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t)
{
	struct ipi_task *it = task_of(a->priv, t);

	if (it)
		*it = (struct ipi_task){ 0 };
}

const struct sl_analyzer_ops sl_ipi_analyzer = {
	.name = "ipi",
	.priv_size = sizeof(struct ipi_priv),
	.init = ipi_init,
	.on_event = ipi_on_event,
	.event_types = SL_EV_BIT(SL_EV_IPI_SEND_CPU) | SL_EV_BIT(SL_EV_IPI_SEND_CPUMASK) |
		       SL_EV_BIT(SL_EV_IPI_RAISE) | SL_EV_BIT(SL_EV_IPI_ENTRY) |
		       SL_EV_BIT(SL_EV_IRQ_VECTOR) | SL_EV_BIT(SL_EV_CSD_QUEUE) |
		       SL_EV_BIT(SL_EV_CSD_FUNC_ENTRY) | SL_EV_BIT(SL_EV_WAKE_IDLE_NO_IPI) |
		       SL_EV_BIT(SL_EV_WAKEUP),
	.on_switch = ipi_on_switch,
	.task_in_use = ipi_task_in_use,
	.fold_task = ipi_fold_task,
	.finish = ipi_finish,
	.report_text = ipi_report_text,
	.report_json = ipi_report_json,
	.destroy = ipi_destroy,
};
