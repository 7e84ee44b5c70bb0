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
 * share is 0 (and they do not run either).  A task of a fair policy
 * whose events give it a real-time or deadline prio is boosted (priority
 * inheritance, rt_mutex_setprio()): in that class, off the fair
 * runqueue, from the event that shows it to the one that shows it ended
 * (fair_now(); the trace has no sched_pi_setprio).
 *
 * Definition: expected share = integral of that product over the task's
 * runnable time / its runnable time; measured = its run time within
 * those intervals / its runnable time (the fluid share: a task runnable
 * in stretches shorter than a slice runs at once or waits out one, and
 * is not judged by it; the report says so).  A group: runnable while any of
 * its tasks is, on each CPU; its share the product down to it; summed
 * over CPUs.  Kept per CPU and group runqueue as a running integral of
 * share / total weight (a task's expected time is its weight times that
 * integral's growth while it was runnable): the root's at each change of
 * its CPU, a group's lazily, as a multiple of its parent's, brought up to
 * date only when its own weights change (struct grq).  An enqueue or
 * dequeue costs O(1) for a task of the root, O(depth) for one in a
 * group, whatever the number of CPUs and of groups.
 *
 * A group's entity on a CPU weighs what the kernel's calc_group_shares()
 * gives it: the group's weight x its load there / its load summed over
 * the CPUs (tg->load_avg), at least MIN_SHARES, at most the group's
 * weight.  As in the kernel (update_cfs_group()), it is computed again
 * only for the CPU whose runqueue changed, on the way up from the task
 * that was enqueued or dequeued, and at the CPU's first switch after
 * each tick (entity_tick()); the other CPUs keep the weights they had.
 * A group's own weight changed by a marker is applied at once on every
 * CPU, its entity's path weighed again (sched_group_set_shares()).
 * The weights are integers as in a 64-bit kernel (scale_load(): nice 0
 * = 1024 << 10), the loads summed over the CPUs kept exactly at each
 * change: the floats are only the per-CPU integrals, each summed in the
 * trace's order, and the rates computed afresh from the integers, so
 * the results do not depend on the order of anything else.
 *
 * Approximations (schedlint-analyze(1) "CPU shares"): a group's load on
 * a CPU is its runnable weight at the instant, not the load average
 * (PELT), and its sum over the CPUs is kept exact (the kernel's
 * tg->load_avg follows by more than 1/64, at most once a millisecond);
 * a tick is the CPU's first switch after 1/HZ (the recorded HZ, else
 * 250), when every group runnable there is weighed again (the kernel:
 * the running task's path); no lag, no wakeup placement, no bandwidth
 * limits (cpu.max, RT throttling); the weights are the ones recorded,
 * from the marker on (a re-read after an exec is applied when it is
 * read; a group defined again with another parent keeps, on a CPU, the
 * parent it had when its runqueue there was made).  Nothing is
 * computed without context markers (a flat model would be wrong on any
 * desktop): the hooks are not called until the first one
 * (sl_model_hooks_idle()), the report says why.  Expected and measured
 * shares cover the same intervals: the whole trace from the first
 * marker, not --from/--to; a run counts while its task is a fair entity
 * (from its switch-in, or its entering, to its switch-out or leaving:
 * sh_switch(), task_leave()), so a boosted run is the RT class's, not its
 * group's; every task counts in its group's run time, the report's or
 * not (a group's measured share does not depend on --pid/--comm).
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

/*
 * Weights are kept as a 64-bit kernel keeps load.weight: scale_load(),
 * x 1024 (a nice-0 task 1048576), so that a group entity's weight is the
 * integer calc_group_shares() computes.  MIN_SHARES is its floor, in
 * those units, as in the kernel.
 */
#define SH_LOAD_SHIFT	10
#define SH_TICK_NS	4000000		/* 1/HZ when HZ is not recorded: 250 */

/*
 * A group's runqueue on one CPU.  Its integral acc (expected time per
 * unit of weight) grows as rate x its parent's acc: a share of the
 * parent's time of entity_w / the parent's weight_sum, over its own
 * weight_sum, per unit of the parent's time per unit of the parent's
 * weight.  rate changes only when this runqueue's own weights do, so acc
 * is kept lazily: brought up to date (settle()) only when they change,
 * on the path of the task enqueued or dequeued, from the root's, the
 * one kept at each change of the CPU (advance()).
 */
struct grq {
	struct grq *parent;		/* its parent group's runqueue on the same CPU (made
					 * before it, its group's parent then), NULL the root */
	uint32_t group;
	uint32_t nr;			/* runnable entities in it: tasks and child groups */
	uint64_t tg_shares;		/* its group's weight (scaled) as last read: at its
					 * making and at each context marker */
	uint64_t weight_sum;		/* their weights (scaled): tasks', and child groups'
					 * entities'; its load is weight_sum >> SH_LOAD_SHIFT */
	uint64_t entity_w;		/* the weight (scaled) of this group's entity in its
					 * parent's runqueue here while nr > 0, else 0 */
	double rate;			/* entity_w / weight_sum: acc's growth per unit of
					 * the parent's acc (the root: not used) */
	double acc;			/* integral of share / weight_sum: expected time per
					 * unit weight (scaled); the root's up to its CPU's
					 * last, another's up to since */
	double parent_acc;		/* the parent's acc at since */
	uint64_t since;			/* another's integrals are up to then */
	uint64_t runnable_ns;		/* time with nr > 0 */
	double expected_ns;		/* integral of share while nr > 0 */
};

struct sh_cpu {
	/*
	 * its runqueues, each allocated on its own (they never move: a
	 * child points to its parent), by group id, ascending: parents
	 * before children, the root's first (grq[0] == root)
	 */
	struct grq **grq;
	uint32_t nr_grq, grq_alloc;
	struct grq *root;		/* grq[0], NULL before the first */
	/*
	 * by group id: its runqueue, NULL none (a binary search per
	 * lookup, several per enqueue, was a tenth of analyze on a recorded
	 * hackbench with its autogroup)
	 */
	struct grq **pos;
	uint32_t nr_pos;
	uint64_t last;			/* the integrals are up to date until then */
	uint64_t next_tick;		/* the group entities are weighed again at the first
					 * switch from then on */
	bool fair_blocked;		/* an RT or deadline task runs: fair entities get nothing */
};

struct sh_task {
	int32_t on;			/* runnable (queued or running) on CPU on - 1; 0 not (or not fair) */
	uint32_t group;			/* the group it counts in while runnable */
	uint32_t weight;
	double acc_start;		/* its group's acc on cpu when it became runnable */
	uint64_t since;			/* runnable since */
	uint64_t runnable_ns;		/* the time it was runnable, up to its last interval's end */
	uint64_t run_ns;		/* the time it ran within those intervals */
	double expected_ns;
};

/* A group's totals over every CPU, at the end. */
struct group_total {
	uint64_t runnable_ns, run_ns;
	double expected_ns;
	uint32_t tasks;
	bool reported;			/* it or a group below it has a task of the report */
	struct sl_hist latency;		/* its tasks' wakeup latency (in the filters) */
};

struct sh_priv {
	bool started;			/* the trace has context markers: shares are computed
					 * from the first one on */
	struct group_total *folded;	/* run time and latency of folded tasks, by group id */
	uint32_t nr_folded;
	/*
	 * by group id: its load summed over the CPUs (the kernel's
	 * tg->load_avg), each CPU's part being weight_sum >> SH_LOAD_SHIFT of
	 * the group's runqueue there; kept at every change of one
	 */
	uint64_t *tg_load;
	size_t nr_tg_load;
	uint64_t tick_ns;		/* 1/HZ: recorded, else SH_TICK_NS */
	/*
	 * by group id: the run time of tasks that left it, less that of
	 * tasks that joined it, each up to its move (moved_run()), so that
	 * a group's run time is its tasks' while they were in it
	 */
	int64_t *moved_run;
	size_t nr_moved_run;
};

/*
 * x as a double, through int64_t: one instruction where uint64_t takes a
 * test and several more (x86-64 without AVX-512); the same value for any
 * x below 2^63, as all the weights and times here are.
 */
static inline double dbl(uint64_t x)
{
	return (double)(int64_t)x;
}

/* The CPU st is runnable on, -1 none (the slot starts zeroed). */
static inline int st_cpu(const struct sh_task *st)
{
	return st->on - 1;
}

static inline struct grq *find_grq(const struct sh_cpu *c, uint32_t group)
{
	return group < c->nr_pos ? c->pos[group] : NULL;
}

/* The load of group summed over the CPUs (tg->load_avg), made 0 when new. */
static uint64_t *tg_load_of(struct sh_priv *p, uint32_t group)
{
	GROW(p->tg_load, p->nr_tg_load, (size_t)group + 1);	/* zeroed */
	return &p->tg_load[group];
}

/* A group's weight, scaled (clamped: tg_shares x a load must stay below 2^64) */
static uint64_t tg_shares_of(const struct sl_group *gr)
{
	return (uint64_t)sl_group_shares(gr) << SH_LOAD_SHIFT;
}

/*
 * The runqueue of group on c, made (zeroed, in id order) when missing,
 * and its parents' before it: the path up to the root is there whenever
 * a runqueue is, the root's first in c->grq (its id is 0).  Its group's
 * load over the CPUs has a slot from then on.
 */
static struct grq *make_grq(struct sh_priv *p, const struct sl_model *m, struct sh_cpu *c,
			    uint32_t group)
{
	struct grq *g = find_grq(c, group), *parent = NULL;
	uint64_t tg_shares = 0;
	uint32_t i;

	if (g)
		return g;
	if (group) {
		const struct sl_group *gr = sl_model_group(m, group);

		/* its parent's id is lower than its own: the context says so */
		parent = make_grq(p, m, c, gr ? gr->parent : 0);
		tg_load_of(p, group);
		tg_shares = gr ? tg_shares_of(gr) : 0;
	}
	if (c->nr_grq == c->grq_alloc) {
		c->grq_alloc = c->grq_alloc ? 2 * c->grq_alloc : 4;
		c->grq = xrealloc(c->grq, c->grq_alloc * sizeof(*c->grq));
	}
	g = xcalloc(1, sizeof(*g));
	*g = (struct grq){ .parent = parent, .group = group, .tg_shares = tg_shares,
			   .since = c->last };
	for (i = c->nr_grq; i > 0 && c->grq[i - 1]->group > group; i--)
		c->grq[i] = c->grq[i - 1];
	c->grq[i] = g;
	c->nr_grq++;
	if (group >= c->nr_pos) {
		uint32_t n = MAX(group + 1, 2 * c->nr_pos);

		c->pos = xrealloc(c->pos, n * sizeof(*c->pos));
		for (uint32_t k = c->nr_pos; k < n; k++)
			c->pos[k] = NULL;
		c->nr_pos = n;
	}
	c->pos[group] = g;
	c->root = c->grq[0];
	return g;
}

static inline struct grq *get_grq(struct sh_priv *p, const struct sl_model *m, struct sh_cpu *c,
				  uint32_t group)
{
	struct grq *g = find_grq(c, group);

	return g ? g : make_grq(p, m, c, group);
}

/*
 * c's root runqueue's integrals up to ts (the others follow it lazily:
 * settle()).  While an RT or deadline task runs it is runnable and
 * nothing is expected: its acc stands, and so do all the others'.
 */
static inline void advance(struct sh_cpu *c, uint64_t ts)
{
	struct grq *r;
	uint64_t dt;

	if (ts <= c->last)
		return;
	dt = ts - c->last;
	c->last = ts;
	r = c->root;
	if (!r || !r->nr)
		return;
	r->runnable_ns += dt;
	if (!c->fair_blocked) {
		r->acc += dbl(dt) / dbl(r->weight_sum);
		r->expected_ns += dbl(dt);
	}
}

/*
 * g (not the root) and its parents up to c->last, from the root down:
 * acc grew by rate x the parent's growth since, the share of the CPU
 * by weight_sum times that.  Exact whatever the time since: rate has
 * not changed since (every change of g's weights settles g first).
 */
static void settle_deep(struct sh_cpu *c, struct grq *g);

/* settle() for g whose parent is settled (the root: always) */
static inline __attribute__((always_inline)) void settle_on(struct sh_cpu *c, struct grq *g,
							     const struct grq *parent)
{
	double d;

	d = g->rate * (parent->acc - g->parent_acc);
	g->parent_acc = parent->acc;
	g->acc += d;
	g->expected_ns += dbl(g->weight_sum) * d;
	if (g->nr)
		g->runnable_ns += c->last - g->since;
	g->since = c->last;
}

static inline __attribute__((always_inline)) void settle(struct sh_cpu *c, struct grq *g)
{
	if (g->parent->parent)
		settle_deep(c, g->parent);	/* not the root's child: the rare case */
	settle_on(c, g, g->parent);
}

static void settle_deep(struct sh_cpu *c, struct grq *g)
{
	settle(c, g);
}

/*
 * g's weight_sum on one CPU went from old to g->weight_sum: its group's
 * load over the CPUs follows, exactly (the root's is not used, as in the
 * kernel).  Modulo 2^64: the sum of the other CPUs' parts and this one's
 * new part is never negative, whatever the order.
 */
static inline void tg_account(struct sh_priv *p, const struct grq *g, uint64_t old)
{
	if (g->group)
		p->tg_load[g->group] += (g->weight_sum >> SH_LOAD_SHIFT) - (old >> SH_LOAD_SHIFT);
}

/*
 * The weight of g's group entity on its CPU: calc_group_shares(), the
 * group's weight x its load here / its load over every CPU (its total
 * is exact here: the kernel's tg_weight - tg_load_avg_contrib + load is
 * that total), clamped to [MIN_SHARES, the group's weight]; 0 while g
 * is empty (the entity is in no runqueue).
 */
static inline uint64_t group_shares(const struct sh_priv *p, const struct grq *g)
{
	uint64_t tg_shares = g->tg_shares;
	uint64_t tg_weight = p->tg_load[g->group];
	uint64_t shares = tg_shares * (g->weight_sum >> SH_LOAD_SHIFT);

	if (!g->nr)
		return 0;
	if (tg_weight)
		shares /= tg_weight;
	return shares < SL_MIN_SHARES ? SL_MIN_SHARES : shares > tg_shares ? tg_shares : shares;
}

/*
 * g's group entity on its CPU weighs w now (0: it left its parent's
 * runqueue): the parent's runqueue there, pg, gets the difference, and
 * the parent's load over the CPUs with it.  g and pg are settled.
 */
static inline void reweight(struct sh_priv *p, struct grq *g, struct grq *pg, uint64_t w)
{
	uint64_t old = pg->weight_sum;

	pg->weight_sum = pg->weight_sum + w >= g->entity_w ? pg->weight_sum + w - g->entity_w : 0;
	g->entity_w = w;
	tg_account(p, pg, old);
}

/* g's rate from its weights (settled first when they changed). */
static inline void rerate(struct grq *g)
{
	g->rate = g->weight_sum ? dbl(g->entity_w) / dbl(g->weight_sum) : 0.0;
}

/*
 * A task of weight w (scaled) joins (sign 1) or leaves (-1) g: its count
 * and weights; *edge when g fills or empties (its group's entity joins or
 * leaves the parent's runqueue).  false: a leave from an empty g (not
 * there: nothing to take).
 */
static inline __attribute__((always_inline)) bool join_leave(struct grq *g, uint64_t w, int sign,
							      bool *edge)
{
	if (sign > 0) {
		*edge = g->nr++ == 0;
		g->weight_sum += w;
		return true;
	}
	if (!g->nr)
		return false;
	*edge = --g->nr == 0;
	g->weight_sum = g->weight_sum > w ? g->weight_sum - w : 0;
	return true;
}

/*
 * change() for g, a group of the root's (most groups: every autogroup),
 * the root's integrals up to date: the same steps, the path's loop taken
 * once, the root's load over the CPUs not kept (tg_account()).
 */
static inline __attribute__((always_inline)) double change_top(struct sh_priv *p,
								struct sh_cpu *c,
								struct grq *g, uint64_t w,
								int sign)
{
	struct grq *r = g->parent;
	uint64_t old, want;
	double acc;
	bool edge;

	settle_on(c, g, r);	/* the root's integrals are up to date */
	acc = g->acc;
	old = g->weight_sum;
	if (!join_leave(g, w, sign, &edge))
		return acc;
	p->tg_load[g->group] += (g->weight_sum >> SH_LOAD_SHIFT) - (old >> SH_LOAD_SHIFT);
	if (edge) {
		/* the group's entity joins or leaves the root's runqueue here */
		if (sign > 0)
			r->nr++;
		else if (r->nr)
			r->nr--;
	}
	want = group_shares(p, g);
	if (want != g->entity_w) {
		/* reweight(): the root's load over the CPUs is not kept */
		r->weight_sum = r->weight_sum + want >= g->entity_w ?
				r->weight_sum + want - g->entity_w : 0;
		g->entity_w = want;
	}
	rerate(g);
	return acc;
}

/*
 * A task of weight w (scaled) joins (sign 1) or leaves (-1) group's
 * runqueue on cpu at ts, as enqueue_task_fair() and dequeue_task_fair()
 * do it: its group's entity joins or leaves the parent's runqueue there
 * when the group's runqueue fills or empties, and so on up; every group
 * on the way has its entity on this CPU weighed again
 * (update_cfs_group()), from the bottom up, from its load over the CPUs
 * as it is now.  The other CPUs keep their weights until their own
 * change or tick.  O(depth), whatever the CPUs and the groups.  Returns
 * the group's acc at ts (what the task's expected time counts from or
 * up to).
 */
static inline __attribute__((always_inline)) double change(struct sl_analyzer *a,
							    struct sl_model *m, int cpu,
							    uint32_t group, uint64_t w,
							    int sign, uint64_t ts)
{
	struct sh_priv *p = a->priv;
	struct sh_cpu *c = sl_cpu_priv(m, a, cpu);
	struct grq *g = get_grq(p, m, c, group);
	uint64_t old;
	double acc;
	bool edge;

	advance(c, ts);
	if (group && !g->parent->parent)
		return change_top(p, c, g, w, sign);
	if (group)
		settle(c, g);	/* the path's integrals at the weights so far */
	acc = g->acc;
	old = g->weight_sum;
	if (!join_leave(g, w, sign, &edge))
		return acc;
	tg_account(p, g, old);
	while (g->parent) {	/* up to the root */
		struct grq *pg = g->parent;
		uint64_t want;

		if (edge) {
			/* the group's entity joins or leaves its parent's runqueue here */
			if (sign > 0)
				edge = pg->nr++ == 0;
			else
				edge = pg->nr && --pg->nr == 0;
		}
		/* every level, as the kernel: the others' loads may have moved since */
		want = group_shares(p, g);
		if (want != g->entity_w)
			reweight(p, g, pg, want);
		rerate(g);
		g = pg;
	}
	return acc;
}

/*
 * A tick on c (its first switch 1/HZ after the last), entity_tick()'s
 * update_cfs_group(): every group runnable on c has its entity weighed
 * again from the loads over the CPUs as they are now, children before
 * parents (ids descend), so that a CPU where nothing was enqueued or
 * dequeued for a while follows the others' loads as the kernel's does.
 * A runqueue whose weights change is settled first, its parents with it.
 */
static void tick(struct sl_analyzer *a, struct sl_model *m, struct sh_cpu *c, uint64_t ts)
{
	struct sh_priv *p = a->priv;

	c->next_tick = ts + p->tick_ns;
	advance(c, ts);
	for (uint32_t i = c->nr_grq; i-- > 1;) {	/* c->grq[0] is the root */
		struct grq *g = c->grq[i];
		uint64_t want;

		if (!g->nr)
			continue;
		want = group_shares(p, g);
		if (want != g->entity_w) {
			settle(c, g);
			reweight(p, g, g->parent, want);
		}
		rerate(g);	/* a child's weight may have moved its weight_sum */
	}
}

/* Inline for what is not recorded (every task of most traces): asked at every switch. */
static inline bool is_fair(const struct sl_model *m, const struct sl_task *t)
{
	enum sl_class_source source;
	enum sl_sched_class cls;

	if (!t->sched_kind)
		return !t->prio_dl && (t->prio < 0 || t->prio >= 100);
	/*
	 * SCHED_NORMAL, what record writes for nearly every task: fair in
	 * one test.  Not redundant with sl_task_class() inline: without it
	 * (or with the policy's class looked up inline), 2.6 M instructions
	 * more on a recorded hackbench of 420 k events (0.3%).
	 */
	if (t->policy == 0)
		return true;
	cls = sl_task_class(m, t, &source);
	return cls == SL_CLASS_FAIR || cls == SL_CLASS_UNKNOWN;
}

/* its events say real-time or deadline now (a counted task: its class was fair) */
static inline bool boosted(const struct sl_task *t)
{
	return t->prio_dl || (uint32_t)t->prio < 100;
}

/*
 * t is in the fair class now: its class (is_fair()), unless its events'
 * prio says real-time or deadline (0..99, -1), as when a priority
 * inheritance boost (rt_mutex_setprio()) moves a fair task to the RT
 * class, off the fair runqueue, its policy unchanged.  Seen at the task's
 * next event that gives its prio (the trace has no sched_pi_setprio).
 */
static __attribute__((noinline)) bool fair_now_slow(const struct sl_model *m,
						     const struct sl_task *t)
{
	if (t->sched_kind && boosted(t))
		return false;	/* boosted: a recorded task's events say RT or DL */
	return is_fair(m, t);
}

static inline bool fair_now(const struct sl_model *m, const struct sl_task *t)
{
	/* the most common, inline: a fair prio, SCHED_NORMAL or no policy recorded */
	if (__builtin_expect(!t->prio_dl && (uint32_t)(t->prio - 100) < 40 &&
			     (!t->sched_kind || t->policy == 0), 1))
		return true;
	return fair_now_slow(m, t);
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

/* ns more to group's run time and to its ancestors' */
static void add_moved_run(struct sh_priv *p, struct sl_model *m, uint32_t group, int64_t ns)
{
	for (uint32_t id = group, depth = 0; depth < SL_CTX_MAX_GROUPS; depth++) {
		const struct sl_group *gr = sl_model_group(m, id);

		GROW(p->moved_run, p->nr_moved_run, (size_t)id + 1);	/* zeroed */
		p->moved_run[id] += ns;
		if (!id || !gr)
			break;
		id = gr->parent;
	}
}

/*
 * moved_run - t counts in group from ts on, no longer in from: its run
 * time so far (the run it is in, too) stays with from.  The report adds
 * a task's whole run time to its last group (totals()): from gets it
 * back here and group gives it up, so each group keeps the run its
 * tasks had while in it (the common ancestors: both, unchanged).
 */
static __attribute__((noinline)) void moved_run(struct sl_analyzer *a, struct sl_model *m,
						struct sl_task *t, uint32_t from,
						uint32_t group)
{
	/* all of it: a running task entering again left first (task_leave()) */
	int64_t so_far = (int64_t)((const struct sh_task *)sl_task_priv(m, a, t))->run_ns;

	if (!so_far)
		return;
	add_moved_run(a->priv, m, from, so_far);
	add_moved_run(a->priv, m, group, -so_far);
}

/*
 * st's weight as its runqueue holds it, scale_load()d.  The integrals
 * are per scaled unit: x 1024 and / 1024 are exact in binary floating
 * point, so a root-only trace's figures are the unscaled ones to the bit.
 */
static inline uint64_t load_weight(const struct sh_task *st)
{
	return (uint64_t)st->weight << SH_LOAD_SHIFT;
}

/*
 * t became runnable on cpu at ts.  Inlined where it happens most (an
 * enqueue: enqueued()), called elsewhere (task_enter()).
 */
static inline __attribute__((always_inline)) void enter(struct sl_analyzer *a,
							struct sl_model *m,
							struct sl_task *t, int cpu,
							uint64_t ts)
{
	struct sh_task *st = sl_task_priv(m, a, t);
	struct sh_cpu *c = sl_cpu_priv(m, a, cpu);
	uint32_t group = task_group(m, t), weight = task_weight(m, t), was = st->group;

	st->on = cpu + 1;
	st->group = group;
	st->weight = weight;
	st->since = ts;
	if (group == 0 && c->nr_grq == 1) {
		/* the root alone on c (no groups: most traces) */
		struct grq *g = c->root;

		advance(c, ts);
		g->nr++;
		g->weight_sum += load_weight(st);
		st->acc_start = g->acc;
		if (__builtin_expect(was != 0, 0))	/* moved since it last was runnable */
			moved_run(a, m, t, was, 0);
		return;
	}
	st->acc_start = change(a, m, cpu, group, load_weight(st), 1, ts);
	if (__builtin_expect(was != group, 0))
		moved_run(a, m, t, was, group);
}

/*
 * t is not runnable where it was any more (if it was).  Inlined where it
 * happens most (a switch away from it: sh_switch()), called elsewhere
 * (task_leave()).
 */
static inline __attribute__((always_inline)) void leave(struct sl_analyzer *a,
							struct sl_model *m,
							struct sl_task *t, uint64_t ts)
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
		struct grq *g = c->root;

		advance(c, ts);
		st->expected_ns += dbl(load_weight(st)) * (g->acc - st->acc_start);
		if (g->nr) {
			g->nr--;
			g->weight_sum = g->weight_sum > load_weight(st) ?
					g->weight_sum - load_weight(st) : 0;
		}
		return;
	}
	st->expected_ns += dbl(load_weight(st)) *
			   (change(a, m, cpu, st->group, load_weight(st), -1, ts) - st->acc_start);
}

static __attribute__((noinline)) void task_enter(struct sl_analyzer *a, struct sl_model *m,
						  struct sl_task *t, int cpu, uint64_t ts)
{
	enter(a, m, t, cpu, ts);
}

/*
 * The same, for a task that may be running (its run so far counts), not
 * at its switch-out (sh_switch() counts that run): a marker, the end.
 */
static __attribute__((noinline)) void task_leave(struct sl_analyzer *a, struct sl_model *m,
						  struct sl_task *t, uint64_t ts)
{
	struct sh_task *st = sl_task_priv(m, a, t);
	int cpu = st_cpu(st);

	if (cpu >= 0 && cpu < m->nr_cpus && m->cpus[cpu].curr == t && m->cpus[cpu].known)
		st->run_ns += sl_dur(MAX(t->since, st->since), ts);
	leave(a, m, t, ts);
}

/*
 * Only an enqueue matters here: a task leaving a runqueue is switched in
 * (still runnable), or enqueued elsewhere (that enqueue ends its interval
 * here), or the model lost it (it stays runnable here until its next
 * switch or the end: an approximation around lost events).  Answering
 * the leave at once would cost a leave and a return at every switch-in.
 */
static __attribute__((noinline)) void enqueued(struct sl_analyzer *a, struct sl_model *m,
						struct sl_task *t, int cpu, uint64_t ts)
{
	if (st_cpu(sl_task_priv(m, a, t)) >= 0)
		task_leave(a, m, t, ts);
	if (fair_now(m, t))
		enter(a, m, t, cpu, ts);
}

/*
 * An enqueue (runnable_calls), once started (sl_model_hooks_idle()).  The
 * test first, with nothing to save: many calls go no further (preempted).
 */
static void sh_runnable(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t, int cpu,
			uint64_t ts, bool enter)
{
	(void)enter;
	if (st_cpu(sl_task_priv(m, a, t)) == cpu)
		return;		/* preempted: runnable here all along (sh_switch(): boosted) */
	enqueued(a, m, t, cpu, ts);
}

/* Called once started (sl_model_hooks_idle()). */
static void sh_switch(struct sl_analyzer *a, struct sl_model *m, const struct sl_switch_info *sw)
{
	struct sh_cpu *c = sl_cpu_priv(m, a, sw->cpu);
	bool blocked = sw->next && !fair_now(m, sw->next);

	if (blocked != c->fair_blocked) {
		advance(c, sw->ts);	/* the integrals so far at the old rate */
		c->fair_blocked = blocked;
	}
	if (c->nr_grq > 1 && sw->ts >= c->next_tick)
		tick(a, m, c, sw->ts);	/* groups here: their entities weighed again */
	if (sw->prev) {
		struct sh_task *st = sl_task_priv(m, a, sw->prev);

		if (st_cpu(st) == sw->cpu) {
			/* its run as a fair entity (not one boosted from its start: not on) */
			if (sw->prev_ran_since)
				st->run_ns += sl_dur(MAX(sw->prev_ran_since, st->since), sw->ts);
			if (!(sw->prev->state == SL_TASK_QUEUED && sw->prev->cpu == sw->cpu))
				leave(a, m, sw->prev, sw->ts);	/* blocked, dead, gone */
			else if (__builtin_expect(boosted(sw->prev), 0))
				leave(a, m, sw->prev, sw->ts);	/* preempted, boosted while it ran */
		}
	}
	if (sw->next) {
		struct sh_task *st = sl_task_priv(m, a, sw->next);

		if (st_cpu(st) != sw->cpu) {
			if (st_cpu(st) >= 0)
				task_leave(a, m, sw->next, sw->ts);
			if (!blocked)
				task_enter(a, m, sw->next, sw->cpu, sw->ts);
		} else if (blocked) {
			task_leave(a, m, sw->next, sw->ts);	/* boosted while it waited */
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
	if (group == st->group && st->weight == task_weight(m, t) && fair_now(m, t))
		return;
	task_leave(a, m, t, ts);	/* a running one's run so far counts */
	if (fair_now(m, t))
		task_enter(a, m, t, cpu, ts);
}

/*
 * A group defined again may weigh otherwise: as sched_group_set_shares()
 * does, its entity on c and its parents' are weighed again at once
 * (update_cfs_group()), children before parents, the runqueues whose
 * weights change settled first, as at a tick.
 */
static void new_shares(struct sl_analyzer *a, struct sl_model *m, struct sh_cpu *c, uint64_t ts)
{
	struct sh_priv *p = a->priv;
	bool *moved = NULL;

	for (uint32_t i = 1; i < c->nr_grq; i++) {
		struct grq *g = c->grq[i];
		const struct sl_group *gr = sl_model_group(m, g->group);

		if (!gr || tg_shares_of(gr) == g->tg_shares)
			continue;
		g->tg_shares = tg_shares_of(gr);
		if (!moved)
			moved = xcalloc(c->nr_pos, sizeof(*moved));
		for (; g->parent; g = g->parent)
			moved[g->group] = true;
	}
	if (!moved)
		return;
	advance(c, ts);
	for (uint32_t i = c->nr_grq; i-- > 1;) {	/* c->grq[0] is the root */
		struct grq *g = c->grq[i];
		uint64_t want;

		if (!moved[g->group] || !g->nr)
			continue;
		want = group_shares(p, g);
		if (want != g->entity_w) {
			settle(c, g);
			reweight(p, g, g->parent, want);
		}
		rerate(g);
	}
	free(moved);
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
	if (m->ctx->hz.value[0]) {
		unsigned long hz = strtoul(m->ctx->hz.value, NULL, 10);

		p->tick_ns = hz ? 1000000000ull / hz : SH_TICK_NS;
	}
	for (int cpu = 0; cpu < m->nr_cpus; cpu++)
		new_shares(a, m, sl_cpu_priv(m, a, cpu), ev->ts);
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct sl_cpu *c = &m->cpus[cpu];

		if (!p->started) {
			/* the first context marker: what runs and waits now starts here */
			struct sh_cpu *sc = sl_cpu_priv(m, a, cpu);

			sc->fair_blocked = c->curr && !fair_now(m, c->curr);
			if (c->curr && fair_now(m, c->curr))
				task_enter(a, m, c->curr, cpu, ev->ts);
			for (struct sl_task *t = c->queued; t; t = t->q_next)
				if (fair_now(m, t))
					task_enter(a, m, t, cpu, ev->ts);
			continue;
		}
		if (c->curr)
			regroup(a, m, c->curr, ev->ts);
		for (struct sl_task *t = c->queued; t; t = t->q_next)
			regroup(a, m, t, ev->ts);
	}
	if (!p->started)
		sl_model_hooks_idle(m, a, false);	/* enqueues and switches from the next event on */
	p->started = true;
}

static int sh_init(struct sl_analyzer *a, struct sl_model *m)
{
	((struct sh_priv *)a->priv)->tick_ns = SH_TICK_NS;
	/* nothing to follow before the first context marker: no call per switch and enqueue */
	sl_model_hooks_idle(m, a, true);
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
	g->run_ns += ((const struct sh_task *)sl_task_priv(m, a, t))->run_ns;
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
	/* the lazily kept integrals up to each CPU's last change, as the root's */
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct sh_cpu *c = sl_cpu_priv(m, a, cpu);

		for (uint32_t i = 1; i < c->nr_grq; i++)
			settle(c, c->grq[i]);
	}
}

static double share_of(double part, uint64_t whole)
{
	return whole ? round(part / (double)whole * 10000.0) / 10000.0 : 0.0;
}

/* A task's measured share: its run time over its runnable time, as a fair entity. */
static double measured(const struct sh_task *st)
{
	return share_of((double)st->run_ns, st->runnable_ns);
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
			const struct grq *q = c->grq[i];

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
		group = task_group(m, t);	/* its last: moved_run() corrects for its moves */
		if (group >= n)
			continue;
		/* its run time to its group and the group's ancestors, in the filters or not */
		for (uint32_t id = group, depth = 0; depth < SL_CTX_MAX_GROUPS; depth++) {
			const struct sl_group *gr = sl_model_group(m, id);

			g[id].run_ns += ((const struct sh_task *)sl_task_priv(m, a, t))->run_ns;
			if (!id || !gr)
				break;
			id = gr->parent;
		}
		if (!sl_filter_task(m->cfg, m->strtab, t) || !sl_task_active(t))
			continue;
		g[group].tasks++;
		sl_hist_merge(&g[group].latency, &t->latency);
	}
	for (uint32_t i = 0; i < p->nr_moved_run && i < n; i++)
		g[i].run_ns += (uint64_t)p->moved_run[i];
	for (uint32_t i = 0; i < p->nr_folded && i < n; i++)
		g[i].tasks += p->folded[i].tasks;
	/* a group whose tasks are all in groups below it (nested cgroups) is reported too */
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t id = i, depth = 0; g[i].tasks && id < n && !g[id].reported &&
						   depth < SL_CTX_MAX_GROUPS; depth++) {
			const struct sl_group *gr = sl_model_group(m, id);

			g[id].reported = true;
			if (!id || !gr)
				break;
			id = gr->parent;
		}
	for (uint32_t i = 0; i < p->nr_folded && i < n; i++) {
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

/* What "expected" is not: schedlint-analyze(1), "CPU shares" */
static const char sh_sleepers[] = "The two compare for tasks that stay runnable: one runnable "
				  "in short stretches runs at once or waits out a slice, above "
				  "or below its weight.";

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
		sl_report_wrap(r, 2, 2, "Of the time each was runnable as a fair task: the share "
			       "it ran, and the share its weight gives it through the group hierarchy "
			       "(groups recorded by schedlint record).  %s", sh_sleepers);
	else
		sl_report_wrap(r, 2, 2, "Of the time each was runnable as a fair task: the share "
			       "it ran, and the share its weight gives it.  No groups recorded: every task in "
			       "one flat group.  %s", sh_sleepers);
	for (int i = 0; i < 7; i++)
		cells[i] = c[i];
	if (recorded) {
		fputc('\n', r->out);
		bits = sl_cols_fit(r, 2, gcols, 7);
		sl_cols_row(r, 2, gcols, 7, bits, NULL);
		for (uint32_t id = 0; id < nr_groups; id++) {
			const struct sl_group *gr = sl_model_group(m, id);

			if (!gr || !g[id].runnable_ns || !g[id].reported || id == 0)
				continue;	/* the root is the whole CPU; groups of no task reported */
			group_short(c[0], sizeof(c[0]), m, id, 24);
			snprintf(c[1], sizeof(c[1]), "%" PRIu32, gr->weight);
			snprintf(c[2], sizeof(c[2]), "%" PRIu32, g[id].tasks);
			sl_report_cell(c[3], sizeof(c[3]), g[id].runnable_ns);
			sl_report_cell(c[4], sizeof(c[4]), g[id].run_ns);
			snprintf(c[5], sizeof(c[5]), "%.3f",
				 share_of((double)g[id].run_ns, g[id].runnable_ns));
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
		sl_report_cell(c[4], sizeof(c[4]), st->run_ns);
		snprintf(c[5], sizeof(c[5]), "%.3f", measured(st));
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
		sl_json_add_u64(x, "run_ns", st->run_ns);
		sl_json_add_u64(x, "wait_ns", sl_dur(st->run_ns, st->runnable_ns));
		cJSON_AddNumberToObject(x, "measured", measured(st));
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

		for (uint32_t i = 0; i < c->nr_grq; i++)
			free(c->grq[i]);
		free(c->grq);
		free(c->pos);
	}
	for (uint32_t i = 0; i < p->nr_folded; i++)
		sl_hist_free(&p->folded[i].latency);
	free(p->folded);
	free(p->tg_load);
	free(p->moved_run);
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
