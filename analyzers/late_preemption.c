// SPDX-License-Identifier: GPL-2.0
/*
 * late_preemption.c - fair tasks that ran far past their slice while others waited
 *
 * What it flags: a run of a fair task R (prio >= 100; RT and DL runs are
 * never judged) on CPU c, from its switch-in t0 to its switch-out t1 (a
 * preemption, a block or an exit), that ended more than --tolerance after
 * the moment the scheduler should have switched to a waiter.  The kernel
 * mechanism: a fair task is preempted when its slice is used up, but only
 * when something looks: the tick, or the HRTICK hrtimer armed for the end
 * of the slice.  With HRTICK off (the default) or not armed (the bug of
 * "sched: Fix SCHED_HRTICK bug leading to late preemption of tasks":
 * tasks alone in their cgroup), slices end at the next tick, 4 ms at
 * HZ=250, 10 ms at HZ=100, however short the slice.
 *
 * The definition (SPEC "late-preemption"): tc = the first instant in
 * [t0, t1) at which another fair task was queued on c.  Queued, not
 * pending: a wakeup in its ttwu_pending window is not on the runqueue yet
 * (it is enqueued at sched_wakeup), so the scheduler can neither pick it
 * nor count it.  The waiters W of the run = every other fair task queued
 * on c at some instant of the run, from tc up to and including t1, each
 * counted once (a task that leaves and comes back is one waiter).
 * Expected switch time:
 *   EEVDF (default): max(t0, tc) + slice, slice = base slice x
 *     max(1, w(R) / max weight in W); base slice = 0.75 ms x
 *     (1 + ilog2(min(ncpus, 8))), or --base-slice;
 *   CFS (--slice-model cfs, or a kernel before 6.6): max(t0 + slice, tc),
 *     slice = max(min_gran, period x w(R) / (w(R) + sum of weights in W)),
 *     period = max(latency, n x min_gran), n = 1 + |W|, min_gran = 0.75 ms
 *     x factor (or --base-slice: the kernel renamed min_granularity to
 *     base_slice in 6.6), latency = 8 x min_gran (6 ms x factor).
 * Weights from the kernel's prio_to_weight (src/model/slice.c), the prio the
 * switch-out reports; divisions round down.
 *
 * With recorded groups (schedlint record's group markers) a run is judged
 * per group entity, as update_curr() and update_deadline() charge it to
 * every entity on R's path and reschedule when one of them has used its
 * slice with another entity in its runqueue: at each level of R's path
 * (R's group's runqueue up to the root) R's entity (R, then its groups'
 * entities, a group weighing its recorded weight) competes with the
 * entities there that hold a waiter (a waiter as the entity it has at
 * the lowest level its path shares with R's); each level gives an
 * expected switch by the formulas above with those weights, and the
 * earliest is the run's.  A waiter's wait counts from its own level's
 * expected switch, a competing group entity once (the longest wait
 * after it of its listed waiters, charged to that waiter).  Cost = t1 - expected,
 * reported when > --tolerance.  Fields: ran_ns (t1 - t0), expected_ns
 * (expected - t0, so cost = ran - expected), slice_ns, start_ns (t0),
 * contended_since_ns (tc), waiting (the first 16 pids of W, in arrival
 * order), nr_waiting (|W|), max_wait_ns (the longest any waiter had been
 * queued on c, up to t1 or until it left).  Waited behind it: each listed
 * waiter still queued on c after the expected switch, charged its time
 * queued there after it (every wait of one that left and came back).
 *
 * Tick: the HZ schedlint record recorded (its kernel marker, from the
 * kernel's config) is the one used, else HZ is inferred from the spacing
 * of irq_vectors:local_timer_entry on each CPU (the most common spacing:
 * idle NOHZ gaps are longer, other hrtimers rarer), else from the
 * quantization of preemption times (the switch-outs of runnable tasks
 * cluster at one phase of the tick period).  The inference runs with a
 * recorded HZ too, and a disagreement is said (hz_disagreement()).
 * finish() stores the inferred HZ in m->hz_inferred: the one thing an
 * analyzer may write into the model (sl_hz() reads it).  A late preemption is "at the
 * tick" when it follows a local_timer_entry on its CPU by at most 200 us
 * (or, without timer events, falls in the 200 us phase window of the tick
 * period where the CPU's late preemptions cluster); when 80% or more of
 * at least 3 late preemptions are, the summary names the cause.
 *
 * Blind spots: a recorded HZ that is none of the candidate rates (--hz,
 * 100, 250, 300, 1000: every x86 and arm64 choice) classifies no run of a
 * CPU without timer events; runs whose start or end the trace does not show (the
 * task's first event is its switch-out, an implied switch, lost events)
 * are counted but not judged; a run still going at the end of the trace
 * has no t1 and is not judged; without recorded groups every task
 * competes with every other (the trace does not show groups), and with
 * them a group entity weighs its group's whole weight on each CPU (the
 * kernel splits it by load, as shares.c does), its slice is the base
 * slice, a waiter weighs what it weighed at its enqueue, R's path is
 * the one at the run's start (a move during the run is not followed), it is
 * cut to 8 levels (a waiter meeting it lower competes at none; with no
 * competitor at any kept level the run is judged flat); the
 * EEVDF formula is the SPEC's bound, not the kernel's lag and deadline
 * bookkeeping; a local_timer_entry is any hrtimer interrupt, so a late
 * preemption after a non-tick timer counts as at the tick; when a run has
 * more than 16 waiters, only the first 16 are charged as "waited behind".
 */
#define _GNU_SOURCE	/* qsort_r */
#include <cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/slice.h"
#include "schedlint/analyzer.h"
#include "schedlint/context.h"
#include "schedlint/findings.h"
#include "schedlint/report.h"
#include "util/top.h"
#include "util/util.h"
#include "whatif.h"

#define LP_LISTED		16		/* waiters named per run (all are counted) */
_Static_assert(LP_LISTED <= 32, "since_set and until_set have a bit per listed waiter");
#define LP_TICK_WINDOW_NS	200000ULL	/* a tick-driven switch follows its tick by less */
#define LP_MIN_LATE		3		/* late preemptions needed to name the tick as cause */
#define LP_TICKS		64		/* ticks kept per CPU: a late run counts up to them */
#define LP_LATE_TICKS		8		/* of them, kept with a late run (its times) */
#define LP_LEVELS		8		/* group levels of a run judged (the top ones) */
#define LP_NO_GROUP		UINT32_MAX	/* no group (lp_cpu.below0) */
#define LP_IDLE_IDX		40		/* struct lp_gq's weight index of SCHED_IDLE */
#define LP_NOT_LISTED		0xff		/* struct lp_task.list_idx: not in listed[] */
#define LP_NOT_OLD		UINT32_MAX	/* old_index(): not in struct lp_cpu.old[] */
#define LP_RUN_CPU_BITS		13		/* a watched run's id: a count, then its CPU */
_Static_assert(SL_MODEL_MAX_CPUS <= 1 << LP_RUN_CPU_BITS, "a run id names its CPU");

/*
 * One level of the group hierarchy a watched run's task R is in, when the
 * trace recorded groups (judged per group entity): the runqueue of a
 * group on R's path, R's entity there (R, or the entity of R's group or
 * of an ancestor's), and the other entities there that held a waiter.
 */
struct lp_level {
	uint32_t group;			/* whose runqueue: a group id, 0 the root */
	uint32_t w_r;			/* the weight of R's entity here */
	uint32_t max_w;			/* the heaviest competing entity */
	uint32_t nr;			/* competing entities */
	uint64_t sum_w;			/* their weights */
	uint64_t tc;			/* the first instant one of them waited (valid: nr) */
};

/*
 * The fair tasks queued on one CPU below one group, when the trace
 * recorded groups: kept as they come and go (gq_add(), gq_del()), so
 * that a run's start reads each level's competitors from its group's
 * totals instead of placing every queued task in the hierarchy (a
 * recorded hackbench, hundreds queued in one autogroup, took half again
 * as long to analyze that way).  A group's entity is queued in its
 * parent's runqueue while h_nr > 0 (act_*: the parent's list of them).
 */
struct lp_gq {
	uint32_t h_nr;			/* fair tasks queued in its subtree */
	uint32_t t_nr;			/* ... directly in it (task entities) */
	uint64_t t_sum;			/* their weights */
	uint64_t t_idx;			/* bit i: at[i] != 0 */
	uint32_t at[LP_IDLE_IDX + 1];	/* of them at each weight (gq_idx()) */
	uint32_t link_parent;		/* whose act list it is in (valid: h_nr) */
	uint32_t act_first;		/* its queued child groups (LP_NO_GROUP: none) */
	uint32_t act_next, act_prev;	/* in link_parent's list */
	uint64_t act_seq;		/* next_enq when h_nr became > 0 (0: before a rebuild) */
	uint64_t stamp;			/* the watched run that counted its entity (after act_seq) */
	/* at the start of the watched run not placed yet (c->lazy), when changed since */
	uint64_t saved_run;		/* that run's run_id: s_* are valid */
	uint32_t s_t_nr, s_h_nr;
	uint64_t s_t_sum, s_t_idx;
};

/* A group as this analyzer copied it at the last marker (groups_copy()). */
struct lp_group {
	uint32_t parent;		/* 0 for the root, an undefined group or a bad parent */
	uint32_t weight;		/* its entity's, 2 (MIN_SHARES) to 2^18 (MAX_SHARES) */
	bool defined;
};

/*
 * A waiter of a watched run that joined another CPU's since (its run_id
 * is that run's now): its index in listed[], kept for its return
 */
struct lp_displaced {
	struct sl_task *task;
	uint8_t list_idx;
};

/* An earlier wait of a listed waiter that left a watched run's CPU and came back */
struct lp_stint {
	uint64_t since, until;
	uint8_t list_idx;
};

/* A waiter that joined a watched run not placed in its levels yet (place_run()) */
struct lp_join {
	uint64_t ts;
	uint32_t group;			/* its group and weight index at its enqueue */
	uint8_t idx;
	int8_t listed;			/* its index in listed[], -1 none */
};

/*
 * A late run by the ticks between its expected switch and its end (issue
 * 20 part 6): at the first tick after the expected switch (HRTICK would
 * have switched on time), later (ticks passed without a switch: a
 * non-preemptible section, lag, or a model the kernel did not follow),
 * before any tick, or unknown (no tick seen and HZ unknown).
 */
enum lp_tick_class { LP_TICK = 0, LP_LATE_TICK, LP_NO_TICK, LP_TICK_UNKNOWN, LP__NR_CLASSES };
static const char *const tick_class_names[LP__NR_CLASSES] = {
	[LP_TICK] = "tick", [LP_LATE_TICK] = "late-tick", [LP_NO_TICK] = "no-tick",
	[LP_TICK_UNKNOWN] = "unknown",
};

/*
 * A late run's tick key for the what-if (whatif_late): which kind it
 * ends in is known only at the end (HRTICK's state, and for a CPU
 * without ticks the HZ), so the what-if sums its waiters by this key and
 * lp_finish names the keys set apart.  LP_KEY_EST + mask: its CPU showed
 * no tick, and it ended by the first tick at the HZ of candidate slot k
 * for each bit k of mask (estimate_ticks()).
 */
enum { LP_KEY_STAYS = 0, LP_KEY_TICK = 1, LP_KEY_EST = 2 };

/* HZ from the timer spacing: 1%-wide log buckets from 200 us to 50 ms */
#define LP_SPACING_MIN_NS	200000.0
#define LP_SPACING_BUCKETS	555
#define LP_SPACING_STEP		1.01
#define LP_MIN_SPACINGS		5

/* HZ from preemption phases: candidate tick rates, phase bins per period */
#define LP_NR_CAND		5		/* slot 0: --hz, then the x86 Kconfig choices */
_Static_assert(2 + (1 << LP_NR_CAND) <= WHATIF_TICK_KEYS, "a tick key per candidate set");
#define LP_PHASE_BINS		100
#define LP_MIN_PREEMPTIONS	8
#define LP_MIN_RATIO		1.25		/* the tick windows hold a quarter more than their uniform share */
#define LP_MAX_CHANCE		1e-5		/* ... which uniform phases would do less often */

static const int known_hz[] = { 24, 32, 48, 64, 100, 128, 200, 250, 256, 300, 500, 1000, 1024, 1200 };
/* slots 1 to 4, always set (fixed_phase_bins() knows them) */
static const int cand_hz_fixed[LP_NR_CAND - 1] = { 100, 250, 300, 1000 };

/* Phase histograms of one CPU (allocated at its first preemption). */
struct lp_phases {
	/* every switch-out of a runnable task, into [0] or [1] by its time (split_half()) */
	uint32_t preempt[2][LP_NR_CAND][LP_PHASE_BINS];
	uint32_t late[LP_NR_CAND][LP_PHASE_BINS];	/* late preemptions in the filters */
};

struct lp_cpu {
	/* the run being watched: a fair task switched in at a traced switch */
	struct sl_task *run_task;	/* R, NULL = none */
	uint64_t run_id;		/* unique per watched run */
	uint64_t t0;			/* its switch-in */
	uint64_t tc;			/* first instant a fair waiter was queued (valid: contended) */
	bool contended;
	uint32_t nr_waiters;		/* |W| */
	uint32_t max_weight;		/* of W */
	uint64_t sum_weight;		/* of W */
	uint64_t max_wait;		/* longest wait of a waiter that already left */
	struct sl_task *max_wait_task;
	uint64_t max_wl_wait;		/* the same among the workload's waiters */
	struct sl_task *max_wl_wait_task;
	bool workload_waiter;		/* one of W is the workload's (its victims count) */
	/*
	 * The first waiters of W, and since when and until when they waited
	 * (0: still there).  Most are the queue's oldest at t0, copied from
	 * old[] and waiting since t0: their since and until are not written
	 * but for the bits of since_set and until_set (listed_since() and
	 * listed_until()), and they are not even copied while old[] keeps
	 * them: the first listed_in_old of listed[] are old[]'s (listed_get()),
	 * copied before old[] changes (listed_own()), most runs ending first.
	 */
	struct sl_task *listed[LP_LISTED];
	uint64_t since[LP_LISTED], until[LP_LISTED];
	uint32_t since_set, until_set;
	uint32_t nr_listed;
	uint32_t listed_in_old;
	/*
	 * Its waiters now waiting in another CPU's watched run (a task has
	 * one run_id): one that comes back is still the one waiter it was
	 */
	struct lp_displaced *displaced;
	uint32_t nr_displaced;
	size_t displaced_alloc;
	/*
	 * The earlier waits of its listed waiters that came back (since[]
	 * and until[] hold their last), valid while stints_run is run_id:
	 * "waited behind" sums them all
	 */
	struct lp_stint *stints;
	uint32_t nr_stints;
	size_t stints_alloc;
	uint64_t stints_run;
	uint64_t start_enq;		/* next_enq at t0: tasks enqueued up to it waited from t0 */
	/*
	 * Judged per group entity (the trace recorded groups, grouped()):
	 * the levels of R's path, bottom up, and for each listed waiter its
	 * level, whether it competes at one (comp_set: its path meets R's
	 * kept levels) and its entity there (listed_ent: the group whose
	 * entity it is, 0 itself: the root is no entity)
	 */
	bool grouped;
	uint8_t nr_levels;
	struct lp_level *levels;	/* LP_LEVELS, allocated at the first such run */
	uint32_t below0;		/* R's path cut: the group of R's entity at levels[0] */
	struct lp_gq *gq;		/* by group id (nr_gq), kept while the trace has groups */
	uint32_t nr_gq;
	uint8_t listed_level[LP_LISTED];
	uint16_t listed_ent[LP_LISTED];
	uint32_t comp_set;
	uint8_t nr_start_listed;	/* listed at t0: placed by place_start_listed() */
	/*
	 * Not placed in its levels yet (most runs end before any slice):
	 * R's kind and prio at t0, the gq[] entries saved as they were at
	 * t0 (gq_save()), the waiters that joined since; place_run().
	 */
	bool lazy;
	uint32_t r_kind;
	int r_prio;
	struct lp_join *joins;
	uint32_t nr_joins;
	size_t joins_alloc;
	uint32_t *saved;		/* group ids, room for nr_gq */
	uint32_t nr_saved;

	/*
	 * The fair tasks queued here (in_fq), counted as they come and go
	 * (on_runnable), so that a run's start costs O(1) and not a walk of
	 * the runqueue: hackbench queues hundreds of tasks, and the walk at
	 * every switch was most of analyze's time.  A task's fairness and
	 * weight are taken at its enqueue (its prio does not change while it
	 * waits but by a renice or priority inheritance the trace shows only
	 * later).  Their order is the model's runqueue list's (struct
	 * sl_cpu.queued, newest first, q_prev the newer): a list of our own
	 * wrote to both neighbours' slots at every dequeue, two more cache
	 * lines than the model's own list touches.
	 */
	uint32_t fq_nr;
	/*
	 * The oldest of them (oldest first), one more than a run lists so
	 * that the running task can be left out: start_run() copies them
	 * instead of walking the list, a cache miss per task it visits.
	 */
	struct sl_task *old[LP_LISTED + 1];
	uint32_t nr_old;
	uint64_t fq_sum;			/* of their weights */
	uint32_t fq_workload;			/* how many are the workload's */
	uint32_t fq_at_prio[40];		/* how many at each fair prio (100..139) */
	uint64_t fq_prios;			/* bit i: fq_at_prio[i] != 0 */

	/* a fair task running here whose run cannot be judged, and why */
	struct sl_task *unjudged_task;
	uint8_t unjudged_why;		/* enum lp_unjudged */

	uint64_t last_tick;		/* last local_timer_entry (valid: have_tick) */
	bool have_tick;			/* one seen since the start or the last gap */
	uint64_t ticks[LP_TICKS];	/* the last local_timer_entry times, a ring */
	uint32_t nr_ticks;		/* entered since the start or the last gap */
	struct lp_phases *phases;

	/* summary, in the filters */
	uint64_t runs;			/* contended runs judged */
	uint64_t late, cost, max_cost;	/* findings counted */
	uint64_t late_preempt;		/* of which ended by preemption */
	uint64_t at_timer;		/* of those, within the window after a local_timer_entry */
	uint64_t at_tick;		/* set by finish: late preemptions at the tick */
	uint64_t tick_class[LP__NR_CLASSES];	/* late runs (findings) by ticks passed */
};

struct lp_task {
	/*
	 * First what every enqueue, dequeue and switch of the task touches
	 * (next to the slot before's), then what only late runs write
	 */
	uint64_t run_id;		/* the watched run whose W it joined last */
	uint64_t enq_seq;		/* next_enq at its last enqueue */
	uint8_t fq_prio;		/* its prio when it entered the fq list (fair: 100..139) */
	bool in_fq;
	bool fq_workload;		/* the workload's, counted in fq_workload */
	bool in_old;			/* in its CPU's old[] */
	uint8_t list_idx;		/* its index in listed[] (valid: run_id), LP_NOT_LISTED */
	bool in_gq;			/* counted in its CPU's gq[] (gq_group, gq_idx) */
	uint8_t gq_idx;
	uint8_t gq_prio;		/* gq_group and gq_idx are of this prio and kind, */
	uint32_t gq_kind;		/* ... which give them alone (gq_add()) */
	uint32_t gq_weight;		/* idx_weight(gq_idx) */
	uint32_t gq_group;
	uint32_t held_refs;		/* late runs held (judge_slice) that name it */
	uint64_t preempted_at;		/* switched out runnable then, 0 not since it ran */

	/* as the late runner */
	uint64_t late, cost, max_cost;
	/* as a waiter behind late runs: how often, and its wait after the expected switch */
	uint64_t delayed, delayed_ns;
};

enum lp_unjudged { LP_UNKNOWN_START, LP_IMPLIED, LP_LOST, LP__NR_UNJUDGED };

/* The late runs (findings) of one tick class: the kind's summary, and their waiters' delay. */
struct lp_class_sum {
	uint64_t count, cost, max_cost;	/* as struct sl_kind_summary counts them */
	uint64_t delayed_ns;		/* their listed waiters' waits after the expected switch */
};

/*
 * HRTICK on the traced machine: what decides whether a run at the first
 * tick after its slice is the kernel's design (late-preemption-at-tick)
 * or a finding.  hrtick_state() is the one place that decides it.
 */
enum lp_hrtick { LP_HRTICK_UNKNOWN = 0, LP_HRTICK_OFF, LP_HRTICK_ON };

struct lp_priv {
	enum sl_slice_model model;
	uint64_t next_run_id;
	uint64_t next_enq;			/* enqueues seen: orders them */
	uint64_t unjudged[LP__NR_UNJUDGED];	/* fair runs not judged, by reason */
	uint64_t runs, late;			/* contended runs judged, findings counted */
	uint64_t late_preempt, at_tick;

	/* tick inference */
	int cand_hz[LP_NR_CAND];		/* 0 = unused slot */
	uint64_t timer_events;
	uint32_t spacing_count[LP_SPACING_BUCKETS];
	uint64_t spacing_sum[LP_SPACING_BUCKETS];
	/*
	 * hz_from_timers() will find HZ (a window of spacings holds
	 * LP_MIN_SPACINGS; counts only grow): the preemption phases, read
	 * only when it does not, are no longer counted
	 */
	bool hz_by_timers;
	uint64_t preempt_samples;

	/* set by finish */
	int hz;					/* what the trace shows, 0 unknown */
	const char *hz_source;			/* "local_timer_entry", "preemption times", NULL */
	uint64_t hz_spacing_ns;			/* the most common timer spacing */
	uint64_t hz_support, hz_total;		/* spacings (or preemptions) behind it, of all */
	double hz_ratio;			/* preemptions: hz_support over its uniform share */
	char cause[96];				/* "" = none named */

	/* late runs waiting for the final CPU count (judge_slice) */
	struct lp_late *held;
	size_t nr_held, held_alloc;

	/* late runs of CPUs with a tick seen, by class, as they come */
	struct lp_class_sum class_sum[LP__NR_CLASSES];
	/* late runs with no tick seen on their CPU: classified at the end, by HZ */
	struct lp_class_sum class_est[LP_NR_CAND][LP__NR_CLASSES];
	/* set by finish: every late run by class (the estimated ones by the HZ used) */
	struct lp_class_sum class_total[LP__NR_CLASSES];
	bool grouped;				/* the trace recorded groups so far (grouped()) */
	struct lp_group *groups;		/* by id: the groups at the last marker */
	uint64_t min_slice;			/* run_min_slice(): min_slice() with ... */
	int min_slice_cpus;			/* ... this m->nr_cpus (-1: ask again) */
	int min_slice_ncpus;			/* ... and m->info->ncpus */
	uint64_t min_custom;			/* the shortest custom slice recorded, 0 none */
	bool waiter_slices;			/* a waiter's shorter slice ends R's run sooner
						 * (EEVDF, not 6.12 to 6.16: short_waiters()) */
	uint32_t kinds_scanned;			/* ... among the first this many kinds */
	uint32_t nr_groups;
	size_t nr_groups_alloc;
	enum lp_hrtick hrtick;
	char hrtick_source[160];		/* where hrtick came from, for people */
	const char *hrtick_source_key;		/* ... and for the JSON */
	char hrtick_short[48];			/* ... and for the first screen */
	/* distributions: contended runs judged, and the wait of preempted tasks */
	struct sl_hist contended_run;		/* t1 - max(t0, tc) */
	struct sl_hist preempted_wait;		/* switched out runnable -> switched in */
	uint64_t tick_class[LP__NR_CLASSES];	/* set by finish: every CPU's, and the estimated */
};

/* The finding's own fields. */
struct lp_detail {
	uint64_t start, tc, ran, expected_len, slice;
	uint64_t max_wait;
	int32_t max_wait_pid;
	uint32_t max_wait_comm;
	uint64_t max_wl_wait;		/* the workload's longest waiter (pid -1: none) */
	int32_t max_wl_wait_pid;
	uint32_t max_wl_wait_comm;
	uint32_t nr_waiting, nr_listed;
	int32_t waiting[LP_LISTED];
	uint8_t model;
	int32_t ticks;			/* ticks in (expected, t1], -1 until the end knows HZ */
	uint8_t tick_class;		/* enum lp_tick_class */
	bool culprit_outside;		/* R is not the workload's (the trace names one) */
	int32_t slice_group;		/* judged per group entity: the runqueue whose slice
					 * decided (a group id, 0 the root); -1 not */
};

static bool is_fair(const struct sl_task *t)
{
	return t && t->prio >= 100 && t->prio <= 139;
}

static bool in_filter(const struct sl_model *m, int cpu, uint64_t ts, const struct sl_task *t)
{
	return sl_filter_cpu(m->cfg, cpu) && sl_filter_time(m->cfg, ts) &&
	       sl_filter_task(m->cfg, m->strtab, t);
}

/*
 * A run is R's for --pid/--comm, and the workload's when one of its
 * waiters is (they are its victims), as its finding would be.
 */
static __attribute__((noinline)) bool run_task_in_filter(const struct sl_model *m,
							 const struct lp_cpu *c,
							 const struct sl_task *r)
{
	struct sl_task as = { .pid = r->pid, .comm = r->comm, .in_workload = c->workload_waiter };

	return sl_filter_task(m->cfg, m->strtab, &as);
}

static bool run_in_filter(const struct sl_model *m, const struct lp_cpu *c, int cpu, uint64_t ts,
			  const struct sl_task *r)
{
	if (!sl_filter_cpu(m->cfg, cpu) || !sl_filter_time(m->cfg, ts))
		return false;
	if (!m->cfg->nr_pids && !m->cfg->nr_comms)	/* sl_filter_task()'s, without a task */
		return !m->cfg->workload_active || c->workload_waiter;
	return run_task_in_filter(m, c, r);	/* out of line: its task is large */
}

/* --- the slice models --- */

/* CFS's sysctl_sched_min_granularity and sysctl_sched_latency for this trace. */
static uint64_t cfs_min_gran(const struct sl_model *m)
{
	return m->cfg->base_slice_ns ? m->cfg->base_slice_ns : 750000ULL * sl_slice_factor(m);
}

static uint64_t cfs_latency(const struct sl_model *m)
{
	return 8 * cfs_min_gran(m);	/* sched_nr_latency = 8: 6 ms x factor */
}

/* EEVDF's: the base slice, longer by R's weight over the heaviest waiter's */
static inline uint64_t eevdf_slice(uint64_t base, uint32_t w_r, uint32_t max_weight)
{
	return w_r > max_weight ? base * w_r / max_weight : base;
}

/*
 * R's own slice under EEVDF when it is a custom one shorter than the base
 * slice: what schedlint record read of its sched_attr.sched_runtime (a
 * fair task's slice on 6.12 and later, which sched_setattr() sets and
 * update_deadline() keeps).  The kernel reschedules R when it has run its
 * slice; from 6.17 ("sched/fair: Limit run to parity to the min slice of
 * enqueued entities") RUN_TO_PARITY protects it only up to the shortest
 * slice queued in its runqueue, so one longer than the waiters' (taken as
 * the base slice) changes nothing, and is not followed.  A group entity's
 * slice is the shortest below it (cfs_rq_min_slice()), R's at every level
 * of its path.  0: the base slice is R's.
 */
/*
 * Is k's recorded slice a custom one?  A fair policy's, other than the
 * recorded base slice, and other than the base slice unscaled (the base
 * slice / the CPU factor): sched_getattr() gives se->slice, which a task
 * that has not woken since boot (the workqueues' rescuers, on the 6.18
 * VM 700 us of 1.4 ms) still has from before the kernel scaled it by the
 * CPU count; place_entity() gives it the base slice at its next wakeup.
 */
static bool slice_custom(const struct sl_model *m, const struct sl_sched_ctx *k)
{
	uint64_t base = m->ctx->base_slice_ns;

	return k->slice_ns && base && k->slice_ns != base &&
	       k->slice_ns * sl_slice_factor(m) != base &&
	       (k->policy == SL_POLICY_OTHER || k->policy == SL_POLICY_BATCH ||
		k->policy == SL_POLICY_IDLE);
}

static uint64_t custom_slice(const struct sl_model *m, const struct sl_task *r)
{
	const struct sl_sched_ctx *k = sl_task_sched(m, r);

	if (!k || !slice_custom(m, k) || k->slice_ns >= sl_base_slice(m))
		return 0;
	return k->slice_ns;
}

/* The slice of R with the waiters W (SPEC "late-preemption"); own: R's custom slice, 0 none. */
static uint64_t run_slice(const struct sl_model *m, enum sl_slice_model model, uint32_t w_r,
			  uint32_t nr_waiters, uint32_t max_weight, uint64_t sum_weight, uint64_t own)
{
	if (model == SL_SLICE_CFS) {
		uint64_t min_gran = cfs_min_gran(m);
		uint64_t period = MAX(cfs_latency(m), (uint64_t)(nr_waiters + 1) * min_gran);
		uint64_t slice = period * w_r / (w_r + sum_weight);

		return MAX(min_gran, slice);
	}
	return eevdf_slice(own ? own : sl_base_slice(m), w_r, max_weight);
}

/*
 * The shortest slice run_slice() and levels_expected() can give: CFS's
 * min_granularity, EEVDF's base slice (a weight only lengthens them).  A
 * run's expected switch is never before t0 plus this.
 */
static uint64_t min_slice(struct lp_priv *p, const struct sl_model *m, enum sl_slice_model model)
{
	if (model == SL_SLICE_CFS)
		return cfs_min_gran(m);
	/* and the shortest custom slice recorded so far (kinds are only added, at markers) */
	for (; m->ctx && p->kinds_scanned < m->ctx->nr_kinds; p->kinds_scanned++) {
		const struct sl_sched_ctx *k = &m->ctx->kinds[p->kinds_scanned];

		if (slice_custom(m, k) && (!p->min_custom || k->slice_ns < p->min_custom))
			p->min_custom = k->slice_ns;
	}
	return p->min_custom ? MIN(p->min_custom, sl_base_slice(m)) : sl_base_slice(m);
}

/*
 * min_slice() of this analyzer's model, asked at every contended run:
 * again only when what it depends on may have changed (the CPU counts
 * sl_ncpus() takes, a marker: the recorded base slice)
 */
static inline uint64_t run_min_slice(struct lp_priv *p, const struct sl_model *m)
{
	if (__builtin_expect(p->min_slice_cpus != m->nr_cpus ||
			     p->min_slice_ncpus != m->info->ncpus, 0)) {
		p->min_slice = min_slice(p, m, p->model);
		p->min_slice_cpus = m->nr_cpus;
		p->min_slice_ncpus = m->info->ncpus;
	}
	return p->min_slice;
}

/* --- group entities (the trace recorded groups) --- */

/* Are runs judged per group entity?  When schedlint record wrote groups into the trace. */
static inline bool grouped(const struct sl_model *m)
{
	return m->ctx && m->ctx->nr_groups > 1;
}

/*
 * The groups as this analyzer saw them at the last marker (its own copy,
 * groups_copy()): a run placed late in its levels (place_run()) is
 * placed by the groups it started with, and a lookup per enqueue reads
 * 12 bytes, not a struct sl_group.
 */
static void groups_copy(struct lp_priv *p, const struct sl_model *m)
{
	uint32_t n = sl_model_nr_groups(m);

	if (n > p->nr_groups_alloc) {
		p->groups = xrealloc(p->groups, n * sizeof(*p->groups));
		p->nr_groups_alloc = n;
	}
	for (uint32_t g = 0; g < n; g++) {
		const struct sl_group *gr = sl_model_group(m, g);

		p->groups[g] = (struct lp_group){
			.parent = gr && gr->parent < g ? gr->parent : 0,
			.weight = gr ? sl_group_shares(gr) : SL_MIN_SHARES,
			.defined = gr != NULL,
		};
	}
	p->nr_groups = n;
}

/* A recorded kind's (struct sl_sched_ctx) settings, NULL for kind 0 (none recorded) */
static inline const struct sl_sched_ctx *kind_sched(const struct sl_model *m, uint32_t kind)
{
	return kind && m->ctx ? &m->ctx->kinds[kind - 1] : NULL;
}

/* The group of a task of that kind, the root when it names none the trace defined */
static inline uint32_t kind_group(const struct lp_priv *p, const struct sl_model *m, uint32_t kind)
{
	const struct sl_sched_ctx *k = kind_sched(m, kind);
	uint32_t g = k ? k->group : 0;

	return g && g < p->nr_groups && p->groups[g].defined ? g : 0;
}

/* t's group, the root when it names none the trace defined */
static inline uint32_t task_group_of(const struct lp_priv *p, const struct sl_model *m,
				     const struct sl_task *t)
{
	return kind_group(p, m, t->sched_kind);
}

static inline uint32_t group_parent(const struct lp_priv *p, uint32_t g)
{
	return g < p->nr_groups ? p->groups[g].parent : 0;
}

/* A group's entity: the group's weight (cpu.shares, cpu.weight, the autogroup's nice) */
static inline uint32_t group_weight(const struct lp_priv *p, uint32_t g)
{
	return g < p->nr_groups ? p->groups[g].weight : 2;
}

/*
 * The load weight (sl_task_load_weight()) of a task of that kind and
 * prio as an index: prio - 100, or LP_IDLE_IDX
 */
static inline uint8_t kind_idx(const struct sl_model *m, uint32_t kind, int prio)
{
	const struct sl_sched_ctx *k = kind_sched(m, kind);

	if (k && k->policy == SL_POLICY_IDLE)
		return LP_IDLE_IDX;
	if (k && k->policy != SL_POLICY_FIFO && k->policy != SL_POLICY_RR &&
	    k->policy != SL_POLICY_DEADLINE)
		prio = 120 + k->prio;
	return (uint8_t)(prio < 100 || prio > 139 ? 20 : prio - 100);	/* sl_prio_weight()'s 1024 */
}

/* t's load weight as an index (kind_idx()) */
static inline uint8_t gq_idx(const struct sl_model *m, const struct sl_task *t)
{
	return kind_idx(m, t->sched_kind, t->prio);
}

static inline uint32_t idx_weight(unsigned idx)
{
	return idx == LP_IDLE_IDX ? 3 : sl_prio_weight(100 + (int)idx);
}

/*
 * R's path, bottom up: its group's runqueue (R's entity: R, of weight
 * w_r), its parent's (R's group's entity), ... the root's.  Deeper than
 * LP_LEVELS: the top ones, the lowest kept level's entity being the
 * group below it.
 */
static void start_levels(const struct lp_priv *p, struct lp_cpu *c, uint32_t r_group, uint32_t w_r)
{
	uint32_t path[64], n = 0;
	uint32_t g = r_group;

	for (;;) {
		path[n++] = g;
		if (!g || n == ARRAY_SIZE(path))
			break;
		g = group_parent(p, g);
	}
	if (!c->levels)
		c->levels = xcalloc(LP_LEVELS, sizeof(*c->levels));
	c->nr_levels = (uint8_t)MIN(n, LP_LEVELS);
	c->below0 = n > c->nr_levels ? path[n - c->nr_levels - 1] : LP_NO_GROUP;
	for (uint32_t i = 0; i < c->nr_levels; i++) {
		uint32_t k = n - c->nr_levels + i;	/* its index in path */

		c->levels[i] = (struct lp_level){
			.group = path[k],
			.w_r = k ? group_weight(p, path[k - 1]) : w_r,
		};
	}
}

/*
 * A task of group g waits: the level where it meets R (the lowest group
 * of R's path its own path reaches), its entity there (*group: the group
 * below that level whose entity it is, LP_NO_GROUP: the task itself) and
 * that entity's weight (*weight: the task's on the way in; NULL: not
 * asked).  -1: none (R's path was cut at LP_LEVELS and w meets it lower).
 */
static int find_level(const struct lp_priv *p, const struct lp_cpu *c, uint32_t g,
		      uint32_t *group, uint32_t *weight)
{
	*group = LP_NO_GROUP;
	for (int depth = 0; depth < 64; depth++) {
		for (int i = 0; i < c->nr_levels; i++)
			if (c->levels[i].group == g)
				return i;
		if (!g || g == c->below0)
			return -1;
		*group = g;
		if (weight)
			*weight = group_weight(p, g);
		g = group_parent(p, g);
	}
	return -1;
}

/* The totals of group g on c, NULL when c keeps none for it. */
static struct lp_gq *cpu_gq(const struct lp_cpu *c, uint32_t g)
{
	return g < c->nr_gq ? &c->gq[g] : NULL;
}

/*
 * How many fair tasks group g's subtree held queued at the watched run's
 * start (its entity was queued in its parent's runqueue when > 0): the
 * count saved when it first changed during the run (gq_save()), else
 * the count now
 */
static inline uint32_t gq_start_nr(const struct lp_cpu *c, const struct lp_gq *e)
{
	return e->saved_run == c->run_id ? e->s_h_nr : e->h_nr;
}

/*
 * Group entity e competes with the watched run already: one of its tasks
 * joined it (stamp), or it was queued at its start: since then (act_seq),
 * or as saved when it changed during a run not placed yet (place_run()
 * placing its joins: the entities queued at the start are counted)
 */
static bool gq_counted(const struct lp_cpu *c, const struct lp_gq *e)
{
	if (e->stamp == c->run_id)
		return true;
	return c->lazy ? gq_start_nr(c, e) != 0 : e->h_nr && e->act_seq <= c->start_enq;
}

/*
 * A waiter of group `group` (a task of weight index idx) joins the
 * watched run at ts: its level's competitors gain its entity, unless
 * that is a group's entity counted already (queued at the run's start,
 * or one of its tasks joined before).  Returns the level (-1 none), and
 * in *entity the waiter's entity there (find_level()).
 */
static int join_level(const struct lp_priv *p, struct lp_cpu *c, uint32_t group, uint8_t idx,
		      uint64_t ts, uint32_t *entity)
{
	uint32_t weight = idx_weight(idx);
	int i = find_level(p, c, group, entity, &weight);
	struct lp_level *lv;

	if (i < 0)
		return -1;
	if (*entity != LP_NO_GROUP) {
		struct lp_gq *e = cpu_gq(c, *entity);

		if (e && gq_counted(c, e))
			return i;
		if (e)
			e->stamp = c->run_id;
	}
	lv = &c->levels[i];
	if (!lv->nr++)
		lv->tc = ts;
	lv->sum_w += weight;
	lv->max_w = MAX(lv->max_w, weight);
	return i;
}

/* A listed waiter's entity (find_level()) as listed_ent keeps it: 0 itself */
static inline uint16_t ent_key(uint32_t entity)
{
	_Static_assert(SL_CTX_MAX_GROUPS <= UINT16_MAX, "a group id fits listed_ent");
	return entity == LP_NO_GROUP ? 0 : (uint16_t)entity;
}

/* A waiter of the watched run joins: its level, whether it competes there, and as which entity. */
static __attribute__((noinline)) void join_listed(const struct lp_priv *p, struct lp_cpu *c,
						   uint32_t group, uint8_t idx, uint64_t ts,
						   int listed)
{
	uint32_t entity;
	int level = join_level(p, c, group, idx, ts, &entity);

	if (listed < 0)
		return;
	c->listed_level[listed] = (uint8_t)(level < 0 ? 0 : level);
	c->listed_ent[listed] = ent_key(entity);
	if (level >= 0)
		c->comp_set |= 1u << listed;
	else
		c->comp_set &= ~(1u << listed);
}

/* --- the queued fair tasks by group (struct lp_gq) --- */

/*
 * Group g's totals change while c's watched run waits to be placed in
 * its levels (c->lazy): keep what they were at its start, once a run
 */
static inline void gq_save(struct lp_cpu *c, uint32_t g)
{
	struct lp_gq *e = &c->gq[g];

	if (!c->lazy || e->saved_run == c->run_id)
		return;
	e->saved_run = c->run_id;
	e->s_t_nr = e->t_nr;
	e->s_h_nr = e->h_nr;
	e->s_t_sum = e->t_sum;
	e->s_t_idx = e->t_idx;
	c->saved[c->nr_saved++] = g;	/* room for each group once (gq_grow()) */
}

static void act_link(struct lp_cpu *c, uint32_t g, uint32_t parent)
{
	struct lp_gq *e = &c->gq[g], *p = &c->gq[parent];

	e->link_parent = parent;
	e->act_prev = LP_NO_GROUP;
	e->act_next = p->act_first;
	if (p->act_first != LP_NO_GROUP)
		c->gq[p->act_first].act_prev = g;
	p->act_first = g;
}

static void act_unlink(struct lp_cpu *c, uint32_t g)
{
	struct lp_gq *e = &c->gq[g];

	if (e->act_prev != LP_NO_GROUP)
		c->gq[e->act_prev].act_next = e->act_next;
	else
		c->gq[e->link_parent].act_first = e->act_next;
	if (e->act_next != LP_NO_GROUP)
		c->gq[e->act_next].act_prev = e->act_prev;
}

/* c keeps totals for n groups (the ones defined so far) */
static void gq_grow(struct lp_cpu *c, uint32_t n)
{
	if (n <= c->nr_gq)
		return;
	c->gq = xrealloc(c->gq, n * sizeof(*c->gq));
	c->saved = xrealloc(c->saved, n * sizeof(*c->saved));
	for (uint32_t g = c->nr_gq; g < n; g++)
		c->gq[g] = (struct lp_gq){ .act_first = LP_NO_GROUP };
	c->nr_gq = n;
}

/* A task of weight index idx joins group g's own tasks (its subtree's count: the caller) */
static inline struct lp_gq *gq_count(struct lp_cpu *c, uint32_t g, uint8_t idx, uint32_t w)
{
	struct lp_gq *e;

	gq_save(c, g);
	e = &c->gq[g];
	e->t_nr++;
	e->t_sum += w;
	if (!e->at[idx]++)
		e->t_idx |= 1ULL << idx;
	return e;
}

/* gq_add() when g's entity was not queued: it and its ancestors' up to one that was */
static __attribute__((noinline)) void gq_add_entity(const struct lp_priv *p, struct lp_cpu *c,
						    uint32_t g, uint8_t idx, uint32_t w, uint64_t seq)
{
	struct lp_gq *e;

	if (g >= c->nr_gq)
		gq_grow(c, g + 1);
	e = gq_count(c, g, idx, w);
	for (;;) {
		if (e->h_nr++)
			break;		/* its ancestors count it already */
		e->act_seq = seq;
		if (!g)
			break;
		uint32_t parent = group_parent(p, g);

		act_link(c, g, parent);
		g = parent;
		gq_save(c, g);
		e = &c->gq[g];
	}
}

/* fair t, queued on c, is counted in its group and its ancestors (seq: its enqueue's) */
static inline void gq_add(const struct lp_priv *p, const struct sl_model *m, struct lp_cpu *c,
			  const struct sl_task *t, struct lp_task *lt, uint64_t seq)
{
	uint32_t g;
	uint8_t idx;

	/*
	 * A kind's group and weight do not change (the kinds are interned,
	 * a group once defined stays so, and this copy of the groups has
	 * every group a kind names): those of its last enqueue, unless it
	 * has another kind or prio since
	 */
	if (lt->gq_kind != t->sched_kind || lt->gq_prio != t->prio) {
		lt->gq_group = task_group_of(p, m, t);
		lt->gq_idx = gq_idx(m, t);
		lt->gq_weight = idx_weight(lt->gq_idx);
		lt->gq_kind = t->sched_kind;
		lt->gq_prio = (uint8_t)t->prio;	/* fair: 100..139 */
	}
	g = lt->gq_group;
	idx = lt->gq_idx;
	lt->in_gq = true;
	if (__builtin_expect(g >= c->nr_gq || !c->gq[g].h_nr, 0)) {
		gq_add_entity(p, c, g, idx, lt->gq_weight, seq);
		return;
	}
	gq_count(c, g, idx, lt->gq_weight)->h_nr++;	/* its ancestors count it already */
}

/* t leaves c's runqueue: out of its groups' totals */
static void gq_del(struct lp_cpu *c, struct lp_task *lt)
{
	uint32_t g = lt->gq_group;
	struct lp_gq *e = &c->gq[g];

	gq_save(c, g);
	lt->in_gq = false;
	e->t_nr--;
	e->t_sum -= lt->gq_weight;
	if (!--e->at[lt->gq_idx])
		e->t_idx &= ~(1ULL << lt->gq_idx);
	for (;;) {
		if (--e->h_nr)
			break;
		/* counted at the watched run's start: it stays counted if it comes back */
		if (c->run_task && e->act_seq <= c->start_enq)
			e->stamp = c->run_id;
		if (!g)
			break;
		act_unlink(c, g);
		g = e->link_parent;
		gq_save(c, g);
		e = &c->gq[g];
	}
}

/*
 * place_run - the watched run judged per group entity in its levels
 *
 * Each level of R's path with the entities queued in its runqueue at the
 * run's start but R's (its group's totals, struct lp_gq: tasks directly
 * in it and its queued child groups), as they were then (gq_save()),
 * then the waiters that joined since, in their order (c->joins).  Done
 * when the run may be late (it ran longer than the shortest slice), or
 * before a marker may change the groups, or at the start when R is
 * still queued (lr: its place then is taken out): most runs are shorter
 * than any slice, and were judged without their levels.
 */
static __attribute__((noinline)) void place_run(const struct lp_priv *p, const struct sl_model *m,
						struct lp_cpu *c, const struct lp_task *lr)
{
	start_levels(p, c, kind_group(p, m, c->r_kind), idx_weight(kind_idx(m, c->r_kind, c->r_prio)));
	for (int i = 0; i < c->nr_levels; i++) {
		struct lp_level *lv = &c->levels[i];
		uint32_t below = i ? c->levels[i - 1].group : c->below0;
		const struct lp_gq *e = cpu_gq(c, lv->group);
		bool saved;
		uint64_t t_idx;

		if (!e)
			continue;
		saved = e->saved_run == c->run_id;
		lv->nr = saved ? e->s_t_nr : e->t_nr;
		lv->sum_w = saved ? e->s_t_sum : e->t_sum;
		t_idx = saved ? e->s_t_idx : e->t_idx;
		if (lr && !i && below == LP_NO_GROUP && lr->in_gq && lr->gq_group == lv->group) {
			/* R queued still: not its own competitor (lr: at the start, nothing saved) */
			lv->nr--;
			lv->sum_w -= idx_weight(lr->gq_idx);
			if (e->at[lr->gq_idx] == 1)
				t_idx &= ~(1ULL << lr->gq_idx);
		}
		lv->max_w = t_idx ? idx_weight((unsigned)__builtin_ctzll(t_idx)) : 0;
		/* its child groups queued at the start: queued now, or emptied since */
		for (uint32_t g = e->act_first; g != LP_NO_GROUP; g = c->gq[g].act_next) {
			uint32_t w;

			if (g == below || !gq_start_nr(c, &c->gq[g]))
				continue;	/* R's entity, or queued since */
			w = group_weight(p, g);
			lv->nr++;
			lv->sum_w += w;
			lv->max_w = MAX(lv->max_w, w);
		}
		for (uint32_t k = 0; k < c->nr_saved; k++) {
			uint32_t g = c->saved[k], w;
			const struct lp_gq *f = &c->gq[g];

			if (!g || g == below || f->h_nr || !f->s_h_nr || f->link_parent != lv->group)
				continue;
			w = group_weight(p, g);
			lv->nr++;
			lv->sum_w += w;
			lv->max_w = MAX(lv->max_w, w);
		}
		if (lv->nr)
			lv->tc = c->t0;
	}
	for (uint32_t j = 0; j < c->nr_joins; j++) {
		const struct lp_join *jn = &c->joins[j];

		join_listed(p, c, jn->group, jn->idx, jn->ts, jn->listed);
	}
	c->lazy = false;
}

/*
 * A waiter joins the watched run judged per group entity: noted, with
 * the group and weight it was queued with, for place_run(); placed at
 * once once the run is placed (after a marker).  listed: its index in
 * listed[], -1 none.
 */
static __attribute__((noinline)) void join_grouped_slow(const struct lp_priv *p,
							 const struct sl_model *m, struct lp_cpu *c,
							 const struct sl_task *w,
							 const struct lp_task *lw, uint64_t ts,
							 int listed)
{
	/* its group and weight as gq_add() took them at its enqueue, just before */
	uint32_t group = lw->in_gq ? lw->gq_group : task_group_of(p, m, w);
	uint8_t idx = lw->in_gq ? lw->gq_idx : gq_idx(m, w);

	if (!c->lazy) {
		join_listed(p, c, group, idx, ts, listed);
		return;
	}
	GROW(c->joins, c->joins_alloc, c->nr_joins + 1);
	c->joins[c->nr_joins++] = (struct lp_join){ .ts = ts, .group = group, .idx = idx,
						    .listed = (int8_t)listed };
}

static inline void join_grouped(const struct lp_priv *p, const struct sl_model *m,
				struct lp_cpu *c, const struct sl_task *w, const struct lp_task *lw,
				uint64_t ts, int listed)
{
	if (__builtin_expect(!c->lazy || !lw->in_gq || c->nr_joins == c->joins_alloc, 0)) {
		join_grouped_slow(p, m, c, w, lw, ts, listed);
		return;
	}
	c->joins[c->nr_joins++] = (struct lp_join){ .ts = ts, .group = lw->gq_group,
						    .idx = lw->gq_idx, .listed = (int8_t)listed };
}

/*
 * The totals made again from the runqueues, with every task's group and
 * weight as the model has them now: at a marker, which may define the
 * groups (the first time), move tasks between groups, change a parent.
 * A group's entity keeps whether the watched run counted it: one queued
 * before and after keeps since when (act_seq), one emptied by a move is
 * stamped if counted, one filled by a move is queued from now (seq).
 * No run waits to be placed (place_run()): nothing is saved.
 */
static __attribute__((noinline)) void gq_rebuild(struct lp_priv *p, struct sl_model *m,
						  struct sl_analyzer *a, uint64_t seq)
{
	uint32_t n = sl_model_nr_groups(m);
	uint64_t *was = xmalloc(n * sizeof(*was));	/* act_seq, UINT64_MAX: not queued */

	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct lp_cpu *c = sl_cpu_priv(m, a, cpu);

		gq_grow(c, n);
		for (uint32_t g = 0; g < c->nr_gq; g++) {
			struct lp_gq *e = &c->gq[g];

			was[g] = e->h_nr ? e->act_seq : UINT64_MAX;
			if (e->h_nr && c->run_task && e->act_seq <= c->start_enq)
				e->stamp = c->run_id;
			*e = (struct lp_gq){ .act_first = LP_NO_GROUP, .stamp = e->stamp };
		}
		/* the fair ones of the model's runqueue list, oldest first */
		struct sl_task *q = m->cpus[cpu].queued;

		while (q && q->q_next)
			q = q->q_next;
		for (; q; q = q->q_prev) {
			struct lp_task *lq = sl_task_priv(m, a, q);

			if (lq->in_fq)
				gq_add(p, m, c, q, lq, seq);
		}
		for (uint32_t g = 0; g < c->nr_gq; g++)
			if (c->gq[g].h_nr && was[g] != UINT64_MAX)
				c->gq[g].act_seq = was[g];
	}
	free(was);
}

/*
 * The expected switch of a run judged per group entity: each level with
 * a competitor gives one by the slice model, with R's entity's and the
 * competitors' weights, from the first instant one of them waited; the
 * earliest is the run's (the kernel reschedules when R's entity at any
 * level has used its slice there).  exp[] gets every level's (UINT64_MAX:
 * no competitor); *at the level that decided.
 */
static uint64_t levels_expected(const struct sl_model *m, enum sl_slice_model model,
				const struct lp_level *lv, int nr, uint64_t t0, uint64_t own,
				uint64_t *slice, uint64_t exp[LP_LEVELS], int *at)
{
	uint64_t best = UINT64_MAX, base = model == SL_SLICE_CFS ? 0 : sl_base_slice(m);
	/* R's entity's slice at every level: R's custom one (custom_slice()), else the base */
	uint64_t ent = own ? own : base;

	*at = -1;
	*slice = 0;
	for (int i = 0; i < nr; i++) {
		uint64_t s, e;

		exp[i] = UINT64_MAX;
		if (!lv[i].nr)
			continue;
		s = model == SL_SLICE_CFS ?
			run_slice(m, model, lv[i].w_r, lv[i].nr, lv[i].max_w, lv[i].sum_w, 0) :
			eevdf_slice(ent, lv[i].w_r, lv[i].max_w);
		e = model == SL_SLICE_CFS ? MAX(t0 + s, lv[i].tc) : MAX(t0, lv[i].tc) + s;
		exp[i] = e;
		if (e < best) {
			best = e;
			*slice = s;
			*at = i;
		}
	}
	return best;
}

/* --- tick inference --- */

static int spacing_bucket(uint64_t ns)
{
	if (ns < LP_SPACING_MIN_NS)
		return -1;
	int b = (int)(log((double)ns / LP_SPACING_MIN_NS) / log(LP_SPACING_STEP));

	return b < LP_SPACING_BUCKETS ? b : -1;
}

/*
 * Where ts falls in a tick period of 1e9/hz ns, in LP_PHASE_BINS bins:
 * floor(frac(ts * hz / 1e9) * BINS), in integers (exact, and an fmod()
 * per candidate HZ per preemption was 2% of analyze on hackbench).
 * ts * hz mod 1e9 is (ts mod 1e9) * hz mod 1e9, whose product fits 64
 * bits for any int hz: remainders by a constant (a multiply each), not a
 * division by a variable period (most of a preemption's cost here).
 */
static int phase_bin(const struct lp_priv *p, int k, uint64_t ts)
{
	uint64_t phase = ts % 1000000000u * (uint64_t)p->cand_hz[k] % 1000000000u;

	return (int)(phase * LP_PHASE_BINS / 1000000000u);
}

/* Candidate slot k is hz (> 0). */
static void set_cand(struct lp_priv *p, int k, int hz)
{
	p->cand_hz[k] = hz;
}

/* Bins of the phase histogram the tick window spans at hz. */
static int window_bins(int hz)
{
	double bin_ns = 1e9 / hz / LP_PHASE_BINS;
	int w = (int)ceil(LP_TICK_WINDOW_NS / bin_ns);

	return w < 1 ? 1 : w > LP_PHASE_BINS ? LP_PHASE_BINS : w;
}

/* The most samples in w consecutive bins (circular). */
static uint64_t best_window(const uint32_t *h, int w)
{
	uint64_t sum = 0, best;

	for (int i = 0; i < w; i++)
		sum += h[i];
	best = sum;
	for (int i = 1; i < LP_PHASE_BINS; i++) {
		sum += h[(i + w - 1) % LP_PHASE_BINS];
		sum -= h[i - 1];
		if (sum > best)
			best = sum;
	}
	return best;
}

static struct lp_phases *cpu_phases(struct lp_cpu *c)
{
	if (!c->phases)
		c->phases = xcalloc(1, sizeof(*c->phases));
	return c->phases;
}

/*
 * phase_bin() of the fixed candidates (cand_hz_fixed[], slots 1 to 4),
 * from ts mod 1e7 and ts mod 4e6: with r = ts mod 1e9 and hz x period =
 * 1e9, r x hz mod 1e9 is hz x (r mod period) for a period that divides
 * 1e9 (100, 250, 1000 Hz), and 100 x (3r mod 1e7) at 300 Hz; the bin is
 * that x 100 / 1e9, the factors cancelled (exact: floor(a x c / b x c)
 * is floor(a / b)).  Half the remainders phase_bin() takes for them (a
 * preemption's cost here).
 */
static inline void fixed_phase_bins(uint64_t ts, int bin[LP_NR_CAND - 1])
{
	uint32_t r7 = (uint32_t)(ts % 10000000u);	/* r mod 1e7 (1e7 divides 1e9) */

	bin[0] = (int)(r7 / 100000u);				/* 100 Hz: period 1e7 */
	bin[1] = (int)((uint32_t)(ts % 4000000u) / 40000u);	/* 250 Hz: 4e6 */
	bin[2] = (int)((3 * r7) % 10000000u / 100000u);		/* 300 Hz */
	bin[3] = (int)(r7 % 1000000u / 10000u);			/* 1000 Hz: 1e6 */
}

static void add_phase(struct lp_priv *p, uint32_t h[LP_NR_CAND][LP_PHASE_BINS], uint64_t ts)
{
	int bin[LP_NR_CAND - 1];

	if (p->cand_hz[0])	/* --hz, none of the others */
		h[0][phase_bin(p, 0, ts)]++;
	fixed_phase_bins(ts, bin);
	for (int k = 1; k < LP_NR_CAND; k++)
		h[k][bin[k - 1]]++;
}

static int cand_slot(const struct lp_priv *p, int hz)
{
	for (int k = 0; k < LP_NR_CAND; k++)
		if (hz && p->cand_hz[k] == hz)
			return k;
	return -1;
}

/* A measured rate snaps to the HZ a kernel can have when within 2%. */
static int snap_hz(double hz)
{
	for (size_t i = 0; i < ARRAY_SIZE(known_hz); i++)
		if (fabs(hz - known_hz[i]) <= known_hz[i] * 0.02)
			return known_hz[i];
	return (int)(hz + 0.5);
}

/* The spacings in bucket b and its neighbours (hz_from_timers()'s window at b), 0 outside */
static uint64_t spacing_window(const struct lp_priv *p, int b)
{
	uint64_t n;

	if (b < 0 || b >= LP_SPACING_BUCKETS)
		return 0;
	n = p->spacing_count[b];
	if (b > 0)
		n += p->spacing_count[b - 1];
	if (b + 1 < LP_SPACING_BUCKETS)
		n += p->spacing_count[b + 1];
	return n;
}

/* HZ from the most common local_timer_entry spacing (with its neighbour buckets). */
static bool hz_from_timers(struct lp_priv *p)
{
	uint64_t best = 0, total = 0;
	int at = -1;

	for (int b = 0; b < LP_SPACING_BUCKETS; b++) {
		uint64_t n = p->spacing_count[b];

		total += n;
		if (b > 0)
			n += p->spacing_count[b - 1];
		if (b + 1 < LP_SPACING_BUCKETS)
			n += p->spacing_count[b + 1];
		if (n > best) {
			best = n;
			at = b;
		}
	}
	if (at < 0 || best < LP_MIN_SPACINGS)
		return false;
	uint64_t sum = 0, n = 0;

	for (int b = MAX(at - 1, 0); b <= MIN(at + 1, LP_SPACING_BUCKETS - 1); b++) {
		sum += p->spacing_sum[b];
		n += p->spacing_count[b];
	}
	p->hz_spacing_ns = sum / n;
	p->hz = snap_hz(1e9 / ((double)sum / n));
	p->hz_source = "local_timer_entry";
	p->hz_support = n;
	p->hz_total = total;
	return true;
}

/*
 * Which half of the preemptions ts goes to (hz_from_preemptions): a bit
 * of a hash of the time, so that no rhythm of the workload (a tick
 * preemption every fourth switch) puts the ticks in one half.
 */
static int split_half(uint64_t ts)
{
	return (int)((ts * 0x9e3779b97f4a7c15ULL) >> 63);
}

/* The first of the w consecutive bins (circular) that hold the most samples. */
static int best_window_at(const uint32_t *h, int w)
{
	uint64_t sum = 0, best;
	int at = 0;

	for (int i = 0; i < w; i++)
		sum += h[i];
	best = sum;
	for (int i = 1; i < LP_PHASE_BINS; i++) {
		sum += h[(i + w - 1) % LP_PHASE_BINS];
		sum -= h[i - 1];
		if (sum > best) {
			best = sum;
			at = i;
		}
	}
	return at;
}

static uint64_t window_sum(const uint32_t *h, int at, int w)
{
	uint64_t sum = 0;

	for (int i = 0; i < w; i++)
		sum += h[(at + i) % LP_PHASE_BINS];
	return sum;
}

/*
 * -ln of Chernoff's bound of P(X >= x) for X ~ Binomial(n, s): n D(x/n || s),
 * D the Kullback-Leibler divergence of two Bernoulli laws; 0 when x <= n s.
 */
static double binomial_tail_exponent(uint64_t x, uint64_t n, double s)
{
	double f = n ? (double)x / (double)n : 0, d;

	if (f <= s)
		return 0;
	d = f * log(f / s) + (f < 1 ? (1 - f) * log((1 - f) / (1 - s)) : -log(1 - s));
	return (double)n * d;
}

/*
 * HZ from preemption times.  A kernel that preempts at the tick only
 * leaves the switch-outs of runnable tasks at one phase of the tick
 * period; wakeup preemptions, yields and the like fall anywhere.  For each
 * candidate rate and CPU, the 200 us window of the period that holds the
 * most of one half of the CPU's preemptions (split_half()) fixes a phase,
 * and the other half is counted in it: X of n, where uniform phases
 * put n s (s: the window's share of the period) whatever the phase, as it
 * was chosen on other samples.  The tick's rate is the one at which X is
 * least likely by chance (Chernoff's bound of the binomial tail: a multiple
 * of HZ clusters too, but in a wider share; a rate whose period is not a
 * multiple of the tick's holds a part of the ticks only), and the trace
 * shows it when X >= LP_MIN_RATIO n s and that chance, times the rates
 * tried, is below LP_MAX_CHANCE.  A test of the share, not a fixed
 * fraction: on a mixed workload most preemptions are not at the tick, yet
 * the tick's window held 3.4 times its share (1.6 times in a pipe and
 * hackbench beside hogs, 3% of its preemptions at the tick: the ratio
 * asked is small, the chance decides; it only keeps a slight unevenness of
 * a long trace from passing for a tick).
 */
static bool hz_from_preemptions(struct lp_priv *p, struct sl_model *m, struct sl_analyzer *a)
{
	uint64_t best_x = 0, best_n = 0;
	double best_exp = 0, best_s = 0;
	int best = 0, tried = 0;

	if (p->preempt_samples < LP_MIN_PREEMPTIONS)
		return false;
	for (int k = 1; k < LP_NR_CAND; k++) {
		int w = window_bins(p->cand_hz[k]);
		double s = (double)w / LP_PHASE_BINS;
		uint64_t x = 0, n = 0;

		for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
			struct lp_cpu *c = sl_cpu_priv(m, a, cpu);

			if (!c->phases)
				continue;
			const uint32_t *pick = c->phases->preempt[0][k], *count = c->phases->preempt[1][k];

			x += window_sum(count, best_window_at(pick, w), w);
			n += window_sum(count, 0, LP_PHASE_BINS);
		}
		tried++;
		if (binomial_tail_exponent(x, n, s) > best_exp) {
			best_exp = binomial_tail_exponent(x, n, s);
			best = k;
			best_x = x;
			best_n = n;
			best_s = s;
		}
	}
	if (!best || (double)best_x < LP_MIN_RATIO * (double)best_n * best_s ||
	    best_exp - log(tried) <= -log(LP_MAX_CHANCE))
		return false;
	p->hz = p->cand_hz[best];
	p->hz_source = "preemption times";
	p->hz_support = best_x;
	p->hz_total = best_n;
	p->hz_ratio = (double)best_x / ((double)best_n * best_s);
	return true;
}

/* --- the watched run --- */

/* listed[i]: old[i] while old[] keeps it (listed_in_old) */
static inline struct sl_task *listed_get(const struct lp_cpu *c, uint32_t i)
{
	return i < c->listed_in_old ? c->old[i] : c->listed[i];
}

/* listed[] made whole: the entries old[] keeps copied, before old[] changes */
static inline void listed_own(struct lp_cpu *c)
{
	if (c->listed_in_old) {
		memcpy(c->listed, c->old, c->listed_in_old * sizeof(c->listed[0]));
		c->listed_in_old = 0;
	}
}

static void set_since(struct lp_cpu *c, uint32_t i, uint64_t ts)
{
	c->since[i] = ts;
	c->since_set |= 1u << i;
}

static uint64_t listed_since(const struct lp_cpu *c, uint32_t i)
{
	return c->since_set & (1u << i) ? c->since[i] : c->t0;
}

static uint64_t listed_until(const struct lp_cpu *c, uint32_t i)
{
	return c->until_set & (1u << i) ? c->until[i] : 0;
}

/* t, one of x's waiters, joins another CPU's watched run: x keeps it (x->displaced) */
static __attribute__((noinline)) void displace_add(struct lp_cpu *x, struct sl_task *t,
						    uint8_t list_idx)
{
	GROW(x->displaced, x->displaced_alloc, x->nr_displaced + 1);
	x->displaced[x->nr_displaced++] = (struct lp_displaced){ .task = t, .list_idx = list_idx };
}

/*
 * t, marked as a waiter of the watched run lt->run_id, joins another
 * one: when that run is still going on its CPU (it left that CPU's
 * runqueue, moved by the load balancer), that CPU keeps it as its
 * waiter, to know it again if it comes back during the run
 */
static inline void displace(struct sl_model *m, struct sl_analyzer *a, struct sl_task *t,
			    const struct lp_task *lt)
{
	/*
	 * the CPU's run_id is its last watched run's (going on, or ended
	 * since: a waiter displaced from an ended run is kept in vain, not read)
	 */
	struct lp_cpu *x = sl_cpu_priv(m, a, (int)(lt->run_id & ((1u << LP_RUN_CPU_BITS) - 1)));

	if (__builtin_expect(x->run_id == lt->run_id, 0))
		displace_add(x, t, lt->list_idx);
}

/* t comes back to c's watched run, whose waiter it was before another's: marked again */
static __attribute__((noinline)) bool undisplace(struct lp_cpu *c, const struct sl_task *t,
						  struct lp_task *lt)
{
	for (uint32_t i = 0; i < c->nr_displaced; i++)
		if (c->displaced[i].task == t) {
			lt->run_id = c->run_id;
			lt->list_idx = c->displaced[i].list_idx;
			c->displaced[i] = c->displaced[--c->nr_displaced];
			return true;
		}
	return false;
}

/* listed waiter i came back: its wait that ended is kept (c->stints) */
static __attribute__((noinline)) void keep_stint(struct lp_cpu *c, uint32_t i)
{
	if (c->stints_run != c->run_id) {
		c->stints_run = c->run_id;
		c->nr_stints = 0;
	}
	GROW(c->stints, c->stints_alloc, c->nr_stints + 1);
	c->stints[c->nr_stints++] = (struct lp_stint){
		.since = listed_since(c, i), .until = c->until[i], .list_idx = (uint8_t)i,
	};
}

static void add_waiter(const struct lp_priv *p, struct sl_model *m, struct sl_analyzer *a,
		       struct lp_cpu *c, struct sl_task *t, uint64_t ts)
{
	struct lp_task *lt = sl_task_priv(m, a, t);
	uint32_t w = sl_prio_weight(t->prio);

	if (lt->run_id != c->run_id) {
		if (lt->run_id)
			displace(m, a, t, lt);	/* it stays one waiter of the run it left */
		if (__builtin_expect(!c->nr_displaced, 1) || !undisplace(c, t, lt))
			goto new_waiter;
	}
	/* back in the queue: one waiter, its new wait listed (a task is listed once) */
	if (lt->list_idx != LP_NOT_LISTED) {
		if (c->until_set & (1u << lt->list_idx))
			keep_stint(c, lt->list_idx);
		set_since(c, lt->list_idx, ts);
		c->until_set &= ~(1u << lt->list_idx);
	}
	return;
new_waiter:
	lt->run_id = c->run_id;
	lt->list_idx = c->nr_listed < LP_LISTED ? (uint8_t)c->nr_listed : LP_NOT_LISTED;
	if (t->in_workload)
		c->workload_waiter = true;
	if (!c->contended) {
		c->contended = true;
		c->tc = ts;
	}
	c->nr_waiters++;
	c->max_weight = MAX(c->max_weight, w);
	c->sum_weight += w;
	if (c->nr_listed < LP_LISTED) {
		c->listed[c->nr_listed] = t;
		set_since(c, c->nr_listed++, ts);
		if (__builtin_expect(c->grouped, 0))
			join_grouped(p, m, c, t, lt, ts, (int)c->nr_listed - 1);
	} else if (__builtin_expect(c->grouped, 0)) {
		join_grouped(p, m, c, t, lt, ts, -1);
	}
}

/*
 * The levels of the waiters listed at the watched run's start, whether
 * they compete there and as which entity (comp_set, listed_ent), asked
 * for a late run only (most
 * runs are on time), or at a marker before the groups may change: each
 * by the group it was queued in (gq_group), the one it had at the start.
 * The ones listed as they came were placed then (join_listed()).
 */
static __attribute__((noinline)) void place_start_listed(const struct lp_priv *p,
							  const struct sl_model *m,
							  struct sl_analyzer *a, struct lp_cpu *c)
{
	uint32_t last = LP_NO_GROUP, group = LP_NO_GROUP;	/* the last one's group, its entity */
	int level = -1;

	listed_own(c);
	for (uint32_t k = 0; k < c->nr_start_listed; k++) {
		const struct lp_task *lq = sl_task_priv(m, a, c->listed[k]);

		if (lq->gq_group == c->levels[0].group) {
			/* the most common: a task of R's group (no cut, the group queued it) */
			c->listed_level[k] = 0;
			c->listed_ent[k] = 0;
			c->comp_set |= 1u << k;
			continue;
		}
		if (lq->gq_group != last) {	/* the next most common: the one before's group */
			last = lq->gq_group;
			level = find_level(p, c, last, &group, NULL);
		}
		c->listed_level[k] = (uint8_t)(level < 0 ? 0 : level);
		c->listed_ent[k] = ent_key(group);
		if (level >= 0)
			c->comp_set |= 1u << k;
	}
	c->nr_start_listed = 0;		/* placed */
}

static void start_run(struct lp_priv *p, struct sl_model *m, struct sl_analyzer *a,
		      struct lp_cpu *c, int cpu, struct sl_task *t, uint64_t ts)
{
	struct lp_task *lt = sl_task_priv(m, a, t);

	c->run_task = t;
	c->run_id = ++p->next_run_id << LP_RUN_CPU_BITS | (uint64_t)cpu;
	c->nr_displaced = 0;
	c->t0 = ts;
	c->tc = 0;
	c->contended = false;
	c->max_wait = 0;
	c->max_wait_task = NULL;
	c->max_wl_wait = 0;
	c->max_wl_wait_task = NULL;
	c->nr_listed = 0;
	/*
	 * Whoever is queued already waits from the start: the fair ones are
	 * the fq list (but t, were the model to keep it queued).  They join W
	 * without being marked (start_enq tells them, in_run()); the oldest
	 * are listed first.
	 */
	uint64_t prios = c->fq_prios;

	if (lt->in_fq && c->fq_at_prio[lt->fq_prio - 100] == 1)
		prios &= ~(1ULL << (lt->fq_prio - 100));	/* t alone at its prio */
	c->start_enq = p->next_enq;
	c->nr_waiters = c->fq_nr - lt->in_fq;
	c->workload_waiter = c->fq_workload > (uint32_t)(lt->in_fq && lt->fq_workload);
	c->sum_weight = c->fq_sum - (lt->in_fq ? sl_prio_weight(lt->fq_prio) : 0);
	c->max_weight = prios ? sl_prio_weight(100 + __builtin_ctzll(prios)) : 0;
	if (c->nr_waiters) {
		c->contended = true;
		c->tc = ts;
	}
	uint32_t n = 0;

	c->since_set = c->until_set = 0;
	if (!lt->in_old) {
		n = MIN(c->nr_old, LP_LISTED);
		c->listed_in_old = n;	/* old[]'s first n, copied when it changes */
	} else {
		for (uint32_t i = 0; i < c->nr_old && n < LP_LISTED; i++)
			if (c->old[i] != t)
				c->listed[n++] = c->old[i];
		c->listed_in_old = 0;
	}
	c->nr_listed = n;
	c->grouped = p->grouped;
	if (__builtin_expect(c->grouped, 0)) {
		/*
		 * Judged per group entity: placed in its levels when it may be
		 * late (place_run()), with R's kind and prio now, the group
		 * totals as they were now (gq_save()) and its joins (c->joins).
		 * The waiters listed now are placed at its end.
		 */
		c->comp_set = 0;
		c->nr_start_listed = (uint8_t)n;
		c->r_kind = t->sched_kind;
		c->r_prio = t->prio;
		c->nr_joins = 0;
		c->nr_saved = 0;
		c->lazy = true;
		if (lt->in_gq)
			place_run(p, m, c, lt);	/* R queued still: placed without it, now */
	}
}

/*
 * Where t, queued on c since before its watched run started, is in
 * listed[]: one of the oldest queued then (old[]), if at all.  A task
 * older than it can only have left since, so one not in old[] now
 * (at, its place there: LP_NOT_OLD) was not among them then either: no
 * search.  While listed[] is old[]'s first listed_in_old (old[] has
 * only grown at its end since the start), its place in old[] is its
 * index; after a change, listed[] is searched.
 */
static uint8_t start_listed_index(const struct lp_cpu *c, const struct sl_task *t, uint32_t at)
{
	if (at == LP_NOT_OLD)
		return LP_NOT_LISTED;
	if (c->listed_in_old)
		return at < c->listed_in_old ? (uint8_t)at : LP_NOT_LISTED;
	for (uint32_t i = 0; i < c->nr_listed; i++)
		if (c->listed[i] == t)
			return (uint8_t)i;
	return LP_NOT_LISTED;
}

/*
 * t's place in c->old[] (lt->in_old: it is there), searched from the
 * newest end: most that leave while in old[] are among its newest (on
 * hackbench, one of the last two in nine cases of ten).
 */
static uint32_t old_index(const struct lp_cpu *c, const struct sl_task *t)
{
	uint32_t i = c->nr_old;

	while (i > 1 && c->old[i - 1] != t)
		i--;
	return i - 1;
}

/* t, queued on c, is one of the waiters W of c's watched run */
static bool in_run(const struct lp_cpu *c, const struct lp_task *lt)
{
	return lt->run_id == c->run_id || (lt->in_fq && lt->enq_seq <= c->start_enq);
}

/*
 * The next newer fair task than t queued on its CPU: in the model's
 * runqueue list (newest first), the first before t that entered our
 * count (in_fq), NULL none
 */
static struct sl_task *fq_newer(const struct sl_model *m, const struct sl_analyzer *a,
				const struct sl_task *t)
{
	struct sl_task *q = t->q_prev;

	while (q && !((const struct lp_task *)sl_task_priv(m, a, q))->in_fq)
		q = q->q_prev;	/* not fair at its enqueue: rare */
	return q;
}

/* t entered the model's runqueue list of c (its head): one of c's fair tasks */
static void fq_add(struct lp_cpu *c, struct sl_task *t, struct lp_task *lt)
{
	lt->in_fq = true;
	lt->fq_prio = (uint8_t)t->prio;
	if (c->fq_nr < ARRAY_SIZE(c->old)) {
		c->old[c->nr_old++] = t;
		lt->in_old = true;
	}
	c->fq_nr++;
	c->fq_sum += sl_prio_weight(t->prio);
	lt->fq_workload = t->in_workload;
	c->fq_workload += t->in_workload;
	c->fq_at_prio[t->prio - 100]++;
	c->fq_prios |= 1ULL << (t->prio - 100);
}

/* t, at old[at] (LP_NOT_OLD: not in old[]), leaves c's fair tasks */
static void fq_del(struct sl_model *m, struct sl_analyzer *a, struct lp_cpu *c,
		   struct lp_task *lt, uint32_t at)
{
	lt->in_fq = false;
	c->fq_nr--;
	if (at != LP_NOT_OLD) {
		listed_own(c);		/* old[] changes */
		memmove(&c->old[at], &c->old[at + 1], (c->nr_old - at - 1) * sizeof(c->old[0]));
		c->nr_old--;
		lt->in_old = false;
		/*
		 * the next newer task takes the freed place (old[] holds
		 * min(fq_nr, its size): with more queued, old[] keeps one)
		 */
		if (c->fq_nr > c->nr_old) {
			struct sl_task *n = fq_newer(m, a, c->old[c->nr_old - 1]);
			struct lp_task *ln = sl_task_priv(m, a, n);

			c->old[c->nr_old++] = n;
			ln->in_old = true;
		}
	}
	c->fq_sum -= sl_prio_weight(lt->fq_prio);
	c->fq_workload -= lt->fq_workload;
	if (!--c->fq_at_prio[lt->fq_prio - 100])
		c->fq_prios &= ~(1ULL << (lt->fq_prio - 100));
}

/*
 * When queued t was enqueued: the model's since, the time it entered its
 * state, QUEUED, at the enqueue on_runnable tells (and while on_runnable
 * says it leaves, before its state changes).  Not a copy in the slot:
 * 8 bytes fewer on the lines every enqueue and dequeue touch.
 */
static inline uint64_t queued_since(const struct sl_task *t)
{
	return t->since;
}

static void note_wait(struct lp_cpu *c, struct sl_task *t, uint64_t wait)
{
	if (wait > c->max_wait || !c->max_wait_task) {
		c->max_wait = wait;
		c->max_wait_task = t;
	}
	if (t->in_workload && (wait > c->max_wl_wait || !c->max_wl_wait_task)) {
		c->max_wl_wait = wait;
		c->max_wl_wait_task = t;
	}
}

static void lp_detail_free(void *d)
{
	free(d);
}

static void lp_message(const struct sl_finding *f, const struct sl_model *m, char *buf, size_t len)
{
	const struct lp_detail *d = f->detail;
	char ran[32], slice[32], from[32], wait[32];
	int n;

	n = snprintf(buf, len, "ran %s, %s slice %s", fmt_duration(ran, sizeof(ran), d->ran),
		     d->model == SL_SLICE_CFS ? "CFS" : "EEVDF",
		     fmt_duration(slice, sizeof(slice), d->slice));
	if (n < 0 || (size_t)n >= len)
		return;
	if (d->tc > d->start)
		n += snprintf(buf + n, len - (size_t)n, ", first waiter at +%s",
			      fmt_duration(from, sizeof(from), d->tc - d->start));
	else
		n += snprintf(buf + n, len - (size_t)n, ", %u waiting from the start", d->nr_waiting);
	if (n < 0 || (size_t)n >= len)
		return;
	if (d->tc > d->start)
		n += snprintf(buf + n, len - (size_t)n, " (%u waiting)", d->nr_waiting);
	if (n < 0 || (size_t)n >= len)
		return;
	n += snprintf(buf + n, len - (size_t)n, "; %s:%d%s waited %s", sl_str(m->strtab, d->max_wait_comm),
		      d->max_wait_pid, sl_recorder_note(m, d->max_wait_pid),
		      fmt_duration(wait, sizeof(wait), d->max_wait));
	/* the report is the workload's: name its victim when the longest is not */
	if (n > 0 && (size_t)n < len && m->cfg->workload_active && d->max_wl_wait_pid >= 0 &&
	    d->max_wl_wait_pid != d->max_wait_pid)
		n += snprintf(buf + n, len - (size_t)n, ", the workload's %s:%d%s %s",
			      sl_str(m->strtab, d->max_wl_wait_comm), d->max_wl_wait_pid,
			      sl_recorder_note(m, d->max_wl_wait_pid),
			      fmt_duration(wait, sizeof(wait), d->max_wl_wait));
	if (n > 0 && (size_t)n < len && d->culprit_outside)
		n += snprintf(buf + n, len - (size_t)n, "; %s:%d is outside the workload",
			      sl_str(m->strtab, f->comm), f->pid);
	if (n < 0 || (size_t)n >= len || d->ticks < 0)
		return;
	if (d->tick_class == LP_TICK)
		snprintf(buf + n, len - (size_t)n, "; switched at the first tick after the expected switch");
	else if (d->tick_class == LP_LATE_TICK)
		snprintf(buf + n, len - (size_t)n, "; %d tick%s passed after the expected switch (late-tick)",
			 d->ticks, d->ticks == 1 ? "" : "s");
	else if (d->tick_class == LP_NO_TICK)
		snprintf(buf + n, len - (size_t)n, "; ended before the next tick");
}

static void lp_fields(const struct sl_finding *f, const struct sl_model *m, struct sl_fields *o)
{
	const struct lp_detail *d = f->detail;

	sl_fields_ints(o, "waiting", d->waiting, d->nr_listed);
	sl_fields_u64(o, "ran_ns", d->ran);
	sl_fields_u64(o, "expected_ns", d->expected_len);
	sl_fields_u64(o, "slice_ns", d->slice);
	sl_fields_u64(o, "start_ns", d->start);
	sl_fields_u64(o, "contended_since_ns", d->tc);
	sl_fields_u64(o, "nr_waiting", d->nr_waiting);
	sl_fields_u64(o, "max_wait_ns", d->max_wait);
	sl_fields_i64(o, "max_wait_pid", d->max_wait_pid);
	/* in every finding, null when none of its waiters is the workload's (or none is named) */
	sl_fields_u64_or_null(o, "max_workload_wait_ns", d->max_wl_wait_pid >= 0, d->max_wl_wait);
	sl_fields_u64_or_null(o, "max_workload_wait_pid", d->max_wl_wait_pid >= 0,
			      (uint64_t)d->max_wl_wait_pid);
	sl_fields_u64_or_null(o, "ticks", d->ticks >= 0, (uint64_t)d->ticks);
	sl_fields_str(o, "tick_class", tick_class_names[d->tick_class]);
	/* in every finding, as the report's other fields that may not apply */
	sl_fields_u64_or_null(o, "slice_group", d->slice_group >= 0, (uint64_t)d->slice_group);
	if (m->workload_pid)
		sl_fields_bool(o, "culprit_in_workload", !d->culprit_outside);
	else
		sl_fields_null(o, "culprit_in_workload");	/* no workload named */
}

/* the run, from its switch-in to its switch-out */
static void lp_moment(const struct sl_finding *f, const struct sl_model *m, struct sl_moment *out)
{
	const struct lp_detail *d = f->detail;

	out->from = d->start;
	out->to = f->ts;
}

static const struct sl_finding_ops lp_finding_ops = {
	.message = lp_message,
	.moment = lp_moment,
	.fields = lp_fields,
	.free_detail = lp_detail_free,
};

/*
 * A run that ended late by the CPU count known at its end t1, with what
 * its verdict needs as it was at t1: judged then, or at the end of the
 * trace when the count could still grow (lp_finish).  The task pointers
 * stay valid: the model frees its tasks with itself.
 */
struct lp_late {
	struct sl_task *task;		/* R */
	int32_t pid;			/* R's pid, comm and weight at t1 */
	uint32_t comm, weight;
	int cpu;
	uint8_t prev_class;		/* how R left at t1 */
	bool at_timer;			/* t1 within the window after a local_timer_entry */
	bool workload_waiter;		/* one of its waiters is the workload's */
	bool culprit_outside;		/* R is not the workload's (the trace names one) */
	uint64_t t0, tc, t1;
	uint32_t nr_waiters, max_weight;
	uint64_t sum_weight;
	uint64_t own_slice;		/* R's custom slice at t0 (custom_slice()), 0 none */
	uint64_t short_at, short_slice;	/* short_waiters()'s switch and slice, 0 none */
	uint64_t max_wait;
	int32_t max_wait_pid;		/* -1 none */
	uint32_t max_wait_comm;
	uint64_t max_wl_wait;		/* the workload's longest waiter */
	int32_t max_wl_wait_pid;	/* -1 none */
	uint32_t max_wl_wait_comm;
	uint32_t nr_listed;
	struct sl_task *listed[LP_LISTED];
	int32_t listed_pid[LP_LISTED];
	uint64_t since[LP_LISTED], until[LP_LISTED];	/* until 0: still queued at t1 */
	const struct lp_stint *stints;	/* their earlier waits (its CPU's, a copy when held) */
	uint32_t nr_stints;
	/*
	 * The ticks of its CPU after the expected switch by the CPU count at
	 * t1 (a larger count at the end only moves that switch later): the
	 * first LP_LATE_TICKS times, and how many more came up to t1.
	 */
	bool ticks_seen;		/* its CPU showed a tick since the start or a gap */
	uint8_t nr_ticks;
	uint64_t tick[LP_LATE_TICKS];
	uint32_t more_ticks;
	uint32_t whatif_chain;		/* held: the what-if's chain from t1 (whatif_late) */
	/*
	 * Judged per group entity: the levels (its CPU's while judged at
	 * t1, a copy of them when held), its listed waiters' levels, which
	 * compete there and as which entity (struct lp_cpu); lv NULL: not
	 */
	const struct lp_level *lv;
	uint8_t nr_levels;
	uint8_t listed_level[LP_LISTED];
	uint16_t listed_ent[LP_LISTED];
	uint32_t comp_set;
};

/* The ticks of c in (after, t1] into l (the ring holds the last LP_TICKS). */
static void keep_ticks(const struct lp_cpu *c, struct lp_late *l, uint64_t after)
{
	uint32_t have = MIN(c->nr_ticks, LP_TICKS), n = 0;

	l->ticks_seen = c->have_tick && c->nr_ticks;
	l->nr_ticks = 0;
	l->more_ticks = 0;
	/* how many of the kept ones are after `after`, newest first */
	while (n < have && c->ticks[(c->nr_ticks - 1 - n) % LP_TICKS] > after)
		n++;
	for (uint32_t i = n; i-- > 0;) {
		uint64_t tick = c->ticks[(c->nr_ticks - 1 - i) % LP_TICKS];

		if (tick > l->t1)
			continue;
		if (l->nr_ticks < LP_LATE_TICKS)
			l->tick[l->nr_ticks++] = tick;
		else
			l->more_ticks++;
	}
}

/*
 * What the ticks after the expected switch say of a late run: at the first
 * one (within LP_TICK_WINDOW_NS), later, before any; -1 and unknown when
 * its CPU showed no tick.
 */
static enum lp_tick_class classify_ticks(const struct lp_late *l, uint64_t expected, int32_t *ticks)
{
	uint32_t n = l->more_ticks;
	uint64_t first = 0;

	*ticks = -1;
	if (!l->ticks_seen)
		return LP_TICK_UNKNOWN;
	for (uint32_t i = 0; i < l->nr_ticks; i++)
		if (l->tick[i] > expected) {
			if (!first)
				first = l->tick[i];
			n++;
		}
	*ticks = (int32_t)MIN(n, INT32_MAX);
	if (!n)
		return LP_NO_TICK;
	if (!first)
		return LP_LATE_TICK;	/* only uncounted ticks: many passed */
	return l->t1 - first <= LP_TICK_WINDOW_NS ? LP_TICK : LP_LATE_TICK;
}

/*
 * Without ticks seen: by the tick period 1e9/hz, an overrun of at most a
 * period (and the window) ended at the first tick, a longer one later.
 */
static enum lp_tick_class estimate_ticks(int hz, uint64_t overrun, int32_t *ticks)
{
	uint64_t period;

	if (hz <= 0) {
		*ticks = -1;
		return LP_TICK_UNKNOWN;
	}
	period = 1000000000ULL / (uint64_t)hz;
	if (overrun <= period + LP_TICK_WINDOW_NS) {
		*ticks = 1;
		return LP_TICK;
	}
	*ticks = (int32_t)MIN((overrun - LP_TICK_WINDOW_NS + period - 1) / period, INT32_MAX);
	return LP_LATE_TICK;
}

/* The slice and the expected switch time of a run (SPEC "late-preemption"); returns the cost. */
static uint64_t run_cost(const struct lp_priv *p, const struct sl_model *m, uint32_t weight,
			 uint32_t nr_waiters, uint32_t max_weight, uint64_t sum_weight, uint64_t own,
			 uint64_t t0, uint64_t tc, uint64_t t1, uint64_t *slice, uint64_t *expected)
{
	*slice = run_slice(m, p->model, weight, nr_waiters, max_weight, sum_weight, own);
	if (p->model == SL_SLICE_CFS)
		*expected = MAX(t0 + *slice, tc);
	else
		*expected = MAX(t0, tc) + *slice;
	return sl_dur(*expected, t1);
}

static uint64_t late_cost(const struct lp_priv *p, const struct sl_model *m,
			  const struct lp_late *l, uint64_t *slice, uint64_t *expected)
{
	if (l->lv) {
		uint64_t exp[LP_LEVELS];
		int at;

		*expected = levels_expected(m, p->model, l->lv, l->nr_levels, l->t0, l->own_slice,
					    slice, exp, &at);
		if (at >= 0) {
			if (l->short_at && l->short_at < *expected) {
				*expected = l->short_at;
				*slice = l->short_slice;
			}
			return sl_dur(*expected, l->t1);
		}
	}
	uint64_t cost = run_cost(p, m, l->weight, l->nr_waiters, l->max_weight, l->sum_weight,
				 l->own_slice, l->t0, l->tc, l->t1, slice, expected);

	if (l->short_at && l->short_at < *expected) {
		*expected = l->short_at;
		*slice = l->short_slice;
		cost = sl_dur(*expected, l->t1);
	}
	return cost;
}

/*
 * With HRTICK off a run goes on until the first tick after its slice: one
 * that ended then, or before it (blocked, exited, preempted by a wakeup),
 * is the kernel's design.  Later (late-tick) or unknown is a finding.
 */
static bool by_tick(int tick_class)
{
	return tick_class == LP_TICK || tick_class == LP_NO_TICK;
}

static void class_add(struct lp_class_sum *s, uint64_t cost, uint64_t delayed)
{
	s->count++;
	s->cost = s->cost + cost < s->cost ? UINT64_MAX : s->cost + cost;
	s->max_cost = MAX(s->max_cost, cost);
	s->delayed_ns += delayed;
}

static void class_merge(struct lp_class_sum *to, const struct lp_class_sum *from)
{
	to->count += from->count;
	to->cost = to->cost + from->cost < to->cost ? UINT64_MAX : to->cost + from->cost;
	to->max_cost = MAX(to->max_cost, from->max_cost);
	to->delayed_ns += from->delayed_ns;
}

/* Listed waiter i's earlier waits on l's CPU (it came back), their time after from */
static __attribute__((noinline)) uint64_t earlier_after(const struct lp_late *l, uint32_t i,
							uint64_t from)
{
	uint64_t ns = 0;

	for (uint32_t k = 0; k < l->nr_stints; k++)
		if (l->stints[k].list_idx == i)
			ns += sl_dur(MAX(l->stints[k].since, from), l->stints[k].until);
	return ns;
}

/* Listed waiter i's time queued on l's CPU after from: its last wait and its earlier ones */
static inline uint64_t waited_after(const struct lp_late *l, uint32_t i, uint64_t from)
{
	uint64_t ns = sl_dur(MAX(l->since[i], from), l->until[i] ? l->until[i] : l->t1);

	if (__builtin_expect(l->nr_stints != 0, 0))
		ns += earlier_after(l, i, from);
	return ns;
}

static inline void charge(struct sl_model *m, struct sl_analyzer *a, const struct lp_late *l,
			  uint32_t i, uint64_t wait)
{
	struct lp_task *lw = sl_task_priv(m, a, l->listed[i]);

	lw->delayed++;
	lw->delayed_ns += wait;
}

/*
 * Who waited behind a late run judged per group entity: each competing
 * entity (comp_set) from its level's expected switch (exp[]), once: a
 * task its own wait, a group's entity (listed_ent) the longest wait of
 * its listed waiters, charged to that one (the first listed of equal
 * ones) - not to its first, who may have left before the switch while
 * another still waited.  Out of line: most traces have no groups.
 */
static __attribute__((noinline)) uint64_t charge_entities(struct sl_model *m,
							   struct sl_analyzer *a,
							   const struct lp_late *l,
							   const uint64_t exp[LP_LEVELS])
{
	uint64_t best_wait[LP_LISTED], delayed = 0;
	uint32_t best[LP_LISTED], nr_ent = 0;
	uint16_t ent[LP_LISTED];	/* the group entities so far */
	uint32_t set = l->comp_set & (uint32_t)((1ull << l->nr_listed) - 1);

	for (; set; set &= set - 1) {
		uint32_t i = (uint32_t)__builtin_ctz(set), k = 0;
		uint64_t from = exp[l->listed_level[i]], wait;
		uint16_t e = l->listed_ent[i];

		if (e) {
			while (k < nr_ent && ent[k] != e)
				k++;
			if (k < nr_ent && best_wait[k] >= sl_dur(from, l->t1))
				continue;	/* one before waited all the while: it stands for the entity */
		}
		wait = waited_after(l, i, from);
		if (!wait)
			continue;
		if (!e) {
			delayed += wait;	/* a task: its own entity */
			charge(m, a, l, i, wait);
			continue;
		}
		if (k == nr_ent)
			ent[nr_ent++] = e;
		else if (wait <= best_wait[k])
			continue;	/* an earlier one waited as long: it stands for the entity */
		best[k] = i;
		best_wait[k] = wait;
	}
	for (uint32_t k = 0; k < nr_ent; k++) {
		delayed += best_wait[k];
		charge(m, a, l, best[k], best_wait[k]);
	}
	return delayed;
}

/*
 * Who waited behind a late run, and how long: each listed waiter's time
 * queued on its CPU after the expected switch (every wait of one that
 * left and came back), charged to it (struct lp_task: delayed,
 * delayed_ns) only when there is some.  Judged per group entity
 * (by_levels): charge_entities().  Returns the waits charged, summed.
 */
static uint64_t charge_waiters(struct sl_model *m, struct sl_analyzer *a, const struct lp_late *l,
			       bool by_levels, uint64_t expected, const uint64_t exp[LP_LEVELS])
{
	uint64_t delayed = 0;

	if (by_levels)
		return charge_entities(m, a, l, exp);
	for (uint32_t i = 0; i < l->nr_listed; i++) {
		uint64_t wait = waited_after(l, i, expected);

		if (!wait)
			continue;
		delayed += wait;
		charge(m, a, l, i, wait);
	}
	return delayed;
}

/*
 * add_late - l is late by the final CPU count: the finding, and who it
 * cost, and its tick key for the what-if; false: filtered out
 */
static bool add_late(struct lp_priv *p, struct sl_model *m, struct sl_analyzer *a,
		     const struct lp_late *l, uint64_t slice, uint64_t expected, uint64_t cost,
		     unsigned *tick_key)
{
	struct lp_cpu *c = sl_cpu_priv(m, a, l->cpu);
	struct lp_detail dd, *d = &dd;	/* copied when the list keeps the finding */
	uint64_t exp[LP_LEVELS];
	bool by_levels = false;		/* judged per group entity */

	*d = (struct lp_detail){
		.start = l->t0, .tc = l->tc, .ran = sl_dur(l->t0, l->t1),
		.expected_len = sl_dur(l->t0, expected), .slice = slice, .max_wait = l->max_wait,
		.nr_waiting = l->nr_waiters, .nr_listed = l->nr_listed, .model = (uint8_t)p->model,
		.max_wait_pid = l->max_wait_pid, .max_wait_comm = l->max_wait_comm,
		.max_wl_wait = l->max_wl_wait, .max_wl_wait_pid = l->max_wl_wait_pid,
		.max_wl_wait_comm = l->max_wl_wait_comm, .culprit_outside = l->culprit_outside,
	};
	memcpy(d->waiting, l->listed_pid, l->nr_listed * sizeof(d->waiting[0]));
	d->slice_group = -1;
	if (l->lv) {
		uint64_t s;
		int at;

		levels_expected(m, p->model, l->lv, l->nr_levels, l->t0, l->own_slice, &s, exp, &at);
		if (at >= 0) {
			d->slice_group = (int32_t)l->lv[at].group;
			by_levels = true;
		}
	}

	/* classified before it is added: the list copies d */
	enum lp_tick_class tick_class = classify_ticks(l, expected, &d->ticks);

	d->tick_class = (uint8_t)tick_class;

	/*
	 * A run by the first tick goes to the list of late-preemption-at-tick
	 * already, so that the two kinds are capped apart; split_at_tick()
	 * moves it back if HRTICK is not off after all.
	 */
	struct sl_finding f = {
		.kind = by_tick(tick_class) ? SL_KIND_LATE_PREEMPTION_AT_TICK : SL_KIND_LATE_PREEMPTION,
		.ts = l->t1, .cpu = l->cpu, .pid = l->pid,
		.comm = l->comm, .cost = cost, .victim_in_workload = l->workload_waiter,
		.ops = &lp_finding_ops, .detail = d,
		.whatif = { .cpu = -1 },
	};

	if (!sl_finding_add_copy(m, &f, sizeof(dd)))
		return false;

	struct lp_task *lr = sl_task_priv(m, a, l->task);
	uint64_t delayed = charge_waiters(m, a, l, by_levels, expected, exp);

	if (tick_class == LP_TICK_UNKNOWN) {
		/* no tick on this CPU: the end classifies it with the HZ it infers */
		unsigned mask = 0;

		for (int k = 0; k < LP_NR_CAND; k++) {
			int32_t n;
			enum lp_tick_class est;

			if (!p->cand_hz[k])
				continue;
			est = estimate_ticks(p->cand_hz[k], cost, &n);
			class_add(&p->class_est[k][est], cost, delayed);
			if (by_tick(est))
				mask |= 1u << k;
		}
		*tick_key = LP_KEY_EST + mask;
	} else {
		c->tick_class[tick_class]++;
		class_add(&p->class_sum[tick_class], cost, delayed);
		*tick_key = by_tick(tick_class) ? LP_KEY_TICK : LP_KEY_STAYS;
	}
	p->late++;
	c->late++;
	c->cost += cost;
	c->max_cost = MAX(c->max_cost, cost);
	lr->late++;
	lr->cost += cost;
	lr->max_cost = MAX(lr->max_cost, cost);
	if (l->prev_class == SL_PREV_RUNNABLE || l->prev_class == SL_PREV_PREEMPTED) {
		p->late_preempt++;
		c->late_preempt++;
		if (l->at_timer)
			c->at_timer++;
		/* their phases: the tick window of a trace without timer events (lp_finish()) */
		if (!p->timer_events)
			add_phase(p, cpu_phases(c)->late, l->t1);
	}
	return true;
}

/*
 * From 6.17 a waiter whose slice is shorter than R's cuts R's run short:
 * RUN_TO_PARITY protects R only up to the shortest slice queued in its
 * runqueue (set_protect_slice() at R's pick, update_protect_slice() at
 * an enqueue), a group entity's slice being the shortest below it, so at
 * whatever level of R's path w competes.  R is then switched w's slice
 * after the later of t0 and w's arrival, w still queued.  The earliest
 * such switch among the listed waiters (the first LP_LISTED, their last
 * wait) and that slice (*slice); 0 none.
 */
static __attribute__((noinline)) uint64_t short_waiters(const struct sl_model *m, struct lp_cpu *c,
							 uint64_t own, uint64_t t1, uint64_t *slice)
{
	uint64_t best = 0, r_slice = own ? own : sl_base_slice(m);

	listed_own(c);
	for (uint32_t i = 0; i < c->nr_listed; i++) {
		uint64_t s = custom_slice(m, c->listed[i]), until = listed_until(c, i), e;

		if (!s || s >= r_slice)
			continue;
		e = MAX(listed_since(c, i), c->t0) + s;
		if (e >= t1 || (until && e > until))
			continue;	/* after the run, or w had left */
		if (!best || e < best) {
			best = e;
			*slice = s;
		}
	}
	return best;
}

/*
 * A run judged per group entity: its slice, expected switch and cost
 * replace the flat model's; false (left as they are): no level had a
 * competitor (R's path cut at LP_LEVELS)
 */
static __attribute__((noinline)) bool judge_levels(const struct lp_priv *p, const struct sl_model *m,
						    const struct lp_cpu *c, uint64_t own, uint64_t t1,
						    uint64_t *slice, uint64_t *expected, uint64_t *cost)
{
	uint64_t exp[LP_LEVELS], s, e;
	int at;

	e = levels_expected(m, p->model, c->levels, c->nr_levels, c->t0, own, &s, exp, &at);
	if (at < 0)
		return false;	/* the flat figures stand, all three */
	*slice = s;
	*expected = e;
	*cost = sl_dur(e, t1);
	return true;
}

/*
 * judge_slice - a contended run that ran longer than the shortest slice
 *
 * The default slice grows with the CPU count, which a text without a
 * header learns as its CPUs appear.  A run late by the count so far is
 * then held, and judged again by the whole count at the end; a run on
 * time now is on time with any larger count (a longer slice).
 */
static __attribute__((noinline)) void judge_slice(struct lp_priv *p, struct sl_model *m,
						  struct sl_analyzer *a, struct lp_cpu *c, int cpu,
						  const struct sl_switch_info *sw)
{
	struct sl_task *r = c->run_task;
	uint64_t t1 = sw->ts, expected, slice, cost;
	uint64_t own = p->model == SL_SLICE_CFS ? 0 : custom_slice(m, r);
	uint64_t short_at = 0, short_slice = 0;
	struct lp_late l;

	if (c->lazy)
		place_run(p, m, c, NULL);
	/* most runs are on time: the late run's record is made only for a late one */
	cost = run_cost(p, m, sl_prio_weight(r->prio), c->nr_waiters, c->max_weight, c->sum_weight,
			own, c->t0, c->tc, t1, &slice, &expected);
	if (__builtin_expect(c->grouped, 0))
		judge_levels(p, m, c, own, t1, &slice, &expected, &cost);	/* per group entity */
	/* a trace that recorded a custom slice: a waiter's shorter one may end the run sooner */
	if (__builtin_expect(p->min_custom != 0, 0) && p->waiter_slices &&
	    (short_at = short_waiters(m, c, own, t1, &short_slice)) && short_at < expected) {
		expected = short_at;
		slice = short_slice;
		cost = sl_dur(expected, t1);
	}
	if (cost <= m->cfg->tolerance_ns) {
		/* preempted at the slice: how late that is on this machine, for the what-if */
		if (t1 >= expected &&
		    (sw->prev_class == SL_PREV_RUNNABLE || sw->prev_class == SL_PREV_PREEMPTED))
			whatif_on_time(m, cost);
		return;
	}
	l = (struct lp_late){
		.task = r, .pid = r->pid, .comm = r->comm, .weight = sl_prio_weight(r->prio),
		.cpu = cpu, .prev_class = sw->prev_class, .t0 = c->t0, .tc = c->tc,
		.t1 = t1, .nr_waiters = c->nr_waiters, .max_weight = c->max_weight,
		.sum_weight = c->sum_weight, .own_slice = own,
		.short_at = short_at, .short_slice = short_slice,
		.at_timer = c->have_tick && sl_dur(c->last_tick, t1) <= LP_TICK_WINDOW_NS,
		.workload_waiter = c->workload_waiter,
		.culprit_outside = m->workload_pid && !r->in_workload,
	};

	/*
	 * The waiters still queued at t1 waited until then.  They are the
	 * fair tasks queued here (every one is one of W), in the order they
	 * were enqueued: the longest wait is the oldest's, old[0], found
	 * without a walk of the runqueue (hundreds of tasks on hackbench, and
	 * a walk per late run was quadratic).
	 */
	if (c->nr_old) {
		struct sl_task *q = c->old[0];
		struct lp_task *lq = sl_task_priv(m, a, q);

		if (q == r && c->nr_old > 1)
			lq = sl_task_priv(m, a, q = c->old[1]);
		if (q != r && in_run(c, lq))
			note_wait(c, q, sl_dur(queued_since(q), t1));
	}
	keep_ticks(c, &l, expected);
	l.max_wait = c->max_wait;
	l.max_wait_pid = c->max_wait_task ? c->max_wait_task->pid : -1;
	l.max_wait_comm = c->max_wait_task ? c->max_wait_task->comm : 0;
	l.max_wl_wait = c->max_wl_wait;
	l.max_wl_wait_pid = c->max_wl_wait_task ? c->max_wl_wait_task->pid : -1;
	l.max_wl_wait_comm = c->max_wl_wait_task ? c->max_wl_wait_task->comm : 0;
	l.nr_listed = c->nr_listed;
	listed_own(c);
	for (uint32_t i = 0; i < c->nr_listed; i++) {
		l.listed[i] = c->listed[i];
		l.listed_pid[i] = c->listed[i]->pid;
		l.since[i] = listed_since(c, i);
		l.until[i] = listed_until(c, i);
	}
	if (__builtin_expect(c->stints_run == c->run_id, 0)) {
		l.stints = c->stints;
		l.nr_stints = c->nr_stints;
	}
	if (c->grouped) {
		place_start_listed(p, m, a, c);
		l.lv = c->levels;
		l.nr_levels = c->nr_levels;
		memcpy(l.listed_level, c->listed_level, sizeof(l.listed_level));
		memcpy(l.listed_ent, c->listed_ent, sizeof(l.listed_ent));
		l.comp_set = c->comp_set;
	}
	if (sl_slice_factor_final(m)) {
		unsigned tick_key;

		/* the tasks that run next start earlier, had the switch come at expected */
		if (add_late(p, m, a, &l, slice, expected, cost, &tick_key))
			whatif_late(m, cpu, r, expected, t1, tick_key);
		return;
	}
	/* the what-if follows its waiters now; the verdict at the end keeps or drops them */
	l.whatif_chain = whatif_late(m, cpu, r, expected, t1, LP_KEY_STAYS);
	if (l.lv) {
		/* held to the end: its levels, not its CPU's next run's */
		struct lp_level *lv = xmalloc(l.nr_levels * sizeof(*lv));

		memcpy(lv, l.lv, l.nr_levels * sizeof(*lv));
		l.lv = lv;
	}
	if (l.nr_stints) {
		/* and its waiters' earlier waits, not its CPU's next run's */
		struct lp_stint *st = xmalloc(l.nr_stints * sizeof(*st));

		memcpy(st, l.stints, l.nr_stints * sizeof(*st));
		l.stints = st;
	}
	GROW(p->held, p->held_alloc, p->nr_held + 1);
	p->held[p->nr_held++] = l;
	((struct lp_task *)sl_task_priv(m, a, r))->held_refs++;
	for (uint32_t i = 0; i < l.nr_listed; i++)
		((struct lp_task *)sl_task_priv(m, a, l.listed[i]))->held_refs++;
}

/* judge_run - the watched run of R on cpu ended at t1: compare with the model */
static inline void judge_run(struct lp_priv *p, struct sl_model *m, struct sl_analyzer *a,
			     struct lp_cpu *c, int cpu, const struct sl_switch_info *sw)
{
	uint64_t t1 = sw->ts;

	if (!c->contended || c->tc >= t1)
		return;		/* nobody waited during [t0, t1): nothing to judge */
	if (run_in_filter(m, c, cpu, t1, c->run_task)) {
		c->runs++;
		p->runs++;
		sl_hist_add(&p->contended_run, sl_dur(MAX(c->t0, c->tc), t1));
	}
	/*
	 * Most runs are shorter than any slice: their expected switch is after
	 * t1 by any model and weights (min_slice()), so they cost nothing and
	 * were not preempted at the slice either.  Judged as such without the
	 * slice, nor the group levels.
	 */
	if (sl_dur(c->t0, t1) >= run_min_slice(p, m))
		judge_slice(p, m, a, c, cpu, sw);
}

/* The runs held by judge_slice(), judged by the whole CPU count. */
static void judge_held(struct lp_priv *p, struct sl_model *m, struct sl_analyzer *a)
{
	for (size_t i = 0; i < p->nr_held; i++) {
		const struct lp_late *l = &p->held[i];
		uint64_t slice, expected, cost = late_cost(p, m, l, &slice, &expected);
		unsigned tick_key = LP_KEY_STAYS;
		bool stands = cost > m->cfg->tolerance_ns &&
			      add_late(p, m, a, l, slice, expected, cost, &tick_key);

		whatif_late_verdict(m, l->whatif_chain, stands, cost, tick_key);
		free((void *)l->lv);
		free((void *)l->stints);
	}
	free(p->held);
	p->held = NULL;
	p->nr_held = p->held_alloc = 0;
}

/* --- hooks --- */

static int lp_init(struct sl_analyzer *a, struct sl_model *m)
{
	struct lp_priv *p = a->priv;
	int k = 1, major, minor;

	p->model = sl_slice_model(m);
	p->waiter_slices = p->model == SL_SLICE_EEVDF &&
			   !(sl_kernel_version(m->info->kernel, &major, &minor) && major == 6 &&
			     minor >= 12 && minor < 17);
	p->min_slice_cpus = -1;
	sl_hist_init(&p->contended_run);
	sl_hist_init(&p->preempted_wait);
	/* slot 0: --hz when it is not one of the others */
	for (size_t i = 0; i < ARRAY_SIZE(cand_hz_fixed); i++)
		set_cand(p, k++, cand_hz_fixed[i]);
	if (m->cfg->hz > 0 && cand_slot(p, m->cfg->hz) < 0)
		set_cand(p, 0, m->cfg->hz);
	return 0;
}

static void lp_on_event(struct sl_analyzer *a, struct sl_model *m, const struct sl_event *ev)
{
	struct lp_priv *p = a->priv;
	struct lp_cpu *c;
	int b;

	if (ev->type == SL_EV_MARKER) {
		/*
		 * The watched runs not placed yet are, in the groups as they
		 * were (this analyzer's copy): the marker may change them.
		 */
		for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
			c = sl_cpu_priv(m, a, cpu);
			if (c->lazy)
				place_run(p, m, c, NULL);
		}
		groups_copy(p, m);
		p->min_slice_cpus = -1;		/* the recorded base slice may change */
		/* a group marker may make the runs from now on judged per group entity */
		p->grouped = grouped(m);
		if (!p->grouped)
			return;
		/* the watched runs' listed waiters in the groups they had at the start */
		for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
			c = sl_cpu_priv(m, a, cpu);
			if (c->run_task && c->grouped)
				place_start_listed(p, m, a, c);
		}
		gq_rebuild(p, m, a, ++p->next_enq);	/* after every watched run's start */
		return;
	}
	if (ev->type != SL_EV_TIMER_TICK)
		return;
	c = sl_cpu_priv(m, a, ev->cpu);
	p->timer_events++;
	if (c->have_tick && (b = spacing_bucket(sl_dur(c->last_tick, m->now))) >= 0) {
		p->spacing_count[b]++;
		p->spacing_sum[b] += sl_dur(c->last_tick, m->now);
		if (!p->hz_by_timers)
			p->hz_by_timers = spacing_window(p, b - 1) >= LP_MIN_SPACINGS ||
					  spacing_window(p, b) >= LP_MIN_SPACINGS ||
					  spacing_window(p, b + 1) >= LP_MIN_SPACINGS;
	}
	c->last_tick = m->now;
	c->have_tick = true;
	c->ticks[c->nr_ticks++ % LP_TICKS] = m->now;
}

/* t (never NULL) is a fair task: is_fair() */
static inline bool fair_task(const struct sl_task *t)
{
	return (unsigned)(t->prio - 100) <= 39;
}

/* out of line and not cloned (gcc; clang, of the fuzz build, knows no noclone) */
#ifdef __clang__
#define LP_OUT_OF_LINE __attribute__((noinline))
#else
#define LP_OUT_OF_LINE __attribute__((noinline, noclone))
#endif

/* t entered cpu's runqueue (lp_on_runnable()) */
static LP_OUT_OF_LINE void lp_enqueue(struct sl_analyzer *a, struct sl_model *m,
						 struct sl_task *t, int cpu, uint64_t ts)
{
	struct lp_priv *p = a->priv;
	struct lp_task *lt = sl_task_priv(m, a, t);
	struct lp_cpu *c = sl_cpu_priv(m, a, cpu);

	lt->enq_seq = ++p->next_enq;
	if (!fair_task(t))
		return;
	fq_add(c, t, lt);
	if (__builtin_expect(p->grouped, 0))
		gq_add(p, m, c, t, lt, lt->enq_seq);
	if (c->run_task && t != c->run_task)
		add_waiter(p, m, a, c, t, ts);
}

/* t, queued since since, left cpu's runqueue (lp_on_runnable(), or switched in: lp_on_switch()) */
static LP_OUT_OF_LINE void lp_dequeue(struct sl_analyzer *a, struct sl_model *m,
						 struct sl_task *t, int cpu, uint64_t ts,
						 uint64_t since)
{
	struct lp_task *lt = sl_task_priv(m, a, t);
	struct lp_cpu *c = sl_cpu_priv(m, a, cpu);
	bool watched = c->run_task && t != c->run_task;

	if (lt->in_fq) {
		uint32_t at = lt->in_old ? old_index(c, t) : LP_NOT_OLD;

		/* one of W from the start (unmarked) leaves: mark it, as add_waiter would have */
		if (watched && lt->run_id != c->run_id && lt->enq_seq <= c->start_enq) {
			if (lt->run_id)	/* a waiter still of a run elsewhere: it stays one there */
				displace(m, a, t, lt);
			lt->run_id = c->run_id;
			lt->list_idx = start_listed_index(c, t, at);
		}
		fq_del(m, a, c, lt, at);
		if (__builtin_expect(lt->in_gq, 0))
			gq_del(c, lt);
	}
	if (watched && lt->run_id == c->run_id && fair_task(t)) {
		note_wait(c, t, sl_dur(since, ts));
		if (lt->list_idx != LP_NOT_LISTED) {
			c->until[lt->list_idx] = ts;
			c->until_set |= 1u << lt->list_idx;
		}
	}
}

/* the same arguments as lp_enqueue()'s and lp_dequeue()'s, taken as they come: two jumps */
static void lp_on_runnable(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t,
			   int cpu, uint64_t ts, bool enter)
{
	if (enter)
		lp_enqueue(a, m, t, cpu, ts);
	else
		lp_dequeue(a, m, t, cpu, ts, queued_since(t));
}

static void count_unjudged(struct lp_priv *p, struct sl_model *m, int cpu, uint64_t ts,
			   const struct sl_task *t, enum lp_unjudged why)
{
	if (in_filter(m, cpu, ts, t))
		p->unjudged[why]++;
}

/*
 * The wait after preemption: from a fair task's switch-out while runnable
 * to its next switch-in, anywhere; not across lost events or an inferred
 * switch (its time is only the earliest possible).
 */
static void note_preempted_wait(struct lp_priv *p, struct sl_model *m, struct sl_analyzer *a,
				const struct sl_switch_info *sw, bool prev_fair, bool next_fair,
				bool preempted)
{
	if (next_fair) {
		struct lp_task *ln = sl_task_priv(m, a, sw->next);

		if (ln->preempted_at && !sw->implied && !(m->cpus[sw->cpu].gap_ts >= ln->preempted_at) &&
		    in_filter(m, sw->cpu, sw->ts, sw->next))
			sl_hist_add(&p->preempted_wait, sl_dur(ln->preempted_at, sw->ts));
		ln->preempted_at = 0;
	}
	if (prev_fair) {
		struct lp_task *lp = sl_task_priv(m, a, sw->prev);

		lp->preempted_at = preempted ? sw->ts : 0;
	}
}

static void lp_on_switch(struct sl_analyzer *a, struct sl_model *m, const struct sl_switch_info *sw)
{
	struct lp_priv *p = a->priv;
	struct lp_cpu *c = sl_cpu_priv(m, a, sw->cpu);
	struct sl_task *prev = sw->prev, *next = sw->next;
	bool prev_fair = is_fair(prev), next_fair = is_fair(next);
	/* prev was switched out runnable, at a switch the trace shows */
	bool preempted = !sw->implied && (sw->prev_class == SL_PREV_RUNNABLE ||
					  sw->prev_class == SL_PREV_PREEMPTED);

	/* next left its runqueue (no on_runnable call for it: SL_RUNNABLE_SWITCH_LEAVES) */
	if (sw->next_left_cpu >= 0)
		lp_dequeue(a, m, next, sw->next_left_cpu, sw->ts, sw->next_queued_since);
	/* preemption times, for HZ without timer events (read when they do not give it) */
	if (prev && preempted) {
		p->preempt_samples++;
		if (!p->hz_by_timers)
			add_phase(p, cpu_phases(c)->preempt[split_half(sw->ts)], sw->ts);
	}
	note_preempted_wait(p, m, a, sw, prev_fair, next_fair, preempted);

	/* the end of prev's run */
	if (prev_fair) {
		if (c->run_task == prev && !sw->implied && sw->prev_known &&
		    sw->prev_ran_since == c->t0)
			judge_run(p, m, a, c, sw->cpu, sw);
		else if (c->run_task == prev && sw->implied)
			count_unjudged(p, m, sw->cpu, sw->ts, prev, LP_IMPLIED);
		else if (c->unjudged_task == prev)
			count_unjudged(p, m, sw->cpu, sw->ts, prev, c->unjudged_why);
		else
			count_unjudged(p, m, sw->cpu, sw->ts, prev, LP_UNKNOWN_START);
	}
	c->run_task = NULL;
	c->lazy = false;
	c->unjudged_task = NULL;

	/* the start of next's */
	if (!next_fair)
		return;
	if (sw->implied) {
		/* the switch-in happened somewhere before this time: t0 is not known */
		c->unjudged_task = next;
		c->unjudged_why = LP_IMPLIED;
		return;
	}
	start_run(p, m, a, c, sw->cpu, next, sw->ts);
}

static void lp_on_cpu_unknown(struct sl_analyzer *a, struct sl_model *m, int cpu,
			      uint64_t gap_start, uint64_t ts)
{
	struct lp_cpu *c = sl_cpu_priv(m, a, cpu);

	if (c->run_task) {
		c->unjudged_task = c->run_task;
		c->unjudged_why = LP_LOST;
	}
	c->run_task = NULL;
	c->lazy = false;
	c->have_tick = false;	/* ticks were lost too: no spacing across the gap */
	c->nr_ticks = 0;
}

/* The late runs of CPUs without ticks, by the HZ the end knows; the totals. */
static void classify_at_end(struct lp_priv *p, struct sl_model *m, struct sl_analyzer *a,
			    int hz, int slot)
{
	const struct sl_findings *fs = m->findings;

	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct lp_cpu *c = sl_cpu_priv(m, a, cpu);

		for (int k = 0; k < LP__NR_CLASSES; k++)
			p->tick_class[k] += c->tick_class[k];
	}
	for (int k = 0; k < LP__NR_CLASSES; k++) {
		class_merge(&p->class_total[k], &p->class_sum[k]);
		if (slot >= 0) {
			p->tick_class[k] += p->class_est[slot][k].count;
			class_merge(&p->class_total[k], &p->class_est[slot][k]);
		} else {
			/* every candidate classified them all: slot 1's sum is their number */
			p->tick_class[LP_TICK_UNKNOWN] += p->class_est[1][k].count;
			class_merge(&p->class_total[LP_TICK_UNKNOWN], &p->class_est[1][k]);
		}
	}
	for (size_t i = 0; i < fs->lists[SL_KIND_LATE_PREEMPTION].nr; i++) {
		const struct sl_finding *f = &fs->lists[SL_KIND_LATE_PREEMPTION].heap[i];
		struct lp_detail *d = f->detail;

		if (d->ticks < 0)
			d->tick_class = (uint8_t)estimate_ticks(slot >= 0 ? hz : 0,
							    sl_dur(d->expected_len, d->ran), &d->ticks);
	}
}

/*
 * hrtick_state - is HRTICK off on the traced machine, and how do we know
 *
 * What schedlint record read and wrote into the trace goes first (its
 * kernel marker: hrtick=off@debugfs, ...@default when debugfs was not
 * readable and the kernel's default was taken).  Else the tick pattern
 * decides: when the late preemptions came at the tick (the cause line:
 * 80% of at least LP_MIN_LATE, HZ known), HRTICK is taken as off;
 * otherwise it is unknown and no run is set apart.
 */
static void hrtick_state(struct lp_priv *p, struct sl_model *m)
{
	p->hrtick = LP_HRTICK_UNKNOWN;
	p->hrtick_source_key = NULL;
	p->hrtick_source[0] = '\0';
	p->hrtick_short[0] = '\0';
	if (m->ctx && m->ctx->hrtick.value[0]) {
		const struct sl_kernel_fact *f = &m->ctx->hrtick;

		p->hrtick = !strcmp(f->value, "on") ? LP_HRTICK_ON : LP_HRTICK_OFF;
		p->hrtick_source_key = "recorded";
		snprintf(p->hrtick_source, sizeof(p->hrtick_source),
			 "recorded by schedlint record (from %s)", f->from[0] ? f->from : "?");
		snprintf(p->hrtick_short, sizeof(p->hrtick_short), "recorded, %s",
			 f->from[0] ? f->from : "?");
		return;
	}
	if (!p->cause[0])
		return;
	p->hrtick = LP_HRTICK_OFF;
	p->hrtick_source_key = "tick pattern";
	snprintf(p->hrtick_short, sizeof(p->hrtick_short), "tick pattern");
	snprintf(p->hrtick_source, sizeof(p->hrtick_source),
		 "assumed from the tick pattern: %" PRIu64 " of the %" PRIu64
		 " late runs that ended in a preemption came at the tick, HZ=%d", p->at_tick,
		 p->late_preempt, sl_hz(m));
}

static bool pick_at_tick(const struct sl_finding *f, void *arg)
{
	const struct lp_detail *d = f->detail;

	(void)arg;
	return by_tick(d->tick_class);
}

static bool pick_any(const struct sl_finding *f, void *arg)
{
	(void)f;
	(void)arg;
	return true;
}

/*
 * split_at_tick - with HRTICK off, the runs that ended by the first tick
 * after their slice are the kernel's design: their own kind,
 * late-preemption keeps the rest (late-tick, unknown).
 *
 * A run whose CPU showed ticks went to its kind's list when it was found
 * (add_late); one of a CPU without timer events is classified only now,
 * by the HZ the trace shows, and moves from late-preemption's list (on
 * such a trace a capped list kept the most costly of both kinds).  With
 * HRTICK not off, every late run is late-preemption's.  The summaries
 * are the classes' totals, listed or not.
 */
static void split_at_tick(struct lp_priv *p, struct sl_model *m)
{
	struct sl_kind_summary rest = { 0 }, moved = { 0 };
	bool off = p->hrtick == LP_HRTICK_OFF;

	for (int k = 0; k < LP__NR_CLASSES; k++) {
		const struct lp_class_sum *s = &p->class_total[k];
		struct sl_kind_summary *to = off && by_tick(k) ? &moved : &rest;

		to->count += s->count;
		to->cost = to->cost + s->cost < to->cost ? UINT64_MAX : to->cost + s->cost;
		to->max_cost = MAX(to->max_cost, s->max_cost);
	}
	if (off)
		sl_findings_move(m->findings, SL_KIND_LATE_PREEMPTION, SL_KIND_LATE_PREEMPTION_AT_TICK,
				 pick_at_tick, NULL, &rest, &moved);
	else
		sl_findings_move(m->findings, SL_KIND_LATE_PREEMPTION_AT_TICK, SL_KIND_LATE_PREEMPTION,
				 pick_any, NULL, &moved, &rest);
}

/*
 * The tick keys (add_late) of the runs split_at_tick set apart, for the
 * what-if: with HRTICK off, those by the first tick on a CPU with ticks,
 * and those estimated by the tick at the HZ used (candidate slot; none
 * when HZ is not a candidate: classify_at_end leaves them unknown).
 */
static uint64_t set_apart_keys(const struct lp_priv *p, int slot)
{
	uint64_t keys = 0;

	if (p->hrtick != LP_HRTICK_OFF)
		return 0;
	keys |= 1ULL << LP_KEY_TICK;
	for (unsigned mask = 0; slot >= 0 && mask < 1u << LP_NR_CAND; mask++)
		if (mask >> slot & 1)
			keys |= 1ULL << (LP_KEY_EST + mask);
	return keys;
}

static void lp_finish(struct sl_analyzer *a, struct sl_model *m)
{
	struct lp_priv *p = a->priv;
	int hz, slot;

	judge_held(p, m, a);
	if (!hz_from_timers(p))
		hz_from_preemptions(p, m, a);
	m->hz_inferred = p->hz;

	/* which late preemptions came at the tick */
	hz = sl_hz(m);
	slot = cand_slot(p, hz);
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct lp_cpu *c = sl_cpu_priv(m, a, cpu);

		if (p->timer_events)
			c->at_tick = c->at_timer;
		else if (slot >= 0 && c->phases)
			c->at_tick = best_window(c->phases->late[slot], window_bins(hz));
		p->at_tick += c->at_tick;
	}
	if (hz && p->late_preempt >= LP_MIN_LATE && p->at_tick * 5 >= p->late_preempt * 4)
		snprintf(p->cause, sizeof(p->cause),
			 "preemption only at tick, HZ=%d: HRTICK off or not armed", hz);
	classify_at_end(p, m, a, hz, slot);
	hrtick_state(p, m);
	split_at_tick(p, m);
	whatif_late_set_apart(m, set_apart_keys(p, slot));
}

/* --- report --- */

static const char *const unjudged_what[LP__NR_UNJUDGED] = {
	[LP_UNKNOWN_START] = "with an unknown start",
	[LP_IMPLIED] = "with a switch the trace does not show",
	[LP_LOST] = "across lost events",
};

static const char *model_name(enum sl_slice_model model)
{
	return model == SL_SLICE_CFS ? "cfs" : "eevdf";
}

static void model_line(struct sl_report *r, struct sl_model *m, struct lp_priv *p)
{
	char a[32], b[32], t[32];
	int ncpus = sl_ncpus(m);

	fprintf(r->out, "  model    ");
	if (p->model == SL_SLICE_CFS)
		fprintf(r->out, "CFS: latency %s, min_granularity %s%s",
			fmt_duration(a, sizeof(a), cfs_latency(m)),
			fmt_duration(b, sizeof(b), cfs_min_gran(m)),
			m->cfg->base_slice_ns ? " (--base-slice)" : "");
	else if (m->cfg->base_slice_ns)
		fprintf(r->out, "EEVDF: base slice %s (--base-slice)",
			fmt_duration(a, sizeof(a), sl_base_slice(m)));
	else if (m->ctx && m->ctx->base_slice_ns)
		fprintf(r->out, "EEVDF: base slice %s (recorded: the kernel's, sched_getattr)",
			fmt_duration(a, sizeof(a), sl_base_slice(m)));
	else
		fprintf(r->out, "EEVDF: base slice %s (0.75 ms x %u for %d CPUs)",
			fmt_duration(a, sizeof(a), sl_base_slice(m)), sl_slice_factor(m), ncpus);
	fprintf(r->out, "; tolerance %s; %s\n", fmt_duration(t, sizeof(t), m->cfg->tolerance_ns),
		m->cfg->slice_model_set ? "--slice-model" :
		m->info->kernel[0] ? "from the kernel version" : "the default");
	if (!m->cfg->base_slice_ns && !(m->ctx && m->ctx->base_slice_ns))
		fprintf(r->out, "           %d CPUs: from %s\n", ncpus, sl_ncpus_source(m));
	if (grouped(m))
		fprintf(r->out, "           per group entity: the groups schedlint record recorded\n");
	if (p->model != SL_SLICE_CFS && (min_slice(p, m, p->model), p->min_custom)) {
		if (p->min_custom < sl_base_slice(m))
			fprintf(r->out, "           custom slices recorded (sched_runtime): the shortest %s;\n"
				"           a shorter one than the base slice is its task's and limits\n"
				"           the run it waits behind\n",
				fmt_duration(a, sizeof(a), p->min_custom));
		else
			fprintf(r->out, "           custom slices recorded (sched_runtime), none shorter than\n"
				"           the base slice: not followed\n");
	}
}

/*
 * The recorded HZ and the one the trace shows, when they differ: said in
 * the report (the recorded one, or --hz, is used); false when they agree
 * or either is unknown.
 */
static bool hz_disagreement(const struct lp_priv *p, const struct sl_model *m, char *buf, size_t len)
{
	int rec = sl_hz_recorded(m);

	if (!rec || !p->hz || rec == p->hz)
		return false;
	snprintf(buf, len, "the trace shows HZ=%d (%s), schedlint record recorded HZ=%d (%s): %s",
		 p->hz, p->hz_source, rec, m->ctx->hz.from[0] ? m->ctx->hz.from : "?",
		 m->cfg->hz ? "--hz is used" : "the recorded HZ is used");
	return true;
}

/* Where the HZ used came from, for the JSON: --hz, recorded, an inference, NULL unknown. */
static const char *hz_source_key(const struct lp_priv *p, const struct sl_model *m)
{
	if (m->cfg->hz)
		return "--hz";
	if (sl_hz_recorded(m))
		return "recorded";
	return p->hz_source;
}

static void tick_line(struct sl_report *r, struct sl_model *m, struct lp_priv *p)
{
	char a[32], why[192];
	int rec = sl_hz_recorded(m);
	bool used = m->cfg->hz || rec;

	fprintf(r->out, "  tick     ");
	if (m->cfg->hz)
		fprintf(r->out, "HZ=%d (--hz)", m->cfg->hz);
	else if (rec)
		fprintf(r->out, "HZ=%d recorded by schedlint record (%s)", rec,
			m->ctx->hz.from[0] ? m->ctx->hz.from : "?");
	if (p->hz && p->hz_source && !strcmp(p->hz_source, "local_timer_entry"))
		fprintf(r->out, "%sHZ=%d from local_timer_entry (most common spacing %s, %" PRIu64
			" of %" PRIu64 " intervals)", used ? ";\n           the trace shows " : "", p->hz,
			fmt_duration(a, sizeof(a), p->hz_spacing_ns), p->hz_support, p->hz_total);
	else if (p->hz)
		fprintf(r->out, "%sHZ=%d from preemption times (%" PRIu64 " of %" PRIu64
			" in a 200 us window of the tick period: %.1fx its uniform share)",
			used ? ";\n           the trace shows " : "", p->hz, p->hz_support, p->hz_total,
			p->hz_ratio);
	else if (!used)
		fprintf(r->out, "HZ unknown (no local_timer_entry events, preemptions not quantized)");
	fputc('\n', r->out);
	if (hz_disagreement(p, m, why, sizeof(why)))
		sl_report_wrap(r, 2, 11, "%s%-8s %s%s", sl_color(r, SL_C_RED), "HZ", why,
			       sl_color(r, SL_C_RESET));
}

/* A listed task (its index: a frozen one is read through sl_kept_task()) and its sort key */
struct lp_listed {
	uint32_t i;
	int32_t pid;
	uint64_t key;			/* its cost, or the time it was delayed */
};

/* the largest key first, then the lowest pid, then the lowest index: a total order (sl_top) */
static int by_key_desc(const void *x, const void *y)
{
	const struct lp_listed *lx = x, *ly = y;

	if (lx->key != ly->key)
		return lx->key < ly->key ? 1 : -1;
	if (lx->pid != ly->pid)
		return lx->pid < ly->pid ? -1 : 1;
	return lx->i < ly->i ? -1 : lx->i > ly->i;
}

/*
 * task_list - the tasks with a non-zero field: how many, and the first
 * top of them by cost or delay in list (sl_top_free() it).  Kept for the
 * --top shown, not for every task (16 bytes a task, twice with a sort).
 */
static size_t task_list(struct sl_model *m, struct sl_analyzer *a, bool waiters, size_t top,
			struct sl_top *list)
{
	size_t n = 0;

	sl_top_init(list, top, sizeof(struct lp_listed), by_key_desc);
	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		const struct sl_task *t = sl_kept_task(m, i);
		const struct lp_task *lt = sl_task_priv(m, a, t);

		if (waiters ? lt->delayed : lt->late) {
			sl_top_add(list, &(struct lp_listed){ i, t->pid,
							      waiters ? lt->delayed_ns : lt->cost });
			n++;
		}
	}
	sl_top_sort(list);
	return n;
}

/*
 * The first screen's configuration line: the runs the tick ended right
 * after their slice with HRTICK off, as one line, not as findings.
 */
static void lp_report_summary(struct sl_analyzer *a, struct sl_model *m, struct sl_report *r)
{
	const struct lp_priv *p = a->priv;
	const struct sl_kind_summary *s = &m->findings->summary[SL_KIND_LATE_PREEMPTION_AT_TICK];
	char cost[32], saved[96], d[32];

	if (!s->count)
		return;
	fmt_duration(cost, sizeof(cost), s->cost);
	/*
	 * One claim of what HRTICK saves: the what-if's (its row of the kind,
	 * each wait moved once), not the waiters' waits past every slice they
	 * waited behind summed (hrtick.would_save_wait_ns: a wait once per
	 * run), which read as the same claim with another number.
	 */
	if (s->whatif && s->whatif_saved > 0)
		snprintf(saved, sizeof(saved), "HRTICK saves waiters %s (what-if)",
			 fmt_duration(d, sizeof(d), (uint64_t)s->whatif_saved));
	else if (s->whatif)
		snprintf(saved, sizeof(saved), "the what-if finds no wait HRTICK would save");
	else
		snprintf(saved, sizeof(saved), "their waiters waited %s past those slices, "
			 "once per run", fmt_duration(d, sizeof(d), p->class_total[LP_TICK].delayed_ns +
						      p->class_total[LP_NO_TICK].delayed_ns));
	/* three lines under the findings table: the first screen is 24 */
	sl_report_wrap(r, 2, 11, "%-8s off (%s): %" PRIu64 " %s went on to the tick past %s"
		       " slice, %s (%s%s%s); %s: echo HRTICK >"
		       " /sys/kernel/debug/sched/features", "HRTICK", p->hrtick_short, s->count,
		       s->count == 1 ? "run" : "runs", s->count == 1 ? "its" : "their", cost, sl_color(r, SL_C_YELLOW), sl_kinds[SL_KIND_LATE_PREEMPTION_AT_TICK].name,
		       sl_color(r, SL_C_RESET), saved);
}

static void lp_report_text(struct sl_analyzer *a, struct sl_model *m, struct sl_report *r)
{
	struct lp_priv *p = a->priv;
	char b[4][32];
	struct sl_top top;
	const struct lp_listed *list;
	size_t n;
	bool outside = false;

	sl_report_section(r, "Late preemption (fair tasks past their slice while others waited)");
	model_line(r, m, p);
	tick_line(r, m, p);
	if (p->cause[0])
		fprintf(r->out, "  %scause    %s%s\n           %" PRIu64 " of the %" PRIu64
			" late runs that ended in a preemption came at the tick (%s)\n",
			sl_color(r, SL_C_RED), p->cause,
			sl_color(r, SL_C_RESET), p->at_tick, p->late_preempt,
			p->timer_events ? "within 200 us after a local_timer_entry on their CPU"
					: "in one 200 us phase window of the tick period");
	else if (p->late_preempt && sl_hz(m))
		fprintf(r->out, "  at tick  %" PRIu64 " of the %" PRIu64
			" late runs that ended in a preemption\n", p->at_tick, p->late_preempt);
	fprintf(r->out, "  runs     %" PRIu64 " of %" PRIu64 " contended runs ended late", p->late, p->runs);
	if (p->runs)
		fprintf(r->out, " (%.1f%%)", 100.0 * (double)p->late / (double)p->runs);
	fputc('\n', r->out);
	if (m->findings->summary[SL_KIND_LATE_PREEMPTION_AT_TICK].count)
		fprintf(r->out, "           %" PRIu64 " by the first tick after their slice with"
			" HRTICK off (late-preemption-at-tick), %" PRIu64
			" later or unknown (late-preemption)\n",
			m->findings->summary[SL_KIND_LATE_PREEMPTION_AT_TICK].count,
			m->findings->summary[SL_KIND_LATE_PREEMPTION].count);
	if (p->unjudged[0] + p->unjudged[1] + p->unjudged[2]) {
		const char *sep = "";

		fprintf(r->out, "           not judged:");
		for (int i = 0; i < LP__NR_UNJUDGED; i++)
			if (p->unjudged[i]) {
				fprintf(r->out, "%s %" PRIu64 " %s", sep, p->unjudged[i], unjudged_what[i]);
				sep = ",";
			}
		fputc('\n', r->out);
	}
	fprintf(r->out, "  HRTICK   %s", p->hrtick == LP_HRTICK_OFF ? "off, " :
		p->hrtick == LP_HRTICK_ON ? "on (runs at the tick stay late-preemption), " :
		"unknown (the trace does not say; runs at the tick stay late-preemption)");
	if (p->hrtick != LP_HRTICK_UNKNOWN)
		fputs(p->hrtick_source, r->out);
	fputc('\n', r->out);
	if (p->late) {
		const uint64_t *k = p->tick_class;

		/* one line: the report wraps it to the width (broken by hand, it was ragged below 80) */
		fprintf(r->out, "  ticks    %" PRIu64 " at the first tick after the expected switch "
			"(HRTICK would have helped), %" PRIu64 " late-tick (more ticks passed: a "
			"non-preemptible section, lag, or the model), %" PRIu64 " before any tick",
			k[LP_TICK], k[LP_LATE_TICK], k[LP_NO_TICK]);
		if (k[LP_TICK_UNKNOWN])
			fprintf(r->out, ", %" PRIu64 " unknown (no ticks, HZ unknown)", k[LP_TICK_UNKNOWN]);
		fputc('\n', r->out);
	}
	if (!p->runs) {
		sl_report_next_steps(r, m, SL_KIND_LATE_PREEMPTION);
		return;
	}

	fputc('\n', r->out);
	sl_report_latency_header(r, 18);
	sl_report_latency_row(r, 18, "contended run", &p->contended_run);
	if (p->preempted_wait.count)
		sl_report_latency_row(r, 18, "wait, preempted", &p->preempted_wait);

	fprintf(r->out, "\n  %scpu    runs    late   late%%      total       mean      worst  at tick%s\n",
		sl_color(r, SL_C_DIM), sl_color(r, SL_C_RESET));
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct lp_cpu *c = sl_cpu_priv(m, a, cpu);

		if (!c->runs)
			continue;
		fprintf(r->out, "  %3d %7" PRIu64 " %7" PRIu64 " %6.1f%% %10s %10s %10s %8" PRIu64 "\n",
			cpu, c->runs, c->late, 100.0 * (double)c->late / (double)c->runs,
			c->late ? fmt_duration(b[0], 32, c->cost) : "-",
			c->late ? fmt_duration(b[1], 32, c->cost / c->late) : "-",
			c->late ? fmt_duration(b[2], 32, c->max_cost) : "-", c->at_tick);
	}

	n = task_list(m, a, false, (size_t)r->top, &top);
	list = (const struct lp_listed *)top.v;
	if (n) {
		fprintf(r->out, "\n  %s%-24s %7s %10s %10s %10s%s\n", sl_color(r, SL_C_DIM), "ran late",
			"times", "total", "mean", "worst", sl_color(r, SL_C_RESET));
		for (size_t i = 0; i < n && i < (size_t)r->top; i++) {
			const struct sl_task *t = sl_kept_task(m, list[i].i);
			const struct lp_task *lt = sl_task_priv(m, a, t);
			char name[40];

			snprintf(name, sizeof(name), "%s:%d%s", sl_task_comm(m, t), t->pid,
				 m->workload_pid && !t->in_workload ? " *" : "");
			outside |= m->workload_pid && !t->in_workload;
			fprintf(r->out, "  %-24s %7" PRIu64 " %10s %10s %10s\n", name, lt->late,
				fmt_duration(b[0], 32, lt->cost), fmt_duration(b[1], 32, lt->cost / lt->late),
				fmt_duration(b[2], 32, lt->max_cost));
			if (*sl_recorder_note(m, t->pid))
				fprintf(r->out, "   %s\n", sl_recorder_note(m, t->pid));
		}
		if (n > (size_t)r->top)
			fprintf(r->out, "  ... %zu more (--json lists all)\n", n - (size_t)r->top);
		if (outside)
			fputs("  * outside the workload (a task schedlint record did not start)\n", r->out);
	}
	sl_top_free(&top);

	n = task_list(m, a, true, (size_t)r->top, &top);
	list = (const struct lp_listed *)top.v;
	if (n) {
		fprintf(r->out, "\n  %s%-24s %7s %10s   %s%s\n", sl_color(r, SL_C_DIM), "waited behind them",
			"times", "delayed", "(after the expected switch)", sl_color(r, SL_C_RESET));
		for (size_t i = 0; i < n && i < (size_t)r->top; i++) {
			const struct sl_task *t = sl_kept_task(m, list[i].i);
			const struct lp_task *lt = sl_task_priv(m, a, t);
			char name[40];

			snprintf(name, sizeof(name), "%s:%d", sl_task_comm(m, t), t->pid);
			fprintf(r->out, "  %-24s %7" PRIu64 " %10s\n", name, lt->delayed,
				fmt_duration(b[0], 32, lt->delayed_ns));
			if (*sl_recorder_note(m, t->pid))
				fprintf(r->out, "   %s\n", sl_recorder_note(m, t->pid));
		}
		if (n > (size_t)r->top)
			fprintf(r->out, "  ... %zu more (--json lists all)\n", n - (size_t)r->top);
	}
	sl_top_free(&top);
	sl_report_next_steps(r, m, SL_KIND_LATE_PREEMPTION);
}

static void lp_report_json(struct sl_analyzer *a, struct sl_model *m, cJSON *root)
{
	struct lp_priv *p = a->priv;
	cJSON *o = cJSON_AddObjectToObject(root, "late_preemption");
	cJSON *nj = cJSON_AddObjectToObject(o, "not_judged");
	cJSON *cpus, *tasks;
	char hz_why[192];

	cJSON_AddStringToObject(o, "model", model_name(p->model));
	sl_json_add_u64(o, "base_slice_ns", sl_base_slice(m));
	sl_json_add_i64(o, "ncpus", sl_ncpus(m));
	cJSON_AddStringToObject(o, "ncpus_source", sl_ncpus_source_key(m));
	if (p->model == SL_SLICE_CFS) {
		sl_json_add_u64(o, "latency_ns", cfs_latency(m));
		sl_json_add_u64(o, "min_granularity_ns", cfs_min_gran(m));
	}
	sl_json_add_u64(o, "tolerance_ns", m->cfg->tolerance_ns);
	cJSON_AddBoolToObject(o, "group_entities", grouped(m));
	if (p->model != SL_SLICE_CFS)
		min_slice(p, m, p->model);	/* the kinds of the last markers scanned too */
	sl_json_add_u64_or_null(o, "custom_slice_min_ns", p->model != SL_SLICE_CFS && p->min_custom,
				p->min_custom);
	sl_json_add_u64_or_null(o, "hz", sl_hz(m) > 0, (uint64_t)sl_hz(m));
	sl_json_add_str_or_null(o, "hz_source", hz_source_key(p, m));
	sl_json_add_u64_or_null(o, "hz_inferred", p->hz > 0, (uint64_t)p->hz);
	sl_json_add_u64_or_null(o, "hz_recorded", sl_hz_recorded(m) > 0,
				(uint64_t)sl_hz_recorded(m));
	sl_json_add_str_or_null(o, "hz_disagreement",
				hz_disagreement(p, m, hz_why, sizeof(hz_why)) ? hz_why : NULL);
	sl_json_add_u64(o, "runs", p->runs);
	sl_json_add_u64(o, "late", p->late);
	sl_json_add_u64(o, "late_preemptions", p->late_preempt);
	sl_json_add_u64(o, "at_tick", p->at_tick);
	if (p->cause[0])
		cJSON_AddStringToObject(o, "cause", p->cause);
	else
		cJSON_AddNullToObject(o, "cause");
	{
		cJSON *tc = cJSON_AddObjectToObject(o, "tick_classes");

		for (int k = 0; k < LP__NR_CLASSES; k++)
			sl_json_add_u64(tc, tick_class_names[k], p->tick_class[k]);
	}
	{
		cJSON *h = cJSON_AddObjectToObject(o, "hrtick");
		struct lp_class_sum t = p->class_total[LP_TICK];

		class_merge(&t, &p->class_total[LP_NO_TICK]);

		cJSON_AddStringToObject(h, "state", p->hrtick == LP_HRTICK_OFF ? "off" :
					p->hrtick == LP_HRTICK_ON ? "on" : "unknown");
		if (p->hrtick_source_key) {
			cJSON_AddStringToObject(h, "source", p->hrtick_source_key);
			cJSON_AddStringToObject(h, "why", p->hrtick_source);
		} else {
			cJSON_AddNullToObject(h, "source");
		}
		/* the runs by the first tick, set apart or not, and their waiters' wait past the slice */
		sl_json_add_u64(h, "tick_runs", t.count);
		sl_json_add_u64(h, "tick_cost_ns", t.cost);
		sl_json_add_u64(h, "would_save_wait_ns", t.delayed_ns);
		cJSON_AddBoolToObject(h, "set_apart",
				      m->findings->summary[SL_KIND_LATE_PREEMPTION_AT_TICK].count > 0);
	}
	cJSON_AddItemToObject(o, "contended_run", sl_hist_json(&p->contended_run));
	cJSON_AddItemToObject(o, "wait_after_preemption", sl_hist_json(&p->preempted_wait));
	sl_json_add_u64(nj, "unknown_start", p->unjudged[LP_UNKNOWN_START]);
	sl_json_add_u64(nj, "implied_switch", p->unjudged[LP_IMPLIED]);
	sl_json_add_u64(nj, "lost_events", p->unjudged[LP_LOST]);

	cpus = cJSON_AddArrayToObject(o, "cpus");
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct lp_cpu *c = sl_cpu_priv(m, a, cpu);

		if (!c->runs)
			continue;
		cJSON *co = cJSON_CreateObject();

		sl_json_add_i64(co, "cpu", cpu);
		sl_json_add_u64(co, "runs", c->runs);
		sl_json_add_u64(co, "late", c->late);
		sl_json_add_u64(co, "cost_ns", c->cost);
		sl_json_add_u64(co, "max_cost_ns", c->max_cost);
		sl_json_add_u64(co, "late_preemptions", c->late_preempt);
		sl_json_add_u64(co, "at_tick", c->at_tick);
		cJSON_AddItemToArray(cpus, co);
	}
	tasks = cJSON_AddArrayToObject(o, "tasks");
	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		const struct sl_task *t = sl_kept_task(m, i);
		const struct lp_task *lt = sl_task_priv(m, a, t);

		if (!lt->late && !lt->delayed)
			continue;
		cJSON *to = cJSON_CreateObject();

		sl_json_add_i64(to, "pid", t->pid);
		cJSON_AddStringToObject(to, "comm", sl_task_comm(m, t));
		sl_json_add_u64(to, "late", lt->late);
		sl_json_add_u64(to, "cost_ns", lt->cost);
		sl_json_add_u64(to, "max_cost_ns", lt->max_cost);
		sl_json_add_u64(to, "delayed", lt->delayed);
		sl_json_add_u64(to, "delayed_ns", lt->delayed_ns);
		cJSON_AddItemToArray(tasks, to);
	}
}

static void lp_destroy(struct sl_analyzer *a, struct sl_model *m)
{
	struct lp_priv *p = a->priv;

	for (size_t i = 0; i < p->nr_held; i++) {
		free((void *)p->held[i].lv);
		free((void *)p->held[i].stints);
	}
	free(p->held);
	p->held = NULL;
	free(p->groups);
	p->groups = NULL;
	sl_hist_free(&p->contended_run);
	sl_hist_free(&p->preempted_wait);
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct lp_cpu *c = sl_cpu_priv(m, a, cpu);

		free(c->phases);
		c->phases = NULL;
		free(c->levels);
		c->levels = NULL;
		free(c->gq);
		c->gq = NULL;
		c->nr_gq = 0;
		free(c->joins);
		c->joins = NULL;
		free(c->saved);
		c->saved = NULL;
		free(c->displaced);
		c->displaced = NULL;
		free(c->stints);
		c->stints = NULL;
	}
}

/* In a runqueue list, a run being watched, or a late run held to the end. */
static bool lp_task_in_use(struct sl_analyzer *a, struct sl_model *m, const struct sl_task *t)
{
	const struct lp_task *lt = sl_task_priv(m, a, t);

	if (lt->in_fq || lt->in_old || lt->held_refs)
		return true;
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct lp_cpu *c = sl_cpu_priv(m, a, cpu);

		if (c->run_task == t || c->max_wait_task == t || c->unjudged_task == t)
			return true;
		for (uint32_t i = 0; i < c->nr_listed && i < LP_LISTED; i++)
			if (listed_get(c, i) == t)
				return true;
		for (uint32_t i = 0; i < c->nr_old && i <= LP_LISTED; i++)
			if (c->old[i] == t)
				return true;
		for (uint32_t i = 0; c->run_task && i < c->nr_displaced; i++)
			if (c->displaced[i].task == t)
				return true;
	}
	return false;
}

const struct sl_analyzer_ops sl_late_preemption_analyzer = {
	.name = "late-preemption",
	.priv_size = sizeof(struct lp_priv),
	.task_priv_size = sizeof(struct lp_task),
	.cpu_priv_size = sizeof(struct lp_cpu),
	.init = lp_init,
	.on_event = lp_on_event,
	.event_types = SL_EV_BIT(SL_EV_TIMER_TICK) | SL_EV_BIT(SL_EV_MARKER),
	.on_runnable = lp_on_runnable,
	.runnable_calls = SL_RUNNABLE_ENTERS | SL_RUNNABLE_LEAVES,	/* a switch-in's: lp_on_switch() */
	.on_switch = lp_on_switch,
	.on_cpu_unknown = lp_on_cpu_unknown,
	.task_in_use = lp_task_in_use,
	.finish = lp_finish,
	.report_summary = lp_report_summary,
	.report_text = lp_report_text,
	.report_json = lp_report_json,
	.destroy = lp_destroy,
};
