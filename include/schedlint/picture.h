/* SPDX-License-Identifier: GPL-2.0 */
/*
 * picture.h - who ran, who waited and who idled, CPU by CPU, at one moment
 *
 * The terminal report shows, under a finding, the CPUs of its LLC at the
 * moment the finding was made.  The model keeps no history, so an
 * analyzer takes the picture then and keeps only a few, for the most
 * costly findings (struct sl_picture_keeper), reusing the buffers of the
 * others.  Taken with a census of the CPUs' states per LLC (struct
 * sl_census, kept up to date from the analyzer's hooks), a picture costs
 * O(SL_PICTURE_MAX_CPUS + must), not a pass over the LLC: pictures are
 * taken for every candidate before its cost is known.
 */
#ifndef SCHEDLINT_PICTURE_H
#define SCHEDLINT_PICTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct sl_model;
struct sl_task;

enum sl_picture_state {
	SL_PICTURE_UNKNOWN = 0,		/* its state is not known (no switch yet, lost events) */
	SL_PICTURE_IDLE,		/* idle task, nothing queued or pending */
	SL_PICTURE_BUSY,		/* runs a task, or has tasks queued or pending */
};

#define SL_PICTURE_WAITERS	2	/* waiting tasks named per CPU */
#define SL_PICTURE_MAX_CPUS	16	/* CPUs pictured one by one (and those asked for); the rest are counted */

struct sl_picture_cpu {
	int32_t cpu;
	uint8_t state;			/* enum sl_picture_state */
	int32_t curr_pid;		/* 0: the idle task */
	uint32_t curr_comm;
	uint16_t nr_queued, nr_pending;
	int32_t wait_pid[SL_PICTURE_WAITERS];	/* the subject first when it waits here */
	uint32_t wait_comm[SL_PICTURE_WAITERS];
	bool wait_pending[SL_PICTURE_WAITERS];	/* placed, not enqueued yet */
};

struct sl_picture {
	uint64_t ts;			/* the moment */
	int32_t subject_pid;		/* the finding's task, starred */
	uint32_t nr, alloc;
	struct sl_picture_cpu *cpus;	/* in CPU order */
	uint32_t rest_busy, rest_idle, rest_unknown;	/* CPUs beyond SL_PICTURE_MAX_CPUS */
};

/*
 * Take the picture of the CPUs sharing an LLC with cpu, now.  The CPUs in
 * must[] (negative entries ignored) are pictured even in a large LLC.
 */
void sl_picture_take(struct sl_picture *p, const struct sl_model *m, int cpu,
		     const struct sl_task *subject, const int *must, int nr_must);

/*
 * Which CPUs are idle and which unknown, per LLC domain, as the model had
 * them when last told, for pictures of large LLCs and for questions like
 * "which CPUs of this one's LLC are idle".  The analyzer that keeps one
 * feeds it from its hooks (the sl_census_on_* calls below, each O(1)).
 * Idle comes from on_cpu_idle; a CPU becomes known at a switch on it and
 * unknown by lost events -- or when the model saw its running task switch
 * in or out on another CPU (its switch-out here was missed), which no
 * hook reports for this CPU: the census notes per task (a slot in the
 * analyzer's task_priv) the CPU it was switched in on, and looks at that
 * CPU when the task switches elsewhere.  A fork may reuse a running
 * task's pid: then every CPU is looked at again before the next use.
 * (model.c takes a running task off its CPU nowhere else.)
 */
struct sl_census {
	/* the LLC layout it was built for (the model learns it late, and CPUs appear) */
	const int *llc_of;
	int nr_llc_cpus, nr_cpus, cpus_alloc;
	int nr_doms;			/* domains; CPUs of no domain share it with none */
	int *dom;			/* per CPU: its domain, -1 none */
	int *members;			/* the CPUs of each domain, ascending */
	int *first;			/* domain d's members: [first[d], first[d + 1]) */
	uint32_t words;			/* bitmap words per domain: every CPU that can join one */
	uint64_t *masks;		/* per domain: bitmap of its CPUs (words each) */
	uint32_t *nr_unknown;		/* per domain: CPUs in an unknown state */
	bool *unknown;			/* per CPU: its state is unknown */
	bool *lost;			/* per CPU: lost events, unknown until its next switch */
	bool dirty;			/* every CPU to be looked at again before use */
	/* the idle CPUs (on_cpu_idle), kept apart from the layout */
	uint64_t *idle;
	uint32_t idle_words, nr_idle;
};

/* the slot an analyzer keeps per task for the census (zero-initialized = none) */
typedef int32_t sl_census_slot;

void sl_census_free(struct sl_census *cs);
/* Bring the layout (the LLC domains, new CPUs) and a dirty census up to date; O(1) else. */
void sl_census_sync(struct sl_census *cs, const struct sl_model *m);
/* on_cpu_unknown (after any picture of the moment before the loss) */
void sl_census_on_cpu_lost(struct sl_census *cs, const struct sl_model *m, int cpu);
/* the uncommon cases of the inline hooks below */
void sl_census_idle_grow(struct sl_census *cs, int cpu);
void sl_census_switch_slow(struct sl_census *cs, const struct sl_model *m, int cpu,
			   const struct sl_task *prev, sl_census_slot *prev_slot,
			   const struct sl_task *next, sl_census_slot *next_slot);

/* on_cpu_idle (inline: every flip of every CPU) */
static inline void sl_census_on_cpu_idle(struct sl_census *cs, int cpu, bool idle)
{
	uint64_t bit;

	if (cpu < 0)
		return;
	if ((uint32_t)cpu / 64 >= cs->idle_words)
		sl_census_idle_grow(cs, cpu);
	bit = 1ULL << ((uint32_t)cpu % 64);
	if (!(cs->idle[(uint32_t)cpu / 64] & bit) == !idle)
		return;
	cs->idle[(uint32_t)cpu / 64] ^= bit;
	cs->nr_idle += idle ? 1 : -1;
}

/*
 * on_switch: the switch's CPU, and its prev and next tasks with their
 * slots (NULL: the idle task).  Inline: every switch.
 */
static inline void sl_census_on_switch(struct sl_census *cs, const struct sl_model *m, int cpu,
				       const struct sl_task *prev, sl_census_slot *prev_slot,
				       const struct sl_task *next, sl_census_slot *next_slot)
{
	if (cpu < 0 || cpu >= cs->nr_cpus || cs->unknown[cpu] || cs->lost[cpu] ||
	    (prev_slot && *prev_slot && *prev_slot != cpu + 1) ||
	    (next_slot && *next_slot && *next_slot != cpu + 1)) {
		sl_census_switch_slow(cs, m, cpu, prev, prev_slot, next, next_slot);
		return;
	}
	if (prev_slot)
		*prev_slot = 0;
	if (next_slot)
		*next_slot = cpu + 1;
}

/* on_event, for a fork: it may reuse a running task's pid, and no hook names that task */
static inline void sl_census_on_fork(struct sl_census *cs)
{
	cs->dirty = true;
}
/* The bitmap (cs->words) of cpu's LLC domain, cpu included; NULL when it shares it with none. */
const uint64_t *sl_census_llc_mask(struct sl_census *cs, const struct sl_model *m, int cpu);

/* sl_picture_take(), with the rest of a large LLC counted by the census. */
void sl_picture_take_counted(struct sl_picture *p, struct sl_census *cs, const struct sl_model *m,
			     int cpu, const struct sl_task *subject, const int *must, int nr_must);

/* A CPU to point at in the printout ("<- placed here"). */
struct sl_picture_mark {
	int cpu;
	const char *note;
};

/* One line per CPU, runs of plain idle (or unknown) CPUs merged, at most max_lines. */
void sl_picture_print(FILE *out, const struct sl_picture *p, const struct sl_model *m,
		      const char *indent, const struct sl_picture_mark *marks, int nr_marks,
		      int max_lines);

/* The pictures of the most costly findings, and spare buffers. */
struct sl_kept_picture {
	uint64_t cost, ts;		/* the finding's: the key is (pid, ts, cpu) */
	int32_t pid, cpu;
	struct sl_picture *pic;
};

struct sl_picture_keeper {
	struct sl_kept_picture *kept;
	size_t nr, max;
	struct sl_picture **pool;	/* buffers to reuse */
	size_t nr_pool, alloc_pool;
};

void sl_picture_keeper_init(struct sl_picture_keeper *k, size_t max);
/* A buffer to take a picture in (reused, or new). */
struct sl_picture *sl_picture_get(struct sl_picture_keeper *k);
/* Give a buffer back (NULL is fine). */
void sl_picture_put(struct sl_picture_keeper *k, struct sl_picture *p);
/* Would a finding of this cost keep its picture? */
bool sl_picture_wanted(const struct sl_picture_keeper *k, uint64_t cost);
/* Keep pic for the finding (pid, ts, cpu) of cost, or give it back if it is cheaper than all. */
void sl_picture_keep(struct sl_picture_keeper *k, struct sl_picture *pic, uint64_t cost,
		     int32_t pid, uint64_t ts, int32_t cpu);
const struct sl_picture *sl_picture_find(const struct sl_picture_keeper *k, int32_t pid,
					 uint64_t ts, int32_t cpu);
void sl_picture_keeper_free(struct sl_picture_keeper *k);

/* "1-3,5,7" from a sorted list of CPUs */
const char *sl_fmt_cpus(char *buf, size_t len, const int32_t *cpus, size_t n);

#endif /* SCHEDLINT_PICTURE_H */
