/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analyzer.h - the interface between the state model and the analyzers
 *
 * An analyzer is one file in analyzers/ with a struct sl_analyzer_ops and
 * one line in analyzers/registry.c.  The model calls its hooks after it
 * has applied each transition, so an analyzer sees the state the SPEC's
 * rules give at that instant and reads it through model.h.  Every hook is
 * optional.  Analyzers keep their own state in ->priv (priv_size bytes,
 * zeroed) and, per task and per CPU, in slots the model allocates with
 * each task and CPU (task_priv_size / cpu_priv_size bytes, zeroed; see
 * sl_task_priv() / sl_cpu_priv()).
 *
 * Analyzers that hold findings whose verdict depends on the whole trace
 * (affinity is "seen on two CPUs anywhere") keep candidates until finish.
 */
#ifndef SCHEDLINT_ANALYZER_H
#define SCHEDLINT_ANALYZER_H

#include <stdio.h>

#include "findings.h"
#include "model.h"

struct cJSON;
struct sl_report;

#define SL_TASK_HISTS 2		/* sl_analyzer_ops.task_hists */
#define SL_RUNNABLE_ENTERS 1	/* sl_analyzer_ops.runnable_calls */
#define SL_RUNNABLE_LEAVES 2	/* the leaves but a switch-in's */
#define SL_RUNNABLE_SWITCH_LEAVES 4	/* the leave of a task switched in */

struct sl_analyzer;

struct sl_analyzer_ops {
	const char *name;
	size_t priv_size;
	size_t task_priv_size;
	/*
	 * Its task slot after the others' (the calls keep registry order):
	 * a large slot that would push the smaller ones after it onto more
	 * cache lines of the task (model.c, task_alloc())
	 */
	bool task_priv_last;
	size_t cpu_priv_size;

	/* once, before the first event; non-zero = cannot run (reported) */
	int (*init)(struct sl_analyzer *a, struct sl_model *m);
	/* every event, after the model applied it (IPIs, ticks, ...) */
	void (*on_event)(struct sl_analyzer *a, struct sl_model *m, const struct sl_event *ev);
	/* the events on_event wants: SL_EV_BIT(type) | ..., 0 = every event */
	uint32_t event_types;
	/*
	 * Once, after the event being applied, when the analyzer asked for
	 * it with sl_model_after_event() while the model applied it (after
	 * every on_event of that event).  Rarely wanted: no call per event
	 * to find that nothing is to do.
	 */
	void (*after_event)(struct sl_analyzer *a, struct sl_model *m);
	/* a wakee's destination CPU was decided (SPEC rule 2) */
	void (*on_placement)(struct sl_analyzer *a, struct sl_model *m, const struct sl_placement *p);
	/* a woken task was switched in: one wakeup-latency sample */
	void (*on_latency)(struct sl_analyzer *a, struct sl_model *m, const struct sl_latency_sample *s);
	/*
	 * a sched_switch was applied (after every on_latency of the switch;
	 * sw->next_left_cpu says whether next left a runqueue here)
	 */
	void (*on_switch)(struct sl_analyzer *a, struct sl_model *m, const struct sl_switch_info *sw);
	/*
	 * t entered (enter) or left cpu's runqueue (SL_TASK_QUEUED; its state
	 * is still QUEUED when it leaves).  Not called for a wakeup's pending
	 * window (SL_TASK_PENDING: placed, not enqueued yet): no analyzer
	 * needed it, and the call per placement and per enqueue was 3% of
	 * analyze's instructions on hackbench.
	 */
	void (*on_runnable)(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t,
			    int cpu, uint64_t ts, bool enter);
	/*
	 * The on_runnable calls it wants, ORed: SL_RUNNABLE_ENTERS, SL_RUNNABLE_LEAVES
	 * (a task leaves but not because it is switched in: a migration,
	 * its CPU lost, ...), SL_RUNNABLE_SWITCH_LEAVES (the task switched
	 * in leaves its runqueue); 0 = all of them.  One that acts only when
	 * a task enters says so: it is not called at every dequeue to return
	 * at once.  One that has an on_switch reads a switch-in's leave
	 * there (sl_switch_info: next_left_cpu, next_queued_since) rather
	 * than in a call of its own at nearly every switch: it handles it
	 * first, so that it sees the leave before the switch as the call
	 * did.  Unlike the call, the model has then applied the whole switch
	 * (next is RUNNING, its since is the switch's ts, its wakeup closed),
	 * and any on_cpu_idle of the switch came first: the CPU left runs
	 * nothing if next was its last queued (a flip to idle and back, at
	 * the same ts).
	 */
	uint8_t runnable_calls;
	/* cpu became idle (known, idle task, nothing queued or pending) or stopped being */
	void (*on_cpu_idle)(struct sl_analyzer *a, struct sl_model *m, int cpu, uint64_t ts, bool idle);
	/* cpu's buffer lost events: its state is unknown from gap_start until its next switch */
	void (*on_cpu_unknown)(struct sl_analyzer *a, struct sl_model *m, int cpu,
			       uint64_t gap_start, uint64_t ts);
	/*
	 * The model would fold dead task t (SL_KEEP_DEAD_TASKS): task_in_use
	 * says whether this analyzer still refers to it (a pointer or index
	 * kept, a wakeup or candidate open, a verdict due at the end); when
	 * no analyzer does, fold_task frees what t's slot holds (the slot is
	 * then zeroed and reused).  An analyzer without task_in_use that has
	 * a task slot or any hook keeps every task: nothing is folded.
	 * The same test freezes a dead task long before it is folded (model.h:
	 * sl_kept_task()): its struct and slots are packed into a few bytes,
	 * and its pointer is no longer the task's.  So an analyzer keeps no
	 * pointer to a task it does not say it uses, reads the kept tasks
	 * through sl_kept_task() (or skips a frozen one, t->frozen, where its
	 * task_in_use says the slot holds nothing), and writes to one through
	 * sl_kept_task_thawed().
	 */
	bool (*task_in_use)(struct sl_analyzer *a, struct sl_model *m, const struct sl_task *t);
	void (*fold_task)(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t);
	/*
	 * The histograms its task slot keeps for a dead task (their offsetof
	 * in the slot): a frozen task keeps their compacted buckets in its
	 * record, not in blocks of their own (task_freeze.c).
	 */
	size_t task_hists[SL_TASK_HISTS];
	int nr_task_hists;
	/* the end of the trace (m->last_ts) */
	void (*finish)(struct sl_analyzer *a, struct sl_model *m);
	/*
	 * its lines on the terminal report's first screen, under the findings
	 * table (a configuration finding's one line; optional)
	 */
	void (*report_summary)(struct sl_analyzer *a, struct sl_model *m, struct sl_report *r);
	/* the analyzer's part of the terminal report and of the JSON object */
	void (*report_text)(struct sl_analyzer *a, struct sl_model *m, struct sl_report *r);
	void (*report_json)(struct sl_analyzer *a, struct sl_model *m, struct cJSON *root);
	void (*destroy)(struct sl_analyzer *a, struct sl_model *m);
};

struct sl_analyzer {
	const struct sl_analyzer_ops *ops;
	void *priv;
	size_t task_off;	/* offset of this analyzer's slot in the task area */
	size_t cpu_off;
	/* m->cpu_priv + cpu_off and m->cpu_priv_size, kept by the model for sl_cpu_priv() */
	char *cpu_base;
	size_t cpu_stride;
	int id;
	bool after_due;		/* sl_model_after_event() asked, not called yet */
	bool idle;		/* sl_model_hooks_idle(): its per-event hooks are not called */
};

/*
 * An analyzer with nothing to do until something happens in the trace
 * (shares: a context marker) says so: while idle, its on_placement,
 * on_latency, on_switch, on_runnable and on_cpu_idle are not called (a
 * call per event each, to return at once).  on_event, on_cpu_unknown,
 * after_event and the rest still are.  From init() on; a change asked
 * while an event is applied takes effect from the next event.
 */
void sl_model_hooks_idle(struct sl_model *m, struct sl_analyzer *a, bool idle);

/* Call a->ops->after_event once the event being applied is (see above). */
void sl_model_after_event(struct sl_model *m, struct sl_analyzer *a);

/*
 * This analyzer's per-task / per-CPU slot.  Inline: analyzers call them
 * for every event, and a call each was measurable on a 5 M-event trace.
 */
static inline void *sl_task_priv(const struct sl_model *m, const struct sl_analyzer *a,
				 const struct sl_task *t)
{
	(void)m;
	return (char *)(t + 1) + a->task_off;
}

static inline void *sl_cpu_priv(const struct sl_model *m, const struct sl_analyzer *a, int cpu)
{
	(void)m;
	return a->cpu_base + (size_t)cpu * a->cpu_stride;	/* loads from a alone */
}

/* analyzers/registry.c; the model gets them from struct sl_config */
extern const struct sl_analyzer_ops *const sl_analyzer_registry[];
extern const int sl_nr_analyzers;

#endif /* SCHEDLINT_ANALYZER_H */
