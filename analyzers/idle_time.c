// SPDX-License-Identifier: GPL-2.0
/*
 * idle_time.c - idle CPU time while a task that could use it waited, each idle period once
 *
 * What it measures (issue 20 part 5): per CPU and in total, the idle time
 * during which at least one migratable task waited queued on another CPU
 * of the same LLC -- the time a work-conserving scheduler could have
 * used, the number a patch like the shared runqueue series (seeds/004)
 * argues with.  idle-while-runnable's findings are per waiting task, so
 * an idle period next to several waiters counts once for each there, and
 * their sum is not idle time; here every idle period counts once.  A gap
 * is the covered part of one idle period (it may be in pieces: waiters
 * come and go); a histogram of the gaps from 1 us up (the findings' 1 ms
 * threshold hides the short ones), and how each ended:
 *   pulled        the idle CPU got a queued task by a migration (newidle or
 *                 periodic balance, a pull) while one waited
 *   ran-in-place  the last waiter ran where it waited
 *   cpu-busy      the idle CPU got other work (a wakeup, a new task) while
 *                 a waiter still waited
 *   other         the last waiter left another way (moved to a busy CPU,
 *                 state lost, exited), events were lost, the trace ended
 *
 * Idle: the model's definition (known, the idle task, nothing queued or
 * pending).  Waiting: queued, as for idle-while-runnable (a wakee from its
 * sched_wakeup).  Migratable, at that moment: allowed on the idle CPU by
 * the affinity the trace recorded so far (schedlint record; a re-read
 * written later than the change it reports is not applied here, unlike
 * for the findings, so a task moved by a stopper, exec'd, or forked from
 * such a task, whose re-read has not come yet, is not migratable); else,
 * since its last move by a migration/N stopper,
 * seen running on two CPUs, or queued on another CPU than the one it ran
 * on (the kernel queues a task only where it may run); or
 * --assume-migratable and not a per-CPU kernel thread.  The findings
 * decide migratability at the end of the trace, from where the task ran;
 * here it is decided when the wait starts, from what is known then.
 *
 * How, in O(1) per event for tasks allowed on their whole LLC: per LLC the
 * number of waiters that may run on any of its CPUs and the running
 * integral of "there is one" over time; an idle CPU's covered time is the
 * integral's growth during its idle period.  A waiter whose recorded mask
 * covers part of its LLC counts on each CPU of that part (O(those CPUs)).
 *
 * Blind spots: around lost events the gap of the CPU that lost them ends
 * at the loss with the time covered until then taken as it was when the
 * loss was learnt (an estimate); the waits on it end then too.
 */
#include <cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "schedlint/analyzer.h"
#include "schedlint/held.h"
#include "schedlint/report.h"
#include "util/util.h"

enum gap_end { END_PULLED = 0, END_RAN_IN_PLACE, END_CPU_BUSY, END_OTHER, END__NR };
static const char *const end_names[END__NR] = {
	[END_PULLED] = "pulled", [END_RAN_IN_PLACE] = "ran-in-place",
	[END_CPU_BUSY] = "cpu-busy", [END_OTHER] = "other",
};

/* The gaps' histogram: decades from 1 us (bucket 0: under 1 us). */
#define BUCKETS 8
static const uint64_t bucket_floor[BUCKETS] = {
	0, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
};

enum cls { CLS_NONE = 0, CLS_ANY, CLS_MASK };

/* How the coverage of an idle CPU ended last (while it stayed idle). */
struct uncover {
	uint64_t ts;
	struct sl_task *task;		/* the waiter that left */
	int32_t cpu;			/* where it waited */
};

/* An LLC domain: its waiters that may run on any of its CPUs. */
struct it_llc {
	uint32_t any;			/* such waiters now */
	uint64_t acc, since;		/* integral of any > 0 up to since (any: since then too) */
	struct uncover last;		/* the last time any dropped to 0 */
};

struct it_cpu {
	bool idle;
	bool pulling;			/* a waiter is being moved here: its idle ends by a pull */
	uint64_t idle_since;
	uint32_t mask_cnt;		/* waiters of partial masks that may run here */
	uint64_t mask_since;		/* mask_cnt > 0 since (valid when idle) */
	uint64_t snap;			/* the domain's integral when mask_cnt last was 0 (idle) */
	uint64_t acc;			/* covered time of the current idle period so far */
	struct uncover mask_last;	/* the last time mask_cnt dropped to 0 */
	/* totals */
	uint64_t covered_ns, gaps;
};

struct it_task {
	/* what its enqueues, dequeues and switch-ins touch, then mask: 32 bytes */
	uint8_t cls;			/* enum cls: how its current wait counts */
	uint16_t mask_words;		/* of mask (at most SL_MODEL_MAX_CPUS / 64 + 1) */
	int16_t cpu;			/* where it waits (CPUs and domains: SL_MODEL_MAX_CPUS) */
	int16_t dom;			/* that CPU's LLC domain */
	int16_t ran_cpu;
	/*
	 * comm + 1 when its comm is known to be no per-CPU kernel thread's
	 * (sl_task_affinity() is not SL_AFFINITY_PINNED), 0 not asked yet:
	 * a pure function of the comm, asked once per task and comm rather
	 * than at every enqueue (classify_unrecorded())
	 */
	uint32_t unpinned_comm;
	uint64_t ran_ts;		/* its last switch-in, and where (ran_cpu) */
	uint64_t *mask;			/* CLS_MASK: the CPUs it counts on (a copy) */
};
_Static_assert(SL_MODEL_MAX_CPUS / 64 + 1 <= UINT16_MAX, "it_task.mask_words");
_Static_assert(SL_MODEL_MAX_CPUS <= INT16_MAX, "it_task's CPUs and domains fit in 16 bits");

struct it_priv {
	struct it_llc *llc;		/* by domain */
	int nr_llc;
	int *dom_of;			/* CPU -> domain, -1: alone in its LLC */
	uint64_t **llc_mask;		/* domain -> its CPUs */
	int nr_cpus_mapped;		/* dom_of covers CPUs below it */
	const int *llc_of_seen;		/* the model's llc_of the map was made from */
	uint64_t total_ns, gaps;
	uint64_t hist_gaps[BUCKETS], hist_ns[BUCKETS];
	uint64_t end_gaps[END__NR], end_ns[END__NR];
	bool ending;			/* finish: the trace ends every gap */
};

/* --- the LLC domains, from the model's (they may arrive with the trace's first marker) --- */

static void map_free(struct it_priv *p)
{
	for (int d = 0; d < p->nr_llc; d++)
		free(p->llc_mask[d]);
	free(p->llc_mask);
	free(p->llc);
	free(p->dom_of);
	p->llc_mask = NULL;
	p->llc = NULL;
	p->dom_of = NULL;
	p->nr_llc = 0;
}

/*
 * (Re)build the CPU -> domain map: when the LLC layout arrives (the trace's
 * first marker, or with --llc from the start) and when CPUs appear.  A new
 * layout starts the counts afresh: the waits under way no longer count.
 */
static void map_rebuild(struct it_priv *p, struct sl_model *m, struct sl_analyzer *a)
{
	size_t words = (size_t)m->nr_cpus / 64 + 1;
	int nr_dom = 0;

	if (p->dom_of && p->llc_of_seen == m->llc_of) {
		/* more CPUs, same layout: one domain takes them, else each is alone */
		p->dom_of = xrealloc(p->dom_of, (size_t)m->nr_cpus * sizeof(*p->dom_of));
		for (int d = 0; d < p->nr_llc; d++) {
			p->llc_mask[d] = xrealloc(p->llc_mask[d], words * sizeof(uint64_t));
			for (size_t w = (size_t)p->nr_cpus_mapped / 64 + 1; w < words; w++)
				p->llc_mask[d][w] = 0;
		}
		for (int cpu = p->nr_cpus_mapped; cpu < m->nr_cpus; cpu++) {
			p->dom_of[cpu] = m->nr_llc_cpus ? -1 : 0;
			if (!m->nr_llc_cpus)
				p->llc_mask[0][cpu / 64] |= 1ULL << (cpu % 64);
		}
		p->nr_cpus_mapped = m->nr_cpus;
		return;
	}
	if (p->dom_of) {
		for (uint32_t i = 0; i < m->nr_tasks; i++)	/* a frozen one's is: it_task_in_use() */
			if (!m->tasks[i]->frozen)
				((struct it_task *)sl_task_priv(m, a, m->tasks[i]))->cls = CLS_NONE;
		for (int cpu = 0; cpu < p->nr_cpus_mapped && cpu < m->nr_cpus; cpu++) {
			struct it_cpu *ic = sl_cpu_priv(m, a, cpu);

			ic->mask_cnt = 0;
			ic->mask_since = m->now;
			ic->snap = 0;
		}
	}
	map_free(p);
	p->llc_of_seen = m->llc_of;
	p->dom_of = xmalloc((size_t)MAX(m->nr_cpus, 1) * sizeof(*p->dom_of));
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		int d = !m->nr_llc_cpus ? 0 : cpu < m->nr_llc_cpus ? m->llc_of[cpu] : -1;

		p->dom_of[cpu] = d;
		nr_dom = MAX(nr_dom, d + 1);
	}
	p->nr_llc = nr_dom;
	p->llc = xcalloc((size_t)MAX(nr_dom, 1), sizeof(*p->llc));
	p->llc_mask = xcalloc((size_t)MAX(nr_dom, 1), sizeof(*p->llc_mask));
	for (int d = 0; d < nr_dom; d++)
		p->llc_mask[d] = xcalloc(words, sizeof(uint64_t));
	for (int cpu = 0; cpu < m->nr_cpus; cpu++)
		if (p->dom_of[cpu] >= 0)
			p->llc_mask[p->dom_of[cpu]][cpu / 64] |= 1ULL << (cpu % 64);
	p->nr_cpus_mapped = m->nr_cpus;
}

/* The map is up to date nearly always: the test inline, at every enqueue and idle flip */
static inline void map_update(struct it_priv *p, struct sl_model *m, struct sl_analyzer *a)
{
	if (!p->dom_of || p->llc_of_seen != m->llc_of || p->nr_cpus_mapped < m->nr_cpus)
		map_rebuild(p, m, a);
}

static uint64_t integral(const struct it_llc *l, uint64_t ts)
{
	return l->acc + (l->any ? sl_dur(l->since, ts) : 0);
}

/* --- gaps --- */

static int bucket_of(uint64_t ns)
{
	int b = BUCKETS - 1;

	while (b > 0 && ns < bucket_floor[b])
		b--;
	return b;
}

static bool ran_in_place(struct sl_model *m, struct sl_analyzer *a, const struct uncover *u)
{
	const struct it_task *it;

	if (!u->task)
		return false;
	it = sl_task_priv(m, a, u->task);
	return it->ran_ts == u->ts && it->ran_cpu == u->cpu;
}

/* cpu's idle period ends at ts: its covered time is a gap, counted once. */
static void idle_end(struct sl_analyzer *a, struct sl_model *m, int cpu, uint64_t ts)
{
	struct it_priv *p = a->priv;
	struct it_cpu *ic = sl_cpu_priv(m, a, cpu);
	int dom = cpu < p->nr_cpus_mapped ? p->dom_of[cpu] : -1;
	const struct it_llc *l = dom >= 0 && dom < p->nr_llc ? &p->llc[dom] : NULL;
	bool covered = ic->mask_cnt || (l && l->any);
	enum gap_end why;
	int b;

	ic->idle = false;
	if (ic->mask_cnt)
		ic->acc += sl_dur(ic->mask_since, ts);
	else if (l)
		ic->acc += sl_dur(ic->snap, integral(l, ts));
	ic->acc = MIN(ic->acc, sl_dur(ic->idle_since, ts));
	if (ic->pulling)
		why = END_PULLED;
	else if (p->ending || !sl_filter_time(m->cfg, ts))
		why = END_OTHER;
	else if (covered)
		why = END_CPU_BUSY;
	else {
		const struct uncover *u = l && l->last.ts >= ic->mask_last.ts ? &l->last : &ic->mask_last;

		why = ran_in_place(m, a, u) ? END_RAN_IN_PLACE : END_OTHER;
	}
	ic->pulling = false;
	if (!ic->acc || !sl_filter_cpu(m->cfg, cpu) || !sl_filter_time(m->cfg, ic->idle_since))
		return;
	ic->covered_ns += ic->acc;
	ic->gaps++;
	p->total_ns += ic->acc;
	p->gaps++;
	b = bucket_of(ic->acc);
	p->hist_gaps[b]++;
	p->hist_ns[b] += ic->acc;
	p->end_gaps[why]++;
	p->end_ns[why] += ic->acc;
}

static void idle_start(struct sl_analyzer *a, struct sl_model *m, int cpu, uint64_t ts)
{
	struct it_priv *p = a->priv;
	struct it_cpu *ic = sl_cpu_priv(m, a, cpu);
	int dom = cpu < p->nr_cpus_mapped ? p->dom_of[cpu] : -1;

	ic->idle = true;
	ic->pulling = false;
	ic->idle_since = ts;
	ic->acc = 0;
	ic->mask_since = ts;
	ic->snap = dom >= 0 && dom < p->nr_llc ? integral(&p->llc[dom], ts) : 0;
}

/* --- waiters --- */

/* An idle CPU whose partial-mask count changes at ts: account the stretch before. */
static void mask_change(struct it_priv *p, struct it_cpu *ic, int dom, uint64_t ts, bool up,
			struct sl_task *t, int where)
{
	const struct it_llc *l = dom >= 0 && dom < p->nr_llc ? &p->llc[dom] : NULL;

	if (up) {
		if (ic->mask_cnt++ || !ic->idle)
			return;
		if (l)
			ic->acc += sl_dur(ic->snap, integral(l, ts));
		ic->mask_since = ts;
		return;
	}
	if (--ic->mask_cnt)
		return;
	ic->mask_last = (struct uncover){ .ts = ts, .task = t, .cpu = where };
	if (!ic->idle)
		return;
	ic->acc += sl_dur(ic->mask_since, ts);
	ic->snap = l ? integral(l, ts) : 0;
}

static __attribute__((noinline))
void for_mask(struct sl_analyzer *a, struct sl_model *m, struct it_task *it, uint64_t ts,
	      bool up, struct sl_task *t)
{
	struct it_priv *p = a->priv;

	for (uint32_t w = 0; w < it->mask_words; w++)
		for (uint64_t bits = it->mask[w]; bits; bits &= bits - 1) {
			int cpu = (int)(w * 64) + __builtin_ctzll(bits);

			if (cpu < m->nr_cpus)
				mask_change(p, sl_cpu_priv(m, a, cpu), it->dom, ts, up, t, it->cpu);
		}
}

/*
 * classify() for a task without a recorded mask: from where it ran
 * (sl_task_affinity(): pinned by its comm, else migratable once it ran
 * on two CPUs; the comm's part asked once, it->unpinned_comm)
 */
static inline enum cls classify_unrecorded(const struct sl_model *m, const struct sl_task *t,
					   int cpu, struct it_task *it)
{
	if (it->unpinned_comm != t->comm + 1) {
		if (sl_task_affinity(m, t) == SL_AFFINITY_PINNED)
			return CLS_NONE;
		it->unpinned_comm = t->comm + 1;
	}
	if (t->multi_cpu)
		return CLS_ANY;
	/* it ran on another CPU and the kernel queued it here: it may use both */
	if (t->first_cpu >= 0 && t->first_cpu != cpu)
		return CLS_ANY;
	return m->cfg->assume_migratable ? CLS_ANY : CLS_NONE;
}

/* classify() for a recorded mask, any number of CPUs: it->mask gets its CPUs of the LLC */
static __attribute__((noinline))
enum cls classify_mask(struct it_priv *p, const struct sl_model *m, const struct sl_cpuset *allowed,
		       int cpu, struct it_task *it)
{
	const uint64_t *llc = p->llc_mask[it->dom];
	uint32_t words = (uint32_t)m->nr_cpus / 64 + 1;
	bool some = false, all_of = true;	/* of the LLC's other CPUs, t may run on */

	if (it->mask_words < words) {
		it->mask = xrealloc(it->mask, words * sizeof(*it->mask));
		it->mask_words = (uint16_t)words;
	}
	for (uint32_t w = 0; w < words; w++) {
		uint64_t all = llc[w], mine = w < allowed->nr_words ? allowed->words[w] & all : 0;

		if ((uint32_t)cpu / 64 == w) {
			all &= ~(1ULL << (cpu % 64));
			mine &= ~(1ULL << (cpu % 64));
		}
		it->mask[w] = mine;
		/* mine is a subset of all: no popcount (a libgcc call without -mpopcnt) */
		some |= mine != 0;
		all_of &= mine == all;
	}
	for (uint32_t w = words; w < it->mask_words; w++)
		it->mask[w] = 0;
	return !some ? CLS_NONE : all_of ? CLS_ANY : CLS_MASK;
}

/*
 * May t, queued on cpu, run on the other CPUs of its LLC: all of them, some, none?
 * it->mask is set for CLS_MASK only.  Every enqueue asks: a recorded mask of
 * up to 63 CPUs that allows all or none of the LLC is decided in one word.
 */
static inline enum cls classify(struct it_priv *p, struct sl_model *m, struct sl_task *t, int cpu,
				struct it_task *it)
{
	const struct sl_cpuset *allowed;

	if (it->dom < 0 || !sl_filter_task(m->cfg, m->strtab, t))
		return CLS_NONE;	/* alone in its LLC, or not a task the report covers */
	allowed = t->nr_aff ? sl_task_allowed_at(m, t, m->now) : NULL;	/* no call without */
	if (!allowed)
		return classify_unrecorded(m, t, cpu, it);
	if (t->aff_stale)
		return CLS_NONE;	/* its recorded mask is out of date until record's re-read */
	if (m->nr_cpus < 64) {
		uint64_t all = p->llc_mask[it->dom][0] & ~(1ULL << cpu);
		uint64_t mine = allowed->nr_words ? allowed->words[0] & all : 0;

		if (!mine)
			return CLS_NONE;
		if (mine == all)
			return CLS_ANY;
	}
	return classify_mask(p, m, allowed, cpu, it);
}

static void wait_start(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t, int cpu,
		       uint64_t ts)
{
	struct it_priv *p = a->priv;
	struct it_task *it = sl_task_priv(m, a, t);
	struct it_llc *l;

	map_update(p, m, a);
	it->cpu = (int16_t)cpu;
	it->dom = (int16_t)(cpu < p->nr_cpus_mapped ? p->dom_of[cpu] : -1);
	it->cls = (uint8_t)classify(p, m, t, cpu, it);
	if (it->cls == CLS_MASK) {
		for_mask(a, m, it, ts, true, t);
	} else if (it->cls == CLS_ANY) {
		l = &p->llc[it->dom];
		if (!l->any++)
			l->since = ts;
	}
}

static void wait_end(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t, uint64_t ts)
{
	struct it_priv *p = a->priv;
	struct it_task *it = sl_task_priv(m, a, t);
	struct it_llc *l;

	if (it->cls == CLS_MASK) {
		for_mask(a, m, it, ts, false, t);
	} else if (it->cls == CLS_ANY && it->dom < p->nr_llc) {
		l = &p->llc[it->dom];
		if (l->any && !--l->any) {
			l->acc += sl_dur(l->since, ts);
			l->since = ts;
			l->last = (struct uncover){ .ts = ts, .task = t, .cpu = it->cpu };
		}
	}
	it->cls = CLS_NONE;
}

/* --- following the model --- */

static __attribute__((noinline))
void runnable(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t, int cpu, uint64_t ts,
	      bool enter)
{
	struct it_task *it = sl_task_priv(m, a, t);

	if (it->cls)
		wait_end(a, m, t, ts);
	if (!enter)
		return;
	if (t->runnable_reason == SL_RUNNABLE_MIGRATED && cpu < m->nr_cpus) {
		struct it_cpu *ic = sl_cpu_priv(m, a, cpu);

		ic->pulling = ic->idle;	/* its idle period ends now, by this pull */
	}
	wait_start(a, m, t, cpu, ts);
}

/* A wait counted for t's whole LLC ends at ts (wait_end()'s CLS_ANY case, inline) */
static inline void any_wait_end(struct it_priv *p, struct sl_task *t, struct it_task *it, uint64_t ts)
{
	if (it->cls == CLS_ANY && it->dom < p->nr_llc) {
		struct it_llc *l = &p->llc[it->dom];

		if (l->any && !--l->any) {
			l->acc += sl_dur(l->since, ts);
			l->since = ts;
			l->last = (struct uncover){ .ts = ts, .task = t, .cpu = it->cpu };
		}
	}
	it->cls = CLS_NONE;
}

/*
 * runnable() for the common enqueue, without a call: no mask of its own
 * (recorded, or a wait counted on some CPUs), the map up to date, every
 * task covered, its comm known to be no per-CPU kthread's.  Its classes
 * are then classify_unrecorded()'s last tests; and a function that makes
 * no call saves no register (runnable()'s calls made it save six at every
 * enqueue).  false, having changed nothing: runnable() does it.
 */
static inline bool enter_fast(struct it_priv *p, struct sl_model *m, struct sl_analyzer *a,
			      struct sl_task *t, struct it_task *it, int cpu, uint64_t ts)
{
	uint8_t cls;

	if (it->cls == CLS_MASK || !p->dom_of || p->llc_of_seen != m->llc_of ||
	    p->nr_cpus_mapped < m->nr_cpus || t->nr_aff || it->unpinned_comm != t->comm + 1 ||
	    !sl_filter_task_none(m->cfg))
		return false;
	any_wait_end(p, t, it, ts);
	if (t->runnable_reason == SL_RUNNABLE_MIGRATED && cpu < m->nr_cpus) {
		struct it_cpu *ic = sl_cpu_priv(m, a, cpu);

		ic->pulling = ic->idle;	/* its idle period ends now, by this pull */
	}
	/* wait_start() */
	it->cpu = (int16_t)cpu;
	it->dom = (int16_t)(cpu < p->nr_cpus_mapped ? p->dom_of[cpu] : -1);
	if (it->dom < 0)
		cls = CLS_NONE;
	else if (t->multi_cpu || (t->first_cpu >= 0 && t->first_cpu != cpu))
		cls = CLS_ANY;
	else
		cls = m->cfg->assume_migratable ? CLS_ANY : CLS_NONE;
	it->cls = cls;
	if (cls == CLS_ANY) {
		struct it_llc *l = &p->llc[it->dom];

		if (!l->any++)
			l->since = ts;
	}
	return true;
}

/*
 * An enqueue, or the end of a wait: a task's leaving, as often, is
 * wait_end()'s for a task allowed on its whole LLC (or not counted),
 * taken here without a call or a register saved; so is the common enqueue.
 */
static void it_on_runnable(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t,
			   int cpu, uint64_t ts, bool enter)
{
	struct it_task *it = sl_task_priv(m, a, t);
	struct it_priv *p = a->priv;

	if (enter ? !enter_fast(p, m, a, t, it, cpu, ts) : it->cls == CLS_MASK) {
		runnable(a, m, t, cpu, ts, enter);
		return;
	}
	if (!enter)
		any_wait_end(p, t, it, ts);
}

/*
 * A switch-in: where next ran last, and the end of its wait if it left a
 * runqueue (it_on_runnable()'s leave, which it is not called for:
 * SL_RUNNABLE_SWITCH_LEAVES), without a call as often
 */
static void it_on_switch(struct sl_analyzer *a, struct sl_model *m, const struct sl_switch_info *sw)
{
	struct sl_task *t = sw->next;
	struct it_task *it;

	if (!t)
		return;
	it = sl_task_priv(m, a, t);
	it->ran_ts = sw->ts;
	it->ran_cpu = (int16_t)sw->cpu;
	if (sw->next_left_cpu < 0)
		return;
	if (it->cls == CLS_MASK) {
		runnable(a, m, t, sw->next_left_cpu, sw->ts, false);
		return;
	}
	any_wait_end(a->priv, t, it, sw->ts);
}

static void it_on_cpu_idle(struct sl_analyzer *a, struct sl_model *m, int cpu, uint64_t ts, bool idle)
{
	struct it_priv *p = a->priv;
	struct it_cpu *ic = sl_cpu_priv(m, a, cpu);

	map_update(p, m, a);
	if (idle && !ic->idle)
		idle_start(a, m, cpu, ts);
	else if (!idle && ic->idle)
		idle_end(a, m, cpu, ts);
}

/* Lost events: the CPU's idle period ends at the gap (its waits end as the model loses them). */
static void it_on_cpu_unknown(struct sl_analyzer *a, struct sl_model *m, int cpu,
			      uint64_t gap_start, uint64_t ts)
{
	struct it_cpu *ic = sl_cpu_priv(m, a, cpu);

	if (ic->idle) {
		struct it_priv *p = a->priv;

		p->ending = true;	/* ended by the loss: "other" */
		idle_end(a, m, cpu, MAX(gap_start, ic->idle_since));
		p->ending = false;
	}
}

static void it_finish(struct sl_analyzer *a, struct sl_model *m)
{
	struct it_priv *p = a->priv;

	p->ending = true;
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct it_cpu *ic = sl_cpu_priv(m, a, cpu);

		if (ic->idle)
			idle_end(a, m, cpu, m->last_ts);
	}
}

/* --- the report --- */

#define CPUS_SHOWN 8

/* The CPUs with the most such idle time, two a line. */
static int cpu_lines(struct sl_analyzer *a, struct sl_model *m, struct sl_report *r)
{
	int top[CPUS_SHOWN], n = 0, more = 0;
	char b[32];

	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct it_cpu *ic = sl_cpu_priv(m, a, cpu);
		int i;

		if (!ic->gaps)
			continue;
		if (n == CPUS_SHOWN) {
			const struct it_cpu *last = sl_cpu_priv(m, a, top[n - 1]);

			more++;
			if (ic->covered_ns <= last->covered_ns)
				continue;
			n--;
		}
		for (i = n; i > 0 && ((const struct it_cpu *)sl_cpu_priv(m, a, top[i - 1]))->covered_ns <
					     ic->covered_ns; i--)
			top[i] = top[i - 1];
		top[i] = cpu;
		n++;
	}
	for (int i = 0; i < n; i++) {
		const struct it_cpu *ic = sl_cpu_priv(m, a, top[i]);

		fprintf(r->out, "%s cpu%-4d %10s in %6" PRIu64 " gap%s%s", i % 2 ? "   " : "  ",
			top[i], fmt_duration(b, sizeof(b), ic->covered_ns), ic->gaps,
			ic->gaps == 1 ? "" : "s", i % 2 || i == n - 1 ? "\n" : "");
	}
	if (more)
		fprintf(r->out, "  ... and %d more CPUs (--json lists every one)\n", more);
	return n;
}

static void it_report_text(struct sl_analyzer *a, struct sl_model *m, struct sl_report *r)
{
	struct it_priv *p = a->priv;
	char b1[32], b2[32];
	int shown = 0;

	if (!p->gaps)
		return;
	sl_report_section(r, "Idle time next to waiting tasks (each idle period once)");
	fprintf(r->out, "  %s of idle CPU time while a migratable task waited in the\n"
		"  same LLC, in %" PRIu64 " gap%s (idle-while-runnable's cost adds one\n"
		"  overlap per waiter and is no idle time)\n",
		fmt_duration(b1, sizeof(b1), p->total_ns), p->gaps, p->gaps == 1 ? "" : "s");
	shown = cpu_lines(a, m, r);
	(void)shown;
	fprintf(r->out, "  %sgap           gaps       time%s\n", sl_color(r, SL_C_DIM),
		sl_color(r, SL_C_RESET));
	for (int b = 0; b < BUCKETS; b++) {
		char range[32];

		if (!p->hist_gaps[b])
			continue;
		if (b == 0)
			snprintf(range, sizeof(range), "< 1 us");
		else if (b == BUCKETS - 1)
			snprintf(range, sizeof(range), ">= 1 s");
		else
			snprintf(range, sizeof(range), "%s-", fmt_duration(b1, sizeof(b1),
									   bucket_floor[b]));
		fprintf(r->out, "  %-12s %6" PRIu64 " %10s\n", range, p->hist_gaps[b],
			fmt_duration(b2, sizeof(b2), p->hist_ns[b]));
	}
	fputs("  ended   ", r->out);
	for (int e = 0; e < END__NR; e++)
		fprintf(r->out, "%s %s %" PRIu64, e ? "," : "", end_names[e], p->end_gaps[e]);
	fputc('\n', r->out);
}

static void it_report_json(struct sl_analyzer *a, struct sl_model *m, cJSON *root)
{
	struct it_priv *p = a->priv;
	cJSON *o = cJSON_AddObjectToObject(root, "idle_time");
	cJSON *cpus = cJSON_AddArrayToObject(o, "cpus");
	cJSON *hist = cJSON_AddArrayToObject(o, "histogram");
	cJSON *ended = cJSON_AddObjectToObject(o, "ended");

	sl_json_add_u64(o, "total_ns", p->total_ns);
	sl_json_add_u64(o, "gaps", p->gaps);
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct it_cpu *ic = sl_cpu_priv(m, a, cpu);
		cJSON *c;

		if (!ic->gaps)
			continue;
		c = cJSON_CreateObject();
		sl_json_add_i64(c, "cpu", cpu);
		sl_json_add_u64(c, "idle_ns", ic->covered_ns);
		sl_json_add_u64(c, "gaps", ic->gaps);
		cJSON_AddItemToArray(cpus, c);
	}
	for (int b = 0; b < BUCKETS; b++) {
		cJSON *h = cJSON_CreateObject();

		sl_json_add_u64(h, "from_ns", bucket_floor[b]);
		if (b + 1 < BUCKETS)
			sl_json_add_u64(h, "to_ns", bucket_floor[b + 1]);
		else
			cJSON_AddNullToObject(h, "to_ns");
		sl_json_add_u64(h, "gaps", p->hist_gaps[b]);
		sl_json_add_u64(h, "ns", p->hist_ns[b]);
		cJSON_AddItemToArray(hist, h);
	}
	for (int e = 0; e < END__NR; e++) {
		cJSON *x = cJSON_AddObjectToObject(ended, end_names[e]);

		sl_json_add_u64(x, "gaps", p->end_gaps[e]);
		sl_json_add_u64(x, "ns", p->end_ns[e]);
	}
}

static void it_destroy(struct sl_analyzer *a, struct sl_model *m)
{
	struct it_priv *p = a->priv;

	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		struct it_task *it = sl_task_priv(m, a, m->tasks[i]);

		free(it->mask);
		it->mask = NULL;
	}
	map_free(p);
}

/* Waiting, or the last waiter that left a CPU or a domain uncovered. */
static bool it_task_in_use(struct sl_analyzer *a, struct sl_model *m, const struct sl_task *t)
{
	const struct it_priv *p = a->priv;

	if (((const struct it_task *)sl_task_priv(m, a, t))->cls != CLS_NONE)
		return true;
	for (int cpu = 0; cpu < m->nr_cpus; cpu++)
		if (((const struct it_cpu *)sl_cpu_priv(m, a, cpu))->mask_last.task == t)
			return true;
	for (int d = 0; d < p->nr_llc; d++)
		if (p->llc[d].last.task == t)
			return true;
	return false;
}

static void it_fold_task(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t)
{
	free(((struct it_task *)sl_task_priv(m, a, t))->mask);
}

const struct sl_analyzer_ops sl_idle_time_analyzer = {
	.name = "idle-time",
	.priv_size = sizeof(struct it_priv),
	.task_priv_size = sizeof(struct it_task),
	.cpu_priv_size = sizeof(struct it_cpu),
	.on_runnable = it_on_runnable,
	.runnable_calls = SL_RUNNABLE_ENTERS | SL_RUNNABLE_LEAVES,	/* a switch-in's: it_on_switch() */
	.on_switch = it_on_switch,
	.on_cpu_idle = it_on_cpu_idle,
	.on_cpu_unknown = it_on_cpu_unknown,
	.task_in_use = it_task_in_use,
	.fold_task = it_fold_task,
	.finish = it_finish,
	.report_text = it_report_text,
	.report_json = it_report_json,
	.destroy = it_destroy,
};
