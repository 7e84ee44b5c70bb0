// SPDX-License-Identifier: GPL-2.0
/*
 * idle_while_runnable.c - a CPU idles while a task that could run there waits
 *
 * What it flags (SPEC "idle-while-runnable", work conservation): a
 * migratable task T waits runnable (queued, not running) on CPU c while
 * another CPU d of the same LLC is idle (state known, the idle task
 * running, nothing queued or pending).  One finding per waiting interval
 * of T, when its longest overlap with one idle period of a single CPU is
 * at least --idle-threshold (1 ms); cost = that overlap, cpu = that idle
 * CPU (the lowest-numbered of equally long ones), ts = where the overlap
 * starts, busy_cpu = c, start_ns = the start of the wait, idle_cpus =
 * every CPU of the LLC idle at some point of the wait.  A migration ends
 * one waiting interval and starts another; a wakee's wait starts at its
 * enqueue (sched_wakeup), not in the ttwu_pending window before it.
 *
 * The kernel mechanism: CFS balances load periodically and when a CPU goes
 * idle (newidle balance), not when a task is queued behind another, so a
 * queued task can wait a slice or more while a sibling idles -- the gap
 * the shared wakequeue / shared runqueue series (seeds/004) set out to
 * close, and which their hackbench, tbench and schbench tables measure.
 *
 * How: each CPU's idle period is known by its start; when one ends, the
 * waiters that overlapped it by at least the threshold (a list in order of
 * wait start, walked from the oldest only that far) note it, and when a
 * wait ends the CPUs still idle are compared.  Short waits cost O(1),
 * and so do long ones that cannot make a finding: only a wait that
 * overlapped an idle period by the threshold -- one noted, or maybe one
 * still going (a floor under the idle CPUs' start times, exact after
 * each such pass, says) -- looks at every CPU of the LLC (a finding
 * lists those idle during the wait).
 * Lost events end the waits of their CPU and the idle period of their
 * CPU at the gap's start; because a gap is only learned at the CPU's
 * next event, the findings are held (held.h) and checked against every
 * gap at the end, together with affinity (seen running on two CPUs
 * anywhere in the trace, decided at the end; --assume-migratable takes
 * all but per-CPU kernel threads).
 *
 * Blind spots: no affinity masks in the trace (see wakee_stacking.c: a
 * task pinned after it ran on another CPU counts as migratable, like the
 * dd hogs of testdata/real/hogs.dat, whose waits on CPU 0 are findings);
 * the idle CPU may have been kept idle on purpose (nohz idle balancing
 * not yet due, power policy, isolated CPUs); a wait cut by a gap found
 * only at the end keeps its idle CPU even if another was longer idle; a
 * waiting task the model lost track of (lost events) has no wait.
 */
#include <cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "schedlint/analyzer.h"
#include "schedlint/held.h"
#include "schedlint/picture.h"
#include "schedlint/report.h"
#include "util/util.h"

#define HELD_SLACK	64
#define PICTURES_KEPT	16
#define SHOWN		5
#define SHOWN_PICTURES	3

struct iwr_detail {
	int32_t busy_cpu;		/* where T waited */
	uint64_t start;			/* the wait began */
	uint64_t end;			/* the wait ended */
	uint32_t nr_idle;
	int32_t idle[];			/* CPUs of the LLC idle at some point of the wait */
};

struct iwr_cpu {
	bool idle;			/* idle (SPEC definition) since idle_since */
	uint64_t idle_since;
	uint64_t last_idle_end;		/* its last idle period ended then; 0 never */
};

struct iwr_task {
	struct sl_held_tally tally;	/* candidates beyond the held list */
	bool waiting;			/* queued on cpu since `since`, on the waiters list */
	int32_t cpu;
	uint64_t since;
	struct sl_task *prev, *next;	/* the waiters list, oldest wait first */
	/* the longest overlap found so far in this wait */
	uint64_t best, best_start;
	int32_t best_cpu;
	/* the picture of the moment: due at the end of the current event */
	struct sl_picture *pic;
	bool pic_due;
	bool keyed;			/* its finding exists: keep the picture under this key */
	uint64_t key_ts, key_cost;
	int32_t key_cpu;
};

struct iwr_priv {
	struct sl_task *head, *tail;	/* waiting tasks in order of wait start */
	struct sl_task **due;		/* tasks whose picture is due */
	size_t nr_due, alloc_due;
	int32_t *scratch;		/* idle CPUs of one wait */
	size_t alloc_scratch;
	struct sl_held held[2];		/* candidates of tasks migratable already / not yet */
	struct sl_gaps gaps;
	struct sl_picture_keeper pictures;
	/*
	 * The CPUs idle now, and a floor under their idle_since: exact after
	 * each pass over the CPUs, lowered when one goes idle earlier, left
	 * alone (too low) when the earliest stops being idle.
	 */
	uint32_t nr_idle;
	uint64_t idle_floor;
};

static struct iwr_task *slot(struct sl_model *m, struct sl_analyzer *a, const struct sl_task *t)
{
	return sl_task_priv(m, a, t);
}

/* --- the finding --- */

static void iwr_message(const struct sl_finding *f, const struct sl_model *m, char *buf, size_t len)
{
	const struct iwr_detail *d = f->detail;
	char wait[32], cpus[128];

	sl_fmt_cpus(cpus, sizeof(cpus), d->idle, d->nr_idle);
	snprintf(buf, len, "waited %s queued on cpu%d while cpu%d idled; idle during the wait: cpu%s",
		 fmt_duration(wait, sizeof(wait), sl_dur(d->start, d->end)), d->busy_cpu, f->cpu, cpus);
}

static void iwr_json(const struct sl_finding *f, const struct sl_model *m, cJSON *obj)
{
	const struct iwr_detail *d = f->detail;
	cJSON *idle;

	sl_json_add_i64(obj, "busy_cpu", d->busy_cpu);
	sl_json_add_u64(obj, "start_ns", d->start);
	idle = cJSON_AddArrayToObject(obj, "idle_cpus");
	for (uint32_t i = 0; i < d->nr_idle; i++)
		cJSON_AddItemToArray(idle, cJSON_CreateNumber(d->idle[i]));
	/* additions */
	sl_json_add_u64(obj, "wait_ns", sl_dur(d->start, d->end));
}

/* the wait, on the CPU it waited on and the idle one */
static void iwr_moment(const struct sl_finding *f, const struct sl_model *m, struct sl_moment *out)
{
	const struct iwr_detail *d = f->detail;

	out->from = d->start;
	out->to = d->end;
	sl_moment_add_cpu(out, d->busy_cpu);
}

static const struct sl_finding_ops iwr_finding_ops = {
	.message = iwr_message,
	.moment = iwr_moment,
	.json = iwr_json,
};

/* --- pictures, taken once the event that made them due is applied --- */

static void picture_due(struct iwr_priv *p, struct sl_task *t, struct iwr_task *it)
{
	if (it->pic_due)
		return;
	it->pic_due = true;
	GROW(p->due, p->alloc_due, p->nr_due + 1);
	p->due[p->nr_due++] = t;
}

static void take_due_pictures(struct sl_analyzer *a, struct sl_model *m)
{
	struct iwr_priv *p = a->priv;

	for (size_t i = 0; i < p->nr_due; i++) {
		struct sl_task *t = p->due[i];
		struct iwr_task *it = slot(m, a, t);
		int must[2] = { it->keyed ? it->key_cpu : it->best_cpu, it->cpu };

		it->pic_due = false;
		if (!it->keyed && !it->waiting)
			continue;	/* its wait ended without a finding */
		if (!it->pic)
			it->pic = sl_picture_get(&p->pictures);
		sl_picture_take(it->pic, m, it->cpu, t, must, 2);
		if (it->keyed) {
			sl_picture_keep(&p->pictures, it->pic, it->key_cost, t->pid, it->key_ts, it->key_cpu);
			it->pic = NULL;
			it->keyed = false;
		}
	}
	p->nr_due = 0;
}

/* --- waits and idle periods --- */

static void consider(struct iwr_priv *p, struct sl_task *t, struct iwr_task *it, uint64_t overlap,
		     uint64_t start, int cpu, bool picture)
{
	if (overlap < it->best || (overlap == it->best && it->best && cpu > it->best_cpu))
		return;
	it->best = overlap;
	it->best_start = start;
	it->best_cpu = cpu;
	if (picture && sl_picture_wanted(&p->pictures, overlap))
		picture_due(p, t, it);
}

/* cpu's idle period [idle_since, end] is over: the waiters it overlapped enough note it */
static void idle_ended(struct sl_analyzer *a, struct sl_model *m, int cpu, uint64_t end)
{
	struct iwr_priv *p = a->priv;
	struct iwr_cpu *ic = sl_cpu_priv(m, a, cpu);
	uint64_t start = ic->idle_since, thr = m->cfg->idle_threshold_ns;

	ic->idle = false;
	ic->last_idle_end = end;
	if (!--p->nr_idle)
		p->idle_floor = UINT64_MAX;
	if (sl_dur(start, end) < thr || !thr)
		return;
	/* only waits that began thr before the end can overlap it by thr */
	for (struct sl_task *t = p->head; t; t = slot(m, a, t)->next) {
		struct iwr_task *it = slot(m, a, t);

		if (it->since > end - thr)
			break;
		if (it->cpu == cpu || !sl_same_llc(m, it->cpu, cpu))
			continue;
		consider(p, t, it, end - MAX(it->since, start), MAX(it->since, start), cpu, true);
	}
}

static void unlink_waiter(struct iwr_priv *p, struct sl_model *m, struct sl_analyzer *a,
			  struct iwr_task *it)
{
	if (it->prev)
		slot(m, a, it->prev)->next = it->next;
	else
		p->head = it->next;
	if (it->next)
		slot(m, a, it->next)->prev = it->prev;
	else
		p->tail = it->prev;
	it->prev = it->next = NULL;
	it->waiting = false;
}

/**
 * wait_ended - t stopped waiting on its CPU at end: is it a finding?
 */
static void wait_ended(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t, uint64_t end)
{
	struct iwr_priv *p = a->priv;
	struct iwr_task *it = slot(m, a, t);
	uint64_t thr = m->cfg->idle_threshold_ns;
	struct iwr_detail *d;
	struct sl_finding f;
	size_t nr_idle = 0;
	uint64_t walk_best, walk_start, bound, floor;
	int32_t walk_cpu;
	bool from_now;

	unlink_waiter(p, m, a, it);
	if (sl_dur(it->since, end) < thr)
		goto none;
	/* an overlap noted before may reach past a wait cut short by lost events */
	if (it->best && it->best_start + it->best > end)
		it->best = sl_dur(it->best_start, end);
	/*
	 * No CPU idle now overlaps the wait by more than end - idle_floor:
	 * when that and the overlaps noted before are all short, there is no
	 * finding, and no pass over the CPUs (every wait on a busy machine).
	 */
	bound = it->best;
	if (p->nr_idle) {
		uint64_t start = MAX(it->since, p->idle_floor);

		if (start < end)
			bound = MAX(bound, end - start);
	}
	if (bound < thr || !thr)
		goto none;
	floor = UINT64_MAX;
	walk_best = it->best;
	walk_start = it->best_start;
	walk_cpu = it->best_cpu;
	GROW(p->scratch, p->alloc_scratch, (size_t)m->nr_cpus);
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct iwr_cpu *ic = sl_cpu_priv(m, a, cpu);

		if (ic->idle)
			floor = MIN(floor, ic->idle_since);
		if (cpu == it->cpu || !sl_same_llc(m, it->cpu, cpu))
			continue;
		if (ic->idle && MAX(it->since, ic->idle_since) < end) {
			uint64_t start = MAX(it->since, ic->idle_since);

			consider(p, t, it, end - start, start, cpu, false);
		}
		if ((ic->idle && ic->idle_since < end) || ic->last_idle_end > it->since)
			p->scratch[nr_idle++] = cpu;
	}
	p->idle_floor = floor;
	/* the best overlap is with a CPU idle now, or with one that idled before */
	from_now = it->best != walk_best || it->best_start != walk_start || it->best_cpu != walk_cpu;
	if (it->best < thr || !thr)
		goto none;

	d = xcalloc(1, sizeof(*d) + nr_idle * sizeof(d->idle[0]));
	d->busy_cpu = it->cpu;
	d->start = it->since;
	d->end = end;
	d->nr_idle = (uint32_t)nr_idle;
	memcpy(d->idle, p->scratch, nr_idle * sizeof(d->idle[0]));
	f = (struct sl_finding){
		.kind = SL_KIND_IDLE_WHILE_RUNNABLE, .ts = it->best_start, .cpu = it->best_cpu,
		.pid = t->pid, .comm = t->comm, .cost = it->best, .victim_in_workload = t->in_workload,
		.ops = &iwr_finding_ops, .detail = d,
	};
	if (!sl_held_add(m, &p->held[sl_held_known_migratable(m, t)], t, &f) || !sl_picture_wanted(&p->pictures, f.cost))
		goto none;
	if (it->pic && !it->pic_due && !from_now) {
		/* taken when the idle period that gave the overlap ended */
		sl_picture_keep(&p->pictures, it->pic, f.cost, f.pid, f.ts, f.cpu);
		it->pic = NULL;
	} else {
		it->keyed = true;
		it->key_ts = f.ts;
		it->key_cpu = f.cpu;
		it->key_cost = f.cost;
		picture_due(p, t, it);
	}
	it->best = 0;
	return;
none:
	it->best = 0;
	if (!it->pic_due) {
		sl_picture_put(&p->pictures, it->pic);
		it->pic = NULL;
	}
}

/* --- following the model --- */

static int iwr_init(struct sl_analyzer *a, struct sl_model *m)
{
	struct iwr_priv *p = a->priv;

	for (int i = 0; i < 2; i++)
		sl_held_init(&p->held[i], a, offsetof(struct iwr_task, tally),
			     m->cfg->max_findings * 4 + HELD_SLACK);
	sl_picture_keeper_init(&p->pictures, PICTURES_KEPT);
	p->idle_floor = UINT64_MAX;
	return 0;
}

static void iwr_on_runnable(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t,
			    int cpu, uint64_t ts, bool enter)
{
	struct iwr_priv *p = a->priv;
	struct iwr_task *it = slot(m, a, t);

	if (!enter) {
		if (it->waiting && it->cpu == cpu)
			wait_ended(a, m, t, ts);
		return;
	}
	if (t->state != SL_TASK_QUEUED)
		return;		/* pending: placed, not enqueued yet */
	if (it->waiting)
		wait_ended(a, m, t, ts);
	it->waiting = true;
	it->cpu = cpu;
	it->since = ts;
	it->best = 0;
	it->prev = p->tail;
	it->next = NULL;
	if (p->tail)
		slot(m, a, p->tail)->next = t;
	else
		p->head = t;
	p->tail = t;
}

static void iwr_on_cpu_idle(struct sl_analyzer *a, struct sl_model *m, int cpu, uint64_t ts, bool idle)
{
	struct iwr_priv *p = a->priv;
	struct iwr_cpu *ic = sl_cpu_priv(m, a, cpu);

	if (idle && !ic->idle) {
		ic->idle = true;
		ic->idle_since = ts;
		p->nr_idle++;
		p->idle_floor = MIN(p->idle_floor, ts);
	} else if (!idle && ic->idle) {
		idle_ended(a, m, cpu, ts);
	}
}

/**
 * iwr_on_cpu_unknown - cpu lost events: its idle period and its waits end at the gap
 */
static void iwr_on_cpu_unknown(struct sl_analyzer *a, struct sl_model *m, int cpu,
			       uint64_t gap_start, uint64_t ts)
{
	struct iwr_priv *p = a->priv;
	struct iwr_cpu *ic = sl_cpu_priv(m, a, cpu);
	struct sl_task *t, *next;

	sl_gaps_add(&p->gaps, cpu, gap_start, ts);
	if (ic->idle)
		idle_ended(a, m, cpu, MAX(gap_start, ic->idle_since));
	for (t = p->head; t; t = next) {
		struct iwr_task *it = slot(m, a, t);

		next = it->next;
		if (it->cpu == cpu)
			wait_ended(a, m, t, MAX(gap_start, it->since));
	}
	take_due_pictures(a, m);	/* the state before the loss is applied */
}

static void iwr_on_event(struct sl_analyzer *a, struct sl_model *m, const struct sl_event *ev)
{
	struct iwr_priv *p = a->priv;

	if (p->nr_due)
		take_due_pictures(a, m);
}

/* --- the verdict at the end --- */

/*
 * sl_held_decide(): cut the overlap at the first gap found later on either
 * CPU; false when too little is left.
 */
static bool stands(void *ctx, const struct sl_model *m, struct sl_finding *f)
{
	const struct iwr_priv *p = ctx;
	const struct iwr_detail *d = f->detail;
	uint64_t end = f->ts + f->cost;
	const struct sl_gap *g;

	g = sl_gaps_find(&p->gaps, d->busy_cpu, f->ts, end);
	if (g)
		end = MIN(end, g->start);
	g = sl_gaps_find(&p->gaps, f->cpu, f->ts, end);
	if (g)
		end = MIN(end, g->start);
	if (end <= f->ts || end - f->ts < m->cfg->idle_threshold_ns)
		return false;
	f->cost = end - f->ts;
	return true;
}

static void iwr_finish(struct sl_analyzer *a, struct sl_model *m)
{
	struct iwr_priv *p = a->priv;

	/* waits still open at the end of the trace end there */
	while (p->head)
		wait_ended(a, m, p->head, m->last_ts);
	take_due_pictures(a, m);
	sl_held_decide(m, p->held, SL_KIND_IDLE_WHILE_RUNNABLE, stands, p);
}

/* --- the terminal report --- */

static void iwr_report_text(struct sl_analyzer *a, struct sl_model *m, struct sl_report *r)
{
	struct iwr_priv *p = a->priv;
	const struct sl_kind_summary *s = &m->findings->summary[SL_KIND_IDLE_WHILE_RUNNABLE];
	const struct sl_finding *all;
	struct sl_tally_row *busy, *idle, *tasks;
	size_t nr_all, nr_busy = 0, nr_idle = 0, nr_tasks = 0, listed = 0, shown = 0;
	char b1[32], b2[32], b3[32], msg[512];

	if (!s->count)
		return;
	all = sl_findings_sorted(m->findings, &nr_all);
	busy = xcalloc(nr_all + 1, sizeof(*busy));
	idle = xcalloc(nr_all + 1, sizeof(*idle));
	tasks = xcalloc(nr_all + 1, sizeof(*tasks));
	for (size_t i = 0; i < nr_all; i++) {
		const struct sl_finding *f = &all[i];

		if (f->kind != SL_KIND_IDLE_WHILE_RUNNABLE)
			continue;
		listed++;
		sl_tally_add(busy, &nr_busy, ((const struct iwr_detail *)f->detail)->busy_cpu, 0, f->cost);
		sl_tally_add(idle, &nr_idle, f->cpu, 0, f->cost);
		sl_tally_add(tasks, &nr_tasks, f->pid, f->comm, f->cost);
	}
	sl_tally_sort(busy, nr_busy);
	sl_tally_sort(idle, nr_idle);
	sl_tally_sort(tasks, nr_tasks);

	sl_report_section(r, "Idle while runnable (a CPU idled while a task waited in its LLC)");
	/* several waiters next to one idle period each count it: the sum is no idle time */
	fprintf(r->out, "  %" PRIu64 " wait%s of migratable tasks overlapped an idle CPU of the same LLC "
		"for %s or more; their longest overlaps add up to %s (an idle period next to "
		"several waiters counts for each), worst %s.\n",
		s->count, s->count == 1 ? "" : "s",
		fmt_duration(b1, sizeof(b1), m->cfg->idle_threshold_ns),
		fmt_duration(b2, sizeof(b2), s->cost), fmt_duration(b3, sizeof(b3), s->max_cost));
	if (!listed) {
		fputs("  None made the capped list of findings (--max-findings).\n", r->out);
		goto out;
	}
	if (listed < s->count)
		fprintf(r->out, "  Of the %zu most costly (the list is capped):\n", listed);
	sl_tally_print(r, m, "Waited on", busy, nr_busy, false);
	sl_tally_print(r, m, "Idle    ", idle, nr_idle, false);
	sl_tally_print(r, m, "Tasks   ", tasks, nr_tasks, true);

	for (size_t i = 0; i < nr_all && shown < (size_t)MIN(r->top, SHOWN); i++) {
		const struct sl_finding *f = &all[i];
		const struct iwr_detail *d = f->detail;
		const struct sl_picture *pic;

		if (f->kind != SL_KIND_IDLE_WHILE_RUNNABLE)
			continue;
		shown++;
		sl_finding_message(f, m, msg, sizeof(msg));
		fprintf(r->out, "\n  %s#%zu  %s%s  cpu%d idle %s%s%s next to %s:%d\n     %s\n",
			sl_color(r, SL_C_BOLD), shown, fmt_ts(b1, sizeof(b1), f->ts), sl_color(r, SL_C_RESET),
			f->cpu, sl_color(r, SL_C_YELLOW), fmt_duration(b2, sizeof(b2), f->cost),
			sl_color(r, SL_C_RESET), sl_str(m->strtab, f->comm), f->pid, msg);
		fprintf(r->out, "     queued %s, cpu%d idle %s .. %s, wait over %s\n",
			fmt_ts(b1, sizeof(b1), d->start), f->cpu, fmt_ts(b2, sizeof(b2), f->ts),
			fmt_ts(b3, sizeof(b3), f->ts + f->cost), fmt_ts(msg, sizeof(msg), d->end));
		sl_report_look_at(r, m, 5, f, true);
		pic = shown <= SHOWN_PICTURES ? sl_picture_find(&p->pictures, f->pid, f->ts, f->cpu) : NULL;
		if (pic) {
			struct sl_picture_mark marks[2] = {
				{ d->busy_cpu, "waited here" }, { f->cpu, "idled next to it" },
			};

			fprintf(r->out, "     at %s:\n", fmt_ts(b1, sizeof(b1), pic->ts));
			sl_picture_print(r->out, pic, m, "       ", marks, 2, 10);
		}
	}
	if (listed > shown)
		fprintf(r->out, "\n  (%zu more listed below and in --json)\n", listed - shown);
	sl_report_next_steps(r, m, SL_KIND_IDLE_WHILE_RUNNABLE);
out:
	free(busy);
	free(idle);
	free(tasks);
}

static void iwr_destroy(struct sl_analyzer *a, struct sl_model *m)
{
	struct iwr_priv *p = a->priv;

	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		struct iwr_task *it = slot(m, a, m->tasks[i]);

		sl_picture_put(&p->pictures, it->pic);
		it->pic = NULL;
	}
	sl_held_free(&p->held[0]);
	sl_held_free(&p->held[1]);
	sl_gaps_free(&p->gaps);
	sl_picture_keeper_free(&p->pictures);
	free(p->due);
	free(p->scratch);
}

const struct sl_analyzer_ops sl_idle_while_runnable_analyzer = {
	.name = "idle-while-runnable",
	.priv_size = sizeof(struct iwr_priv),
	.task_priv_size = sizeof(struct iwr_task),
	.cpu_priv_size = sizeof(struct iwr_cpu),
	.init = iwr_init,
	.on_event = iwr_on_event,
	.on_runnable = iwr_on_runnable,
	.on_cpu_idle = iwr_on_cpu_idle,
	.on_cpu_unknown = iwr_on_cpu_unknown,
	.finish = iwr_finish,
	.report_text = iwr_report_text,
	.destroy = iwr_destroy,
};
