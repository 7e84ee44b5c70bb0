// SPDX-License-Identifier: GPL-2.0
/*
 * shares.c - each task's and group's CPU share, measured and expected from the weights
 *
 * What it measures (issue 29): for every fair task, the share of the time
 * it was runnable (queued or running) during which it ran, next to the
 * share the weights say it should have had; the same for every
 * scheduling group (autogroup, cgroup) the trace recorded; and the wakeup
 * latency of each group's tasks.  A flat model (every task against
 * every other on its CPU) is wrong on any desktop (autogroups) or
 * systemd/Kubernetes machine (cgroups): five hogs on one CPU, one alone
 * in its session and four in another, get 1/2 and 1/8 each, not 1/5.
 *
 * The kernel's mechanism: CFS/EEVDF shares a runqueue's time among its
 * runnable entities in proportion to their weights (sched_prio_to_weight,
 * nice 0 = 1024); a group is one entity in its parent's runqueue, with
 * the group's weight (cpu.shares, cpu.weight, an autogroup's nice), and
 * shares its time among its own entities the same way.  So at an instant
 * a runnable task's expected share of its CPU is the product, from the
 * root down, of its entity's weight over the sum of the runnable
 * entities' weights at that level.  Real-time and deadline tasks take the
 * CPU before any fair one: while one runs, the fair tasks' expected
 * share is 0 (and they do not run either).
 *
 * Definition: expected share = integral of that product over the task's
 * runnable time / its runnable time; measured = its run time within
 * those intervals / its runnable time.  A group: runnable while any of
 * its tasks is, on each CPU; its share the product down to it; summed
 * over CPUs.  Kept per CPU and group runqueue as a running integral of
 * share / total weight (a task's expected time is its weight times that
 * integral's growth while it was runnable), updated at each enqueue,
 * dequeue and switch: O(1) for a task of the root, O(CPUs x depth) for
 * one in a group (a group's weight is split over the CPUs, below).
 *
 * Approximations (schedlint-analyze(1) "CPU shares"): a group's weight
 * is split over the CPUs by its runnable weight on each at the instant
 * (the kernel's calc_group_shares() uses load averages, PELT); no
 * lag, no wakeup placement, no bandwidth limits (cpu.max, RT
 * throttling); the weights are the ones recorded, from the marker on
 * (a re-read after an exec is applied when it is read).  Nothing is
 * computed without context markers (a flat model would be wrong on any
 * desktop): the hooks return at once, the report says why.  Expected
 * shares cover the whole trace, not --from/--to; measured ones are the
 * model's accounting (run / run + wait).
 */
#include <cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "schedlint/analyzer.h"
#include "schedlint/context.h"
#include "schedlint/report.h"
#include "model/slice.h"
#include "util/util.h"

/* A group's runqueue on one CPU. */
struct grq {
	uint32_t group;
	uint32_t nr;			/* runnable entities in it: tasks and child groups */
	double weight_sum;		/* their weights: tasks', and child groups' entities' */
	double entity_w;		/* the weight of this group's entity in its parent's
					 * runqueue here: its share of the group's weight */
	double share;			/* the group's share of the CPU now (root: 1) */
	double acc;			/* integral of share / weight_sum: expected time per unit weight */
	uint64_t runnable_ns;		/* time with nr > 0 */
	double expected_ns;		/* integral of share while nr > 0 */
};

struct sh_cpu {
	struct grq *grq;		/* by group id, ascending: parents before children */
	uint32_t nr_grq, grq_alloc;
	/*
	 * by group id: its runqueue in grq, NULL none; set again whenever
	 * grq moves (a binary search per lookup, several per enqueue, was a
	 * tenth of analyze on a recorded hackbench with its autogroup; an
	 * index + 1 cost a test and an address more per lookup)
	 */
	struct grq **pos;
	uint32_t nr_pos;
	uint64_t last;			/* the integrals are up to date until then */
	bool fair_blocked;		/* an RT or deadline task runs: fair entities get nothing */
	bool dirty;			/* a weight changed: its shares are to be computed again */
};

struct sh_task {
	int32_t on;			/* runnable (queued or running) on CPU on - 1; 0 not (or not fair) */
	uint32_t group;			/* the group it counts in while runnable */
	uint32_t weight;
	double acc_start;		/* its group's acc on cpu when it became runnable */
	uint64_t since;			/* runnable since */
	uint64_t runnable_ns;		/* the time it was runnable, up to its last interval's end */
	double expected_ns;
};

/* A group's totals over every CPU, at the end. */
struct group_total {
	uint64_t runnable_ns, run_ns;
	double expected_ns;
	uint32_t tasks;
	struct sl_hist latency;		/* its tasks' wakeup latency (in the filters) */
};

struct sh_priv {
	bool started;			/* the trace has context markers: shares are computed
					 * from the first one on */
	struct group_total *folded;	/* run time and latency of folded tasks, by group id */
	uint32_t nr_folded;
};

/* The CPU st is runnable on, -1 none (the slot starts zeroed). */
static inline int st_cpu(const struct sh_task *st)
{
	return st->on - 1;
}

static inline struct grq *find_grq(const struct sh_cpu *c, uint32_t group)
{
	return group < c->nr_pos ? c->pos[group] : NULL;
}

/* The runqueue of group on c, made (zeroed, in id order) when missing. */
static struct grq *get_grq(struct sh_cpu *c, uint32_t group)
{
	struct grq *g = find_grq(c, group);
	uint32_t i;

	if (g)
		return g;
	if (c->nr_grq == c->grq_alloc) {
		c->grq_alloc = c->grq_alloc ? 2 * c->grq_alloc : 4;
		c->grq = xrealloc(c->grq, c->grq_alloc * sizeof(*c->grq));
	}
	for (i = c->nr_grq; i > 0 && c->grq[i - 1].group > group; i--)
		c->grq[i] = c->grq[i - 1];
	c->grq[i] = (struct grq){ .group = group };
	c->nr_grq++;
	if (group >= c->nr_pos) {
		uint32_t n = MAX(group + 1, 2 * c->nr_pos);

		c->pos = xrealloc(c->pos, n * sizeof(*c->pos));
		for (uint32_t k = c->nr_pos; k < n; k++)
			c->pos[k] = NULL;
		c->nr_pos = n;
	}
	for (uint32_t k = 0; k < c->nr_grq; k++)	/* grq may have moved: all of them */
		c->pos[c->grq[k].group] = &c->grq[k];
	return &c->grq[i];
}

/* The integrals of c over the dt before c->last (advance()). */
static void advance_by(struct sh_cpu *c, uint64_t dt)
{
	double d = (double)dt;

	if (c->fair_blocked) {
		/* an RT or deadline task runs: runnable, nothing expected */
		for (uint32_t i = 0; i < c->nr_grq; i++)
			if (c->grq[i].nr)
				c->grq[i].runnable_ns += dt;
		return;
	}
	for (uint32_t i = 0; i < c->nr_grq; i++) {
		struct grq *g = &c->grq[i];

		if (!g->nr)
			continue;
		g->runnable_ns += dt;
		g->acc += g->share / g->weight_sum * d;
		g->expected_ns += g->share * d;
	}
}

/*
 * The integrals of c up to ts.  Inline: most calls find c up to date
 * already (change() and task_leave() bring it there first, split() asks
 * again for the CPU that changed).
 */
static inline void advance(struct sh_cpu *c, uint64_t ts)
{
	uint64_t dt;

	if (ts <= c->last)
		return;
	dt = ts - c->last;
	c->last = ts;
	advance_by(c, dt);
}

/* Every group's share on c, from the root down (ids ascend: a parent comes first). */
static void reshare(const struct sl_model *m, struct sh_cpu *c)
{
	uint32_t i = 0;

	if (c->nr_grq == 1) {
		c->grq[0].share = 1.0;
		return;
	}
	if (c->nr_grq && c->grq[0].group == 0) {
		/* the root: the first when there (the ids are unique, ascending) */
		c->grq[0].share = 1.0;
		i = 1;
	}
	for (; i < c->nr_grq; i++) {
		struct grq *g = &c->grq[i];
		const struct sl_group *gr;
		struct grq *parent;

		if (!g->nr) {
			/* empty (most groups at most times): no lookups */
			g->share = 0.0;
			continue;
		}
		gr = sl_model_group(m, g->group);
		parent = gr ? find_grq(c, gr->parent) : NULL;
		g->share = parent && parent->weight_sum > 0 ?
			   parent->share * g->entity_w / parent->weight_sum : 0.0;
	}
}

/*
 * group's weight split over the CPUs by its load there (the weight
 * runnable in its runqueue), as calc_group_shares() does with the load
 * averages: a CPU's entity of it weighs weight x load here / load
 * everywhere (at least 2, MIN_SHARES, while it is runnable there).  A
 * CPU whose entity changes is brought up to ts first; its parent's
 * runqueue there gets the difference.
 */
static void split(struct sl_analyzer *a, struct sl_model *m, uint32_t group,
		  const struct sl_group *gr, uint64_t ts)
{
	double total = 0;

	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct grq *g = find_grq(sl_cpu_priv(m, a, cpu), group);

		if (g && g->nr)
			total += g->weight_sum;
	}
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct sh_cpu *c = sl_cpu_priv(m, a, cpu);
		struct grq *g = find_grq(c, group), *pg;
		double want;

		if (!g)
			continue;
		want = g->nr && total > 0 ? gr->weight * g->weight_sum / total : 0;
		if (g->nr && want < 2)
			want = 2;
		if (want == g->entity_w)
			continue;
		advance(c, ts);
		pg = find_grq(c, gr->parent);
		if (!pg) {
			pg = get_grq(c, gr->parent);	/* moves c's runqueues: find g again */
			g = find_grq(c, group);
		}
		pg->weight_sum += want - g->entity_w;
		if (pg->weight_sum < 0)
			pg->weight_sum = 0;
		g->entity_w = want;
		c->dirty = true;
	}
}

/*
 * A task of weight w joins (sign 1) or leaves (-1) group's runqueue on
 * cpu at ts.  Its group's entity joins or leaves the parent's runqueue
 * there when the group's runqueue fills or empties, and so on up; every
 * group on the way has its weight split over the CPUs again (split()),
 * from the bottom up, and every CPU's shares are computed again.
 * O(CPUs x depth): only for traces with recorded groups.
 */
static void change(struct sl_analyzer *a, struct sl_model *m, int cpu, uint32_t group, double w,
		   int sign, uint64_t ts)
{
	struct sh_cpu *c = sl_cpu_priv(m, a, cpu);
	struct grq *g;
	bool edge;

	advance(c, ts);
	g = get_grq(c, group);
	if (sign > 0) {
		edge = g->nr++ == 0;
		g->weight_sum += w;
	} else {
		if (!g->nr)
			return;		/* not there: nothing to take */
		edge = --g->nr == 0;
		g->weight_sum = g->weight_sum > w ? g->weight_sum - w : 0;
	}
	for (int depth = 0; group != 0 && depth < SL_CTX_MAX_GROUPS; depth++) {
		const struct sl_group *gr = sl_model_group(m, group);

		if (!gr)
			break;
		if (edge) {
			/* the group's entity joins or leaves its parent's runqueue here */
			struct grq *pg = get_grq(c, gr->parent);

			if (sign > 0)
				edge = pg->nr++ == 0;
			else
				edge = pg->nr && --pg->nr == 0;
		}
		split(a, m, group, gr, ts);
		group = gr->parent;
	}
	c->dirty = true;
	for (int i = 0; i < m->nr_cpus; i++) {
		struct sh_cpu *d = sl_cpu_priv(m, a, i);

		if (d->dirty) {
			reshare(m, d);
			d->dirty = false;
		}
	}
}

/* Inline for what is not recorded (every task of most traces): asked at every switch. */
static inline bool is_fair(const struct sl_model *m, const struct sl_task *t)
{
	enum sl_class_source source;
	enum sl_sched_class cls;

	if (!t->sched_kind)
		return !t->prio_dl && (t->prio < 0 || t->prio >= 100);
	cls = sl_task_class(m, t, &source);
	return cls == SL_CLASS_FAIR || cls == SL_CLASS_UNKNOWN;
}

static inline uint32_t task_weight(const struct sl_model *m, const struct sl_task *t)
{
	return t->sched_kind ? sl_task_load_weight(m, t) : sl_prio_weight(t->prio);
}

static inline uint32_t task_group(const struct sl_model *m, const struct sl_task *t)
{
	uint32_t group = t->sched_kind ? sl_task_group(m, t) : 0;

	return group && !sl_model_group(m, group) ? 0 : group;
}

/* The root's integrals up to ts, when it is c's only runqueue (no groups: most traces). */
static inline void advance_root(struct sh_cpu *c, struct grq *g, uint64_t ts)
{
	uint64_t dt;

	if (ts <= c->last)
		return;
	dt = ts - c->last;
	c->last = ts;
	if (!g->nr)
		return;
	g->runnable_ns += dt;
	if (!c->fair_blocked) {
		g->acc += (double)dt / g->weight_sum;
		g->expected_ns += (double)dt;
	}
}

static void task_enter(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t, int cpu,
		       uint64_t ts)
{
	struct sh_task *st = sl_task_priv(m, a, t);
	struct sh_cpu *c = sl_cpu_priv(m, a, cpu);
	uint32_t group = task_group(m, t);

	st->on = cpu + 1;
	st->group = group;
	st->weight = task_weight(m, t);
	st->since = ts;
	if (group == 0 && c->nr_grq == 1) {
		struct grq *g = &c->grq[0];

		advance_root(c, g, ts);
		g->nr++;
		g->weight_sum += st->weight;
		st->acc_start = g->acc;
		return;
	}
	change(a, m, cpu, group, st->weight, 1, ts);
	st->acc_start = find_grq(c, group)->acc;
}

static void task_leave(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t, uint64_t ts)
{
	struct sh_task *st = sl_task_priv(m, a, t);
	struct sh_cpu *c;
	int cpu;

	if (st_cpu(st) < 0 || st_cpu(st) >= m->nr_cpus) {
		st->on = 0;
		return;
	}
	cpu = st_cpu(st);
	c = sl_cpu_priv(m, a, cpu);
	st->on = 0;
	st->runnable_ns += sl_dur(st->since, ts);
	if (st->group == 0 && c->nr_grq == 1) {
		struct grq *g = &c->grq[0];

		advance_root(c, g, ts);
		st->expected_ns += st->weight * (g->acc - st->acc_start);
		if (g->nr) {
			g->nr--;
			g->weight_sum = g->weight_sum > st->weight ? g->weight_sum - st->weight : 0;
		}
		return;
	}
	advance(c, ts);
	st->expected_ns += st->weight * (find_grq(c, st->group)->acc - st->acc_start);
	change(a, m, cpu, st->group, st->weight, -1, ts);
}

/*
 * Only an enqueue matters here: a task leaving a runqueue is switched in
 * (still runnable), or enqueued elsewhere (that enqueue ends its interval
 * here), or the model lost it (it stays runnable here until its next
 * switch or the end: an approximation around lost events).  Answering
 * the leave at once would cost a leave and a return at every switch-in.
 */
static void sh_runnable(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t, int cpu,
			uint64_t ts, bool enter)
{
	struct sh_task *st;

	if (!enter || !((struct sh_priv *)a->priv)->started)
		return;
	st = sl_task_priv(m, a, t);
	if (st_cpu(st) == cpu)
		return;		/* preempted: runnable here all along */
	if (st_cpu(st) >= 0)
		task_leave(a, m, t, ts);
	if (is_fair(m, t))
		task_enter(a, m, t, cpu, ts);
}

static void sh_switch(struct sl_analyzer *a, struct sl_model *m, const struct sl_switch_info *sw)
{
	struct sh_cpu *c;
	bool blocked;

	if (!((struct sh_priv *)a->priv)->started)
		return;
	c = sl_cpu_priv(m, a, sw->cpu);
	blocked = sw->next && !is_fair(m, sw->next);

	if (blocked != c->fair_blocked) {
		advance(c, sw->ts);	/* the integrals so far at the old rate */
		c->fair_blocked = blocked;
	}
	if (sw->prev) {
		struct sh_task *st = sl_task_priv(m, a, sw->prev);

		if (st_cpu(st) == sw->cpu &&
		    !(sw->prev->state == SL_TASK_QUEUED && sw->prev->cpu == sw->cpu))
			task_leave(a, m, sw->prev, sw->ts);	/* blocked, dead, gone */
	}
	if (sw->next) {
		struct sh_task *st = sl_task_priv(m, a, sw->next);

		if (st_cpu(st) != sw->cpu) {
			if (st_cpu(st) >= 0)
				task_leave(a, m, sw->next, sw->ts);
			if (!blocked)
				task_enter(a, m, sw->next, sw->cpu, sw->ts);
		}
	}
}

/* t is runnable: does it still count in the group and with the weight the trace gives it now? */
static void regroup(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t, uint64_t ts)
{
	struct sh_task *st = sl_task_priv(m, a, t);
	uint32_t group = task_group(m, t);
	int cpu = st_cpu(st);

	if (cpu < 0 || cpu >= m->nr_cpus)
		return;
	if (group == st->group && st->weight == task_weight(m, t) && is_fair(m, t))
		return;
	task_leave(a, m, t, ts);
	if (is_fair(m, t))
		task_enter(a, m, t, cpu, ts);
}

/*
 * A context marker may have given runnable tasks another group, weight
 * or class (record's re-read after an exec): they move at once, not at
 * their next switch.  Markers are rare; this walks the runqueues.
 */
static void sh_event(struct sl_analyzer *a, struct sl_model *m, const struct sl_event *ev)
{
	struct sh_priv *p = a->priv;

	if (!m->ctx)
		return;
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct sl_cpu *c = &m->cpus[cpu];

		if (!p->started) {
			/* the first context marker: what runs and waits now starts here */
			struct sh_cpu *sc = sl_cpu_priv(m, a, cpu);

			sc->fair_blocked = c->curr && !is_fair(m, c->curr);
			if (c->curr && is_fair(m, c->curr))
				task_enter(a, m, c->curr, cpu, ev->ts);
			for (struct sl_task *t = c->queued; t; t = t->q_next)
				if (is_fair(m, t))
					task_enter(a, m, t, cpu, ev->ts);
			continue;
		}
		if (c->curr)
			regroup(a, m, c->curr, ev->ts);
		for (struct sl_task *t = c->queued; t; t = t->q_next)
			regroup(a, m, t, ev->ts);
	}
	p->started = true;
}

static int sh_init(struct sl_analyzer *a, struct sl_model *m)
{
	(void)a;
	(void)m;
	return 0;
}

static bool sh_task_in_use(struct sl_analyzer *a, struct sl_model *m, const struct sl_task *t)
{
	const struct sh_task *st = sl_task_priv(m, a, t);

	return st_cpu(st) >= 0;
}

static struct group_total *folded_of(struct sh_priv *p, uint32_t group)
{
	if (group >= p->nr_folded) {
		p->folded = xrealloc(p->folded, (group + 1) * sizeof(*p->folded));
		memset(p->folded + p->nr_folded, 0, (group + 1 - p->nr_folded) * sizeof(*p->folded));
		p->nr_folded = group + 1;
	}
	return &p->folded[group];
}

/* A dead task folded: its run time and latency stay in its group's row. */
static void sh_fold_task(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t)
{
	struct group_total *g;
	uint32_t group = task_group(m, t);

	if (!((struct sh_priv *)a->priv)->started)
		return;
	g = folded_of(a->priv, group);
	g->run_ns += t->run_ns;
	if (!sl_filter_task(m->cfg, m->strtab, t) || !sl_task_active(t))
		return;
	sl_hist_merge(&g->latency, &t->latency);
	g->tasks++;
}

/* The trace ended: close the open intervals. */
static void sh_finish(struct sl_analyzer *a, struct sl_model *m)
{
	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		struct sl_task *t = m->tasks[i];
		if (!t || t->frozen)
			continue;	/* a frozen one is on no runqueue: sh_task_in_use() */
		task_leave(a, m, t, m->last_ts);
	}
}

static double share_of(double part, uint64_t whole)
{
	return whole ? round(part / (double)whole * 10000.0) / 10000.0 : 0.0;
}

/* A task's measured share: its run time over its run and wait time (the model's accounting). */
static double measured(const struct sl_task *t)
{
	return share_of((double)t->run_ns, t->run_ns + t->wait_ns);
}

/* Every group's totals over the CPUs, its tasks' latency merged (the caller frees). */
static struct group_total *totals(struct sl_analyzer *a, struct sl_model *m, uint32_t *nr)
{
	struct sh_priv *p = a->priv;
	uint32_t n = sl_model_nr_groups(m);
	struct group_total *g = xcalloc(n, sizeof(*g));

	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct sh_cpu *c = sl_cpu_priv(m, a, cpu);

		for (uint32_t i = 0; i < c->nr_grq; i++) {
			struct grq *q = &c->grq[i];

			if (q->group >= n)
				continue;
			g[q->group].runnable_ns += q->runnable_ns;
			g[q->group].expected_ns += q->expected_ns;
		}
	}
	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		const struct sl_task *t = sl_kept_task(m, i);
		uint32_t group;

		if (!t)
			continue;
		group = task_group(m, t);	/* its last: a task that moved counts there */
		if (group >= n)
			continue;
		/* its run time to its group and the group's ancestors, in the filters or not */
		for (uint32_t id = group, depth = 0; depth < SL_CTX_MAX_GROUPS; depth++) {
			const struct sl_group *gr = sl_model_group(m, id);

			g[id].run_ns += t->run_ns;
			if (!id || !gr)
				break;
			id = gr->parent;
		}
		if (!sl_task_active(t) || !sl_filter_task(m->cfg, m->strtab, t))
			continue;
		g[group].tasks++;
		sl_hist_merge(&g[group].latency, &t->latency);
	}
	for (uint32_t i = 0; i < p->nr_folded && i < n; i++) {
		g[i].tasks += p->folded[i].tasks;
		g[i].run_ns += p->folded[i].run_ns;
		sl_hist_merge(&g[i].latency, &p->folded[i].latency);
	}
	*nr = n;
	return g;
}

static void free_totals(struct group_total *g, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		sl_hist_free(&g[i].latency);
	free(g);
}

/* A task (its index: a frozen one is read through sl_kept_task()) and its sort keys */
struct row {
	uint32_t i;
	int32_t pid;
	uint64_t runnable_ns;
};

static int by_runnable_desc(const void *x, const void *y)
{
	const struct row *a = x, *b = y;

	if (a->runnable_ns != b->runnable_ns)
		return a->runnable_ns < b->runnable_ns ? 1 : -1;
	return (a->pid > b->pid) - (a->pid < b->pid);
}

/* The fair tasks in the filters that were runnable, most runnable first. */
static struct row *task_rows(struct sl_analyzer *a, struct sl_model *m, size_t *nr)
{
	struct row *rows = xcalloc(m->nr_tasks + 1, sizeof(*rows));
	size_t n = 0;

	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		const struct sl_task *t = sl_kept_task(m, i);
		const struct sh_task *st;

		if (!t || !sl_filter_task(m->cfg, m->strtab, t) || !is_fair(m, t))
			continue;	/* a task that ends real-time: its shares are not by weight */
		st = sl_task_priv(m, a, t);
		if (st->runnable_ns)
			rows[n++] = (struct row){ i, t->pid, st->runnable_ns };
	}
	qsort(rows, n, sizeof(*rows), by_runnable_desc);
	*nr = n;
	return rows;
}

/*
 * A group's name in at most width columns: an autogroup's without its
 * slash and " nice 0" ("autogroup-54", "autogroup-9 nice 5"), a long
 * cgroup path's end ("...slice/app.scope").
 */
static const char *group_short(char *buf, size_t len, const struct sl_model *m, uint32_t id,
			       int width)
{
	const struct sl_group *g = sl_model_group(m, id);
	const char *name = g ? g->name : "?";
	size_t n;

	if (g && g->kind == SL_GROUP_AUTOGROUP) {
		const char *nice = strstr(name, " nice ");

		name += *name == '/';
		n = nice && !strcmp(nice, " nice 0") ? (size_t)(nice - name) : strlen(name);
	} else {
		n = strlen(name);
	}
	if (n > (size_t)width && width > 3) {
		name += n - (size_t)(width - 3);
		snprintf(buf, len, "...%.*s", width - 3, name);
	} else {
		snprintf(buf, len, "%.*s", (int)n, name);
	}
	return buf;
}

static bool any_latency(const struct group_total *g, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (g[i].latency.count)
			return true;
	return false;
}

static void sh_report_text(struct sl_analyzer *a, struct sl_model *m, struct sl_report *r)
{
	static const struct sl_col gcols[] = {
		{ "group", 24, 0, true }, { "weight", 6, 3, false }, { "tasks", 5, 4, false },
		{ "runnable", 8, 2, false }, { "ran", 8, 1, false }, { "measured", 8, 0, false },
		{ "expected", 8, 0, false },
	};
	static const struct sl_col tcols[] = {
		{ "task", 18, 0, true }, { "group", 14, 3, true }, { "weight", 6, 4, false },
		{ "runnable", 8, 2, false }, { "ran", 8, 1, false }, { "measured", 8, 0, false },
		{ "expected", 8, 0, false },
	};
	bool recorded = m->ctx && m->ctx->recorded;
	struct group_total *g;
	struct row *rows;
	size_t nr_rows, shown;
	uint32_t nr_groups;
	uint64_t bits;
	char c[7][64];
	const char *cells[7];

	if (!((struct sh_priv *)a->priv)->started) {
		sl_report_section(r, "CPU shares (measured vs expected from the weights)");
		sl_report_wrap(r, 2, 2, "Not computed: the trace records no scheduling groups "
			       "(schedlint record writes them).  A flat model, every task against "
			       "every other on its CPU, is wrong on any machine with autogroups "
			       "or cgroups.");
		return;
	}
	rows = task_rows(a, m, &nr_rows);
	if (!nr_rows) {
		free(rows);
		return;
	}
	g = totals(a, m, &nr_groups);
	sl_report_section(r, "CPU shares (measured vs expected from the weights)");
	if (recorded)
		sl_report_wrap(r, 2, 2, "Of the time each was runnable: the share it ran, and the "
			       "share its weight gives it through the group hierarchy "
			       "(groups recorded by schedlint record).");
	else
		sl_report_wrap(r, 2, 2, "Of the time each was runnable: the share it ran, and the "
			       "share its weight gives it.  No groups recorded: every task in "
			       "one flat group.");
	for (int i = 0; i < 7; i++)
		cells[i] = c[i];
	if (recorded) {
		fputc('\n', r->out);
		bits = sl_cols_fit(r, 2, gcols, 7);
		sl_cols_row(r, 2, gcols, 7, bits, NULL);
		for (uint32_t id = 0; id < nr_groups; id++) {
			const struct sl_group *gr = sl_model_group(m, id);

			if (!gr || !g[id].runnable_ns || !g[id].tasks || id == 0)
				continue;	/* the root is the whole CPU; groups of no task reported */
			group_short(c[0], sizeof(c[0]), m, id, 24);
			snprintf(c[1], sizeof(c[1]), "%" PRIu32, gr->weight);
			snprintf(c[2], sizeof(c[2]), "%" PRIu32, g[id].tasks);
			sl_report_cell(c[3], sizeof(c[3]), g[id].runnable_ns);
			sl_report_cell(c[4], sizeof(c[4]), g[id].run_ns);
			snprintf(c[5], sizeof(c[5]), "%.3f", share_of((double)g[id].run_ns, g[id].runnable_ns));
			snprintf(c[6], sizeof(c[6]), "%.3f", share_of(g[id].expected_ns, g[id].runnable_ns));
			sl_cols_row(r, 2, gcols, 7, bits, cells);
		}
	}
	fputc('\n', r->out);
	bits = sl_cols_fit(r, 2, tcols, 7);
	sl_cols_row(r, 2, tcols, 7, bits, NULL);
	shown = r->detail == SL_DETAIL_FULL ? nr_rows : MIN(nr_rows, (size_t)r->top);
	for (size_t i = 0; i < shown; i++) {
		const struct sl_task *t = sl_kept_task(m, rows[i].i);
		const struct sh_task *st = sl_task_priv(m, a, t);

		sl_task_label(c[0], sizeof(c[0]), sl_task_comm(m, t), t->pid, 18);
		if (recorded)
			group_short(c[1], sizeof(c[1]), m, task_group(m, t), 14);
		else
			snprintf(c[1], sizeof(c[1]), "-");
		snprintf(c[2], sizeof(c[2]), "%" PRIu32, st->weight);
		sl_report_cell(c[3], sizeof(c[3]), st->runnable_ns);
		sl_report_cell(c[4], sizeof(c[4]), t->run_ns);
		snprintf(c[5], sizeof(c[5]), "%.3f", measured(t));
		snprintf(c[6], sizeof(c[6]), "%.3f", share_of(st->expected_ns, st->runnable_ns));
		sl_cols_row(r, 2, tcols, 7, bits, cells);
	}
	if (shown < nr_rows)
		fprintf(r->out, "  (%zu more: --full, or the JSON's shares.tasks)\n", nr_rows - shown);

	if (recorded && any_latency(g, nr_groups)) {
		int width = 24;

		fputc('\n', r->out);
		fputs("  Wakeup latency by group\n", r->out);
		sl_report_latency_header(r, width);
		for (uint32_t id = 0; id < nr_groups; id++)
			if (sl_model_group(m, id) && g[id].latency.count)
				sl_report_latency_row(r, width, group_short(c[0], sizeof(c[0]), m, id, 24),
						      &g[id].latency);
	}
	free_totals(g, nr_groups);
	free(rows);
}

static void sh_report_json(struct sl_analyzer *a, struct sl_model *m, cJSON *root)
{
	cJSON *o = cJSON_AddObjectToObject(root, "shares");
	cJSON *groups, *tasks;
	struct group_total *g;
	struct row *rows;
	size_t nr_rows;
	uint32_t nr_groups;

	cJSON_AddStringToObject(o, "groups_source", m->ctx && m->ctx->recorded ? "recorded" : "unknown");
	cJSON_AddBoolToObject(o, "computed", ((struct sh_priv *)a->priv)->started);
	if (!((struct sh_priv *)a->priv)->started) {
		cJSON_AddArrayToObject(o, "groups");
		cJSON_AddArrayToObject(o, "tasks");
		return;
	}
	g = totals(a, m, &nr_groups);
	groups = cJSON_AddArrayToObject(o, "groups");
	for (uint32_t id = 0; id < nr_groups; id++) {
		const struct sl_group *gr = sl_model_group(m, id);
		cJSON *x;

		if (!gr)
			continue;
		x = cJSON_CreateObject();
		sl_json_add_u64(x, "id", id);
		cJSON_AddStringToObject(x, "name", gr->name);
		cJSON_AddStringToObject(x, "kind", sl_group_kind_name(gr->kind));
		sl_json_add_u64(x, "weight", gr->weight);
		sl_json_add_u64(x, "tasks", g[id].tasks);
		sl_json_add_u64(x, "runnable_ns", g[id].runnable_ns);
		sl_json_add_u64(x, "run_ns", g[id].run_ns);
		cJSON_AddNumberToObject(x, "measured", share_of((double)g[id].run_ns, g[id].runnable_ns));
		cJSON_AddNumberToObject(x, "expected", share_of(g[id].expected_ns, g[id].runnable_ns));
		cJSON_AddItemToObject(x, "wakeup_latency", sl_hist_json(&g[id].latency));
		cJSON_AddItemToArray(groups, x);
	}
	free_totals(g, nr_groups);
	rows = task_rows(a, m, &nr_rows);
	tasks = cJSON_AddArrayToObject(o, "tasks");
	for (size_t i = 0; i < nr_rows; i++) {
		const struct sl_task *t = sl_kept_task(m, rows[i].i);
		const struct sh_task *st = sl_task_priv(m, a, t);
		cJSON *x = cJSON_CreateObject();

		sl_json_add_i64(x, "pid", t->pid);
		cJSON_AddStringToObject(x, "comm", sl_task_comm(m, t));
		sl_json_add_u64(x, "group", task_group(m, t));
		if (t->sched_kind) {
			/* what record read of it last: its policy, nice and slice */
			const struct sl_sched_ctx *k = sl_task_sched(m, t);

			cJSON_AddStringToObject(x, "policy", sl_policy_name(k->policy));
			sl_json_add_i64(x, "nice", k->prio);
			sl_json_add_u64(x, "slice_ns", k->slice_ns);
		}
		sl_json_add_u64(x, "weight", st->weight);
		sl_json_add_u64(x, "runnable_ns", st->runnable_ns);
		sl_json_add_u64(x, "run_ns", t->run_ns);
		sl_json_add_u64(x, "wait_ns", t->wait_ns);
		cJSON_AddNumberToObject(x, "measured", measured(t));
		cJSON_AddNumberToObject(x, "expected", share_of(st->expected_ns, st->runnable_ns));
		cJSON_AddItemToArray(tasks, x);
	}
	free(rows);
}

static void sh_destroy(struct sl_analyzer *a, struct sl_model *m)
{
	struct sh_priv *p = a->priv;

	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct sh_cpu *c = sl_cpu_priv(m, a, cpu);

		free(c->grq);
		free(c->pos);
	}
	for (uint32_t i = 0; i < p->nr_folded; i++)
		sl_hist_free(&p->folded[i].latency);
	free(p->folded);
}

const struct sl_analyzer_ops sl_shares_analyzer = {
	.name = "shares",
	.priv_size = sizeof(struct sh_priv),
	.task_priv_size = sizeof(struct sh_task),
	.cpu_priv_size = sizeof(struct sh_cpu),
	.init = sh_init,
	.on_event = sh_event,
	.event_types = SL_EV_BIT(SL_EV_MARKER),
	.on_runnable = sh_runnable,
	.runnable_calls = SL_RUNNABLE_ENTERS,	/* sh_runnable() returns at once for a dequeue */
	.on_switch = sh_switch,
	.task_in_use = sh_task_in_use,
	.fold_task = sh_fold_task,
	.finish = sh_finish,
	.report_text = sh_report_text,
	.report_json = sh_report_json,
	.destroy = sh_destroy,
};
