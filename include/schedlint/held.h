/* SPDX-License-Identifier: GPL-2.0 */
/*
 * held.h - findings whose verdict waits for the end of the trace
 *
 * Some verdicts need the whole trace: a task is migratable when it is seen
 * running on two CPUs anywhere in it (SPEC "Affinity"), and events a CPU
 * lost show up only at that CPU's next event, maybe long after the moment
 * a finding looked at.  An analyzer holds such candidates here and decides
 * them in its finish hook: it walks the items, adds the ones that stand
 * with sl_finding_add(), and gives each task's tally to
 * sl_findings_add_unlisted() when the task's verdict is yes.
 *
 * Memory stays bounded: the list keeps the max most costly candidates;
 * when it is full, the cheapest is folded into its task's tally (count,
 * total and worst cost, in the analyzer's task slot), which is decided
 * with the task but is never listed nor checked item by item.  Candidates
 * that do not pass the filters are dropped when added.
 */
#ifndef SCHEDLINT_HELD_H
#define SCHEDLINT_HELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "findings.h"

struct sl_analyzer;
struct sl_model;
struct sl_task;

/* Candidates a task had beyond the held list; lives in the analyzer's task slot. */
struct sl_held_tally {
	uint64_t count;
	uint64_t cost;			/* total, saturating */
	uint64_t max_cost;
	uint32_t items;			/* its candidates in a held list now */
};

struct sl_held_item {
	struct sl_finding f;		/* its detail is owned by the list */
	struct sl_task *task;
};

/* Where a finding's affinity verdict came from (issue 20: the report says). */
enum sl_aff_source {
	SL_AFF_RECORDED = 0,		/* the masks schedlint record wrote into the trace */
	SL_AFF_INFERRED,		/* seen running on two CPUs (since its last stopper move) */
	SL_AFF_ASSUMED,			/* --assume-migratable */
	SL_AFF__NR,
	SL_AFF_NONE = SL_AFF__NR,	/* not migratable: no finding */
};

/* What a stands() callback says of a candidate. */
enum sl_stand {
	SL_STANDS = 0,
	SL_FALLS,			/* lost events, or too little left */
	SL_FALLS_AFFINITY,		/* its recorded affinity excludes the CPUs it was about */
};

typedef enum sl_stand (*sl_held_stands_fn)(void *ctx, const struct sl_model *m,
					   struct sl_finding *f, const struct sl_task *t);

/* What affinity decided, summed over an analyzer's candidates (in held[0]). */
struct sl_held_affinity {
	uint64_t kept[SL_AFF__NR];	/* findings, listed or not, by their affinity source */
	uint64_t kept_after_stopper;	/* inferred ones judged from after a migration/N move */
	uint64_t not_allowed;		/* candidates whose recorded affinity excluded them */
	uint64_t not_migratable;	/* candidates of tasks not migratable (or unknown) */
	uint64_t after_stopper;		/* of those, tasks judged from after a migration/N move */
	uint64_t kept_after_exec;	/* inferred ones of tasks that exec'd: judged from after */
	uint64_t after_exec;		/* not migratable ones of tasks that exec'd */
};

struct sl_held {
	struct sl_held_item *items;	/* min-heap on cost while adding */
	size_t nr, max, alloc;
	const struct sl_analyzer *a;	/* whose task slots hold the tallies */
	size_t tally_off;		/* offset of struct sl_held_tally in them */
	uint64_t evicted;		/* items folded into tallies */
	sl_held_stands_fn stands;	/* checks a recorded task's candidate when it is tallied */
	void *ctx;
	struct sl_held_affinity aff;
};

void sl_held_init(struct sl_held *h, const struct sl_analyzer *a, size_t tally_off, size_t max,
		  sl_held_stands_fn stands, void *ctx);
/* Hold f, a candidate about task t; false when the filters drop it (detail freed). */
bool sl_held_add(struct sl_model *m, struct sl_held *h, struct sl_task *t, const struct sl_finding *f);
/*
 * Does h still need task t: a candidate of its held, or a tally to decide
 * at the end (the model does not fold such a dead task)?
 */
bool sl_held_needs(const struct sl_model *m, const struct sl_held *h, const struct sl_task *t);
struct sl_held_tally *sl_held_tally(const struct sl_model *m, const struct sl_held *h,
				    const struct sl_task *t);
/*
 * Free every item's detail and the list (after finish: the items the
 * analyzer handed to sl_finding_add() must have their f.detail set to NULL).
 */
void sl_held_free(struct sl_held *h);

/*
 * The affinity verdict (issue 20): a task with recorded affinity is judged
 * finding by finding (stands(): the CPUs it was about must be allowed
 * then); otherwise migratable when seen running on two CPUs since its last
 * move by a migration/N stopper, or not known to be pinned with
 * --assume-migratable.  Decided at the end.  sl_held_known_migratable()
 * says it is likely already (two CPUs seen, or allowed now); an analyzer
 * holds those tasks' candidates apart, in held[1], where the candidates
 * of tasks that turn out pinned cannot crowd them out.
 */
enum sl_aff_source sl_held_source(const struct sl_model *m, const struct sl_task *t);
bool sl_held_known_migratable(const struct sl_model *m, const struct sl_task *t);
/* May t run on cpu at ts, as far as its recorded affinity tells (true without one)? */
bool sl_held_allowed(const struct sl_model *m, const struct sl_task *t, int cpu, uint64_t ts);
extern const char *const sl_aff_source_names[SL_AFF__NR];

/*
 * At the end of the trace: every candidate in held[0] and held[1] whose
 * task is migratable and for which stands() says yes becomes a finding of
 * its kind; the tallies of migratable tasks are counted as unlisted
 * findings; both lists are freed; held[0].aff says what affinity decided.
 * stands() (given to sl_held_init()) may trim the finding's detail.
 */
void sl_held_decide(struct sl_model *m, struct sl_held held[2], enum sl_kind kind);

struct cJSON;
struct sl_report;
/* Any candidate at all, kept or left out by affinity? */
bool sl_held_affinity_any(const struct sl_held_affinity *aff);
/*
 * The lines of a section that say where its findings' affinity came from
 * and what it left out ("waits", "wakeups": what a candidate is).
 */
void sl_held_affinity_text(struct sl_report *r, const struct sl_held_affinity *aff,
			   const char *what);
/* The same as the JSON object "affinity" of obj. */
void sl_held_affinity_json(struct cJSON *obj, const struct sl_held_affinity *aff);

/*
 * Where CPUs lost events, to check held candidates at the end: a gap is
 * learned at the CPU's next event after it, and the CPU's state is
 * unknown from its last event before (start) to that point (end), and
 * until its next sched_switch.  Record each with sl_gaps_add() from the
 * on_cpu_unknown hook.
 */
struct sl_gap {
	uint64_t start, end;		/* the state is unknown in (start, end] */
};

struct sl_gaps {
	struct sl_gap_list {
		struct sl_gap *gap;	/* in time order */
		size_t nr, alloc;
	} *cpu;
	int nr_cpus;
	size_t cpus_alloc;
};

void sl_gaps_add(struct sl_gaps *gs, int cpu, uint64_t start, uint64_t end);
/* The first gap of cpu that overlaps (a, b], or NULL. */
const struct sl_gap *sl_gaps_find(const struct sl_gaps *gs, int cpu, uint64_t a, uint64_t b);
void sl_gaps_free(struct sl_gaps *gs);

#endif /* SCHEDLINT_HELD_H */
