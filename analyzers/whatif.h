/* SPDX-License-Identifier: GPL-2.0 */
/*
 * whatif.h - what the finding analyzers tell the what-if (whatif.c)
 *
 * Each analyzer that counts a finding tells whatif.c whose wait it made
 * longer and the one fact the other decision's estimate needs; the
 * analyzers that measure what a good decision costs on this machine (a
 * local handoff, a switch at the slice) report those too.  whatif.c
 * turns them into estimates at the end of the trace (man
 * schedlint-analyze, WHAT IF).  Calls from analyzers/ only: the what-if
 * is an analyzer, found by its ops in the model's list.
 */
#ifndef SCHEDLINT_ANALYZERS_WHATIF_H
#define SCHEDLINT_ANALYZERS_WHATIF_H

#include <stdbool.h>
#include <stdint.h>

#include "schedlint/findings.h"
#include "schedlint/model.h"

/* A wait a finding says a bad decision made longer. */
struct whatif_victim {
	uint8_t kind;			/* enum sl_kind */
	struct sl_task *task;		/* the task that waited */
	uint64_t wake_seq;		/* its wakeup the wait is part of; 0 none (a preempted task) */
	uint64_t start, end;		/* the wait as the analyzer saw it */
	/*
	 * sync-wake-remote: from the waking to the waker's block;
	 * idle-while-runnable: the overlap with the idle CPU
	 */
	uint64_t fact;
	int32_t cpu;			/* where it waited */
	int32_t alt_cpu;		/* where the other decision runs it */
	int32_t waker_cpu;		/* wakee-stacking: whose CPU the placement came from */
	/* the finding: its time and task, to find it again */
	uint64_t key_ts;
	int32_t key_pid;
};

/* A finding was counted (or held): note its victim. */
void whatif_victim(struct sl_model *m, const struct whatif_victim *v);
/*
 * A held finding's verdict at the end (wakee-stacking, idle-while-
 * runnable: stands() of held.h): it stands with f as it is now (its
 * cost may have been cut at lost events, its other CPU is alt_cpu: an
 * idle CPU that lost events is none) or is dropped.  key_ts is f's time
 * when it was held (with recorded affinity, idle-while-runnable may move
 * f to the overlap with a CPU the task was allowed on).
 */
void whatif_held_verdict(const struct sl_model *m, const struct sl_finding *f, uint64_t key_ts,
			 bool stands, int alt_cpu);
/*
 * A late run (a late-preemption finding, or one late-preemption may set
 * apart as late-preemption-at-tick): the run of r on cpu should have
 * ended at expected and ended at t1; its waiters start the difference
 * earlier.  tick_key is late_preemption.c's key of the run's tick class
 * (< WHATIF_TICK_KEYS; any value when the verdict comes later), by which
 * its finish says which runs it set apart (whatif_late_set_apart).
 * Returns its chain (0 none), for whatif_late_verdict.
 */
#define WHATIF_TICK_KEYS	64
uint32_t whatif_late(struct sl_model *m, int cpu, struct sl_task *r, uint64_t expected, uint64_t t1,
		     unsigned tick_key);
/*
 * A held late run (a text whose CPU count could still grow) judged at the
 * end: it stands with the shift (t1 - expected by the whole count) and its
 * tick key, or its waiters' estimates are dropped.
 */
void whatif_late_verdict(struct sl_model *m, uint32_t chain, bool stands, uint64_t shift,
			 unsigned tick_key);
/*
 * late-preemption's finish: the runs whose tick key is in the set (bit
 * key) are late-preemption-at-tick's, the others stay late-preemption's.
 * Each kind's what-if row counts its own runs' waiters; all kinds, both.
 */
void whatif_late_set_apart(struct sl_model *m, uint64_t tick_keys);

/* Measurements of good decisions, from the whole trace (the filters do not apply) */
/* a synchronous wakeup kept on the waker's CPU: its latency, and the waking to the waker's block */
void whatif_local_handoff(struct sl_model *m, uint64_t latency, uint64_t sleep_after);
/* a contended run switched (preempted) at or after its expected time, within the tolerance */
void whatif_on_time(struct sl_model *m, uint64_t delay);

#endif /* SCHEDLINT_ANALYZERS_WHATIF_H */
