// SPDX-License-Identifier: GPL-2.0
/*
 * wakee_stacking.c - wakeups placed on a busy CPU while another of its LLC idled
 *
 * What it flags (SPEC "wakee-stacking"): when a wakee's destination CPU c
 * is decided (the model's placement, SPEC rule 2), c is busy -- it runs a
 * task, has tasks queued, or has a wakeup pending other than this one --
 * while some CPU d of the same LLC is idle (state known, the idle task
 * running, nothing queued or pending).  The cost is the wakee's wakeup
 * latency, reported from --min-cost (50 us).  reason "pending" when c's
 * only load was wakeups not enqueued yet and c was inside the ttwu_pending
 * race window (sl_cpu_in_ttwu_window(): its wakelist handler had started
 * for them), "in-flight" when its only load was such wakeups outside that
 * window (or the trace cannot show the window: no handler events), else
 * "busy".
 *
 * The kernel mechanism: select_idle_sibling() looks for an idle CPU in the
 * target's LLC with idle_cpu(), which sees the running task, nr_running
 * and rq->ttwu_pending.  Before "sched: Clear ttwu_pending after
 * enqueue_task" (seeds/000) sched_ttwu_pending() cleared ttwu_pending
 * before it enqueued the pending wakees, so from the start of the target's
 * wakelist handler until the enqueue the CPU looked idle, and other wakers
 * stacked their wakees on it: schbench p99.5 went from 27 us to 3364 us.
 * That race is the "pending" reason.  Before the handler starts,
 * ttwu_pending is set and the CPU looks busy: an "in-flight" placement is
 * the kernel choosing a CPU it knew had a wakeup coming.  A "busy"
 * placement next to an idle sibling is the same waste for other reasons
 * (wake_affine pulling toward a busy waker, a search cut short by
 * SIS_UTIL, a stale idle view).
 *
 * Affinity (held.h): with the masks schedlint record writes into the
 * trace, only the idle CPUs the wakee was allowed on at the placement
 * count; without them, only migratable wakees count -- seen running on
 * two CPUs since their last move by a migration/N stopper, or, with
 * --assume-migratable, any task but a per-CPU kernel thread.  That is
 * known at the end only (a re-read is written after the change it
 * reports), and so is an idle CPU's gap in a ring buffer (learned at its
 * next event), so the candidates are held until finish: there, a
 * placement made on a CPU whose state turned out lost, or whose idle
 * CPUs all did or were not allowed, is dropped.
 *
 * Blind spots: without recorded masks, a task allowed on a few CPUs looks
 * migratable once seen on two, and idle CPUs it could not use (isolated,
 * another cpuset) count as idle.  A switch the trace does
 * not show leaves a CPU looking idle until its next event (the model
 * infers it then).  SMT siblings are not told from cores, and the kernel
 * may have had reasons (wake_affine, cache hotness) this does not weigh:
 * the finding says what it cost, not that the choice was wrong.
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

#define HELD_SLACK	64	/* held beyond --max-findings: some will be dropped at the end */
#define PICTURES_KEPT	16	/* a few more than shown: some held ones are dropped */
#define SHOWN		5	/* findings detailed in the terminal report */
#define SHOWN_PICTURES	3	/* ... with a picture of the moment */

enum stack_reason { REASON_BUSY = 0, REASON_PENDING, REASON_IN_FLIGHT, REASON__NR };
static const char *const reason_names[] = {
	[REASON_BUSY] = "busy", [REASON_PENDING] = "pending", [REASON_IN_FLIGHT] = "in-flight",
};

/* The kind's own fields, owned by the finding. */
struct stack_detail {
	int32_t waker_pid, waker_cpu;
	uint32_t waker_comm;		/* at the wakeup: for a waker the model folded since */
	int32_t prev_cpu;		/* where the wakee ran last, -1 unknown */
	uint8_t reason;			/* enum stack_reason */
	uint64_t placed_ts;		/* the destination was decided */
	uint8_t affinity;		/* enum sl_aff_source, set at the end */
	int32_t busy_pid;		/* what the destination ran then, 0 the idle task */
	uint32_t busy_comm;
	uint32_t nr_queued, nr_pending;	/* its waiting tasks then, the wakee not counted */
	uint32_t nr_idle;
	int32_t idle[];			/* the idle CPUs of its LLC then, ascending */
};

/* Per task: the placement waiting for its latency sample. */
struct stack_task {
	struct sl_held_tally tally;	/* candidates beyond the held list */
	uint8_t reason;
	uint64_t wake_seq;		/* armed (stack_priv.armed): a busy placement of this wakeup */
	uint64_t placed_ts;
	int32_t cpu, prev_cpu;
	int32_t busy_pid;
	uint32_t busy_comm, nr_queued, nr_pending;
	uint64_t *idle;			/* bitmap of the idle CPUs at the placement */
	uint32_t idle_words;
	struct sl_picture *pic;		/* the moment of the placement */
	sl_census_slot census;
};

struct stack_priv {
	struct sl_census census;	/* the idle (and unknown) CPUs per LLC */
	/*
	 * By task index (sl_task.index): a busy placement armed, the task's
	 * wakeup latency due, of the wakeup its slot's wake_seq names (a
	 * task has one placement per wakeup: one of an older wakeup never
	 * ran).  Here and not in the slot, so that the placements and
	 * latency samples of the others, nearly all, touch no slot: on
	 * hackbench, a cache miss each.
	 */
	uint64_t *armed;
	size_t armed_words;
	struct sl_held held[2];		/* candidates of tasks migratable already / not yet */
	struct sl_gaps gaps;
	struct sl_picture_keeper pictures;
};

static void bitmap_fit(uint64_t **w, uint32_t *nr_words, int nr_cpus)
{
	uint32_t need = (uint32_t)(nr_cpus + 63) / 64;

	if (need <= *nr_words)
		return;
	*w = xrealloc(*w, need * sizeof(**w));
	memset(*w + *nr_words, 0, (need - *nr_words) * sizeof(**w));
	*nr_words = need;
}

/* armed for some wakeup of t's, maybe an older one (see armed_now()) */
static bool armed(const struct stack_priv *p, const struct sl_task *t)
{
	return t->index / 64 < p->armed_words && (p->armed[t->index / 64] >> (t->index % 64) & 1);
}

/* armed for t's current wakeup */
static bool armed_now(const struct stack_priv *p, const struct sl_task *t, const struct stack_task *st)
{
	return armed(p, t) && st->wake_seq == t->wake_seq;
}

/* (t is armed: its word is there) */
static void disarm(struct stack_priv *p, const struct sl_task *t)
{
	p->armed[t->index / 64] &= ~(1ULL << (t->index % 64));
}

static void arm(struct stack_priv *p, const struct sl_task *t)
{
	GROW(p->armed, p->armed_words, (size_t)t->index / 64 + 1);	/* zeroed */
	p->armed[t->index / 64] |= 1ULL << (t->index % 64);
}

/* --- the finding --- */

static void stack_message(const struct sl_finding *f, const struct sl_model *m, char *buf, size_t len)
{
	const struct stack_detail *d = f->detail;
	const struct sl_task *waker = d->waker_pid > 0 ? sl_model_task(m, d->waker_pid) : NULL;
	uint32_t waiting = d->nr_queued + d->nr_pending;
	char cpus[128], load[128] = "", by[64];
	size_t n = 0;

	sl_fmt_cpus(cpus, sizeof(cpus), d->idle, d->nr_idle);
	if (d->reason == REASON_PENDING) {
		snprintf(load, sizeof(load), " in its ttwu_pending race window (%u wakeup%s "
			 "not enqueued, its wakelist handler running),",
			 d->nr_pending, d->nr_pending == 1 ? "" : "s");
	} else if (d->reason == REASON_IN_FLIGHT) {
		snprintf(load, sizeof(load), ", whose only load was %u wakeup%s in flight,",
			 d->nr_pending, d->nr_pending == 1 ? "" : "s");
	} else {
		if (d->busy_pid)
			n = (size_t)snprintf(load, sizeof(load), " running %s:%d%s",
					     sl_str(m->strtab, d->busy_comm), d->busy_pid,
					     sl_recorder_note(m, d->busy_pid));
		/* a long comm truncates load: n is what snprintf wanted to write */
		if (waiting && n < sizeof(load))
			snprintf(load + n, sizeof(load) - n, " with %u waiting", waiting);
	}
	if (d->waker_pid > 0)
		snprintf(by, sizeof(by), "%s:%d%s", waker ? sl_task_comm(m, waker) :
			 d->waker_comm ? sl_str(m->strtab, d->waker_comm) : "?", d->waker_pid,
			 sl_recorder_note(m, d->waker_pid));
	else
		snprintf(by, sizeof(by), "an interrupt");
	snprintf(buf, len, "woken by %s on cpu%d; placed on cpu%d%s while cpu%s %s idle",
		 by, d->waker_cpu, f->cpu, load, cpus, d->nr_idle > 1 ? "were" : "was");
}

static void stack_fields(const struct sl_finding *f, const struct sl_model *m, struct sl_fields *o)
{
	const struct stack_detail *d = f->detail;

	sl_fields_ints(o, "idle_cpus", d->idle, d->nr_idle);
	sl_fields_i64(o, "waker_pid", d->waker_pid);
	sl_fields_str(o, "reason", reason_names[d->reason]);
	/* additions */
	sl_fields_i64(o, "waker_cpu", d->waker_cpu);
	sl_fields_i64(o, "prev_cpu", d->prev_cpu);
	sl_fields_u64(o, "placed_ns", d->placed_ts);
	sl_fields_u64(o, "run_ns", f->ts + f->cost);
	sl_fields_i64(o, "busy_pid", d->busy_pid);
	sl_fields_u64(o, "queued", d->nr_queued);
	sl_fields_u64(o, "pending", d->nr_pending);
	sl_fields_str(o, "affinity", sl_aff_source_names[d->affinity]);
}

/* from the waking (on the waker's CPU) to the switch-in on the destination */
static void stack_moment(const struct sl_finding *f, const struct sl_model *m, struct sl_moment *out)
{
	const struct stack_detail *d = f->detail;

	out->from = f->ts;
	out->to = f->ts + f->cost;
	sl_moment_add_cpu(out, d->waker_cpu);
}

static const struct sl_finding_ops stack_finding_ops = {
	.message = stack_message,
	.moment = stack_moment,
	.fields = stack_fields,
};

/* --- following the model --- */

static enum sl_stand stands(void *ctx, const struct sl_model *m, struct sl_finding *f,
			    const struct sl_task *t);

static int stack_init(struct sl_analyzer *a, struct sl_model *m)
{
	struct stack_priv *p = a->priv;

	for (int i = 0; i < 2; i++)
		sl_held_init(&p->held[i], a, offsetof(struct stack_task, tally),
			     m->cfg->max_findings * 4 + HELD_SLACK, stands, p);
	sl_picture_keeper_init(&p->pictures, PICTURES_KEPT);
	return 0;
}

static void stack_on_cpu_idle(struct sl_analyzer *a, struct sl_model *m, int cpu, uint64_t ts, bool idle)
{
	struct stack_priv *p = a->priv;

	sl_census_on_cpu_idle(&p->census, cpu, idle);
}

static void stack_on_cpu_unknown(struct sl_analyzer *a, struct sl_model *m, int cpu,
				 uint64_t gap_start, uint64_t ts)
{
	struct stack_priv *p = a->priv;

	sl_gaps_add(&p->gaps, cpu, gap_start, ts);
	sl_census_on_cpu_lost(&p->census, m, cpu);
}

static void stack_on_switch(struct sl_analyzer *a, struct sl_model *m, const struct sl_switch_info *sw)
{
	struct stack_priv *p = a->priv;
	struct stack_task *prev = sw->prev ? sl_task_priv(m, a, sw->prev) : NULL;
	struct stack_task *next = sw->next ? sl_task_priv(m, a, sw->next) : NULL;

	sl_census_on_switch(&p->census, m, sw->cpu, sw->prev, prev ? &prev->census : NULL,
			    sw->next, next ? &next->census : NULL);
}

static void stack_on_event(struct sl_analyzer *a, struct sl_model *m, const struct sl_event *ev)
{
	struct stack_priv *p = a->priv;

	if (ev->type == SL_EV_FORK)
		sl_census_on_fork(&p->census);
}

/*
 * stack_on_placement() for a wakee placed on a busy CPU while a CPU is
 * idle: out of line with its calls, so that the other placements save no
 * register
 */
static __attribute__((noinline))
void placed_busy(struct sl_analyzer *a, struct sl_model *m, const struct sl_placement *pl,
		 const struct sl_cpu *c, uint32_t others_pending)
{
	struct stack_priv *p = a->priv;
	struct sl_task *t = pl->task;
	struct stack_task *st;
	const uint64_t *llc;
	uint32_t nr_idle = 0, words;
	int must[4] = { -1, -1, -1, -1 };

	/* the idle CPUs of c's LLC (sl_same_llc()), a word at a time */
	llc = sl_census_llc_mask(&p->census, m, c->cpu);
	if (!llc)
		return;
	words = MIN(p->census.idle_words, p->census.words);
	for (uint32_t w = 0; w < words; w++) {
		uint64_t bits = p->census.idle[w] & llc[w];

		if ((uint32_t)c->cpu / 64 == w)
			bits &= ~(1ULL << (c->cpu % 64));
		nr_idle += (uint32_t)__builtin_popcountll(bits);
	}
	if (!nr_idle)
		return;
	st = sl_task_priv(m, a, t);
	bitmap_fit(&st->idle, &st->idle_words, m->nr_cpus);
	memset(st->idle, 0, st->idle_words * sizeof(*st->idle));
	nr_idle = 0;
	for (uint32_t w = 0; w < words; w++) {
		uint64_t bits = p->census.idle[w] & llc[w];

		if ((uint32_t)c->cpu / 64 == w)
			bits &= ~(1ULL << (c->cpu % 64));
		st->idle[w] = bits;
		/* a large LLC's picture shows the first two of them */
		for (; bits && nr_idle < 2; bits &= bits - 1)
			must[2 + nr_idle++] = (int)(w * 64) + __builtin_ctzll(bits);
	}

	arm(p, t);
	st->wake_seq = t->wake_seq;
	st->placed_ts = pl->ts;
	st->cpu = c->cpu;
	st->prev_cpu = pl->prev_cpu;
	if (c->curr || c->nr_queued)
		st->reason = REASON_BUSY;
	else
		st->reason = sl_cpu_in_ttwu_window(c) ? REASON_PENDING : REASON_IN_FLIGHT;
	st->busy_pid = c->curr ? c->curr->pid : 0;
	st->busy_comm = c->curr ? c->curr->comm : 0;
	st->nr_queued = c->nr_queued;
	st->nr_pending = others_pending;
	if (!st->pic)
		st->pic = sl_picture_get(&p->pictures);
	must[0] = c->cpu;
	must[1] = pl->waker_cpu;
	sl_picture_take_counted(st->pic, &p->census, m, c->cpu, t, must, 4);
}

/**
 * stack_on_placement - a wakee's destination is decided: is it busy while a sibling idles?
 */
static void stack_on_placement(struct sl_analyzer *a, struct sl_model *m, const struct sl_placement *pl)
{
	struct stack_priv *p = a->priv;
	struct sl_task *t = pl->task;
	const struct sl_cpu *c = sl_model_cpu(m, pl->dest_cpu);
	uint32_t others_pending;

	if (!c || !c->known || !t->wake_valid || !p->census.nr_idle)
		return;
	/* the wakee is on c's pending list already: it does not count */
	others_pending = c->nr_pending - (t->state == SL_TASK_PENDING && t->cpu == c->cpu);
	if (!c->curr && !c->nr_queued && !others_pending)
		return;
	placed_busy(a, m, pl, c, others_pending);
}

/* An armed wakee ran: its latency is the placement's cost (stack_on_latency()). */
static __attribute__((noinline)) void armed_ran(struct sl_analyzer *a, struct sl_model *m,
						const struct sl_latency_sample *s)
{
	struct stack_priv *p = a->priv;
	struct sl_task *t = s->task;
	struct stack_task *st = sl_task_priv(m, a, t);
	struct stack_detail *d;
	struct sl_finding f;
	uint32_t n = 0;

	disarm(p, t);
	if (st->wake_seq != s->wake_seq)
		return;		/* armed for an older wakeup, which never ran */
	if (s->latency < m->cfg->min_cost_ns) {
		sl_picture_put(&p->pictures, st->pic);
		st->pic = NULL;
		return;
	}
	for (uint32_t w = 0; w < st->idle_words; w++)
		n += (uint32_t)__builtin_popcountll(st->idle[w]);
	d = xcalloc(1, sizeof(*d) + n * sizeof(d->idle[0]));
	for (uint32_t w = 0; w < st->idle_words; w++)
		for (uint64_t bits = st->idle[w]; bits; bits &= bits - 1)
			d->idle[d->nr_idle++] = (int32_t)(w * 64) + __builtin_ctzll(bits);
	d->waker_pid = s->waker_pid;
	if (s->waker_pid > 0 && sl_model_task(m, s->waker_pid))
		d->waker_comm = sl_model_task(m, s->waker_pid)->comm;
	d->waker_cpu = s->waker_cpu;
	d->prev_cpu = st->prev_cpu;
	d->reason = st->reason;
	d->placed_ts = st->placed_ts;
	d->busy_pid = st->busy_pid;
	d->busy_comm = st->busy_comm;
	d->nr_queued = st->nr_queued;
	d->nr_pending = st->nr_pending;
	f = (struct sl_finding){
		.kind = SL_KIND_WAKEE_STACKING, .ts = s->wake_ts, .cpu = st->cpu, .pid = t->pid,
		.comm = t->comm, .cost = s->latency, .victim_in_workload = t->in_workload,
		.ops = &stack_finding_ops, .detail = d,
	};
	f.whatif.cpu = d->nr_idle ? d->idle[0] : -1;
	if (!sl_held_add(m, &p->held[sl_held_known_migratable(m, t)], t, &f)) {
		sl_picture_put(&p->pictures, st->pic);
		st->pic = NULL;
		return;
	}
	/* the other decision: the lowest idle CPU of the LLC */
	whatif_victim(m, &(struct whatif_victim){
		.kind = SL_KIND_WAKEE_STACKING, .task = t, .wake_seq = s->wake_seq,
		.start = s->wake_ts, .end = s->run_ts, .cpu = st->cpu, .alt_cpu = f.whatif.cpu,
		.waker_cpu = s->waker_cpu, .key_ts = f.ts, .key_pid = f.pid,
	});
	if (sl_picture_wanted(&p->pictures, f.cost))
		sl_picture_keep(&p->pictures, st->pic, f.cost, f.pid, f.ts, f.cpu);
	else
		sl_picture_put(&p->pictures, st->pic);
	st->pic = NULL;
}

/**
 * stack_on_latency - the wakee ran: if armed, its latency is the placement's cost
 */
static void stack_on_latency(struct sl_analyzer *a, struct sl_model *m, const struct sl_latency_sample *s)
{
	if (armed(a->priv, s->task))
		armed_ran(a, m, s);
}

/* --- the verdict at the end --- */

static bool lost_at(const struct stack_priv *p, int cpu, uint64_t ts)
{
	return sl_gaps_find(&p->gaps, cpu, ts ? ts - 1 : 0, ts) != NULL;
}

/*
 * sl_held_decide(): the idle CPUs the wakee was allowed on (recorded
 * affinity), and of those the ones that lost no events around the
 * placement (a CPU whose ring buffer lost events then was not known
 * idle); the wakee's CPU lost none either.
 */
static enum sl_stand stands(void *ctx, const struct sl_model *m, struct sl_finding *f,
			    const struct sl_task *t)
{
	const struct stack_priv *p = ctx;
	struct stack_detail *d = f->detail;
	uint32_t kept = 0;

	for (uint32_t i = 0; i < d->nr_idle; i++)
		if (sl_held_allowed(m, t, d->idle[i], d->placed_ts))
			d->idle[kept++] = d->idle[i];
	d->nr_idle = kept;
	if (!kept) {
		whatif_held_verdict(m, f, f->ts, false, -1);
		return SL_FALLS_AFFINITY;
	}
	if (lost_at(p, f->cpu, d->placed_ts)) {
		whatif_held_verdict(m, f, f->ts, false, -1);
		return SL_FALLS;
	}
	kept = 0;
	for (uint32_t i = 0; i < d->nr_idle; i++)
		if (!lost_at(p, d->idle[i], d->placed_ts))
			d->idle[kept++] = d->idle[i];
	d->nr_idle = kept;
	d->affinity = (uint8_t)sl_held_source(m, t);
	whatif_held_verdict(m, f, f->ts, kept > 0, kept ? d->idle[0] : -1);
	return kept ? SL_STANDS : SL_FALLS;
}

static void stack_finish(struct sl_analyzer *a, struct sl_model *m)
{
	struct stack_priv *p = a->priv;

	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		struct stack_task *st;

		if (m->tasks[i]->frozen)
			continue;	/* not armed, no picture: stack_task_in_use() */
		st = sl_task_priv(m, a, m->tasks[i]);
		sl_picture_put(&p->pictures, st->pic);
		st->pic = NULL;
	}
	if (p->armed)	/* none armed yet: no array (memset(NULL, ...) is undefined) */
		memset(p->armed, 0, p->armed_words * sizeof(*p->armed));
	sl_held_decide(m, p->held, SL_KIND_WAKEE_STACKING);
}

/* --- the terminal report --- */

static void stack_report_text(struct sl_analyzer *a, struct sl_model *m, struct sl_report *r)
{
	struct stack_priv *p = a->priv;
	const struct sl_kind_summary *s = &m->findings->summary[SL_KIND_WAKEE_STACKING];
	const struct sl_finding *all;
	struct sl_tally_row *cpus, *tasks;
	size_t nr_all, nr_cpus = 0, nr_tasks = 0, listed = 0, shown = 0;
	size_t by_reason[REASON__NR] = { 0 };
	char b1[32], b2[32], b3[32], b4[32], msg[512];

	if (!s->count && !sl_held_affinity_any(&p->held[0].aff))
		return;
	all = sl_findings_sorted(m->findings, &nr_all);
	cpus = xcalloc(nr_all + 1, sizeof(*cpus));
	tasks = xcalloc(nr_all + 1, sizeof(*tasks));
	for (size_t i = 0; i < nr_all; i++) {
		const struct sl_finding *f = &all[i];

		if (f->kind != SL_KIND_WAKEE_STACKING)
			continue;
		listed++;
		by_reason[((const struct stack_detail *)f->detail)->reason]++;
		sl_tally_add(cpus, &nr_cpus, f->cpu, 0, f->cost);
		sl_tally_add(tasks, &nr_tasks, f->pid, f->comm, f->cost);
	}
	sl_tally_sort(cpus, nr_cpus);
	sl_tally_sort(tasks, nr_tasks);

	sl_report_section(r, "Wakee stacking (wakeups placed on a busy CPU next to an idle one)");
	if (!s->count)
		fputs("  No wakeup of a migratable task was placed on a busy CPU next to an idle\n"
		      "  one of its LLC.\n", r->out);
	else
		fprintf(r->out, "  %" PRIu64 " wakeup%s placed on a busy CPU while another CPU of the LLC "
		"was idle; the wakees waited %s in all, worst %s.\n", s->count, s->count == 1 ? " was" : "s were",
		fmt_duration(b1, sizeof(b1), s->cost), fmt_duration(b2, sizeof(b2), s->max_cost));
	sl_held_affinity_text(r, &p->held[0].aff, "wakeups");
	if (!s->count)
		goto out;
	if (!listed) {
		fputs("  None made the capped list of findings (--max-findings).\n", r->out);
		goto out;
	}
	if (listed < s->count)
		fprintf(r->out, "  Of the %zu most costly (the list is capped):\n", listed);
	fprintf(r->out, "  %9zu pending    inside the destination's ttwu_pending race window:\n"
		"                       its wakelist handler had started, the wakeups it\n"
		"                       had for it not enqueued yet, so it looked idle (the\n"
		"                       race \"sched: Clear ttwu_pending after enqueue_task\"\n"
		"                       fixed)\n", by_reason[REASON_PENDING]);
	fprintf(r->out, "  %9zu in-flight  its only load was a wakeup not enqueued yet, before\n"
		"                       its handler started: it looked busy\n",
		by_reason[REASON_IN_FLIGHT]);
	fprintf(r->out, "  %9zu busy       it ran a task or had one queued\n", by_reason[REASON_BUSY]);
	if (by_reason[REASON_IN_FLIGHT] && !m->seen_wakelist_entry)
		fputs("  This trace has no wakelist handler events (call_function_single_entry,\n"
		      "  ipi_entry, csd_function_entry): the race window cannot be told, so every\n"
		      "  placement on a wakeup in flight is counted in-flight.\n", r->out);
	sl_tally_print(r, m, "Destinations", cpus, nr_cpus, false);
	sl_tally_print(r, m, "Wakees", tasks, nr_tasks, true);

	for (size_t i = 0; i < nr_all && shown < (size_t)MIN(r->top, SHOWN); i++) {
		const struct sl_finding *f = &all[i];
		const struct stack_detail *d = f->detail;
		const struct sl_picture *pic;

		if (f->kind != SL_KIND_WAKEE_STACKING)
			continue;
		shown++;
		sl_finding_message(f, m, msg, sizeof(msg));
		fprintf(r->out, "\n  %s#%zu  %s%s  cpu%d  %s:%d%s waited %s%s%s (%s)\n     %s\n",
			sl_color(r, SL_C_BOLD), shown, fmt_ts(b1, sizeof(b1), f->ts), sl_color(r, SL_C_RESET),
			f->cpu, sl_str(m->strtab, f->comm), f->pid, sl_recorder_note(m, f->pid),
			sl_color(r, SL_C_YELLOW),
			fmt_duration(b2, sizeof(b2), f->cost), sl_color(r, SL_C_RESET),
			reason_names[d->reason], msg);
		fprintf(r->out, "     waking %s, placed %s, ran %s\n",
			fmt_ts(b1, sizeof(b1), f->ts), fmt_ts(b3, sizeof(b3), d->placed_ts),
			fmt_ts(b4, sizeof(b4), f->ts + f->cost));
		sl_report_look_at(r, m, 5, f, true);
		pic = shown <= SHOWN_PICTURES ? sl_picture_find(&p->pictures, f->pid, f->ts, f->cpu) : NULL;
		if (pic) {
			struct sl_picture_mark marks[2] = {
				{ f->cpu, "placed here" }, { d->waker_cpu, "the waker's" },
			};

			fprintf(r->out, "     at %s:\n", fmt_ts(b1, sizeof(b1), pic->ts));
			sl_picture_print(r->out, pic, m, "       ", marks, d->waker_cpu != f->cpu ? 2 : 1, 10);
		}
	}
	if (listed > shown)
		fprintf(r->out, "\n  (%zu more listed below and in --json)\n", listed - shown);
	sl_report_next_steps(r, m, SL_KIND_WAKEE_STACKING);
out:
	free(cpus);
	free(tasks);
}

static void stack_report_json(struct sl_analyzer *a, struct sl_model *m, cJSON *root)
{
	struct stack_priv *p = a->priv;
	cJSON *o = cJSON_AddObjectToObject(root, "wakee_stacking");

	cJSON_AddBoolToObject(o, "race_window_visible", m->seen_wakelist_entry);
	sl_held_affinity_json(o, &p->held[0].aff);
}

static void stack_destroy(struct sl_analyzer *a, struct sl_model *m)
{
	struct stack_priv *p = a->priv;

	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		struct stack_task *st = sl_task_priv(m, a, m->tasks[i]);

		free(st->idle);
		sl_picture_put(&p->pictures, st->pic);
		st->pic = NULL;
	}
	free(p->armed);
	p->armed = NULL;
	sl_held_free(&p->held[0]);
	sl_held_free(&p->held[1]);
	sl_gaps_free(&p->gaps);
	sl_picture_keeper_free(&p->pictures);
	sl_census_free(&p->census);
}

/* A placement armed, its picture, counted by the census, or a candidate to decide. */
static bool stack_task_in_use(struct sl_analyzer *a, struct sl_model *m, const struct sl_task *t)
{
	const struct stack_priv *p = a->priv;
	const struct stack_task *st = sl_task_priv(m, a, t);

	return armed_now(p, t, st) || st->pic || st->census || sl_held_needs(m, &p->held[0], t);
}

static void stack_fold_task(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t)
{
	free(((struct stack_task *)sl_task_priv(m, a, t))->idle);
}

const struct sl_analyzer_ops sl_wakee_stacking_analyzer = {
	.name = "wakee-stacking",
	.priv_size = sizeof(struct stack_priv),
	.task_priv_size = sizeof(struct stack_task),
	.init = stack_init,
	.on_placement = stack_on_placement,
	.on_latency = stack_on_latency,
	.on_cpu_idle = stack_on_cpu_idle,
	.on_cpu_unknown = stack_on_cpu_unknown,
	.on_switch = stack_on_switch,
	.on_event = stack_on_event,
	.event_types = SL_EV_BIT(SL_EV_FORK),
	.task_in_use = stack_task_in_use,
	.fold_task = stack_fold_task,
	.finish = stack_finish,
	.report_text = stack_report_text,
	.report_json = stack_report_json,
	.destroy = stack_destroy,
};
