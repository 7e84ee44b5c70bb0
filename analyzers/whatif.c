// SPDX-License-Identifier: GPL-2.0
/*
 * whatif.c - what each kind of bad decision cost, and what the other
 * decision would have given
 *
 * The finding analyzers say which waits a bad decision made longer (their
 * victims, through whatif.h); this one estimates each victim's wait had
 * the scheduler decided the other way, from what the same trace measured
 * of the other decision, and replaces it in the wakeup-latency
 * distribution: per kind, all kinds together, per task and comm, and the
 * round trip of tasks that ping-pong.  The rules (man schedlint-analyze,
 * WHAT IF):
 *
 *   sync-wake-remote: T kept on its waker W's CPU runs when W blocks
 *     (sleep_after, from the trace) plus this trace's cost of a local
 *     handoff (the median, over the synchronous wakeups kept local where
 *     the wakee ran at the waker's block, of the waker's switch-out to
 *     the wakee's switch-in) -- or, when most of this trace's local
 *     handoffs were the wakee preempting its waker, no later than their
 *     median latency.
 *   wakee-stacking: placed on the idle CPU, the wakee sees the latency of
 *     this trace's wakeups placed on an idle CPU by the same path (local;
 *     remote with an IPI, or without when most remote ones went without).
 *     Each stacked wakeup gets one of their quantiles in turn.
 *   late-preemption: switched at the expected time plus this trace's
 *     median delay of the switches that came at the slice, the tasks that
 *     ran on the CPU one after another from the late switch until the
 *     late task ran again (or the CPU idled) start that much earlier, each
 *     no earlier than it was queued there; the first one whose start the
 *     enqueue holds back ends the chain.  The runs late-preemption sets
 *     apart as late-preemption-at-tick (the kernel's design with HRTICK
 *     off) get the same rule in a row of their own: what HRTICK would
 *     have saved; late-preemption's row counts the runs it keeps.
 *   idle-while-runnable: pulled when the idle CPU went idle, the wait
 *     shrinks by the overlap less this trace's median migration-and-run (a
 *     load balancer's sched_migrate_task of a queued task to its switch-in
 *     there; WI_DEFAULT_PULL_NS when the trace has none).
 *
 * A wakeup that several kinds claim gets, for all kinds together, the
 * estimate of the placement kinds (stacking, sync) when one claims it --
 * placed well, it never waits behind the CPU's task -- else the lowest.
 * Each estimate keeps its basis (how many measurements) and range (the
 * basis' p25..p75); below SL_WHATIF_WEAK_BELOW measurements it is weak.
 *
 * How: a task's findings about one wakeup are gathered in its slot (the
 * analyzers decide at, or just after, its latency sample), then moved to
 * a record -- or, for the bulk of them, synchronous wakeups no other kind
 * claims, to histograms: memory grows with the findings of the kinds
 * that have thresholds (stacking, idle, late), not with the sync ones.
 * The estimates need the whole trace's basis, so they are made at the end.
 *
 * Blind spots: the other decision's knock-on effects are not modelled
 * (a wakee kept local delays nobody else; a pulled task leaves the idle
 * CPU as idle for the next comer); the basis is the trace's own, so a
 * trace without good decisions of a kind gives weak or default estimates;
 * a sample ending at an inferred switch is a lower bound now, so its
 * saving is too; findings across lost events are counted apart, not
 * estimated.
 */
#include <cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "schedlint/analyzer.h"
#include "schedlint/held.h"
#include "schedlint/report.h"
#include "model/slice.h"
#include "util/util.h"
#include "whatif.h"

/* a pull's cost when the trace shows none (a newidle balance and switch) */
#define WI_DEFAULT_PULL_NS	10000ULL
#define WI_PAIRS		64		/* pairs of tasks followed (the heaviest stay) */
#define WI_PAIR_HASH		512		/* a pair's index slots: mostly empty, short probes */
#define WI_LISTED		10		/* tasks, comms and pairs in the JSON */
#define WI_NO_TASK		UINT32_MAX

extern const struct sl_analyzer_ops sl_whatif_analyzer;

/* The kinds with a what-if, in report order. */
enum wi_kind { WI_STACK, WI_SYNC, WI_LATE, WI_TICK, WI_IDLE, WI__NR };
static const uint8_t wi_sl_kind[WI__NR] = {
	[WI_STACK] = SL_KIND_WAKEE_STACKING, [WI_SYNC] = SL_KIND_SYNC_WAKE_REMOTE,
	[WI_LATE] = SL_KIND_LATE_PREEMPTION, [WI_TICK] = SL_KIND_LATE_PREEMPTION_AT_TICK,
	[WI_IDLE] = SL_KIND_IDLE_WHILE_RUNNABLE,
};
#define BIT(k)		(1u << (k))
#define PLACEMENT	(BIT(WI_STACK) | BIT(WI_SYNC))
#define HELD		(BIT(WI_STACK) | BIT(WI_IDLE))

static int wi_of(int kind)
{
	for (int k = 0; k < WI__NR; k++)
		if (wi_sl_kind[k] == kind)
			return k;
	return -1;
}

/*
 * The late runs' two kinds: every chain is claimed as WI_LATE while the
 * trace is read; late-preemption's finish says which were its runs at
 * the tick, and wi_finish moves those to WI_TICK (set_apart_records(),
 * the folded ones by their tick key).
 */
static bool is_late(int k)
{
	return k == WI_LATE || k == WI_TICK;
}

/* The findings of what-if kind k (counted, listed or not). */
static uint64_t kind_count(const struct sl_model *m, int k)
{
	return m->findings->summary[wi_sl_kind[k]].count;
}

/* How a wakeup reached an idle CPU. */
enum wi_path { PATH_LOCAL, PATH_IPI, PATH_NOIPI, PATH__NR };
static const char *const path_names[PATH__NR] = { "local", "remote_ipi", "remote_no_ipi" };

/* What one finding says about one wait. */
struct wi_claim {
	uint64_t start, wait;		/* the wait as its analyzer saw it */
	uint64_t fact;			/* sync: sleep_after; late: the shift; idle: the overlap */
	uint64_t cap;			/* late: how far back its start can move */
	uint64_t key_ts;		/* the finding's time and task */
	int32_t key_pid;
	uint32_t chain;			/* late: its run's chain (wi_priv.chains), 0 none */
	/* CPUs in 16 bits (SL_MODEL_MAX_CPUS): a record is 5 of these (p->recs) */
	int16_t cpu, alt_cpu;
	int16_t waker_cpu;		/* stacking: the placement came from there */
	uint8_t path;			/* stacking: enum wi_path (alt_cpu from waker_cpu) */
	bool keyed;			/* late: the finding's first waiter */
};

_Static_assert(SL_MODEL_MAX_CPUS <= INT16_MAX, "a claim's CPUs fit in 16 bits");

/* One wakeup of a task (or one wait without a wakeup) and the findings about it. */
struct wi_wait {
	uint64_t seq;			/* the task's wake_seq, 0 none */
	uint32_t task;			/* index in m->tasks */
	uint32_t waker;			/* index of the waking task, WI_NO_TASK none */
	uint64_t waker_serial;		/* ... while the task there has this serial */
	uint8_t kinds;			/* BIT(wi_kind) per kind claiming it */
	bool sampled;			/* its wakeup-latency sample came */
	bool in_filter;			/* ... and is in the latency table */
	bool inferred;			/* ... ends at a switch the trace does not show */
	bool lost;			/* a CPU it involves lost events during it */
	uint64_t latency, wake_ts, run_ts;
	/*
	 * CL(w, k): kind k's claim, valid under its bit of kinds.  An open
	 * wait has room for every kind right after it (lo 0); a record
	 * (p->recs) only for its kinds' range lo .. (in p->rec_claims, at
	 * claim_at): most are claimed by one kind, five claims' room would
	 * be most of a record.
	 */
	struct wi_claim *claim;
	uint32_t claim_at;
	uint8_t lo;
	struct wi_wait *next_free;	/* on wi_priv's free list */
};

#define CL(w, k) ((w)->claim[(k) - (w)->lo])

/* A task's sync-only victims, summed up. */
struct wi_agg {
	struct sl_hist now, sleep;	/* samples in the filters: latency, sleep_after */
};

/* A task's late-only victims, summed up as wi_finish would (fold_late()). */
struct wi_late_acc {
	struct sl_hist removed, added;
	uint64_t victims;
	int64_t saved;
};

/*
 * A late-only victim that is the first waiter of its finding (keyed),
 * summed up like the others: what the finding's own estimate needs.
 */
struct wi_late_key {
	uint64_t key_ts;
	int32_t key_pid;
	int32_t alt_cpu;
	uint32_t task;
	bool lost;
	uint64_t now, fact, cap;
};

/* The wait saved by late-only victims, by the pair of tasks (waker, wakee) */
struct wi_pair_saved {
	uint32_t a, b;			/* task indices, a < b; a == b: empty */
	int64_t saved;
};

struct wi_task {
	/*
	 * What a wakeup touches: its placement (idle_seq, only when on an
	 * idle CPU), its enqueue (queued_since, queued_cpu) and its latency
	 * sample (wi_on_latency(), and the waker's nr_pairs, waker and
	 * waker_serial): 64 bytes together, so that a wakeup touches one or
	 * two cache lines of it, not three.
	 */
	/* its last wakeup-latency sample (its latency: sl_dur(wake_ts, run_ts), as the model's) */
	uint64_t seq, wake_ts, run_ts;
	uint64_t waker_serial;		/* the serial of the task at index waker */
	/* the stacking basis: its wakeup of this seq was placed on an idle CPU */
	uint64_t idle_seq;
	struct wi_wait *open;		/* findings about one wakeup, gathered until the next */
	/* queued since, where (the late chain) */
	uint64_t queued_since;
	uint32_t waker;
	int16_t queued_cpu;		/* SL_MODEL_MAX_CPUS fits */
	bool in_filter : 1, inferred : 1;
	bool idle_local : 1;
	bool pinned : 1;		/* a record (p->recs) names it: never folded */
	uint8_t nr_pairs;		/* entries of wi_priv.pairs that name it */
	/* the rest */
	struct wi_agg *agg;
	struct wi_late_acc *late;	/* its late-only victims summed up (fold_late()) */
};

_Static_assert(offsetof(struct wi_task, agg) == 64, "a wakeup's fields of wi_task in 64 bytes");

struct wi_cpu {
	/* the pull basis: a task moved here by the load balancer, first in line */
	struct sl_task *pulled;
	uint64_t pulled_ts;
	/* a late run's shift, passed on to the tasks that run after it */
	struct sl_task *late_task;	/* NULL: no shift under way */
	uint64_t shift;
	uint64_t key_ts;
	int32_t key_pid;
	bool keyed;			/* the next waiter is the finding's */
	uint32_t chain;
};

/* Two tasks that wake each other. */
struct wi_pair {
	uint32_t a, b;			/* task indices, a < b */
	uint64_t wakeups[2];		/* [0]: a woken by b, [1]: b by a */
	uint64_t last[2];		/* the last such waking */
	uint64_t first_ts, last_ts;
	struct sl_hist period;		/* from one waking to the next in the same direction */
	struct sl_hist sync_sleep;	/* its sync-only victims: sleep_after ... */
	uint64_t sync_now;		/* ... and their latencies */
	int64_t saved;			/* at the end */
};

/* A late run's shift as its verdict left it (a held run is judged at the end). */
struct wi_chain {
	uint64_t shift;
	bool stands;
	bool final;			/* judged when it began: no verdict to wait for */
	uint8_t tick_key;		/* late_preemption.c's (whatif_late) */
};

struct wi_verdict {
	uint8_t kind;
	int32_t pid, alt_cpu;
	uint64_t ts, cost;		/* ts: the finding's time when it was held */
	uint64_t new_ts;		/* ... and as it stands (affinity may pick another overlap) */
	bool stands;
};

/* Per kind, at the end. */
struct wi_kind_result {
	uint64_t victims, samples, inferred, lost, no_basis;
	int64_t saved;
	struct sl_hist removed, added, after;
	uint64_t basis;
	uint64_t lo, est, hi;		/* the basis' p25, p50, p75 (stacking: the latency; late,
					 * idle: the delay; sync: the handoff cost) */
};

struct wi_task_result {
	uint32_t task;
	uint64_t victims;
	int64_t saved;
	uint64_t now50, now99, after50, after99, count;
};

struct wi_priv {
	struct sl_analyzer *self;	/* this analyzer (its task slots), set by wi_init */
	/* the basis: measurements of good decisions, the whole trace */
	struct sl_hist handoff;		/* local handoffs at the waker's block: its switch-out to the switch-in */
	struct sl_hist preempt;		/* local handoffs that preempted the waker: their latency */
	struct sl_hist idle_place[PATH__NR];
	struct sl_hist pull;		/* load-balance migration to the switch-in */
	struct sl_hist on_time;		/* switches at the slice: how late */
	struct sl_hist all_idle;	/* at the end: idle_place[] merged */

	/*
	 * sync-only victims: those whose sample is in the filters are in
	 * their task's wi_agg (merged at the end), the others here
	 */
	struct sl_hist sync_now, sync_sleep;	/* at the end: every task's */
	struct sl_hist sync_sleep_out;		/* samples outside the filters */
	uint64_t sync_now_out, sync_victims, sync_inferred;

	struct wi_wait *recs;
	size_t nr_recs, alloc_recs;
	struct wi_claim *rec_claims;	/* the records' claims (struct wi_wait) */
	size_t nr_rec_claims, alloc_rec_claims;
	struct wi_wait *free_waits;	/* settled open waits, for the next (no malloc per wakeup) */
	struct wi_verdict *verdicts;
	size_t nr_verdicts, alloc_verdicts;
	struct wi_chain *chains;	/* whatif_late's, by chain - 1 */
	size_t nr_chains, alloc_chains;
	struct sl_gaps gaps;
	/*
	 * Late-only victims summed up when they settle, not kept (they were
	 * most of the records: hundreds of thousands on a busy hackbench)
	 */
	struct wi_late_key *late_keys;
	size_t nr_late_keys, alloc_late_keys;
	struct wi_pair_saved *pair_saved;	/* open addressing, a power of two */
	size_t nr_pair_saved, alloc_pair_saved;
	int event_cpu;			/* the CPU of the switch being applied, -1 none */
	uint64_t event_ts;		/* ... and its time */
	bool at_end;			/* wi_finish: no gap can come any more */

	struct wi_pair pairs[WI_PAIRS];
	/*
	 * pairs[i]'s space-saving weight: its wakeups + the evicted entry's.
	 * Apart from pairs[], so that looking for the lightest reads 8 cache
	 * lines, not 64.
	 */
	uint64_t pair_weight[WI_PAIRS];
	/*
	 * Once pairs[] is full: the entries whose weight is the least, bit
	 * per entry, for the next evictions (pair_lightest()); a weight
	 * counted up leaves it, and none left: looked for again.
	 */
	uint64_t pair_lightest_set;
	int nr_pairs;
	uint8_t pair_index[WI_PAIR_HASH];

	/* the end */
	bool done;
	int path_remote;		/* PATH_IPI or PATH_NOIPI: how this trace reaches idle CPUs */
	bool preempt_rule;		/* most local handoffs preempted the waker */
	/* the basis' p25, p50, p75, computed once */
	uint64_t q_handoff[3], q_preempt[3], q_on_time[3], q_pull[3];
	const struct sl_hist *stack_hist[2];	/* [0] local, [1] remote; NULL none */
	uint64_t q_stack[2][3];
	struct wi_kind_result kind[WI__NR];
	/*
	 * The late-only victims folded as they settled (fold_late()), by
	 * their chain's tick key: WI_LATE's or WI_TICK's once late-preemption
	 * has said which keys it set apart (tick_set_apart, bit per key).
	 */
	struct wi_kind_result late_part[WHATIF_TICK_KEYS];
	uint64_t tick_set_apart;
	struct wi_kind_result all;
	uint64_t all_victims;
	struct wi_task_result *tasks, *comms;
	size_t nr_tasks, nr_comms, alloc_tasks, alloc_comms;
};

static struct sl_analyzer *find_self(const struct sl_model *m)
{
	/* from the end: the registry has it last (it reads the others' findings) */
	for (int i = m->nr_analyzers; i-- > 0;)
		if (m->analyzers[i]->ops == &sl_whatif_analyzer)
			return m->analyzers[i];
	return NULL;
}

/* --- pairs (space-saving, as sync_wake.c's) --- */

static unsigned pair_home(uint32_t a, uint32_t b)
{
	uint64_t h = (uint64_t)a * 0x9e3779b97f4a7c15ULL ^ (uint64_t)b * 0xc2b2ae3d27d4eb4fULL;

	return (unsigned)(h >> 40) & (WI_PAIR_HASH - 1);
}

static struct wi_pair *pair_find(struct wi_priv *p, uint32_t a, uint32_t b)
{
	if (a > b) {
		uint32_t t = a;

		a = b;
		b = t;
	}
	for (unsigned i = pair_home(a, b); p->pair_index[i]; i = (i + 1) & (WI_PAIR_HASH - 1)) {
		struct wi_pair *e = &p->pairs[p->pair_index[i] - 1];

		if (e->a == a && e->b == b)
			return e;
	}
	return NULL;
}

static void pair_index_del(struct wi_priv *p, const struct wi_pair *e)
{
	unsigned i = pair_home(e->a, e->b), j;

	while (p->pair_index[i] != e - p->pairs + 1)
		i = (i + 1) & (WI_PAIR_HASH - 1);
	for (j = (i + 1) & (WI_PAIR_HASH - 1); p->pair_index[j]; j = (j + 1) & (WI_PAIR_HASH - 1)) {
		const struct wi_pair *f = &p->pairs[p->pair_index[j] - 1];
		unsigned home = pair_home(f->a, f->b);

		if (((j - home) & (WI_PAIR_HASH - 1)) >= ((j - i) & (WI_PAIR_HASH - 1))) {
			p->pair_index[i] = p->pair_index[j];
			i = j;
		}
	}
	p->pair_index[i] = 0;
}

_Static_assert(WI_PAIRS == 64, "wi_priv.pair_lightest_set: a bit per entry of pairs[]");

/*
 * The entries of the least weight, all 64 weights read once: the lowest
 * of them is the one evicted, as the first least weight found in order.
 * Weights only grow (an evicted entry's successor starts at the weight
 * it leaves, then counts one), so the set holds until its last entry is
 * counted up: on a churning trace a score of evictions take one look.
 */
static uint64_t pair_lightest(const struct wi_priv *p)
{
	uint64_t least = p->pair_weight[0], set = 0;

	for (int k = 1; k < WI_PAIRS; k++)
		least = MIN(least, p->pair_weight[k]);
	for (int k = 0; k < WI_PAIRS; k++)
		set |= (uint64_t)(p->pair_weight[k] == least) << k;
	return set;
}

/* idx's count of the pairs that name it: a task in a pair is in use, never frozen or folded */
static void pair_named(struct sl_model *m, struct sl_analyzer *self, uint32_t idx, int by)
{
	struct wi_task *wt = sl_task_priv(m, self, sl_kept_task_thawed(m, idx));

	wt->nr_pairs = (uint8_t)(wt->nr_pairs + by);
}

/* A new entry for the pair a < b (the least-weighted one evicted when full): out of line, it is rare. */
static __attribute__((noinline))
struct wi_pair *pair_new(struct wi_priv *p, struct sl_model *m, struct sl_analyzer *self,
			 uint32_t a, uint32_t b, uint64_t ts, struct wi_task *wr, struct wi_task *we)
{
	struct wi_pair *e;
	uint64_t base = 0;
	unsigned i;

	if (p->nr_pairs < WI_PAIRS) {
		e = &p->pairs[p->nr_pairs++];
	} else {
		int min;

		if (!p->pair_lightest_set)
			p->pair_lightest_set = pair_lightest(p);
		/* it stays in the set with its weight until pair_wakeup() counts one */
		min = __builtin_ctzll(p->pair_lightest_set);
		e = &p->pairs[min];
		base = p->pair_weight[min];
		pair_index_del(p, e);
		pair_named(m, self, e->a, -1);
		pair_named(m, self, e->b, -1);
		sl_hist_free(&e->period);
		sl_hist_free(&e->sync_sleep);
	}
	*e = (struct wi_pair){ .a = a, .b = b, .first_ts = ts };
	p->pair_weight[e - p->pairs] = base;
	for (i = pair_home(a, b); p->pair_index[i]; i = (i + 1) & (WI_PAIR_HASH - 1))
		;
	p->pair_index[i] = (uint8_t)(e - p->pairs + 1);
	wr->nr_pairs++;
	we->nr_pairs++;
	return e;
}

/*
 * wakee woken by waker at ts: count it for their pair.  A pair gets an
 * entry when the wakeups go both ways (waker_woken_by_wakee: the waker's
 * own last wakeup came from the wakee), so one-way wakeups do not churn
 * the table; nor do they look it up unless both tasks are in a pair.
 */
static void pair_wakeup(struct wi_priv *p, struct sl_model *m, struct sl_analyzer *self,
			struct sl_task *waker, struct sl_task *wakee, uint64_t ts,
			bool waker_woken_by_wakee)
{
	struct wi_task *wr = sl_task_priv(m, self, waker), *we = sl_task_priv(m, self, wakee);
	uint32_t a = MIN(waker->index, wakee->index), b = MAX(waker->index, wakee->index);
	struct wi_pair *e;
	int dir = wakee->index == a ? 0 : 1;

	if (!waker_woken_by_wakee && (!wr->nr_pairs || !we->nr_pairs))
		return;
	e = pair_find(p, a, b);
	if (!e && !waker_woken_by_wakee)
		return;
	if (!e)
		e = pair_new(p, m, self, a, b, ts, wr, we);
	if (e->wakeups[dir])
		sl_hist_add(&e->period, sl_dur(e->last[dir], ts));
	e->wakeups[dir]++;
	p->pair_weight[e - p->pairs]++;
	p->pair_lightest_set &= ~(1ULL << (e - p->pairs));
	e->last[dir] = ts;
	e->last_ts = ts;
}

/* --- gathering the findings of one wakeup --- */

static struct wi_wait *new_wait(struct wi_priv *p, uint64_t seq, uint32_t task)
{
	struct wi_wait *w = p->free_waits;

	if (w) {
		/* the claims are read only under their bit of kinds */
		p->free_waits = w->next_free;
		memset(w, 0, offsetof(struct wi_wait, claim));
	} else {
		w = xcalloc(1, sizeof(*w) + WI__NR * sizeof(*w->claim));
		w->claim = (struct wi_claim *)(w + 1);
	}
	w->seq = seq;
	w->task = task;
	w->waker = WI_NO_TASK;
	return w;
}

static void take_sample(struct wi_wait *w, const struct wi_task *wt)
{
	w->sampled = true;
	w->latency = sl_dur(wt->wake_ts, wt->run_ts);
	w->wake_ts = wt->wake_ts;
	w->run_ts = wt->run_ts;
	w->waker = wt->waker;
	w->waker_serial = wt->waker_serial;
	w->in_filter = wt->in_filter;
	w->inferred = wt->inferred;
}

static bool estimate(const struct wi_priv *p, const struct wi_wait *w, int k, int q, uint64_t *out);
static uint64_t wait_of(const struct wi_wait *w, int k);
static void mark_lost(struct wi_priv *p, struct wi_wait *w);

static size_t pair_saved_slot(const struct wi_priv *p, uint32_t a, uint32_t b)
{
	size_t mask = p->alloc_pair_saved - 1;
	size_t i = ((uint64_t)a * 0x9e3779b97f4a7c15ULL ^ (uint64_t)b * 0xc2b2ae3d27d4eb4fULL) >> 40;

	for (i &= mask; p->pair_saved[i].a != p->pair_saved[i].b; i = (i + 1) & mask)
		if (p->pair_saved[i].a == a && p->pair_saved[i].b == b)
			break;
	return i;
}

/* what a late-only victim of the pair (waker, wakee) saved, for the pair at the end */
static void pair_saved_add(struct wi_priv *p, uint32_t waker, uint32_t wakee, int64_t saved)
{
	uint32_t a = MIN(waker, wakee), b = MAX(waker, wakee);
	size_t i;

	if (a == b)
		return;
	if (2 * (p->nr_pair_saved + 1) > p->alloc_pair_saved) {
		struct wi_pair_saved *old = p->pair_saved;
		size_t n = p->alloc_pair_saved;

		p->alloc_pair_saved = n ? 2 * n : 64;
		p->pair_saved = xcalloc(p->alloc_pair_saved, sizeof(*p->pair_saved));
		for (size_t j = 0; j < n; j++)
			if (old[j].a != old[j].b)
				p->pair_saved[pair_saved_slot(p, old[j].a, old[j].b)] = old[j];
		free(old);
	}
	i = pair_saved_slot(p, a, b);
	if (p->pair_saved[i].a == p->pair_saved[i].b) {
		p->pair_saved[i] = (struct wi_pair_saved){ .a = a, .b = b };
		p->nr_pair_saved++;
	}
	p->pair_saved[i].saved += saved;
}

static int64_t pair_saved_get(const struct wi_priv *p, uint32_t a, uint32_t b)
{
	size_t i;

	if (!p->nr_pair_saved || a == b)
		return 0;
	i = pair_saved_slot(p, MIN(a, b), MAX(a, b));
	return p->pair_saved[i].a != p->pair_saved[i].b ? p->pair_saved[i].saved : 0;
}

/*
 * May w, a wait only late-preemption claims, be summed up now, as
 * wi_finish would sum it up?  Its late run was judged when it began (no
 * verdict to wait for), and no gap can come that overlaps it: a CPU's
 * gap starts at its last event, which is w's end or later (or the trace
 * has ended).
 */
static bool late_settled(const struct wi_priv *p, const struct sl_model *m, const struct wi_wait *w)
{
	const struct wi_claim *c = &CL(w, WI_LATE);
	uint64_t b = w->sampled ? w->run_ts : c->start + c->wait;
	int cpus[2] = { c->cpu, c->alt_cpu };

	if (w->kinds != BIT(WI_LATE) || !c->chain || c->chain > p->nr_chains ||
	    !p->chains[c->chain - 1].final)
		return false;
	if (p->at_end)
		return true;
	for (int i = 0; i < 2; i++) {
		int cpu = cpus[i];

		if (cpu < 0 || cpu >= m->nr_cpus || m->cpus[cpu].last_event_ts >= b)
			continue;	/* a CPU not seen yet: its first gap starts at its first event */
		if (cpu != p->event_cpu || p->event_ts < b)
			return false;
	}
	return true;
}

/*
 * w (late_settled()) summed up: what wi_finish's loop over the records
 * would add for it, added now; the record is not kept.  A finding's first
 * waiter (keyed) leaves what the finding's own estimate needs.
 */
static void fold_late(struct wi_priv *p, struct sl_model *m, struct wi_wait *w)
{
	const struct wi_claim *c = &CL(w, WI_LATE);
	struct wi_kind_result *kr = &p->late_part[p->chains[c->chain - 1].tick_key];
	struct sl_analyzer *self = p->self;
	/* its tasks get results and pins: a frozen one is thawed (sl_kept_task_thawed()) */
	struct wi_task *wt = sl_task_priv(m, self, sl_kept_task_thawed(m, w->task));
	struct wi_late_acc *la;
	uint64_t est, now;

	mark_lost(p, w);
	if (c->keyed) {
		GROW(p->late_keys, p->alloc_late_keys, p->nr_late_keys + 1);
		p->late_keys[p->nr_late_keys++] = (struct wi_late_key){
			.key_ts = c->key_ts, .key_pid = c->key_pid, .alt_cpu = c->alt_cpu,
			.task = w->task, .lost = w->lost, .now = wait_of(w, WI_LATE),
			.fact = c->fact, .cap = c->cap,
		};
	}
	/* as a record would: its tasks keep their index to the end */
	wt->pinned = true;
	if (w->waker != WI_NO_TASK)
		((struct wi_task *)sl_task_priv(m, self, sl_kept_task_thawed(m, w->waker)))->pinned = true;
	kr->victims++;
	if (w->lost) {
		kr->lost++;
		p->all.lost++;
		return;
	}
	estimate(p, w, WI_LATE, 1, &est);
	now = wait_of(w, WI_LATE);
	kr->saved += (int64_t)now - (int64_t)est;
	if (w->sampled && w->in_filter) {
		kr->samples++;
		kr->inferred += w->inferred;
		sl_hist_add(&kr->removed, now);
		sl_hist_add(&kr->added, est);
	}
	/* all kinds together */
	now = w->sampled ? w->latency : 0;
	if (!now)
		now = c->wait;
	p->all_victims++;
	p->all.saved += (int64_t)now - (int64_t)est;
	if (!wt->late)
		wt->late = xcalloc(1, sizeof(*wt->late));
	la = wt->late;
	la->saved += (int64_t)now - (int64_t)est;
	la->victims++;
	if (w->sampled && w->in_filter) {
		p->all.samples++;
		p->all.inferred += w->inferred;
		sl_hist_add(&p->all.removed, now);
		sl_hist_add(&p->all.added, est);
		/* a task's: rarely in the cache, in 8 bits while they fit (hist.h) */
		sl_hist_add_held(&la->removed, now);
		sl_hist_add_held(&la->added, est);
	}
	if (w->waker != WI_NO_TASK)
		pair_saved_add(p, w->waker, w->task, (int64_t)now - (int64_t)est);
}

/*
 * Keep w as a record, with the claims of its kinds' range (and WI_TICK's
 * room when WI_LATE claims it: set_apart_ticks() may copy it there).
 */
static void keep(struct wi_priv *p, const struct wi_wait *w)
{
	unsigned slots = w->kinds | (w->kinds & BIT(WI_LATE) ? BIT(WI_TICK) : 0);
	unsigned lo = (unsigned)__builtin_ctz(slots), n = 32 - (unsigned)__builtin_clz(slots) - lo;
	size_t alloc = p->alloc_rec_claims;
	struct wi_wait *r;

	GROW(p->recs, p->alloc_recs, p->nr_recs + 1);
	GROW(p->rec_claims, p->alloc_rec_claims, p->nr_rec_claims + n);
	if (p->alloc_rec_claims != alloc)	/* moved: the records point there again */
		for (size_t i = 0; i < p->nr_recs; i++)
			p->recs[i].claim = p->rec_claims + p->recs[i].claim_at;
	memcpy(p->rec_claims + p->nr_rec_claims, w->claim + lo, n * sizeof(*w->claim));
	r = &p->recs[p->nr_recs++];
	*r = *w;
	r->claim_at = (uint32_t)p->nr_rec_claims;
	r->claim = p->rec_claims + p->nr_rec_claims;
	r->lo = (uint8_t)lo;
	r->next_free = NULL;
	p->nr_rec_claims += n;
}

/* A wait's findings are all in: sum it up or keep it. */
static void settle(struct wi_priv *p, struct sl_model *m, struct wi_wait *w)
{
	if (!w->kinds)
		goto out;
	/* a waker folded since the sample (SL_KEEP_DEAD_TASKS) is not named */
	if (w->waker != WI_NO_TASK &&
	    (w->waker >= m->nr_tasks || sl_kept_task(m, w->waker)->serial != w->waker_serial))
		w->waker = WI_NO_TASK;
	if (late_settled(p, m, w)) {
		fold_late(p, m, w);
		goto out;
	}
	if (w->sampled && w->kinds == BIT(WI_SYNC)) {
		struct sl_task *t = sl_kept_task_thawed(m, w->task);
		struct sl_analyzer *self = p->self;
		struct wi_task *wt = sl_task_priv(m, self, t);
		uint64_t sleep = CL(w, WI_SYNC).fact;
		struct wi_pair *pair;

		p->sync_victims++;
		p->sync_inferred += w->inferred;
		if (w->in_filter) {
			if (!wt->agg)
				wt->agg = xcalloc(1, sizeof(*wt->agg));
			sl_hist_add(&wt->agg->now, w->latency);
			sl_hist_add(&wt->agg->sleep, sleep);
		} else {
			p->sync_now_out += w->latency;
			sl_hist_add(&p->sync_sleep_out, sleep);
		}
		if (w->waker != WI_NO_TASK && (pair = pair_find(p, w->waker, w->task))) {
			sl_hist_add(&pair->sync_sleep, sleep);
			pair->sync_now += w->latency;
		}
		goto out;
	}
	keep(p, w);
	{
		struct sl_analyzer *self = p->self;

		((struct wi_task *)sl_task_priv(m, self, sl_kept_task_thawed(m, w->task)))->pinned = true;
		if (w->waker != WI_NO_TASK)
			((struct wi_task *)sl_task_priv(m, self, sl_kept_task_thawed(m, w->waker)))->pinned = true;
	}
out:
	w->next_free = p->free_waits;
	p->free_waits = w;
}

/* The wait of t that findings about wakeup seq (0: a wait without one) gather on. */
static struct wi_wait *wait_for(struct wi_priv *p, struct sl_model *m, struct sl_analyzer *self,
				struct sl_task *t, uint64_t seq, bool *standalone)
{
	struct wi_task *wt = sl_task_priv(m, self, t);

	*standalone = false;
	if (!seq || (wt->open && wt->open->seq > seq)) {
		/* no wakeup, or an older one (its waker slept late): on its own */
		struct wi_wait *w = new_wait(p, seq, t->index);

		if (seq && wt->seq == seq)
			take_sample(w, wt);
		*standalone = true;
		return w;
	}
	if (wt->open && wt->open->seq < seq) {
		settle(p, m, wt->open);
		wt->open = NULL;
	}
	if (!wt->open) {
		wt->open = new_wait(p, seq, t->index);
		if (wt->seq == seq)
			take_sample(wt->open, wt);
	}
	return wt->open;
}

/* Add a claim to a wait: of two of one kind, the one that gives back more */
static void claim(struct wi_wait *w, int k, const struct wi_claim *c)
{
	if ((w->kinds & BIT(k)) && c->fact <= CL(w, k).fact)
		return;
	w->kinds |= (uint8_t)BIT(k);
	CL(w, k) = *c;
}

void whatif_victim(struct sl_model *m, const struct whatif_victim *v)
{
	struct sl_analyzer *self = find_self(m);
	struct wi_priv *p;
	struct wi_wait *w;
	struct wi_claim c;
	bool alone;
	int k = wi_of(v->kind);

	if (!self || k < 0 || !v->task)
		return;
	p = self->priv;
	c = (struct wi_claim){
		.start = v->start, .wait = sl_dur(v->start, v->end), .fact = v->fact,
		.key_ts = v->key_ts, .key_pid = v->key_pid, .cpu = v->cpu, .alt_cpu = v->alt_cpu,
		.waker_cpu = v->waker_cpu,
		.path = v->alt_cpu >= 0 && v->alt_cpu == v->waker_cpu ? PATH_LOCAL : PATH_IPI,
	};
	w = wait_for(p, m, self, v->task, v->wake_seq, &alone);
	claim(w, k, &c);
	if (alone)
		settle(p, m, w);
}

void whatif_held_verdict(const struct sl_model *m, const struct sl_finding *f, uint64_t key_ts,
			 bool stands, int alt_cpu)
{
	struct sl_analyzer *self = find_self(m);
	struct wi_priv *p;

	if (!self)
		return;
	p = self->priv;
	GROW(p->verdicts, p->alloc_verdicts, p->nr_verdicts + 1);
	p->verdicts[p->nr_verdicts++] = (struct wi_verdict){
		.kind = f->kind, .pid = f->pid, .ts = key_ts, .new_ts = f->ts, .cost = f->cost,
		.stands = stands,
		.alt_cpu = alt_cpu,
	};
}

uint32_t whatif_late(struct sl_model *m, int cpu, struct sl_task *r, uint64_t expected, uint64_t t1,
		     unsigned tick_key)
{
	struct sl_analyzer *self = find_self(m);
	struct wi_priv *p;
	struct wi_cpu *c;

	if (!self || cpu < 0 || cpu >= m->nr_cpus)
		return 0;
	p = self->priv;
	c = sl_cpu_priv(m, self, cpu);
	c->late_task = r;
	c->shift = sl_dur(expected, t1);
	c->key_ts = t1;
	c->key_pid = r->pid;
	c->keyed = true;
	GROW(p->chains, p->alloc_chains, p->nr_chains + 1);
	/* judge_run decides now when the slice is final, else at the end (whatif_late_verdict) */
	p->chains[p->nr_chains++] = (struct wi_chain){
		.shift = c->shift, .stands = true, .final = sl_slice_factor_final(m),
		.tick_key = (uint8_t)(tick_key % WHATIF_TICK_KEYS),
	};
	c->chain = (uint32_t)p->nr_chains;
	return c->chain;
}

void whatif_late_verdict(struct sl_model *m, uint32_t chain, bool stands, uint64_t shift,
			 unsigned tick_key)
{
	struct sl_analyzer *self = find_self(m);
	struct wi_priv *p;

	if (!self || !chain)
		return;
	p = self->priv;
	if (chain > p->nr_chains)
		return;
	p->chains[chain - 1] = (struct wi_chain){
		.shift = shift, .stands = stands, .tick_key = (uint8_t)(tick_key % WHATIF_TICK_KEYS),
	};
}

void whatif_late_set_apart(struct sl_model *m, uint64_t tick_keys)
{
	struct sl_analyzer *self = find_self(m);

	if (self)
		((struct wi_priv *)self->priv)->tick_set_apart = tick_keys;
}

void whatif_local_handoff(struct sl_model *m, uint64_t latency, uint64_t sleep_after)
{
	struct sl_analyzer *self = find_self(m);
	struct wi_priv *p;

	if (!self)
		return;
	p = self->priv;
	if (latency < sleep_after)
		sl_hist_add(&p->preempt, latency);
	else
		sl_hist_add(&p->handoff, latency - sleep_after);
}

void whatif_on_time(struct sl_model *m, uint64_t delay)
{
	struct sl_analyzer *self = find_self(m);

	if (self)
		sl_hist_add(&((struct wi_priv *)self->priv)->on_time, delay);
}

/* --- hooks --- */

static int wi_init(struct sl_analyzer *a, struct sl_model *m)
{
	struct wi_priv *p = a->priv;

	(void)m;
	p->self = a;
	p->path_remote = PATH_IPI;
	p->event_cpu = -1;
	return 0;
}

/*
 * A wakeup is placed once (the model places a task only while it is
 * WAKING, and each waking is a new wake_seq): idle_seq names the last one
 * placed on an idle CPU, and one placed elsewhere leaves it as it is, not
 * equal to its seq -- no write to the slot at every placement.
 */
static void wi_on_placement(struct sl_analyzer *a, struct sl_model *m, const struct sl_placement *pl)
{
	const struct sl_cpu *c = sl_model_cpu(m, pl->dest_cpu);
	bool self_pending = pl->task->state == SL_TASK_PENDING && pl->task->cpu == pl->dest_cpu;
	struct wi_task *wt;

	if (!c || !c->known || c->curr || c->nr_queued || c->nr_pending != (uint32_t)self_pending ||
	    !pl->task->wake_valid)
		return;
	wt = sl_task_priv(m, a, pl->task);
	wt->idle_seq = pl->task->wake_seq;
	wt->idle_local = pl->dest_cpu == pl->waker_cpu;
}

/*
 * Was the last wakeup of the task of wt from t?  Its waker's index, and
 * its serial so that a folded task's index, given to a new one, does not
 * pass for it.  A task never sampled has serial 0, which no task has (they
 * count from 1): it was woken by nobody, not by the task at index 0.
 */
static bool woken_by(const struct wi_task *wt, const struct sl_task *t)
{
	return wt->waker == t->index && wt->waker_serial == t->serial;
}

static void wi_on_latency(struct sl_analyzer *a, struct sl_model *m, const struct sl_latency_sample *s)
{
	struct wi_priv *p = a->priv;
	struct sl_task *t = s->task;
	struct wi_task *wt = sl_task_priv(m, a, t);
	struct sl_task *waker = NULL;

	if (s->waker_pid > 0 && !((s->waker_ctx & SL_CTX_KNOWN) &&
				  (s->waker_ctx & (SL_CTX_HARDIRQ | SL_CTX_SOFTIRQ | SL_CTX_NMI))))
		waker = sl_model_task(m, s->waker_pid);
	if (waker == t)
		waker = NULL;

	wt->seq = s->wake_seq;
	wt->wake_ts = s->wake_ts;
	wt->run_ts = s->run_ts;
	wt->in_filter = s->in_filter;
	wt->inferred = s->implied_switch;
	wt->waker = waker ? waker->index : WI_NO_TASK;
	wt->waker_serial = waker ? waker->serial : 0;
	if (wt->open && wt->open->seq < s->wake_seq) {
		settle(p, m, wt->open);
		wt->open = NULL;
	}
	if (wt->open && wt->open->seq == s->wake_seq)
		take_sample(wt->open, wt);

	if (wt->idle_seq == s->wake_seq) {
		int path = wt->idle_local ? PATH_LOCAL : s->ipi ? PATH_IPI : PATH_NOIPI;

		sl_hist_add(&p->idle_place[path], s->latency);
	}
	wt->idle_seq = 0;
	if (waker)
		pair_wakeup(p, m, a, waker, t, s->wake_ts, woken_by(sl_task_priv(m, a, waker), t));
}

static void wi_on_runnable(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t,
			   int cpu, uint64_t ts, bool enter)
{
	struct wi_task *wt = sl_task_priv(m, a, t);

	if (!enter)
		return;
	wt->queued_since = ts;
	wt->queued_cpu = (int16_t)cpu;
	if (t->runnable_reason == SL_RUNNABLE_MIGRATED) {
		struct wi_cpu *c = sl_cpu_priv(m, a, cpu);
		const struct sl_cpu *mc = sl_model_cpu(m, cpu);

		/* a pull when nothing else waits there: it runs next */
		c->pulled = mc && mc->nr_queued == 1 && !mc->nr_pending ? t : NULL;
		c->pulled_ts = ts;
	}
}

/* The task next was switched in on a CPU whose late run's shift is under way. */
static void chain_victim(struct sl_analyzer *a, struct sl_model *m, struct wi_cpu *c,
			 const struct sl_switch_info *sw)
{
	struct wi_priv *p = a->priv;
	struct sl_task *t = sw->next;
	struct wi_task *wt = sl_task_priv(m, a, t);
	struct wi_wait *w;
	struct wi_claim cl;
	uint64_t since, cap;
	bool sampled = wt->seq && wt->seq == t->wake_seq && wt->run_ts == sw->ts;
	bool alone;

	if (wt->queued_cpu != sw->cpu || !wt->queued_since || wt->queued_since > sw->ts) {
		c->late_task = NULL;	/* it did not wait here: the chain is broken */
		return;
	}
	since = wt->queued_since;
	cap = sw->ts - since;
	cl = (struct wi_claim){
		.start = since, .wait = cap, .fact = c->shift, .cap = cap, .cpu = sw->cpu,
		.alt_cpu = sw->cpu, .keyed = c->keyed, .chain = c->chain,
		.key_ts = c->keyed ? c->key_ts : 0, .key_pid = c->keyed ? c->key_pid : 0,
	};
	c->keyed = false;
	w = wait_for(p, m, a, t, sampled ? wt->seq : 0, &alone);
	claim(w, WI_LATE, &cl);
	if (alone)
		settle(p, m, w);
	/* held back by its enqueue: who comes after would not move the whole shift */
	if (cap < c->shift)
		c->late_task = NULL;
}

/* A late run's shift goes on to the task switched in (wi_on_switch()). */
static __attribute__((noinline))
void chain_next(struct sl_analyzer *a, struct sl_model *m, struct wi_cpu *c,
		const struct sl_switch_info *sw)
{
	struct wi_priv *p = a->priv;

	p->event_cpu = sw->cpu;
	p->event_ts = sw->ts;
	chain_victim(a, m, c, sw);
	p->event_cpu = -1;
}

/* a task's sums stay as they are once it died: their compact form */
static __attribute__((noinline))
void late_sums_compact(struct wi_late_acc *late)
{
	sl_hist_compact(&late->removed);
	sl_hist_compact(&late->added);
}

/* wi_on_switch()'s common part: a pull's mark cleared, a late run's chain followed */
static inline void switch_chain(struct sl_analyzer *a, struct sl_model *m, struct wi_cpu *c,
				const struct sl_switch_info *sw)
{
	c->pulled = NULL;
	if (!c->late_task)
		return;
	if (sw->implied || !sw->next || sw->next == c->late_task) {
		c->late_task = NULL;
		return;
	}
	chain_next(a, m, c, sw);
}

/* wi_on_switch() when prev died or a pull ran: its calls, then the common part */
static __attribute__((noinline))
void switch_rare(struct sl_analyzer *a, struct sl_model *m, struct wi_cpu *c,
		 const struct sl_switch_info *sw)
{
	if (sw->prev && sw->prev_class == SL_PREV_DEAD) {
		struct wi_task *wt = sl_task_priv(m, a, sw->prev);

		if (wt->late)
			late_sums_compact(wt->late);
	}
	/* a pull's migration-and-run: its task is the next one there */
	if (c->pulled && c->pulled == sw->next && !sw->implied)
		sl_hist_add(&((struct wi_priv *)a->priv)->pull, sl_dur(c->pulled_ts, sw->ts));
	switch_chain(a, m, c, sw);
}

/*
 * Every switch: the rare steps that call out are switch_rare()'s, so that
 * the common one saves no register (a call in the middle made every
 * switch save four)
 */
static void wi_on_switch(struct sl_analyzer *a, struct sl_model *m, const struct sl_switch_info *sw)
{
	struct wi_cpu *c = sl_cpu_priv(m, a, sw->cpu);

	if ((sw->prev && sw->prev_class == SL_PREV_DEAD) ||
	    (c->pulled && c->pulled == sw->next && !sw->implied)) {
		switch_rare(a, m, c, sw);
		return;
	}
	switch_chain(a, m, c, sw);
}

static void wi_on_cpu_unknown(struct sl_analyzer *a, struct sl_model *m, int cpu,
			      uint64_t gap_start, uint64_t ts)
{
	struct wi_priv *p = a->priv;
	struct wi_cpu *c = sl_cpu_priv(m, a, cpu);

	c->late_task = NULL;
	sl_gaps_add(&p->gaps, cpu, gap_start, ts);
}

/* --- the estimates, at the end --- */

/* A quantile of a basis: 0 p25, 1 p50, 2 p75. */
static const double qs[3] = { 25, 50, 75 };

static uint64_t q_of(const struct sl_hist *h, int q, uint64_t dflt)
{
	return h->count ? sl_hist_percentile(h, qs[q]) : dflt;
}

/* the basis' quantiles, once (the estimates of every finding use them) */
static void basis_quantiles(struct wi_priv *p, const struct sl_hist *all_idle)
{
	for (int q = 0; q < 3; q++) {
		p->q_handoff[q] = q_of(&p->handoff, q, 0);
		p->q_preempt[q] = q_of(&p->preempt, q, 0);
		p->q_on_time[q] = q_of(&p->on_time, q, 0);
		p->q_pull[q] = q_of(&p->pull, q, WI_DEFAULT_PULL_NS);
	}
	/* a path the trace never took: any wakeup onto an idle CPU */
	p->stack_hist[0] = p->idle_place[PATH_LOCAL].count ? &p->idle_place[PATH_LOCAL] : all_idle;
	p->stack_hist[1] = p->idle_place[p->path_remote].count ? &p->idle_place[p->path_remote] :
			   all_idle;
	for (int i = 0; i < 2; i++) {
		if (!p->stack_hist[i]->count)
			p->stack_hist[i] = NULL;
		for (int q = 0; q < 3; q++)
			p->q_stack[i][q] = p->stack_hist[i] ? q_of(p->stack_hist[i], q, 0) : 0;
	}
}

static uint64_t sync_est(const struct wi_priv *p, uint64_t sleep, int q)
{
	uint64_t v = sleep + p->q_handoff[q];

	if (p->preempt_rule)
		v = MIN(v, p->q_preempt[q]);
	return v;
}

static const struct sl_hist *stack_basis(const struct wi_priv *p, int path)
{
	return p->stack_hist[path != PATH_LOCAL];
}

/*
 * sl_hist_percentile() of h for p that only grow from one call to the
 * next (the stacked wakeups' quantiles, wi_finish()): one walk of h's
 * buckets for them all, not one from the start for each.
 */
struct pct_walk {
	struct sl_hist_iter it;
	uint64_t seen;			/* the samples up to the bucket [lo, hi] */
	uint64_t lo, hi;
};

static uint64_t pct_walk_next(struct pct_walk *w, const struct sl_hist *h, double p)
{
	uint64_t rank, n, mid;

	if (!h->count)
		return 0;
	/* nearest rank, as sl_hist_percentile() */
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	if (rank >= h->count)
		return h->max;
	while (w->seen < rank) {
		if (!sl_hist_next(h, &w->it, &w->lo, &w->hi, &n))
			return h->max;
		w->seen += n;
	}
	mid = w->lo + (w->hi - w->lo) / 2;
	return MIN(MAX(mid, h->min), h->max);
}

/*
 * Switched at the expected time (q 0 and 1); the range's top (q 2) as
 * late after it as this trace's switches at the slice were (their p75).
 */
static uint64_t late_est(const struct wi_priv *p, const struct wi_claim *c, uint64_t wait, int q)
{
	uint64_t d = q == 2 ? p->q_on_time[2] : 0;
	uint64_t gain = c->fact > d ? MIN(c->fact - d, c->cap) : 0;

	return wait - MIN(gain, wait);
}

static uint64_t idle_est(const struct wi_priv *p, const struct wi_claim *c, uint64_t wait, int q)
{
	uint64_t pull = p->q_pull[q];
	uint64_t gain = c->fact > pull ? c->fact - pull : 0;

	return wait - MIN(gain, wait);
}

/* the wait a claim is about: the wakeup's latency when its sample came */
static uint64_t wait_of(const struct wi_wait *w, int k)
{
	return w->sampled ? w->latency : CL(w, k).wait;
}

/* One kind's estimate of one wait at quantile q; false: no basis */
static bool estimate(const struct wi_priv *p, const struct wi_wait *w, int k, int q, uint64_t *out)
{
	const struct wi_claim *c = &CL(w, k);

	switch (k) {
	case WI_SYNC:
		*out = sync_est(p, c->fact, q);
		return true;
	case WI_STACK:
		if (!stack_basis(p, c->path))
			return false;
		*out = p->q_stack[c->path != PATH_LOCAL][q];
		return true;
	case WI_LATE:
	case WI_TICK:
		*out = late_est(p, c, wait_of(w, k), q);
		return true;
	default:
		*out = idle_est(p, c, wait_of(w, k), q);
		return true;
	}
}

static int by_key(const void *x, const void *y)
{
	const uint64_t *a = x, *b = y;

	for (int i = 0; i < 3; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/*
 * (kind, pid, ts) -> record: the held verdicts and the kept findings look
 * records up.  An index, open addressing, made in one pass (a key names
 * one finding: one of each, nearly always); should a key come twice, the
 * keys are sorted and searched as before (sorted): the same one is found.
 * The sort was most of wi_finish() on a large perf.data.
 */
struct rec_keys {
	uint64_t *keys;			/* 4 each: kind, pid, ts, record */
	size_t nr;
	uint32_t *slot;			/* key index + 1, 0 empty (not sorted) */
	size_t mask;
	bool sorted;
};

static size_t key_home(uint64_t kind, uint64_t pid, uint64_t ts, size_t mask)
{
	return (size_t)((pid * 0x9e3779b97f4a7c15ULL ^ ts * 0xc2b2ae3d27d4eb4fULL ^
			 kind * 0x165667b19e3779f9ULL) >> 32) & mask;
}

static void key_index(const struct wi_priv *p, struct rec_keys *x)
{
	uint64_t *keys = xmalloc((p->nr_recs * WI__NR + 1) * 4 * sizeof(*keys));
	size_t n = 0, size = 64;

	for (size_t i = 0; i < p->nr_recs; i++) {
		const struct wi_wait *w = &p->recs[i];

		for (int k = 0; k < WI__NR; k++) {
			if (!(w->kinds & BIT(k)) || (is_late(k) && !CL(w, k).keyed))
				continue;
			keys[4 * n] = wi_sl_kind[k];
			keys[4 * n + 1] = (uint64_t)(uint32_t)CL(w, k).key_pid;
			keys[4 * n + 2] = CL(w, k).key_ts;
			keys[4 * n + 3] = i;
			n++;
		}
	}
	*x = (struct rec_keys){ .keys = keys, .nr = n };
	while (size < 2 * n)
		size *= 2;
	x->slot = xcalloc(size, sizeof(*x->slot));
	x->mask = size - 1;
	for (size_t k = 0; k < n; k++) {
		const uint64_t *key = &keys[4 * k];
		size_t i = key_home(key[0], key[1], key[2], x->mask);

		for (; x->slot[i]; i = (i + 1) & x->mask) {
			if (!by_key(&keys[4 * (x->slot[i] - 1)], key)) {
				free(x->slot);
				x->slot = NULL;
				qsort(keys, n, 4 * sizeof(*keys), by_key);
				x->sorted = true;
				return;
			}
		}
		x->slot[i] = (uint32_t)(k + 1);
	}
}

static void rec_keys_free(struct rec_keys *x)
{
	free(x->keys);
	free(x->slot);
}

static struct wi_wait *find_key(struct wi_priv *p, const struct rec_keys *x, int kind,
				int32_t pid, uint64_t ts)
{
	uint64_t want[3] = { (uint64_t)kind, (uint64_t)(uint32_t)pid, ts };
	const uint64_t *hit = NULL;

	if (x->sorted) {
		hit = bsearch(want, x->keys, x->nr, 4 * sizeof(*x->keys), by_key);
	} else {
		for (size_t i = key_home(want[0], want[1], want[2], x->mask); x->slot[i];
		     i = (i + 1) & x->mask)
			if (!by_key(&x->keys[4 * (x->slot[i] - 1)], want)) {
				hit = &x->keys[4 * (x->slot[i] - 1)];
				break;
			}
	}
	return hit ? &p->recs[hit[3]] : NULL;
}

/* Returns true when a finding that stands moved (its key changed): index the keys again. */
static bool apply_verdicts(struct wi_priv *p, struct sl_model *m, const struct rec_keys *keys)
{
	bool moved = false;

	for (size_t i = 0; i < p->nr_verdicts; i++) {
		const struct wi_verdict *v = &p->verdicts[i];
		struct wi_wait *w = find_key(p, keys, v->kind, v->pid, v->ts);
		int k = wi_of(v->kind);

		if (!w || k < 0)
			continue;
		if (!v->stands) {
			w->kinds &= (uint8_t)~BIT(k);
			continue;
		}
		CL(w, k).alt_cpu = v->alt_cpu;
		if (v->new_ts != v->ts) {
			CL(w, k).key_ts = v->new_ts;
			moved = true;
		}
		if (k == WI_IDLE)
			CL(w, k).fact = MIN(CL(w, k).fact, v->cost);	/* cut at lost events */
		else	/* the lowest idle CPU left */
			CL(w, k).path = v->alt_cpu == CL(w, k).waker_cpu ? PATH_LOCAL : PATH_IPI;
	}
	/* a held late run's waiters: its verdict by the whole CPU count, its shift by it */
	for (size_t i = 0; i < p->nr_recs; i++) {
		struct wi_wait *w = &p->recs[i];
		int k = w->kinds & BIT(WI_TICK) ? WI_TICK : WI_LATE;
		struct wi_claim *c;

		if (!(w->kinds & BIT(k)))
			continue;
		c = &CL(w, k);
		if (!c->chain || c->chain > p->nr_chains)
			continue;
		if (!p->chains[c->chain - 1].stands)
			w->kinds &= (uint8_t)~BIT(k);
		else
			c->fact = MIN(c->fact, p->chains[c->chain - 1].shift);
	}
	/* held findings stand for migratable tasks only (held.h) */
	for (size_t i = 0; i < p->nr_recs; i++) {
		struct wi_wait *w = &p->recs[i];

		if ((w->kinds & HELD) && sl_held_source(m, sl_kept_task(m, w->task)) == SL_AFF_NONE)
			w->kinds &= (uint8_t)~HELD;
	}
	return moved;
}

static bool lost_in(const struct wi_priv *p, int cpu, uint64_t a, uint64_t b)
{
	return cpu >= 0 && sl_gaps_find(&p->gaps, cpu, a, b);
}

static void mark_lost(struct wi_priv *p, struct wi_wait *w)
{
	if (!p->gaps.nr_cpus)
		return;		/* no CPU lost events so far (most traces) */
	/* the kinds claiming w: one, mostly (a late victim folded as it settles) */
	for (unsigned kinds = w->kinds; kinds; kinds &= kinds - 1) {
		const struct wi_claim *c = &CL(w, __builtin_ctz(kinds));
		uint64_t a = w->sampled ? w->wake_ts : c->start;
		uint64_t b = w->sampled ? w->run_ts : c->start + c->wait;

		if (lost_in(p, c->cpu, a, b) || (c->alt_cpu != c->cpu && lost_in(p, c->alt_cpu, a, b)))
			w->lost = true;
	}
}

/* A kind's distribution with its samples replaced: the trace's when it replaced none. */
static const struct sl_hist *after_of(const struct wi_kind_result *kr, const struct sl_model *m)
{
	return kr->removed.count || kr->added.count ? &kr->after : &m->latency;
}

/* out = before - removed + added (removed's samples are in before) */
static void replace(struct sl_hist *out, const struct sl_hist *before, const struct sl_hist *removed,
		    const struct sl_hist *added)
{
	sl_hist_init(out);
	sl_hist_merge(out, before);
	sl_hist_remove(out, removed);
	sl_hist_merge(out, added);
}

/* add the sync-only victims of a histogram of sleep_after, estimated, to h; their total */
static uint64_t add_sync(const struct wi_priv *p, struct sl_hist *h, const struct sl_hist *sleep)
{
	struct sl_hist_iter it = { 0 };
	uint64_t lo, hi, n, total = 0;

	while (sl_hist_next(sleep, &it, &lo, &hi, &n)) {
		uint64_t v = sync_est(p, lo + (hi - lo) / 2, 1);

		if (h)
			sl_hist_add_count(h, v, n);
		total += v * n;
	}
	return total;
}

static int by_saved_desc(const void *x, const void *y)
{
	const struct wi_task_result *a = x, *b = y;

	if (a->saved != b->saved)
		return a->saved < b->saved ? 1 : -1;
	return a->task < b->task ? -1 : a->task > b->task;
}

struct wi_task_acc {
	struct sl_hist removed, added;
	uint64_t victims;
	int64_t saved;
	bool used;
};

/*
 * By task index, NULL until the task has a result: most kept tasks have
 * none (65536 dead ones by default, 168 bytes each; issue 31).
 */
static struct wi_task_acc *acc_of(struct wi_task_acc **acc, uint32_t i)
{
	if (!acc[i])
		acc[i] = xcalloc(1, sizeof(*acc[i]));
	return acc[i];
}

static const struct wi_task_acc no_acc;

static const struct wi_task_acc *acc_or_none(struct wi_task_acc *const *acc, uint32_t i)
{
	return acc[i] ? acc[i] : &no_acc;
}

/* the p50/p99 of a task's (or comm's) samples now and with its victims replaced */
static void fill_pcts(struct wi_task_result *res, const struct sl_hist *before,
		      const struct sl_hist *removed, const struct sl_hist *added)
{
	struct sl_hist after;

	replace(&after, before, removed, added);
	res->count = before->count;
	res->now50 = sl_hist_percentile(before, 50);
	res->now99 = sl_hist_percentile(before, 99);
	res->after50 = sl_hist_percentile(&after, 50);
	res->after99 = sl_hist_percentile(&after, 99);
	sl_hist_free(&after);
}

static int by_comm(const void *x, const void *y)
{
	const struct wi_task_result *a = x, *b = y;

	if (a->now50 != b->now50)	/* the comm id, while grouping */
		return a->now50 < b->now50 ? -1 : 1;
	return a->task < b->task ? -1 : a->task > b->task;
}

/* The tasks and comms whose findings cost the most wait: WI_LISTED of each. */
static void task_results(struct wi_priv *p, struct sl_model *m, struct sl_analyzer *a,
			 struct wi_task_acc **acc)
{
	struct wi_task_result *by;
	size_t n = 0;

	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		const struct wi_task *wt = m->tasks[i]->frozen ? NULL :	/* no agg: wi_task_in_use() */
					   sl_task_priv(m, a, m->tasks[i]);
		struct wi_task_acc *ta = acc[i];

		if (wt && wt->agg) {
			ta = acc_of(acc, i);
			sl_hist_merge(&ta->removed, &wt->agg->now);
			ta->saved += (int64_t)wt->agg->now.sum -
				     (int64_t)add_sync(p, &ta->added, &wt->agg->sleep);
			ta->victims += wt->agg->now.count;
			ta->used = true;
		}
		if (!ta || !ta->used)
			continue;
		GROW(p->tasks, p->alloc_tasks, p->nr_tasks + 1);
		p->tasks[p->nr_tasks++] = (struct wi_task_result){
			.task = i, .victims = ta->victims, .saved = ta->saved,
		};
	}
	if (!p->nr_tasks)
		return;

	/* comms: the tasks grouped by comm (now50 holds the comm id meanwhile) */
	by = xmalloc(p->nr_tasks * sizeof(*by));
	memcpy(by, p->tasks, p->nr_tasks * sizeof(*by));
	for (size_t i = 0; i < p->nr_tasks; i++)
		by[i].now50 = m->tasks[by[i].task]->comm;
	qsort(by, p->nr_tasks, sizeof(*by), by_comm);
	for (size_t i = 0; i < p->nr_tasks; i++) {
		if (n && by[n - 1].now50 == by[i].now50) {
			by[n - 1].victims += by[i].victims;
			by[n - 1].saved += by[i].saved;
		} else {
			by[n++] = by[i];
		}
	}
	qsort(by, n, sizeof(*by), by_saved_desc);
	p->nr_comms = MIN(n, WI_LISTED);
	p->comms = by;
	for (size_t c = 0; c < p->nr_comms; c++) {
		struct sl_hist before, removed, added;
		uint32_t comm = (uint32_t)by[c].now50;

		sl_hist_init(&before);
		sl_hist_init(&removed);
		sl_hist_init(&added);
		for (uint32_t i = 0; i < m->nr_tasks; i++) {
			if (m->tasks[i]->comm != comm)	/* a frozen task has its comm too */
				continue;
			sl_hist_merge(&before, &sl_kept_task(m, i)->latency);
			sl_hist_merge(&removed, &acc_or_none(acc, i)->removed);
			sl_hist_merge(&added, &acc_or_none(acc, i)->added);
		}
		if (sl_folded_comm(m, comm))	/* its folded tasks: no what-if of theirs */
			sl_hist_merge(&before, &sl_folded_comm(m, comm)->latency);
		fill_pcts(&by[c], &before, &removed, &added);
		sl_hist_free(&before);
		sl_hist_free(&removed);
		sl_hist_free(&added);
	}

	qsort(p->tasks, p->nr_tasks, sizeof(*p->tasks), by_saved_desc);
	p->nr_tasks = MIN(p->nr_tasks, WI_LISTED);
	for (size_t i = 0; i < p->nr_tasks; i++) {
		uint32_t t = p->tasks[i].task;

		fill_pcts(&p->tasks[i], &sl_kept_task(m, t)->latency, &acc_or_none(acc, t)->removed,
			  &acc_or_none(acc, t)->added);
	}
}

static int late_key_cmp(const void *x, const void *y)
{
	const struct wi_late_key *a = x, *b = y;

	if (a->key_pid != b->key_pid)
		return (uint32_t)a->key_pid < (uint32_t)b->key_pid ? -1 : 1;
	return a->key_ts < b->key_ts ? -1 : a->key_ts > b->key_ts;
}

/*
 * The late keys by (pid, time), for finding_estimates(): an index, open
 * addressing, made in one pass (a key is one late run's first waiter:
 * one of each, nearly always).  Should a key come twice, the keys are
 * sorted and searched as before (sorted): the same one is found.  The
 * sort of all the keys was a fifth of wi_finish on a hackbench trace.
 */
struct late_index {
	uint32_t *slot;			/* late_keys index + 1, 0 empty */
	size_t mask;
	bool made;			/* at the first lookup */
	bool sorted;
};

static size_t late_home(int32_t pid, uint64_t ts, size_t mask)
{
	return (size_t)(((uint64_t)(uint32_t)pid * 0x9e3779b97f4a7c15ULL ^
			 ts * 0xc2b2ae3d27d4eb4fULL) >> 32) & mask;
}

static void late_index_make(struct wi_priv *p, struct late_index *x)
{
	size_t n = 64;

	*x = (struct late_index){ .made = true };
	while (n < 2 * p->nr_late_keys)
		n *= 2;
	x->slot = xcalloc(n, sizeof(*x->slot));
	x->mask = n - 1;
	for (size_t k = 0; k < p->nr_late_keys; k++) {
		const struct wi_late_key *lk = &p->late_keys[k];
		size_t i = late_home(lk->key_pid, lk->key_ts, x->mask);

		for (; x->slot[i]; i = (i + 1) & x->mask) {
			const struct wi_late_key *o = &p->late_keys[x->slot[i] - 1];

			if (o->key_pid == lk->key_pid && o->key_ts == lk->key_ts) {
				free(x->slot);
				x->slot = NULL;
				qsort(p->late_keys, p->nr_late_keys, sizeof(*p->late_keys), late_key_cmp);
				x->sorted = true;
				return;
			}
		}
		x->slot[i] = (uint32_t)(k + 1);
	}
}

static const struct wi_late_key *late_key_find(struct wi_priv *p, struct late_index *x,
					       int32_t pid, uint64_t ts)
{
	struct wi_late_key want = { .key_ts = ts, .key_pid = pid };

	if (!p->nr_late_keys)
		return NULL;
	if (!x->made)
		late_index_make(p, x);
	if (x->sorted)
		return bsearch(&want, p->late_keys, p->nr_late_keys, sizeof(want), late_key_cmp);
	for (size_t i = late_home(pid, ts, x->mask); x->slot[i]; i = (i + 1) & x->mask) {
		const struct wi_late_key *lk = &p->late_keys[x->slot[i] - 1];

		if (lk->key_pid == pid && lk->key_ts == ts)
			return lk;
	}
	return NULL;
}

/* finding_estimate - what the other decision would have given the kept finding f */
static void finding_estimate(struct wi_priv *p, struct sl_model *m, const struct rec_keys *keys,
			     struct late_index *late, struct sl_finding *f)
{
	struct sl_finding_whatif *x = &f->whatif;
	int k = wi_of(f->kind);
	int key_kind = f->kind;
	const struct wi_wait *w;
	uint64_t v[3];

	if (k < 0)
		return;
	x->pid = f->pid;
	x->comm = f->comm;
	if (k == WI_SYNC) {
		/* sync_wake.c set fact (sleep_after) and cpu (the waker's) */
		for (int q = 0; q < 3; q++)
			v[q] = sync_est(p, x->fact, q);
		x->now = f->cost;
		x->basis = p->kind[k].basis;
	} else if (is_late(k) && !find_key(p, keys, key_kind, f->pid, f->ts)) {
		const struct wi_late_key *lk = late_key_find(p, late, f->pid, f->ts);
		struct wi_claim c = { 0 };

		if (!lk || lk->lost)
			return;
		c.fact = lk->fact;
		c.cap = lk->cap;
		for (int q = 0; q < 3; q++)
			v[q] = late_est(p, &c, lk->now, q);
		x->now = lk->now;
		x->basis = p->kind[k].basis;
		x->cpu = lk->alt_cpu;
		x->pid = m->tasks[lk->task]->pid;
		x->comm = m->tasks[lk->task]->comm;
	} else {
		w = find_key(p, keys, key_kind, f->pid, f->ts);
		if (!w || !(w->kinds & BIT(k)) || w->lost)
			return;
		if (!estimate(p, w, k, 0, &v[0]))
			return;
		estimate(p, w, k, 1, &v[1]);
		estimate(p, w, k, 2, &v[2]);
		x->now = wait_of(w, k);
		x->basis = p->kind[k].basis;
		x->cpu = CL(w, k).alt_cpu;
		x->pid = m->tasks[w->task]->pid;
		x->comm = m->tasks[w->task]->comm;
	}
	x->lo = MIN(v[0], v[2]);
	x->est = MAX(v[1], 1);
	x->hi = MAX(v[0], v[2]);
	x->weak = x->basis < SL_WHATIF_WEAK_BELOW;
}

/*
 * The kept findings' estimates, written in the lists themselves
 * (sl_findings_edit()): every view of the findings shows them.
 */
static void finding_estimates(struct wi_priv *p, struct sl_model *m, const struct rec_keys *keys)
{
	struct late_index late = { .slot = NULL };

	for (int kind = 0; kind < SL_KIND__COUNT; kind++) {
		struct sl_finding *fs;
		size_t n;

		if (wi_of(kind) < 0)
			continue;
		fs = sl_findings_edit(m->findings, kind, &n);
		for (size_t i = 0; i < n; i++)
			finding_estimate(p, m, keys, &late, &fs[i]);
	}
	free(late.slot);
}

/* a chain's runs are late-preemption-at-tick's (whatif_late_set_apart) */
static bool chain_set_apart(const struct wi_priv *p, uint32_t chain)
{
	return chain && chain <= p->nr_chains &&
	       (p->tick_set_apart >> p->chains[chain - 1].tick_key & 1);
}

/* The records' late claims whose runs were set apart: WI_TICK's, before their keys are indexed. */
static void set_apart_records(struct wi_priv *p)
{
	for (size_t i = 0; i < p->nr_recs; i++) {
		struct wi_wait *w = &p->recs[i];

		if (!(w->kinds & BIT(WI_LATE)) || !chain_set_apart(p, CL(w, WI_LATE).chain))
			continue;
		CL(w, WI_TICK) = CL(w, WI_LATE);
		w->kinds = (uint8_t)((w->kinds & ~BIT(WI_LATE)) | BIT(WI_TICK));
	}
}

/* The folded late-only victims, by tick key, into the row of their kind. */
static void merge_late_parts(struct wi_priv *p)
{
	for (int key = 0; key < WHATIF_TICK_KEYS; key++) {
		struct wi_kind_result *from = &p->late_part[key];
		struct wi_kind_result *to = &p->kind[p->tick_set_apart >> key & 1 ? WI_TICK : WI_LATE];

		to->victims += from->victims;
		to->samples += from->samples;
		to->inferred += from->inferred;
		to->lost += from->lost;
		to->saved += from->saved;
		sl_hist_merge(&to->removed, &from->removed);
		sl_hist_merge(&to->added, &from->added);
		sl_hist_free(&from->removed);
		sl_hist_free(&from->added);
	}
}

static void wi_finish(struct sl_analyzer *a, struct sl_model *m)
{
	struct wi_priv *p = a->priv;
	struct wi_task_acc **acc;
	uint64_t n_stack = 0, i_stack = 0;
	struct pct_walk stack_walk[2] = { { .seen = 0 }, { .seen = 0 } };	/* local, remote */
	struct rec_keys keys;

	/* the last findings: waits open at the end */
	p->at_end = true;
	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		struct wi_task *wt;

		if (m->tasks[i]->frozen)
			continue;	/* no wait open: wi_task_in_use() */
		wt = sl_task_priv(m, a, m->tasks[i]);
		if (wt->open)
			settle(p, m, wt->open);
		wt->open = NULL;
	}
	set_apart_records(p);
	merge_late_parts(p);
	key_index(p, &keys);
	if (apply_verdicts(p, m, &keys)) {
		rec_keys_free(&keys);
		key_index(p, &keys);
	}
	for (size_t i = 0; i < p->nr_recs; i++)
		mark_lost(p, &p->recs[i]);

	/* the basis */
	p->preempt_rule = p->preempt.count > p->handoff.count;
	p->path_remote = p->idle_place[PATH_NOIPI].count > p->idle_place[PATH_IPI].count ?
			 PATH_NOIPI : PATH_IPI;
	for (int i = 0; i < PATH__NR; i++)
		sl_hist_merge(&p->all_idle, &p->idle_place[i]);
	basis_quantiles(p, &p->all_idle);
	{
		/* the table's basis: the remote path for stacking, the rule's for sync */
		const uint64_t *q[WI__NR] = {
			[WI_STACK] = p->q_stack[1], [WI_SYNC] = p->preempt_rule ? p->q_preempt : p->q_handoff,
			[WI_LATE] = p->q_on_time, [WI_TICK] = p->q_on_time, [WI_IDLE] = p->q_pull,
		};
		uint64_t n[WI__NR] = {
			[WI_STACK] = p->stack_hist[1] ? p->stack_hist[1]->count : 0,
			[WI_SYNC] = p->handoff.count + p->preempt.count,
			[WI_LATE] = p->on_time.count, [WI_TICK] = p->on_time.count,
			[WI_IDLE] = p->pull.count,
		};

		for (int k = 0; k < WI__NR; k++) {
			p->kind[k].basis = n[k];
			p->kind[k].lo = q[k][0];
			p->kind[k].est = q[k][1];
			p->kind[k].hi = q[k][2];
		}
	}

	/* sync-only victims */
	{
		struct wi_kind_result *kr = &p->kind[WI_SYNC];
		uint64_t est_all;

		for (uint32_t i = 0; i < m->nr_tasks; i++) {
			const struct wi_task *wt;

			if (m->tasks[i]->frozen)
				continue;	/* no agg: wi_task_in_use() */
			wt = sl_task_priv(m, a, m->tasks[i]);
			if (wt->agg) {
				sl_hist_merge(&p->sync_now, &wt->agg->now);
				sl_hist_merge(&p->sync_sleep, &wt->agg->sleep);
			}
		}
		est_all = add_sync(p, NULL, &p->sync_sleep) + add_sync(p, NULL, &p->sync_sleep_out);
		kr->victims += p->sync_victims;
		kr->samples += p->sync_now.count;
		kr->inferred += p->sync_inferred;
		kr->saved += (int64_t)(p->sync_now.sum + p->sync_now_out) - (int64_t)est_all;
		sl_hist_merge(&kr->removed, &p->sync_now);
		add_sync(p, &kr->added, &p->sync_sleep);
		p->all_victims += p->sync_victims;
		p->all.samples += p->sync_now.count;
		p->all.inferred += p->sync_inferred;
		p->all.saved += kr->saved;
		sl_hist_merge(&p->all.removed, &p->sync_now);
		add_sync(p, &p->all.added, &p->sync_sleep);
	}

	/* the records */
	acc = xcalloc(m->nr_tasks + 1, sizeof(*acc));
	/* the late-only victims, summed up as they settled (fold_late()) */
	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		const struct wi_task *wt;

		if (m->tasks[i]->frozen)
			continue;	/* no late: wi_task_in_use() */
		wt = sl_task_priv(m, a, m->tasks[i]);
		if (!wt->late)
			continue;
		/* taken over as they are (a dead task's are compact), not merged */
		acc_of(acc, i)->removed = wt->late->removed;
		acc[i]->added = wt->late->added;
		sl_hist_init(&wt->late->removed);
		sl_hist_init(&wt->late->added);
		acc[i]->victims += wt->late->victims;
		acc[i]->saved += wt->late->saved;
		acc[i]->used = true;
	}
	for (size_t i = 0; i < p->nr_recs; i++)
		n_stack += (p->recs[i].kinds & BIT(WI_STACK)) && !p->recs[i].lost;
	for (size_t i = 0; i < p->nr_recs; i++) {
		struct wi_wait *w = &p->recs[i];
		struct wi_task_acc *ta;
		uint64_t best = UINT64_MAX, best_place = UINT64_MAX, now = 0;
		bool any = false;

		if (!w->kinds)
			continue;
		for (int k = 0; k < WI__NR; k++) {
			struct wi_kind_result *kr = &p->kind[k];
			const struct sl_hist *b;
			uint64_t est;

			if (!(w->kinds & BIT(k)))
				continue;
			kr->victims++;
			if (w->lost) {
				kr->lost++;
				continue;
			}
			if (k == WI_STACK) {
				/* the i-th of n stacked wakeups gets the basis' quantile (i + 0.5) / n */
				b = stack_basis(p, CL(w, k).path);
				if (!b) {
					kr->no_basis++;
					continue;
				}
				est = pct_walk_next(&stack_walk[CL(w, k).path != PATH_LOCAL], b,
						    100.0 * ((double)i_stack + 0.5) / (double)n_stack);
				i_stack++;
			} else {
				estimate(p, w, k, 1, &est);
			}
			now = wait_of(w, k);
			kr->saved += (int64_t)now - (int64_t)est;
			if (w->sampled && w->in_filter) {
				kr->samples++;
				kr->inferred += w->inferred;
				sl_hist_add(&kr->removed, now);
				sl_hist_add(&kr->added, est);
			}
			any = true;
			best = MIN(best, est);
			if (BIT(k) & PLACEMENT)
				best_place = MIN(best_place, est);
		}
		if (w->lost)
			p->all.lost++;
		if (!any)
			continue;
		if (best_place != UINT64_MAX)
			best = best_place;	/* placed well, it never waited behind anyone */
		p->all_victims++;
		now = w->sampled ? w->latency : 0;
		for (int k = 0; k < WI__NR && !now; k++)
			if (w->kinds & BIT(k))
				now = MAX(now, CL(w, k).wait);
		p->all.saved += (int64_t)now - (int64_t)best;
		ta = acc_of(acc, w->task);
		ta->saved += (int64_t)now - (int64_t)best;
		ta->victims++;
		ta->used = true;
		if (w->sampled && w->in_filter) {
			p->all.samples++;
			p->all.inferred += w->inferred;
			sl_hist_add(&p->all.removed, now);
			sl_hist_add(&p->all.added, best);
			sl_hist_add(&ta->removed, now);
			sl_hist_add(&ta->added, best);
		}
		if (w->waker != WI_NO_TASK) {
			struct wi_pair *e = pair_find(p, w->waker, w->task);

			if (e)
				e->saved += (int64_t)now - (int64_t)best;
		}
	}
	/* a kind with no sample replaced keeps the distribution: no copy of it (after_of()) */
	for (int k = 0; k < WI__NR; k++)
		if (p->kind[k].removed.count || p->kind[k].added.count)
			replace(&p->kind[k].after, &m->latency, &p->kind[k].removed, &p->kind[k].added);
	replace(&p->all.after, &m->latency, &p->all.removed, &p->all.added);

	/* pairs: their sync-only and late-only victims */
	for (int i = 0; i < p->nr_pairs; i++) {
		struct wi_pair *e = &p->pairs[i];

		e->saved += (int64_t)e->sync_now - (int64_t)add_sync(p, NULL, &e->sync_sleep);
		e->saved += pair_saved_get(p, e->a, e->b);
	}

	task_results(p, m, a, acc);
	for (uint32_t i = 0; i <= m->nr_tasks; i++) {
		if (!acc[i])
			continue;
		sl_hist_free(&acc[i]->removed);
		sl_hist_free(&acc[i]->added);
		free(acc[i]);
	}
	free(acc);

	p->all.victims = p->all_victims;
	for (int k = 0; k < WI__NR; k++) {
		struct sl_kind_summary *s = &m->findings->summary[wi_sl_kind[k]];

		s->whatif = s->count > 0;
		s->whatif_saved = p->kind[k].saved;
		s->whatif_p99 = sl_hist_percentile(after_of(&p->kind[k], m), 99);
	}
	finding_estimates(p, m, &keys);
	rec_keys_free(&keys);
	p->done = true;
}

/* --- the report --- */

/* Round trip of a pair, now and with its victims' waits replaced; false: not a ping-pong */
static bool pair_round_trip(const struct wi_pair *e, uint64_t *now, uint64_t *after, uint64_t *exchanges)
{
	uint64_t span = sl_dur(e->first_ts, e->last_ts), rt;
	int64_t per;

	if (e->period.count < 10 || !e->wakeups[0] || !e->wakeups[1])
		return false;
	rt = sl_hist_percentile(&e->period, 50);
	if (!rt || span < rt)
		return false;
	*exchanges = span / rt;
	per = e->saved / (int64_t)*exchanges;
	*now = rt;
	*after = per >= (int64_t)rt ? 0 : (uint64_t)((int64_t)rt - per);
	return true;
}

static int pair_by_wakeups(const void *x, const void *y)
{
	const struct wi_pair *a = *(const struct wi_pair *const *)x, *b = *(const struct wi_pair *const *)y;
	uint64_t na = a->wakeups[0] + a->wakeups[1], nb = b->wakeups[0] + b->wakeups[1];

	if (na != nb)
		return na < nb ? 1 : -1;
	return a->a < b->a ? -1 : a->a > b->a;
}

static int sorted_pairs(struct wi_priv *p, struct wi_pair **out)
{
	int n = 0;

	for (int i = 0; i < p->nr_pairs; i++) {
		uint64_t x, y, z;

		if (pair_round_trip(&p->pairs[i], &x, &y, &z))
			out[n++] = &p->pairs[i];
	}
	qsort(out, (size_t)n, sizeof(*out), pair_by_wakeups);
	return n;
}

static const char *task_name(char *buf, size_t len, const struct sl_model *m, uint32_t idx)
{
	const struct sl_task *t = m->tasks[idx];

	snprintf(buf, len, "%s:%d", sl_task_comm(m, t), t->pid);
	return buf;
}

static const char *signed_dur(char *buf, size_t len, int64_t ns)
{
	if (ns >= 0)
		return fmt_duration(buf, len, (uint64_t)ns);
	buf[0] = '-';
	fmt_duration(buf + 1, len - 1, (uint64_t)-ns);
	return buf;
}

/* "28.5us": a duration in its report cell, without the padding */
static const char *cell(char *buf, size_t len, uint64_t ns)
{
	char tmp[32];
	const char *c = sl_report_cell(tmp, sizeof(tmp), ns);

	while (*c == ' ')
		c++;
	snprintf(buf, len, "%s", c);
	return buf;
}

/* One kind's rule and what it was measured by, in one line */
static void basis_line(struct sl_report *r, const struct wi_priv *p, int k)
{
	const struct wi_kind_result *kr = &p->kind[k];
	char lo[32], est[32], hi[32];
	const char *weak = kr->basis < SL_WHATIF_WEAK_BELOW ? ", weak" : "";

	cell(lo, sizeof(lo), kr->lo);
	cell(est, sizeof(est), kr->est);
	cell(hi, sizeof(hi), kr->hi);
	switch (k) {
	case WI_STACK:
		if (!kr->basis)
			fprintf(r->out, "    stacking: no wakeup placed on an idle CPU to go by\n");
		else
			fprintf(r->out, "    stacking: latency of an idle placement %s (%s..%s),"
				" %" PRIu64 " of them%s\n", est, lo, hi, kr->basis, weak);
		break;
	case WI_SYNC:
		if (p->preempt_rule)
			fprintf(r->out, "    sync: preempts its waker after %s (%s..%s), %" PRIu64
				" local handoffs%s\n", est, lo, hi, kr->basis, weak);
		else if (kr->basis)
			fprintf(r->out, "    sync: at the waker's block + %s (%s..%s), %" PRIu64
				" local handoffs%s\n", est, lo, hi, kr->basis, weak);
		else
			fprintf(r->out, "    sync: at the waker's block (no local handoff to go by, weak)\n");
		break;
	case WI_LATE:	/* and WI_TICK's: the same rule, the same basis */
		if (kr->basis)
			fprintf(r->out, "    late: at the expected switch (up to +%s, as %" PRIu64
				" on-time switches%s)\n", hi, kr->basis, weak);
		else
			fprintf(r->out, "    late: at the expected switch (no on-time switch to go by, weak)\n");
		break;
	default:
		if (kr->basis)
			fprintf(r->out, "    idle: the overlap less a pull, %s (%s..%s), %" PRIu64
				" pulls%s\n", est, lo, hi, kr->basis, weak);
		else
			fprintf(r->out, "    idle: the overlap less a pull, %s (no pull to go by, weak)\n",
				est);
		break;
	}
}

static void wi_report_text(struct sl_analyzer *a, struct sl_model *m, struct sl_report *r)
{
	struct wi_priv *p = a->priv;
	struct wi_pair *pairs[WI_PAIRS];
	char b1[32], b2[32], b3[32], n1[64], n2[64];
	uint64_t findings = 0, lost = 0;
	int nr_pairs;

	if (!p->done)
		return;
	for (int k = 0; k < WI__NR; k++)
		findings += kind_count(m, k);
	if (!findings)
		return;
	sl_report_section(r, "What if (each kind decided the other way, from this trace's own measurements)");
	fprintf(r->out, "  %s%-20s %8s  %8s    %8s  %12s  %6s%s\n", sl_color(r, SL_C_DIM),
		"kind", "findings", "p99 now", "if fixed", "wait saved", "basis", sl_color(r, SL_C_RESET));
	for (int k = 0; k < WI__NR; k++) {
		const struct wi_kind_result *kr = &p->kind[k];
		uint64_t count = kind_count(m, k);

		if (!count && k == WI_TICK)
			continue;	/* a configuration: its row when HRTICK's runs were set apart */
		if (!count) {
			fprintf(r->out, "  %-20s %8d\n", sl_kinds[wi_sl_kind[k]].name, 0);
			continue;
		}
		/* late-preemption-at-tick is longer than the column: its count's cell gives way */
		int name_w = MAX(20, (int)strlen(sl_kinds[wi_sl_kind[k]].name));

		fprintf(r->out, "  %-*s %*" PRIu64 "  %8s -> %8s  %12s  %6" PRIu64 "%s\n",
			name_w, sl_kinds[wi_sl_kind[k]].name, MAX(1, 28 - name_w), count,
			sl_report_cell(b1, sizeof(b1), sl_hist_percentile(&m->latency, 99)),
			sl_report_cell(b2, sizeof(b2), sl_hist_percentile(after_of(kr, m), 99)),
			signed_dur(b3, sizeof(b3), kr->saved), kr->basis,
			kr->basis < SL_WHATIF_WEAK_BELOW ? " weak" : "");
		lost += kr->lost;
	}
	fprintf(r->out, "  %-20s %8" PRIu64 "  %8s -> %8s  %12s\n", "all kinds", findings,
		sl_report_cell(b1, sizeof(b1), sl_hist_percentile(&m->latency, 99)),
		sl_report_cell(b2, sizeof(b2), sl_hist_percentile(&p->all.after, 99)),
		signed_dur(b3, sizeof(b3), p->all.saved));
	fprintf(r->out, "  all kinds: p50 %s -> %s, p99.9 %s -> %s (%" PRIu64 " samples)\n",
		cell(b1, sizeof(b1), sl_hist_percentile(&m->latency, 50)),
		cell(b2, sizeof(b2), sl_hist_percentile(&p->all.after, 50)),
		cell(b3, sizeof(b3), sl_hist_percentile(&m->latency, 99.9)),
		cell(n1, sizeof(n1), sl_hist_percentile(&p->all.after, 99.9)),
		m->latency.count);
	fprintf(r->out, "  %sestimates (median, p25..p75 of the measurements they come from):%s\n",
		sl_color(r, SL_C_DIM), sl_color(r, SL_C_RESET));
	for (int k = 0; k < WI__NR; k++)
		if (k == WI_LATE ? kind_count(m, WI_LATE) + kind_count(m, WI_TICK) :
		    k != WI_TICK && kind_count(m, k))
			basis_line(r, p, k);
	if (p->all.inferred)
		fprintf(r->out, "  %" PRIu64 " of the samples replaced end at a switch the trace does"
			" not show:\n  their wait now, and what is saved, are lower bounds\n",
			p->all.inferred);
	if (lost)
		fprintf(r->out, "  %" PRIu64 " findings across lost events: counted apart, not estimated\n",
			lost);
	nr_pairs = sorted_pairs(p, pairs);
	for (int i = 0, shown = 0; i < nr_pairs && shown < 3; i++) {
		const struct wi_pair *e = pairs[i];
		bool swap = m->tasks[e->b]->pid < m->tasks[e->a]->pid;
		uint64_t now, after, ex;

		if (!e->saved)
			continue;	/* no finding between them */
		pair_round_trip(e, &now, &after, &ex);
		fprintf(r->out, "  round trip %s <-> %s: %s -> %s\n",
			task_name(n1, sizeof(n1), m, swap ? e->b : e->a),
			task_name(n2, sizeof(n2), m, swap ? e->a : e->b),
			fmt_duration(b1, sizeof(b1), now), fmt_duration(b2, sizeof(b2), after));
		shown++;
	}
}

static void result_json(cJSON *o, const struct wi_kind_result *kr, const struct sl_model *m)
{
	sl_json_add_u64(o, "victims", kr->victims);
	sl_json_add_u64(o, "samples", kr->samples);
	sl_json_add_u64(o, "inferred", kr->inferred);
	sl_json_add_u64(o, "lost", kr->lost);
	sl_json_add_i64(o, "wait_saved_ns", kr->saved);
	cJSON_AddItemToObject(o, "now", sl_hist_json(&m->latency));
	cJSON_AddItemToObject(o, "if_fixed", sl_hist_json(after_of(kr, m)));
}

static cJSON *q_json(const struct sl_hist *h, uint64_t dflt)
{
	cJSON *o = cJSON_CreateObject();

	sl_json_add_u64(o, "count", h->count);
	sl_json_add_u64(o, "p25_ns", q_of(h, 0, dflt));
	sl_json_add_u64(o, "p50_ns", q_of(h, 1, dflt));
	sl_json_add_u64(o, "p75_ns", q_of(h, 2, dflt));
	return o;
}

static cJSON *task_json(const struct sl_model *m, const struct wi_task_result *t, bool comm)
{
	cJSON *o = cJSON_CreateObject(), *x;

	if (!comm)
		sl_json_add_i64(o, "pid", m->tasks[t->task]->pid);
	cJSON_AddStringToObject(o, "comm", sl_task_comm(m, m->tasks[t->task]));
	sl_json_add_u64(o, "samples", t->count);
	sl_json_add_u64(o, "victims", t->victims);
	sl_json_add_i64(o, "wait_saved_ns", t->saved);
	x = cJSON_AddObjectToObject(o, "now");
	sl_json_add_u64(x, "p50_ns", t->now50);
	sl_json_add_u64(x, "p99_ns", t->now99);
	x = cJSON_AddObjectToObject(o, "if_fixed");
	sl_json_add_u64(x, "p50_ns", t->after50);
	sl_json_add_u64(x, "p99_ns", t->after99);
	return o;
}

static void wi_report_json(struct sl_analyzer *a, struct sl_model *m, cJSON *root)
{
	struct wi_priv *p = a->priv;
	cJSON *o, *basis, *kinds, *list, *x;
	struct wi_pair *pairs[WI_PAIRS];
	int nr_pairs;

	if (!p->done)
		return;
	o = cJSON_AddObjectToObject(root, "whatif");
	sl_json_add_u64(o, "weak_below", SL_WHATIF_WEAK_BELOW);

	basis = cJSON_AddObjectToObject(o, "basis");
	x = cJSON_AddObjectToObject(basis, "local_handoffs");
	sl_json_add_u64(x, "count", p->handoff.count + p->preempt.count);
	cJSON_AddStringToObject(x, "rule", p->preempt_rule ? "preempt" : "block");
	cJSON_AddItemToObject(x, "block_handoff", q_json(&p->handoff, 0));
	cJSON_AddItemToObject(x, "preempt_latency", q_json(&p->preempt, 0));
	x = cJSON_AddObjectToObject(basis, "idle_placements");
	for (int i = 0; i < PATH__NR; i++)
		cJSON_AddItemToObject(x, path_names[i], q_json(&p->idle_place[i], 0));
	cJSON_AddStringToObject(x, "remote_path", path_names[p->path_remote]);
	x = q_json(&p->pull, WI_DEFAULT_PULL_NS);
	cJSON_AddBoolToObject(x, "default", !p->pull.count);
	cJSON_AddItemToObject(basis, "pulls", x);
	x = q_json(&p->on_time, 0);
	cJSON_AddBoolToObject(x, "default", !p->on_time.count);
	cJSON_AddItemToObject(basis, "on_time_switches", x);

	kinds = cJSON_AddObjectToObject(o, "kinds");
	for (int k = 0; k < WI__NR; k++) {
		const struct wi_kind_result *kr = &p->kind[k];
		cJSON *ko = cJSON_AddObjectToObject(kinds, sl_kinds[wi_sl_kind[k]].name);

		sl_json_add_u64(ko, "findings", kind_count(m, k));
		result_json(ko, kr, m);
		sl_json_add_u64(ko, "no_basis", kr->no_basis);
		sl_json_add_u64(ko, "basis", kr->basis);
		cJSON_AddBoolToObject(ko, "weak", kr->basis < SL_WHATIF_WEAK_BELOW);
	}
	x = cJSON_AddObjectToObject(o, "all");
	{
		uint64_t findings = 0;

		for (int k = 0; k < WI__NR; k++)
			findings += kind_count(m, k);
		sl_json_add_u64(x, "findings", findings);
	}
	result_json(x, &p->all, m);

	list = cJSON_AddArrayToObject(o, "tasks");
	for (size_t i = 0; i < p->nr_tasks && i < WI_LISTED; i++)
		cJSON_AddItemToArray(list, task_json(m, &p->tasks[i], false));
	list = cJSON_AddArrayToObject(o, "comms");
	for (size_t i = 0; i < p->nr_comms && i < WI_LISTED; i++)
		cJSON_AddItemToArray(list, task_json(m, &p->comms[i], true));

	list = cJSON_AddArrayToObject(o, "pairs");
	nr_pairs = sorted_pairs(p, pairs);
	for (int i = 0; i < nr_pairs && i < WI_LISTED; i++) {
		const struct wi_pair *e = pairs[i];
		cJSON *po = cJSON_CreateObject(), *tasks = cJSON_AddArrayToObject(po, "tasks");
		uint64_t now, after, ex;
		uint32_t ids[2] = { e->a, e->b };

		pair_round_trip(e, &now, &after, &ex);
		for (int j = 0; j < 2; j++) {
			cJSON *t = cJSON_CreateObject();

			sl_json_add_i64(t, "pid", m->tasks[ids[j]]->pid);
			cJSON_AddStringToObject(t, "comm", sl_task_comm(m, m->tasks[ids[j]]));
			cJSON_AddItemToArray(tasks, t);
		}
		sl_json_add_u64(po, "wakeups", e->wakeups[0] + e->wakeups[1]);
		sl_json_add_u64(po, "exchanges", ex);
		sl_json_add_u64(po, "round_trip_ns", now);
		sl_json_add_u64(po, "round_trip_if_fixed_ns", after);
		sl_json_add_i64(po, "wait_saved_ns", e->saved);
		cJSON_AddItemToArray(list, po);
	}
}

static void wi_destroy(struct sl_analyzer *a, struct sl_model *m)
{
	struct wi_priv *p = a->priv;

	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		struct wi_task *wt = sl_task_priv(m, a, m->tasks[i]);

		free(wt->open);
		if (wt->agg) {
			sl_hist_free(&wt->agg->now);
			sl_hist_free(&wt->agg->sleep);
			free(wt->agg);
		}
		if (wt->late) {
			sl_hist_free(&wt->late->removed);
			sl_hist_free(&wt->late->added);
			free(wt->late);
		}
	}
	sl_hist_free(&p->handoff);
	sl_hist_free(&p->preempt);
	for (int i = 0; i < PATH__NR; i++)
		sl_hist_free(&p->idle_place[i]);
	sl_hist_free(&p->pull);
	sl_hist_free(&p->on_time);
	sl_hist_free(&p->all_idle);
	sl_hist_free(&p->sync_now);
	sl_hist_free(&p->sync_sleep);
	sl_hist_free(&p->sync_sleep_out);
	for (int i = 0; i < p->nr_pairs; i++) {
		sl_hist_free(&p->pairs[i].period);
		sl_hist_free(&p->pairs[i].sync_sleep);
	}
	for (int k = 0; k < WI__NR; k++) {
		sl_hist_free(&p->kind[k].removed);
		sl_hist_free(&p->kind[k].added);
		sl_hist_free(&p->kind[k].after);
	}
	sl_hist_free(&p->all.removed);
	sl_hist_free(&p->all.added);
	sl_hist_free(&p->all.after);
	for (int key = 0; key < WHATIF_TICK_KEYS; key++) {
		sl_hist_free(&p->late_part[key].removed);
		sl_hist_free(&p->late_part[key].added);
	}
	while (p->free_waits) {
		struct wi_wait *w = p->free_waits;

		p->free_waits = w->next_free;
		free(w);
	}
	free(p->recs);
	free(p->rec_claims);
	free(p->late_keys);
	free(p->pair_saved);
	free(p->verdicts);
	free(p->chains);
	free(p->tasks);
	free(p->comms);
	sl_gaps_free(&p->gaps);
}

/*
 * A wait open or recorded, sync victims summed, a pair (its nr_pairs:
 * pair_new() counts both ends of an entry, pair_named() uncounts an
 * evicted one's; a pair of a task with itself counts 2), or a shift
 * under way.
 */
static bool wi_task_in_use(struct sl_analyzer *a, struct sl_model *m, const struct sl_task *t)
{
	const struct wi_task *wt = sl_task_priv(m, a, t);

	if (wt->open || wt->agg || wt->late || wt->pinned || wt->nr_pairs)
		return true;
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct wi_cpu *c = sl_cpu_priv(m, a, cpu);

		if (c->pulled == t || c->late_task == t)
			return true;
	}
	return false;
}

const struct sl_analyzer_ops sl_whatif_analyzer = {
	.name = "whatif",
	.priv_size = sizeof(struct wi_priv),
	.task_priv_size = sizeof(struct wi_task),
	.cpu_priv_size = sizeof(struct wi_cpu),
	.init = wi_init,
	.on_placement = wi_on_placement,
	.on_latency = wi_on_latency,
	.on_runnable = wi_on_runnable,
	.runnable_calls = SL_RUNNABLE_ENTERS,	/* wi_on_runnable() returns at once for a dequeue */
	.on_switch = wi_on_switch,
	.on_cpu_unknown = wi_on_cpu_unknown,
	.task_in_use = wi_task_in_use,
	.finish = wi_finish,
	.report_text = wi_report_text,
	.report_json = wi_report_json,
	.destroy = wi_destroy,
};
