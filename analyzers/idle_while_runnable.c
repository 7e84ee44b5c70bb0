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
 * How, in time linear in the events (issue 25, reproduction 04: a walk of
 * the waiters at each idle period's end was waiters x idle periods): each
 * CPU keeps the idle periods of at least the threshold that a wait still
 * going may overlap, oldest first, each one longer than every later one
 * (a later one at least as long overlaps any such wait by as much).  When
 * a wait ends it looks them up: the first one ending after the wait began
 * may straddle its start, the next is the longest of the rest -- a binary
 * search per CPU of its LLC, and the CPUs idle now.  Short waits cost
 * O(1), and so do long ones that cannot make a finding (no long idle
 * period ended since they began, and a floor under the idle CPUs' start
 * times, exact after each pass, says none idle now reaches).  The picture
 * of a finding is taken at the end of the event that ended its wait.
 * Lost events end the waits of their CPU and the idle period of their
 * CPU at the gap's start; because a gap is only learned at the CPU's
 * next event, the findings are held (held.h) and checked against every
 * gap at the end, together with affinity.
 *
 * Affinity as for wakee-stacking (held.h): with recorded masks, the
 * longest overlap with an idle CPU the task was allowed on then (every
 * CPU's longest overlap is kept with the candidate for that); without,
 * migratable when seen on two CPUs since the last stopper move (the dd
 * hogs of testdata/real/hogs.dat, pinned by taskset after they started on
 * CPU 1, are judged from after their move: pinned).
 *
 * Blind spots: without recorded masks, a task allowed on a few CPUs looks
 * migratable to all once seen on two; the idle CPU may have been kept idle on purpose (nohz idle balancing
 * not yet due, power policy, isolated CPUs); a wait cut by a gap found
 * only at the end keeps its idle CPU even if another was longer idle, and
 * one cut at a gap's start learnt later may miss an earlier idle period
 * that a later, longer one (clipped by the cut) had replaced; a waiting
 * task the model lost track of (lost events) has no wait.
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
#include "whatif.h"

#define HELD_SLACK	64
#define PICTURES_KEPT	16
#define SHOWN		5
#define SHOWN_PICTURES	3

/* T's longest overlap with one idle CPU's idle periods. */
struct iwr_overlap {
	uint64_t len, start;
	int32_t cpu;
};

struct iwr_detail {
	int32_t busy_cpu;		/* where T waited */
	uint64_t start;			/* the wait began */
	uint64_t end;			/* the wait ended */
	uint8_t affinity;		/* enum sl_aff_source, set at the end */
	uint32_t nr_over;		/* T's affinity is recorded: every CPU's longest */
	struct iwr_overlap *over;	/* overlap of the threshold or more, by CPU */
	uint32_t nr_idle;
	int32_t idle[];			/* CPUs of the LLC idle at some point of the wait */
};

/* An idle period of --idle-threshold or more that is over. */
struct idle_period {
	uint64_t start, end;
};

struct iwr_cpu {
	bool idle;			/* idle (SPEC definition) since idle_since */
	uint64_t idle_since;
	uint64_t last_idle_end;		/* its last idle period ended then; 0 never */
	/*
	 * Its long idle periods that a wait still going may overlap, oldest
	 * first, each longer than every later one (a later period at least
	 * as long overlaps any wait the earlier one does by at least as
	 * much): long[head .. head + nr).
	 */
	struct idle_period *longp;
	uint32_t head, nr, alloc;
};

struct iwr_task {
	struct sl_held_tally tally;	/* candidates beyond the held list */
	/* its finding's picture: due at the end of the event that ended the wait */
	bool pic_due;
	int32_t key_cpu;
	uint64_t key_ts, key_cost;
	/* last: what its enqueues and dequeues touch, next to the slot after (accounting's) */
	bool waiting;			/* queued on cpu since wait_since(), on the waiters list */
	int32_t cpu;
	struct sl_task *prev, *next;	/* the waiters list, oldest wait first */
};

struct iwr_priv {
	struct sl_task *head, *tail;	/* waiting tasks in order of wait start */
	struct sl_task **due;		/* tasks whose picture is due */
	size_t nr_due, alloc_due;
	int32_t *scratch;		/* idle CPUs of one wait */
	size_t alloc_scratch;
	struct iwr_overlap *over;	/* the CPUs' longest overlaps with one wait */
	size_t alloc_over;
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
	uint64_t last_long_end;		/* the latest end of a long idle period, 0 none */
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

static void iwr_fields(const struct sl_finding *f, const struct sl_model *m, struct sl_fields *o)
{
	const struct iwr_detail *d = f->detail;

	sl_fields_i64(o, "busy_cpu", d->busy_cpu);
	sl_fields_u64(o, "start_ns", d->start);
	sl_fields_ints(o, "idle_cpus", d->idle, d->nr_idle);
	/* additions */
	sl_fields_u64(o, "wait_ns", sl_dur(d->start, d->end));
	sl_fields_str(o, "affinity", sl_aff_source_names[d->affinity]);
}

static void iwr_detail_free(void *detail)
{
	struct iwr_detail *d = detail;

	if (d)
		free(d->over);
	free(d);
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
	.fields = iwr_fields,
	.free_detail = iwr_detail_free,
};

/* --- pictures, taken once the event that made them due is applied --- */

static void picture_due(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t,
			struct iwr_task *it)
{
	struct iwr_priv *p = a->priv;

	if (it->pic_due)
		return;
	it->pic_due = true;
	GROW(p->due, p->alloc_due, p->nr_due + 1);
	p->due[p->nr_due++] = t;
	sl_model_after_event(m, a);	/* iwr_after_event() takes it */
}

static void take_due_pictures(struct sl_analyzer *a, struct sl_model *m)
{
	struct iwr_priv *p = a->priv;

	for (size_t i = 0; i < p->nr_due; i++) {
		struct sl_task *t = p->due[i];
		struct iwr_task *it = slot(m, a, t);
		int must[2] = { it->key_cpu, it->cpu };
		struct sl_picture *pic;

		it->pic_due = false;
		if (!sl_picture_wanted(&p->pictures, it->key_cost))
			continue;	/* costlier findings came since */
		pic = sl_picture_get(&p->pictures);
		sl_picture_take(pic, m, it->cpu, t, must, 2);
		sl_picture_keep(&p->pictures, pic, it->key_cost, t->pid, it->key_ts, it->key_cpu);
	}
	p->nr_due = 0;
}

/*
 * When waiting t was queued: the model's since, the time it entered its
 * state, QUEUED, at the enqueue that started its wait (wait_started()),
 * unchanged while it waits.  Not a copy in the slot: 8 bytes fewer on
 * the line every enqueue and dequeue touch.
 */
static inline uint64_t wait_since(const struct sl_task *t)
{
	return t->since;
}

/* --- idle periods --- */

/*
 * cpu's idle period [idle_since, end] is over: keep it when it is long
 * enough to make a finding, dropping the earlier ones it outlasts and
 * those no wait still going can reach.
 */
static void idle_ended(struct sl_analyzer *a, struct sl_model *m, int cpu, uint64_t end)
{
	struct iwr_priv *p = a->priv;
	struct iwr_cpu *ic = sl_cpu_priv(m, a, cpu);
	uint64_t start = ic->idle_since, thr = m->cfg->idle_threshold_ns, len = sl_dur(start, end);
	uint64_t oldest = p->head ? wait_since(p->head) : UINT64_MAX;

	ic->idle = false;
	ic->last_idle_end = end;
	if (!--p->nr_idle)
		p->idle_floor = UINT64_MAX;
	if (len < thr || !thr)
		return;
	while (ic->nr && ic->longp[ic->head].end <= oldest) {
		ic->head++;
		ic->nr--;
	}
	while (ic->nr && sl_dur(ic->longp[ic->head + ic->nr - 1].start,
				ic->longp[ic->head + ic->nr - 1].end) <= len)
		ic->nr--;
	if (!ic->nr)
		ic->head = 0;
	if (ic->head + ic->nr == ic->alloc) {
		if (ic->head) {
			memmove(ic->longp, ic->longp + ic->head, ic->nr * sizeof(*ic->longp));
			ic->head = 0;
		} else {
			ic->alloc = ic->alloc ? 2 * ic->alloc : 4;
			ic->longp = xrealloc(ic->longp, ic->alloc * sizeof(*ic->longp));
		}
	}
	ic->longp[ic->head + ic->nr++] = (struct idle_period){ .start = start, .end = end };
	p->last_long_end = MAX(p->last_long_end, end);
}

/* The best overlap found so far: longest, then lowest CPU, then latest. */
#define overlap iwr_overlap

static void consider(struct overlap *best, uint64_t a, uint64_t b, int cpu)
{
	uint64_t len = sl_dur(a, b);

	if (b <= a || len < best->len || (len == best->len && best->len && cpu > best->cpu))
		return;
	best->len = len;
	best->start = a;
	best->cpu = cpu;
}

/*
 * The longest overlap of the wait [since, end] with the long idle periods
 * of ic that are over.  The first one ending after since may straddle it;
 * every later one lies inside the wait and is shorter than the one before,
 * so the next is the longest of them.  A wait cut short by lost events
 * (end before now) is clipped period by period.
 */
static void past_overlap(struct overlap *best, const struct iwr_cpu *ic, int cpu, uint64_t since,
			 uint64_t end, bool clipped)
{
	const struct idle_period *q;
	uint32_t lo = 0, hi = ic->nr;

	if (!ic->nr)
		return;		/* (and longp may be NULL: no NULL + 0) */
	q = ic->longp + ic->head;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (q[mid].end > since)
			hi = mid;
		else
			lo = mid + 1;
	}
	for (uint32_t i = lo; i < ic->nr && (clipped || i < lo + 2); i++)
		consider(best, MAX(q[i].start, since), MIN(q[i].end, end), cpu);
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
 *
 * The overlaps are looked up here, once per wait long enough to make a
 * finding, in each CPU's long idle periods: O(CPUs of the LLC x log) for
 * such a wait, O(1) for the others -- never a walk of the waiters.
 */
/* A wait long enough that an idle CPU may have overlapped it by the threshold: look */
static __attribute__((noinline))
void wait_judged(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t, struct iwr_task *it,
		 uint64_t since, uint64_t end)
{
	struct iwr_priv *p = a->priv;
	uint64_t thr = m->cfg->idle_threshold_ns, floor = UINT64_MAX;
	bool clipped = end < m->now;
	struct overlap best = { 0 };
	struct iwr_detail *d;
	struct sl_finding f;
	size_t nr_idle = 0, nr_over = 0;

	GROW(p->scratch, p->alloc_scratch, (size_t)m->nr_cpus);
	GROW(p->over, p->alloc_over, (size_t)m->nr_cpus);
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct iwr_cpu *ic = sl_cpu_priv(m, a, cpu);

		if (ic->idle)
			floor = MIN(floor, ic->idle_since);
		struct overlap here = { 0 };

		if (cpu == it->cpu || !sl_same_llc(m, it->cpu, cpu))
			continue;
		past_overlap(&here, ic, cpu, since, end, clipped);
		if (ic->idle)
			consider(&here, MAX(since, ic->idle_since), end, cpu);
		if (here.len >= thr) {
			if (here.len > best.len)
				best = here;
			/* with recorded affinity, the end picks among the CPUs allowed */
			if (t->nr_aff)
				p->over[nr_over++] = here;
		}
		if ((ic->idle && ic->idle_since < end) || ic->last_idle_end > since)
			p->scratch[nr_idle++] = cpu;
	}
	p->idle_floor = floor;
	if (best.len < thr)
		return;

	d = xcalloc(1, sizeof(*d) + nr_idle * sizeof(d->idle[0]));
	d->busy_cpu = it->cpu;
	d->start = since;
	d->end = end;
	d->nr_idle = (uint32_t)nr_idle;
	memcpy(d->idle, p->scratch, nr_idle * sizeof(d->idle[0]));
	if (nr_over) {
		d->over = xmalloc(nr_over * sizeof(*d->over));
		memcpy(d->over, p->over, nr_over * sizeof(*d->over));
		d->nr_over = (uint32_t)nr_over;
	}
	f = (struct sl_finding){
		.kind = SL_KIND_IDLE_WHILE_RUNNABLE, .ts = best.start, .cpu = best.cpu,
		.pid = t->pid, .comm = t->comm, .cost = best.len, .victim_in_workload = t->in_workload,
		.ops = &iwr_finding_ops, .detail = d,
	};
	f.whatif.cpu = best.cpu;
	if (!sl_held_add(m, &p->held[sl_held_known_migratable(m, t)], t, &f))
		return;
	/* the other decision: the idle CPU pulls t when it goes idle (a wakee's wait is its wakeup's) */
	whatif_victim(m, &(struct whatif_victim){
		.kind = SL_KIND_IDLE_WHILE_RUNNABLE, .task = t, .wake_seq = t->wake_valid ? t->wake_seq : 0,
		.start = since, .end = end, .fact = f.cost, .cpu = it->cpu, .alt_cpu = f.cpu,
		.waker_cpu = -1, .key_ts = f.ts, .key_pid = f.pid,
	});
	if (!sl_picture_wanted(&p->pictures, f.cost))
		return;
	it->key_ts = f.ts;
	it->key_cpu = f.cpu;
	it->key_cost = f.cost;
	picture_due(a, m, t, it);
}

/* t's wait on its CPU ends: most are short, or overlap no idle CPU that long */
static inline void wait_ended(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t, uint64_t end)
{
	struct iwr_priv *p = a->priv;
	struct iwr_task *it = slot(m, a, t);
	uint64_t thr = m->cfg->idle_threshold_ns, since = wait_since(t);

	unlink_waiter(p, m, a, it);
	if (sl_dur(since, end) < thr || !thr)
		return;
	/*
	 * A long period that overlaps the wait by thr ends thr after its
	 * start or later, and a CPU idle now does so by at most end -
	 * idle_floor: on a busy machine no wait gets past this.
	 */
	if (p->last_long_end < since + thr &&
	    (!p->nr_idle || end < thr || MAX(since, p->idle_floor) > end - thr))
		return;
	wait_judged(a, m, t, it, since, end);
}

/* --- following the model --- */

static enum sl_stand stands(void *ctx, const struct sl_model *m, struct sl_finding *f,
			    const struct sl_task *t);

static int iwr_init(struct sl_analyzer *a, struct sl_model *m)
{
	struct iwr_priv *p = a->priv;

	for (int i = 0; i < 2; i++)
		sl_held_init(&p->held[i], a, offsetof(struct iwr_task, tally),
			     m->cfg->max_findings * 4 + HELD_SLACK, stands, p);
	sl_picture_keeper_init(&p->pictures, PICTURES_KEPT);
	p->idle_floor = UINT64_MAX;
	return 0;
}

/* t, not waiting, waits on cpu from now: last on the waiters list */
static inline void wait_link(struct iwr_priv *p, struct sl_model *m, struct sl_analyzer *a,
			     struct sl_task *t, struct iwr_task *it, int cpu)
{
	it->waiting = true;
	it->cpu = cpu;
	it->prev = p->tail;
	it->next = NULL;
	if (p->tail)
		slot(m, a, p->tail)->next = t;
	else
		p->head = t;
	p->tail = t;
}

/* t, waiting, is enqueued again: the wait it had ends (maybe a finding), a new one starts */
static __attribute__((noinline))
void wait_restarted(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t, int cpu, uint64_t ts)
{
	wait_ended(a, m, t, ts);
	wait_link(a->priv, m, a, t, slot(m, a, t), cpu);
}

/*
 * t waits on cpu from ts.  The rare enqueue of a task waiting already is
 * wait_restarted()'s: its call in the middle made every enqueue save five
 * registers.
 */
static __attribute__((noinline))
void wait_started(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t, int cpu, uint64_t ts)
{
	struct iwr_task *it = slot(m, a, t);

	if (it->waiting) {
		wait_restarted(a, m, t, cpu, ts);
		return;
	}
	wait_link(a->priv, m, a, t, it, cpu);
}

/* An enqueue, or a dequeue: its wait's end, in a call without registers saved */
static void iwr_on_runnable(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t,
			    int cpu, uint64_t ts, bool enter)
{
	struct iwr_task *it = slot(m, a, t);

	if (enter)
		wait_started(a, m, t, cpu, ts);
	else if (it->waiting && it->cpu == cpu)
		wait_ended(a, m, t, ts);
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
 *
 * Its waits are its runqueue (the model loses those tasks right after).
 */
static void iwr_on_cpu_unknown(struct sl_analyzer *a, struct sl_model *m, int cpu,
			       uint64_t gap_start, uint64_t ts)
{
	struct iwr_priv *p = a->priv;
	struct iwr_cpu *ic = sl_cpu_priv(m, a, cpu);

	sl_gaps_add(&p->gaps, cpu, gap_start, ts);
	if (ic->idle)
		idle_ended(a, m, cpu, MAX(gap_start, ic->idle_since));
	for (struct sl_task *t = m->cpus[cpu].queued; t; t = t->q_next) {
		struct iwr_task *it = slot(m, a, t);

		if (it->waiting && it->cpu == cpu)
			wait_ended(a, m, t, MAX(gap_start, wait_since(t)));
	}
	take_due_pictures(a, m);	/* the state before the loss is applied */
}

/* the event that made pictures due is applied (asked by picture_due()) */
static void iwr_after_event(struct sl_analyzer *a, struct sl_model *m)
{
	take_due_pictures(a, m);
}

/* --- the verdict at the end --- */

/*
 * sl_held_decide(): with recorded affinity, the longest overlap with a CPU
 * T was allowed on then; cut the overlap at the first gap found later on
 * either CPU; false when too little is left.
 */
static enum sl_stand stands(void *ctx, const struct sl_model *m, struct sl_finding *f,
			    const struct sl_task *t)
{
	const struct iwr_priv *p = ctx;
	struct iwr_detail *d = f->detail;
	uint64_t end, thr = m->cfg->idle_threshold_ns, key_ts = f->ts;	/* the what-if's key */
	const struct sl_gap *g;

	if (t->nr_aff) {
		struct iwr_overlap best = { 0 };
		uint32_t kept = 0;

		for (uint32_t i = 0; i < d->nr_over; i++)
			if (sl_held_allowed(m, t, d->over[i].cpu, d->over[i].start) &&
			    d->over[i].len > best.len)
				best = d->over[i];
		if (!d->nr_over && sl_held_allowed(m, t, f->cpu, f->ts))
			best = (struct iwr_overlap){ .len = f->cost, .start = f->ts, .cpu = f->cpu };
		if (best.len < thr || !best.len) {
			whatif_held_verdict(m, f, key_ts, false, f->cpu);
			return SL_FALLS_AFFINITY;
		}
		f->cpu = best.cpu;
		f->ts = best.start;
		f->cost = best.len;
		for (uint32_t i = 0; i < d->nr_idle; i++)
			if (sl_held_allowed(m, t, d->idle[i], d->start))
				d->idle[kept++] = d->idle[i];
		d->nr_idle = kept;
	}
	end = f->ts + f->cost;
	g = sl_gaps_find(&p->gaps, d->busy_cpu, f->ts, end);
	if (g)
		end = MIN(end, g->start);
	g = sl_gaps_find(&p->gaps, f->cpu, f->ts, end);
	if (g)
		end = MIN(end, g->start);
	if (end <= f->ts || end - f->ts < thr) {
		whatif_held_verdict(m, f, key_ts, false, f->cpu);
		return SL_FALLS;
	}
	f->cost = end - f->ts;
	d->affinity = (uint8_t)sl_held_source(m, t);
	whatif_held_verdict(m, f, key_ts, true, f->cpu);
	return SL_STANDS;
}

static void iwr_finish(struct sl_analyzer *a, struct sl_model *m)
{
	struct iwr_priv *p = a->priv;

	/* waits still open at the end of the trace end there */
	while (p->head)
		wait_ended(a, m, p->head, m->last_ts);
	take_due_pictures(a, m);
	sl_held_decide(m, p->held, SL_KIND_IDLE_WHILE_RUNNABLE);
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

	if (!s->count && !sl_held_affinity_any(&p->held[0].aff))
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
	if (!s->count)
		fprintf(r->out, "  No wait of a migratable task overlapped an idle CPU of its LLC for "
			"%s.\n", fmt_duration(b1, sizeof(b1), m->cfg->idle_threshold_ns));
	else
		fprintf(r->out, "  %" PRIu64 " wait%s of migratable tasks overlapped an idle CPU of the same LLC "
		"for %s or more; their longest overlaps add up to %s (an idle period next to "
		"several waiters counts for each), worst %s.\n",
		s->count, s->count == 1 ? "" : "s",
		fmt_duration(b1, sizeof(b1), m->cfg->idle_threshold_ns),
		fmt_duration(b2, sizeof(b2), s->cost), fmt_duration(b3, sizeof(b3), s->max_cost));
	sl_held_affinity_text(r, &p->held[0].aff, "waits");
	if (!s->count)
		goto out;
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
		fprintf(r->out, "\n  %s#%zu  %s%s  cpu%d idle %s%s%s next to %s:%d%s\n     %s\n",
			sl_color(r, SL_C_BOLD), shown, fmt_ts(b1, sizeof(b1), f->ts), sl_color(r, SL_C_RESET),
			f->cpu, sl_color(r, SL_C_YELLOW), fmt_duration(b2, sizeof(b2), f->cost),
			sl_color(r, SL_C_RESET), sl_str(m->strtab, f->comm), f->pid,
			sl_recorder_note(m, f->pid), msg);
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

static void iwr_report_json(struct sl_analyzer *a, struct sl_model *m, cJSON *root)
{
	struct iwr_priv *p = a->priv;
	cJSON *o = cJSON_AddObjectToObject(root, "idle_while_runnable");

	sl_held_affinity_json(o, &p->held[0].aff);
}

static void iwr_destroy(struct sl_analyzer *a, struct sl_model *m)
{
	struct iwr_priv *p = a->priv;

	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct iwr_cpu *ic = sl_cpu_priv(m, a, cpu);

		free(ic->longp);
		ic->longp = NULL;
	}
	sl_held_free(&p->held[0]);
	sl_held_free(&p->held[1]);
	sl_gaps_free(&p->gaps);
	sl_picture_keeper_free(&p->pictures);
	free(p->due);
	free(p->scratch);
	free(p->over);
}

/* Waiting, a picture due, or a candidate to decide. */
static bool iwr_task_in_use(struct sl_analyzer *a, struct sl_model *m, const struct sl_task *t)
{
	const struct iwr_priv *p = a->priv;
	const struct iwr_task *it = sl_task_priv(m, a, t);

	return it->waiting || it->pic_due || it->prev || it->next || p->head == t || p->tail == t ||
	       sl_held_needs(m, &p->held[0], t);
}

const struct sl_analyzer_ops sl_idle_while_runnable_analyzer = {
	.name = "idle-while-runnable",
	.priv_size = sizeof(struct iwr_priv),
	.task_priv_size = sizeof(struct iwr_task),
	.cpu_priv_size = sizeof(struct iwr_cpu),
	.init = iwr_init,
	.after_event = iwr_after_event,
	.on_runnable = iwr_on_runnable,
	.on_cpu_idle = iwr_on_cpu_idle,
	.on_cpu_unknown = iwr_on_cpu_unknown,
	.task_in_use = iwr_task_in_use,
	.finish = iwr_finish,
	.report_text = iwr_report_text,
	.report_json = iwr_report_json,
	.destroy = iwr_destroy,
};
